"""Re-create the quality corpus from ``sources.json``.

    python benchmarks/quality/fetch.py [--mirror DIR] [--out DATA_DIR] [--check]

Each entry names a repository, a commit and a path; ``lines: [first, last]`` keeps only
those lines (1-based, inclusive) of a large file. The file is read from a local bare git
mirror when ``--mirror DIR`` holds ``DIR/<owner>+<name>/repo`` (``git show COMMIT:PATH``),
otherwise downloaded from GitHub at that commit. ``sha256`` in the manifest is checked;
``--update`` writes the hashes of what was fetched into the manifest instead.
Nothing here runs at test time: the tests read only files already in the data directory.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import subprocess
import sys
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Optional

sys.path.insert(0, str(Path(__file__).resolve().parent))
from corpus import MANIFEST, data_dir  # noqa: E402

RAW = "https://raw.githubusercontent.com/{repo}/{commit}/{path}"


def fetch_one(entry: dict, mirror: Optional[Path]) -> bytes:
    """The octets of one manifest entry, cut to its ``lines`` when it has them."""
    git_dir = mirror / entry["repo"].replace("/", "+") / "repo" if mirror else None
    if git_dir is not None and git_dir.is_dir():
        data = subprocess.run(["git", f"--git-dir={git_dir}", "show",
                               f"{entry['commit']}:{entry['path']}"],
                              check=True, capture_output=True).stdout
    else:
        url = RAW.format(repo=entry["repo"], commit=entry["commit"],
                         path=urllib.parse.quote(entry["path"]))
        with urllib.request.urlopen(url, timeout=60) as r:
            data = r.read()
    if "lines" in entry:
        first, last = entry["lines"]
        data = b"".join(data.splitlines(keepends=True)[first - 1:last])
    return data


def main(argv: Optional[list] = None) -> int:
    """Fetch every file of the manifest into ``<out>/corpus``; 1 when a hash differs."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--mirror", type=Path, help="directory of bare git mirrors (<owner>+<name>/repo)")
    ap.add_argument("--out", type=Path, default=None, help="data directory (default: corpus.data_dir())")
    ap.add_argument("--update", action="store_true", help="write sha256/size of what was fetched into the manifest")
    args = ap.parse_args(argv)
    out = (args.out or data_dir()) / "corpus"
    doc = json.loads(MANIFEST.read_text(encoding="utf-8"))
    bad = 0
    for dataset, entries in doc["datasets"].items():
        for e in entries:
            data = fetch_one(e, args.mirror)
            digest = hashlib.sha256(data).hexdigest()
            if args.update:
                e["sha256"], e["size"] = digest, len(data)
            elif e.get("sha256") not in (None, digest):
                print(f"hash differs: {e['name']}", file=sys.stderr)
                bad += 1
            dest = out / e["name"]
            dest.parent.mkdir(parents=True, exist_ok=True)
            dest.write_bytes(data)
    if args.update:
        MANIFEST.write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    total = sum(len(v) for v in doc["datasets"].values())
    print(f"{total} files into {out}" + (f", {bad} with a different hash" if bad else ""))
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
