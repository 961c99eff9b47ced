"""Where the quality corpus lives and how to read it (shared by fetch.py, score.py, diff.py).

The corpus is text taken from public repositories (``sources.json`` says which file of
which repository at which commit). The texts are *data from elsewhere*, so they are not
committed to this repository: they live in a data directory, by default
``../shared/quality`` beside the repository (as ``../shared/spec`` does for the
specification texts), or wherever ``URLSIFT_QUALITY_DATA`` points, as
``corpus/<dataset>/<file>`` (what fetch.py writes). What was judged here is committed,
beside this file::

    truth/<dataset>.jsonl       hand-judged lines: {"file", "line", "urls", "note"?}
    cases.jsonl                 other projects' URL-finding test cases (tests/test_quality_corpus.py)
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Dict, Iterator, List, Tuple

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
MANIFEST = HERE / "sources.json"
#: the judged lines and the peer cases: ours, so in the repository (the texts are not)
TRUTH = HERE / "truth"
CASES = HERE / "cases.jsonl"


def data_dir() -> Path:
    """The data directory: ``$URLSIFT_QUALITY_DATA``, else ``<repo>/../shared/quality``."""
    env = os.environ.get("URLSIFT_QUALITY_DATA")
    return Path(env) if env else ROOT.parent / "shared" / "quality"


def manifest() -> Dict[str, List[dict]]:
    """Data set name -> its files' entries in ``sources.json``."""
    with open(MANIFEST, encoding="utf-8") as f:
        return json.load(f)["datasets"]


def corpus_files(data: Path) -> Iterator[Tuple[str, str, Path]]:
    """(dataset, name, path) of every corpus file named in the manifest that is present."""
    for dataset, entries in manifest().items():
        for e in entries:
            p = data / "corpus" / e["name"]
            if p.exists():
                yield dataset, e["name"], p


def read_text(path: Path) -> str:
    """A corpus file as text: UTF-8, an undecodable octet as U+FFFD (as a reader sees it)."""
    return path.read_bytes().decode("utf-8", errors="replace")


def line_starts(text: str) -> List[int]:
    """Offsets where each line starts (line 1 at index 0), lines split at ``\\n`` only."""
    starts = [0]
    i = text.find("\n")
    while i != -1:
        starts.append(i + 1)
        i = text.find("\n", i + 1)
    return starts


def truth() -> Dict[str, List[dict]]:
    """Data set -> its judged lines (``truth/<dataset>.jsonl`` beside this file)."""
    out: Dict[str, List[dict]] = {}
    for p in sorted(TRUTH.glob("*.jsonl")):
        with open(p, encoding="utf-8") as f:
            out[p.stem] = [json.loads(line) for line in f if line.strip()]
    return out
