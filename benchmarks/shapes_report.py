"""One markdown table of the scanner's speed on every shape of text (``shapes.py``), and
optionally the same for another checkout, side by side, with the ratio.

    python benchmarks/shapes_report.py                          # this checkout, size small
    python benchmarks/shapes_report.py --size tiny --rounds 3
    python benchmarks/shapes_report.py --against main           # a git ref: a worktree, built
    python benchmarks/shapes_report.py --against ../other-checkout -o shapes.md

Columns, MB/s (10**6 bytes per second) of the best of ``--rounds`` rounds, timed with
``time.perf_counter`` (no pytest): ``scan`` (``urlsift.scan`` on the compiled core),
``scan py`` (the pure-Python core, ``URLSIFT_PURE=1``, on :func:`shapes.pure_piece`,
the first 1/32 of the shape), ``extract`` (every ``Match``, kept), ``extract_file``
(the shape's file, ``jobs=1``), ``command`` (``python -m urlsift extract FILE >
/dev/null``, interpreter start included) and the peers, in the same run: ``re``
(``findall`` of ``test_bench_extract.PATTERN``) and ``rg -o`` (when on ``PATH``).
``found`` is the number of spans the scan gives, ``planted`` the URLs the generator put
in (each must be among ``extract``'s URLs: a ``missing`` column appears when some are
not). The ``mbox`` row's command reads the file as mail (its default for a file that
starts with ``From ``); the row ``mbox mail`` is ``extract_file(path, mbox=True)``.

Each call is timed on two clocks, and by default (``--clock both``) the tables are
printed for each: wall time (``time.perf_counter``) and CPU time (``time.process_time``
plus the CPU time of the commands run, ``RUSAGE_CHILDREN``). On the shared 2-core
machine the CPU figures are the ones to compare: with another process busy on each
core a round's wall time doubles for as long as it lasts, and best-of-N does not
always escape it (a checkout against itself: wall ratios 0.66-1.91, CPU 0.95-1.11).

Every urlsift figure comes from a worker process (this script with ``--worker``) whose
``PYTHONPATH`` is the checkout's ``src``, so two checkouts are measured by the same
code on the same bytes; the rounds alternate between the checkouts shape by shape.
``--against REF`` (not a directory) makes a temporary ``git worktree`` of ``REF``,
builds its core in place (``setup.py build_ext --inplace``) and removes it at the end.
The ratio is this checkout's MB/s over the other's: under 1 is a slowdown (bold under 0.9).
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable, Optional

try:
    import resource
except ImportError:                      # Windows: the command's CPU time is not counted
    resource = None  # type: ignore[assignment]

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import shapes  # noqa: E402

ROOT = HERE.parent
DATA = HERE / "data"
#: The columns of urlsift, in order: key, heading.
COLUMNS = (("scan", "scan"), ("scan_py", "scan py"), ("extract", "extract"),
           ("extract_file", "extract_file"), ("command", "command"))
PEERS = (("re", "re"), ("rg", "rg -o"))
#: ``wall``: ``time.perf_counter``; ``cpu``: CPU seconds of the process (and of the
#: commands it ran), which other work on a shared machine disturbs less.
CLOCKS = ("wall", "cpu")
PATTERN = rb'[A-Za-z][A-Za-z0-9+.-]*://[^\s<>"{}|\\^`]+'     # test_bench_extract.PATTERN


# ---- the worker: runs inside the checkout measured ---------------------------------

def _cpu() -> float:
    """CPU seconds (user + system) of this process and of its children waited for."""
    kids = resource.getrusage(resource.RUSAGE_CHILDREN) if resource else None
    return time.process_time() + (kids.ru_utime + kids.ru_stime if kids else 0.0)


def _best(fns: dict[str, Callable[[], Any]], rounds: int) -> tuple[dict[str, dict[str, float]], dict[str, Any]]:
    """Best time of each function over ``rounds`` rounds (the functions alternate within
    a round) on each clock, ``{"wall": {...}, "cpu": {...}}``, and each one's last result."""
    best: dict[str, dict[str, float]] = {c: {k: float("inf") for k in fns} for c in CLOCKS}
    last: dict[str, Any] = {}
    for _ in range(rounds):
        for k, fn in fns.items():
            c, t = _cpu(), time.perf_counter()
            last[k] = fn()
            t, c = time.perf_counter() - t, _cpu() - c
            best["wall"][k] = min(best["wall"][k], t)
            best["cpu"][k] = min(best["cpu"][k], c)
    return best, last


