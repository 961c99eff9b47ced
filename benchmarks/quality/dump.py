"""Every URL urlsift finds in the corpus, as JSON lines (run by diff.py in a subprocess).

    PYTHONPATH=<tree>/src python benchmarks/quality/dump.py DATA_DIR > matches.jsonl

The first line says which urlsift ran (``{"urlsift": path, "core": kind}``); then one
object per match: file, line, col (characters into the line), url, raw, edits, before
(up to 16 characters before the match on its line), valid (``urlsift.is_valid(url,
strict=False)``). Every match is dumped, also those lenient validation drops: the
extraction rules are what is compared. Only public API is used, so any version of the
package can be dumped.
"""
from __future__ import annotations

import bisect
import json
import sys
from pathlib import Path

sys.path.insert(1, str(Path(__file__).resolve().parent))  # after PYTHONPATH's urlsift
import corpus  # noqa: E402


def main() -> int:
    """Write the dump of the data directory given as the one argument."""
    import urlsift
    data = Path(sys.argv[1])
    try:
        from urlsift import _select
        core = getattr(_select.cores.core, "__name__", "?")
    except Exception:  # an older or newer layout: the path says enough
        core = "?"
    out = sys.stdout
    out.write(json.dumps({"urlsift": urlsift.__file__, "core": core}) + "\n")
    for _, name, path in corpus.corpus_files(data):
        text = corpus.read_text(path)
        starts = corpus.line_starts(text)
        for m in urlsift.extract(text):
            line = bisect.bisect_right(starts, m.start)
            col = m.start - starts[line - 1]
            out.write(json.dumps({"file": name, "line": line, "col": col, "url": m.url,
                                  "raw": m.raw, "edits": list(m.edits),
                                  "before": text[max(starts[line - 1], m.start - 16):m.start],
                                  "valid": urlsift.is_valid(m.url, strict=False)},
                                 ensure_ascii=False) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
