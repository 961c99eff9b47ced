"""The URLs that appear and disappear over the whole quality corpus between a git ref and
the working tree, grouped by what changed.

    python benchmarks/quality/diff.py [REF] [--data DIR] [--examples N] [--keep]

REF (default ``main``) is checked out once into a cached worktree
(``$TMPDIR/urlsift-quality-<commit>``), its Cython core built in place
(``python setup.py build_ext --inplace -q``), and ``dump.py`` runs in a subprocess with
``PYTHONPATH`` at that tree's ``src``; then again at this tree's ``src`` (build it first,
as for the tests). The two sets of (file, line, url) are compared. Changes on one line
whose spans overlap are paired and named (``start moved left: compound scheme kept
whole``, ``end moved: shorter``...); a URL with no partner is ``new`` or ``gone``, named
by what stands before it (nothing, a glued word, punctuation). Each group also shows the
match's ``edits`` and whether the ref's and the tree's URL pass lenient validation
(``valid/lenient-invalid``; all matches are compared, also those ``valid="lenient"`` would
drop). The built ref is kept for the next run; ``--clean`` removes it afterwards.
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402

HERE = Path(__file__).resolve().parent
DUMP = HERE / "dump.py"
Match = Dict[str, Any]


def git(*args: str, cwd: Path = corpus.ROOT) -> str:
    """A git command's output in the repository."""
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout.strip()


def built_ref(ref: str) -> Path:
    """A worktree of REF with its core built, made once per commit and reused."""
    commit = git("rev-parse", "--verify", ref + "^{commit}")
    tree = Path(tempfile.gettempdir()) / f"urlsift-quality-{commit[:12]}"
    marker = tree / ".quality-built"
    if not marker.exists():
        if tree.exists():
            git("worktree", "remove", "--force", str(tree))
        git("worktree", "add", "--detach", str(tree), commit)
        env = dict(os.environ, URLSIFT_REQUIRE_EXTENSIONS="1")
        r = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-q"], cwd=tree,
                           env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
        if r.returncode:
            tail = "\n".join(r.stderr.splitlines()[-5:])
            raise SystemExit(f"building {ref} in {tree} failed (setuptools>=77 and Cython are "
                             f"needed in this environment, as for pip install -e .):\n{tail}")
        marker.write_text(commit + "\n")
    return tree


def dump(src: Path, data: Path) -> Tuple[dict, List[Match]]:
    """(header, matches) of dump.py run with urlsift imported from ``src``."""
    env = dict(os.environ, PYTHONPATH=str(src))
    out = subprocess.run([sys.executable, str(DUMP), str(data)], env=env, check=True,
                         capture_output=True, text=True).stdout.splitlines()
    header = json.loads(out[0])
    if not header["urlsift"].startswith(str(src)):
        raise SystemExit(f"dump.py imported {header['urlsift']}, not the urlsift of {src}")
    return header, [json.loads(line) for line in out[1:]]


def _before_kind(before: str) -> str:
    if not before or before[-1].isspace():
        return "nothing before"
    if before[-1].isalnum():
        return "glued to a word"
    return f"after {before[-1]!r}"


def _prefix_kind(prefix: str) -> str:
    if prefix.endswith("+"):
        return "compound scheme"
    if prefix.endswith(":"):
        return "scheme:scheme (jar:file:)"
    if prefix[-1:].isalnum() or prefix.endswith((".", "-")):
        return "glued word"
    return f"prefix ending {prefix[-1:]!r}"


def classify(gone: List[Match], new: List[Match]) -> List[Tuple[str, Optional[Match], Optional[Match]]]:
    """(group name, the ref's match, the tree's match) for the changes of one line."""
    out: List[Tuple[str, Optional[Match], Optional[Match]]] = []
    left = list(new)
    for d in gone:
        ds, de = int(d["col"]), int(d["col"]) + len(str(d["raw"]))
        partner = next((a for a in left if int(a["col"]) < de and ds < int(a["col"]) + len(str(a["raw"]))), None)
        if partner is None:
            out.append((f"gone, {_before_kind(str(d['before']))}", d, None))
            continue
        left.remove(partner)
        du, au = str(d["url"]), str(partner["url"])
        if au.endswith(du) and len(au) > len(du):
            name = f"start moved left: {_prefix_kind(au[:-len(du)])} now in the URL"
        elif du.endswith(au) and len(du) > len(au):
            name = f"start moved right (scheme shortened): {_prefix_kind(du[:-len(au)])} cut off"
        elif du.startswith(au):
            name = "end moved: shorter"
        elif au.startswith(du):
            name = "end moved: longer"
        else:
            name = "changed"
        out.append((name, d, partner))
    out += [(f"new, {_before_kind(str(a['before']))}", None, a) for a in left]
    return out


def main(argv: Optional[list] = None) -> int:
    """Print the groups of changed URLs between REF and the working tree."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("ref", nargs="?", default="main", help="git ref or commit (default: main)")
    ap.add_argument("--data", type=Path, default=None, help="data directory (default: corpus.data_dir())")
    ap.add_argument("--examples", type=int, default=3, help="examples per group (default 3)")
    ap.add_argument("--clean", action="store_true", help="remove the ref's worktree afterwards")
    args = ap.parse_args(argv)
    data = args.data or corpus.data_dir()
    if not (data / "corpus").is_dir():
        print(f"no corpus/ in {data} (set URLSIFT_QUALITY_DATA or --data)", file=sys.stderr)
        return 2
    tree = built_ref(args.ref)
    try:
        h_ref, ref = dump(tree / "src", data)
        h_work, work = dump(corpus.ROOT / "src", data)
    finally:
        if args.clean:
            git("worktree", "remove", "--force", str(tree))
    key = lambda m: (m["file"], m["line"], m["url"])  # noqa: E731
    ref_keys, work_keys = {key(m) for m in ref}, {key(m) for m in work}
    gone: Dict[Tuple[str, int], List[Match]] = defaultdict(list)
    new: Dict[Tuple[str, int], List[Match]] = defaultdict(list)
    for m in ref:
        if key(m) not in work_keys:
            gone[(m["file"], m["line"])].append(m)
    for m in work:
        if key(m) not in ref_keys:
            new[(m["file"], m["line"])].append(m)
    groups: Dict[str, List[Tuple[str, int, Optional[Match], Optional[Match]]]] = defaultdict(list)
    for where in sorted(set(gone) | set(new)):
        for name, d, a in classify(gone.get(where, []), new.get(where, [])):
            edits = ",".join(sorted(set((d or {}).get("edits", [])) | set((a or {}).get("edits", []))))
            valid = "/".join(("valid" if m["valid"] else "lenient-invalid") if m else "-" for m in (d, a))
            groups[f"{name} [{edits or 'no edits'}] ({valid})"].append((where[0], where[1], d, a))
    print(f"{args.ref} ({git('rev-parse', '--short', args.ref)}, {h_ref['core']}): {len(ref)} URLs; "
          f"working tree ({h_work['core']}): {len(work)} URLs; "
          f"{sum(len(v) for v in gone.values())} gone, {sum(len(v) for v in new.values())} new")
    texts: Dict[str, List[str]] = {}
    for name, items in sorted(groups.items(), key=lambda kv: -len(kv[1])):
        print(f"\n{len(items):5d}  {name}")
        for file, line, d, a in items[:args.examples]:
            if file not in texts:
                texts[file] = corpus.read_text(data / "corpus" / file).split("\n")
            print(f"       {file}:{line}: {texts[file][line - 1].strip()[:160]}")
            print(f"         {(d or {}).get('url', '-')}  ->  {(a or {}).get('url', '-')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