def _command(path: Path) -> Callable[[], int]:
    """``python -m urlsift extract [--no-progress] PATH > /dev/null`` as a function."""
    cmd = [sys.executable, "-m", "urlsift", "extract"]
    helptext = subprocess.run(cmd + ["--help"], capture_output=True, text=True).stdout
    cmd += (["--no-progress"] if "--no-progress" in helptext else []) + [str(path)]

    def run() -> int:
        with open(os.devnull, "wb") as null:
            rc = subprocess.run(cmd, stdout=null, stderr=subprocess.PIPE, check=False).returncode
        if rc > 1:
            raise RuntimeError(f"{' '.join(cmd)} exited {rc}")
        return rc

    return run


def worker(path: Path, rounds: int, pure: bool, mail: bool) -> dict[str, Any]:
    """Time urlsift (as imported here) on the shape at ``path``: the pure scan on its
    piece when ``pure``, else the compiled rows (``mail``: also ``extract_file(mbox=True)``)."""
    import urlsift

    shape = shapes.load(path)
    data = shape.data
    out: dict[str, Any] = {"core": getattr(urlsift, "CORE", "?"), "module": urlsift.__file__, "bytes": {}}
    if pure:
        piece = shapes.pure_piece(data)
        best, last = _best({"scan_py": lambda: urlsift.scan(piece)}, rounds)
        out["bytes"]["scan_py"] = len(piece)
    else:
        fns: dict[str, Callable[[], Any]] = {
            "scan": lambda: urlsift.scan(data), "extract": lambda: list(urlsift.extract(data)),
            "extract_file": lambda: list(urlsift.extract_file(path)), "command": _command(path)}
        if mail:
            fns["extract_file_mail"] = lambda: list(urlsift.extract_file(path, mbox=True))
        best, last = _best(fns, rounds)
        out["bytes"] = {k: len(data) for k in fns}
        out["found"] = len(last["scan"]) // 3
        missing = Counter(shape.urls) - Counter(m.url for m in last["extract"])
        out["missing"] = sum(missing.values())
        if mail:
            out["found_mail"] = len(last["extract_file_mail"])
            lost = Counter(shape.decoded or []) - Counter(m.url for m in last["extract_file_mail"])
            out["missing_mail"] = sum(lost.values())
    out["seconds"] = best
    return out


# ---- the driver --------------------------------------------------------------------

def _git(root: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True,
                          check=True).stdout.strip()


def describe(root: Path) -> str:
    """``root (git describe; the last commit that changed the core)``, or ``root``."""
    try:
        core = _git(root, "log", "-1", "--format=%h", "--", "src", "ext", "setup.py", "pyproject.toml")
        return f"{root} ({_git(root, 'describe', '--always', '--dirty')}; core last changed in {core})"
    except (subprocess.CalledProcessError, FileNotFoundError):
        return str(root)


def prepare(spec: str) -> tuple[Path, str, Optional[Callable[[], None]]]:
    """``(root, description, cleanup)`` of the checkout ``spec``: a directory as it is, or
    a git ref of this repository checked out in a temporary worktree with its core built."""
    if Path(spec).is_dir():
        root = Path(spec).resolve()
        return root, describe(root), None
    sha = _git(ROOT, "rev-parse", "--verify", f"{spec}^{{commit}}")
    tmp = Path(tempfile.mkdtemp(prefix="urlsift-against-"))
    wt = tmp / "wt"
    _git(ROOT, "worktree", "add", "--detach", str(wt), sha)

    def cleanup() -> None:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(wt)], check=False)
        shutil.rmtree(tmp, ignore_errors=True)

    print(f"building {spec} ({sha[:10]}) in {wt} ...", file=sys.stderr)
    done = subprocess.run([sys.executable, "setup.py", "build_ext", "--inplace", "-q"], cwd=wt,
                          capture_output=True, text=True, env=dict(os.environ, URLSIFT_REQUIRE_EXTENSIONS="1"))
    if done.returncode:
        cleanup()
        raise SystemExit(f"building {spec} failed (this interpreter needs what its pyproject.toml's "
                         f"[build-system] requires, e.g. setuptools>=77 and Cython>=3):\n{done.stderr[-3000:]}")
    return wt, f"{spec} ({sha[:10]})", cleanup


def run_worker(root: Path, path: Path, rounds: int, pure: bool, mail: bool) -> dict[str, Any]:
    """Run :func:`worker` in a fresh interpreter that imports urlsift from ``root/src``."""
    env = dict(os.environ, PYTHONPATH=str(root / "src"))
    env.pop("URLSIFT_PURE", None)
    if pure:
        env["URLSIFT_PURE"] = "1"
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", str(path), "--rounds", str(rounds)]
    cmd += ["--pure"] if pure else []
    cmd += ["--mail"] if mail else []
    done = subprocess.run(cmd, capture_output=True, text=True, env=env, cwd=str(root))
    if done.returncode:
        raise SystemExit(f"worker failed for {path.name} in {root}:\n{done.stderr[-3000:]}")
    out = json.loads(done.stdout)
    if not Path(out["module"]).resolve().is_relative_to((root / "src").resolve()):
        raise SystemExit(f"the worker for {root} imported urlsift from {out['module']}")
    return out


def peers(path: Path, data: bytes, rounds: int) -> dict[str, dict[str, float]]:
    """Best seconds of the peers on the shape: ``re`` findall, ``rg -o`` (if installed)."""
    findall = re.compile(PATTERN).findall
    fns: dict[str, Callable[[], Any]] = {"re": lambda: findall(data)}
    rg = shutil.which("rg")
    if rg:
        cmd = [rg, "-o", "-a", "--no-filename", "--no-line-number", "--color=never", "-e",
               PATTERN.decode(), str(path)]
        fns["rg"] = lambda: subprocess.run(cmd, stdout=subprocess.DEVNULL, check=False)
    return _best(fns, rounds)[0]


def _rate(nbytes: int, secs: Optional[float]) -> Optional[float]:
    return nbytes / secs / 1e6 if secs else None


def _num(x: Optional[float]) -> str:
    if x is None:
        return "–"
    return f"{x:.0f}" if x >= 100 else f"{x:.1f}" if x >= 10 else f"{x:.2f}"


def rows_of(results: dict[str, dict[str, Any]], clock: str) -> dict[str, dict[str, Optional[float]]]:
    """MB/s per row and column from the workers' results of one checkout, on ``clock``."""
    rows: dict[str, dict[str, Optional[float]]] = {}
    for name, res in results.items():
        c, p = res["compiled"], res["pure"]
        secs = {**c["seconds"][clock], **p["seconds"][clock]}
        nbytes = {**c["bytes"], **p["bytes"]}
        rows[name] = {k: _rate(nbytes[k], secs.get(k)) for k, _ in COLUMNS}
        rows[name].update({k: _rate(c["bytes"]["scan"], res.get("peers", {}).get(clock, {}).get(k))
                          for k, _ in PEERS})
        if "extract_file_mail" in secs:
            rows[f"{name} mail"] = {k: None for k, _ in COLUMNS + PEERS}
            rows[f"{name} mail"]["extract_file"] = _rate(nbytes["extract_file_mail"], secs["extract_file_mail"])
    return rows


def table(results: dict[str, dict[str, Any]], with_peers: bool, clock: str) -> str:
    """The markdown table of one checkout."""
    cols = COLUMNS + (PEERS if with_peers else ())
    any_missing = any(r["compiled"].get("missing") or r["compiled"].get("missing_mail") for r in results.values())
    head = ["shape", "MB", "planted", "found"] + (["missing"] if any_missing else []) + [h for _, h in cols]
    lines = ["| " + " | ".join(head) + " |", "|---|" + "---:|" * (len(head) - 1)]
    rates = rows_of(results, clock)
    for name, row in rates.items():
        base = name.split(" ")[0]
        c = results[base]["compiled"]
        shape = results[base]["shape"]
        mail = name != base
        cells = [name, f"{c['bytes']['scan'] / 1e6:.{1 if c['bytes']['scan'] >= 1e7 else 2}f}",
                 str(len(shape.decoded or []) if mail else len(shape.urls)),
                 str(c["found_mail"] if mail else c["found"])]
        if any_missing:
            cells.append(str(c["missing_mail"] if mail else c["missing"]))
        cells += [_num(row[k]) for k, _ in cols]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def ratios(this: dict[str, dict[str, Any]], other: dict[str, dict[str, Any]], clock: str) -> str:
    """This checkout's MB/s over the other's, per row and column (bold under 0.9)."""
    a, b = rows_of(this, clock), rows_of(other, clock)
    lines = ["| shape | " + " | ".join(h for _, h in COLUMNS) + " |", "|---|" + "---:|" * len(COLUMNS)]
    for name in a:
        cells = []
        for k, _ in COLUMNS:
            x, y = a[name].get(k), b.get(name, {}).get(k)
            r = x / y if x and y else None
            cells.append("–" if r is None else f"**{r:.2f}**" if r < 0.9 else f"{r:.2f}")
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    return "\n".join(lines)


def machine() -> str:
    """CPU model, cores, OS, Python."""
    model = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return f"{model}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python {platform.python_version()}"


def load() -> str:
    """The 1, 5 and 15 minute load averages (other work on a shared machine)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--size", default=os.environ.get("URLSIFT_BENCH_SIZE", "small"), choices=list(shapes.SIZES))
    ap.add_argument("--rounds", type=int, default=5, help="best of this many rounds (default 5)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--shapes", help="comma-separated shape names (default: all)")
    ap.add_argument("--against", metavar="PATH_OR_GIT_REF", help="another checkout, or a git ref of this repository")
    ap.add_argument("--clock", choices=CLOCKS + ("both",), default="both",
                    help="wall: time.perf_counter; cpu: CPU seconds; both (default): the tables for each")
    ap.add_argument("-o", "--output", help="also write the report to this file")
    ap.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    ap.add_argument("--pure", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--mail", action="store_true", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        json.dump(worker(args.worker, args.rounds, args.pure, args.mail), sys.stdout)
        return 0

    names = args.shapes.split(",") if args.shapes else list(shapes.NAMES)
    unknown = set(names) - set(shapes.NAMES)
    if unknown:
        ap.error(f"unknown shapes: {', '.join(sorted(unknown))} (known: {', '.join(shapes.NAMES)})")
    started = datetime.now(timezone.utc)
    host, load_start = machine(), load()
    checkouts = [(ROOT, describe(ROOT), None)]
    if args.against:
        checkouts.append(prepare(args.against))
    results: list[dict[str, dict[str, Any]]] = [{} for _ in checkouts]
    try:
        for i, name in enumerate(names):
            path = shapes.materialize(name, args.size, args.seed, DATA)
            shape = shapes.load(path)
            print(f"{name} ...", file=sys.stderr)
            order = list(range(len(checkouts)))
            if i % 2:
                order.reverse()                    # alternate who goes first
            for j in order:
                root = checkouts[j][0]
                results[j][name] = {
                    "shape": shape,
                    "compiled": run_worker(root, path, args.rounds, False, name == "mbox"),
                    "pure": run_worker(root, path, args.rounds, True, False)}
            results[0][name]["peers"] = peers(path, shape.data, args.rounds)
    finally:
        for _, _, cleanup in checkouts:
            if cleanup:
                cleanup()

    took = (datetime.now(timezone.utc) - started).total_seconds()
    out = [f"Shapes at size `{args.size}` ({shapes.SIZES[args.size] / 1e6:.3g} MB each), MB/s, best of {args.rounds} rounds",
           "", f"- date: {started:%Y-%m-%d %H:%M} UTC, {took:.0f} s",
           f"- machine: {host}", f"- load average (1, 5, 15 min): {load_start} at the start, {load()} at the end",
           f"- command: `python benchmarks/shapes_report.py {' '.join(argv if argv is not None else sys.argv[1:])}`"]
    for clock in (CLOCKS if args.clock == "both" else (args.clock,)):
        what = "wall time (perf_counter)" if clock == "wall" else "CPU time (user + system, commands included)"
        out += ["", f"## MB/s by {what}"]
        for k, (root, desc, _) in enumerate(checkouts):
            res = results[k]
            cores = {r["compiled"]["core"] for r in res.values()}
            warn = "" if cores == {"cython"} else f" — WARNING: the compiled rows ran on the {'/'.join(sorted(cores))} core"
            out += ["", f"### {'this checkout' if k == 0 else 'against'}: {desc}{warn}", "",
                    table(res, k == 0, clock)]
        if len(checkouts) > 1:
            out += ["", f"### ratio: this checkout / {checkouts[1][1]} (MB/s; under 1 is slower, bold under 0.9)",
                    "", ratios(results[0], results[1], clock)]
    text = "\n".join(out) + "\n"
    sys.stdout.write(text)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
