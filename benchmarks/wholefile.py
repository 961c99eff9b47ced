"""Whole-file runs: ``extract_file`` over one big file, ``jobs=1`` against ``jobs=N``.

Each run is a fresh interpreter (so its peak RSS is its own) that consumes every match
the way a user's loop would (``sum(1 for _ in extract_file(path, jobs=N))``); the
configurations alternate run by run, so a load spike on a shared machine hits all of
them alike. Reported: median and best wall time, MB/s, URLs, peak RSS, and each
configuration's time as a ratio to the first (the medians' ratio).

    python benchmarks/corpus.py log --mb 1000 -o big.log
    python benchmarks/wholefile.py big.log --runs 8 --jobs 1 2
    python benchmarks/wholefile.py big.log --runs 3 --cli     # also `urlsift extract -j N`
    python benchmarks/wholefile.py big.log --rg               # also `rg -o` with the suites' pattern

The file is read once before timing, so every run finds it in the page cache.
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Optional

#: What a run executes: consume every match; print how many and the seconds it took
#: (interpreter start and import are not counted; for the command they are).
CHILD = ("import sys, time; from urlsift import extract_file; t = time.perf_counter(); "
         "n = sum(1 for _ in extract_file(sys.argv[1], jobs=int(sys.argv[2]))); "
         "print(n, time.perf_counter() - t)")
#: The suites' pattern (test_bench_extract.PATTERN), for `rg -o`.
PATTERN = r'[A-Za-z][A-Za-z0-9+.-]*://[^\s<>"{}|\\^`]+'


def child_rss(argv: list[str], devnull: bool = False) -> tuple[float, int, str]:
    """Wall seconds, peak RSS in KiB (``os.wait4``) and standard output of one child."""
    t = time.perf_counter()
    with open(os.devnull, "wb") as null, tempfile.TemporaryFile() as err:
        proc = subprocess.Popen(argv, stdout=null if devnull else subprocess.PIPE, stderr=err)
        out = proc.stdout.read() if proc.stdout else b""
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = status        # reaped here: keep Popen from waiting again
        wall = time.perf_counter() - t
        if status:
            err.seek(0)
            raise SystemExit(f"{' '.join(argv[:4])}... failed: {err.read().decode(errors='replace')}")
    return wall, usage.ru_maxrss, out.decode()


def main(argv: Optional[list[str]] = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("path", type=Path)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--jobs", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--cli", action="store_true", help="also time `urlsift extract -j N PATH > /dev/null`")
    ap.add_argument("--rg", action="store_true", help="also time `rg -o` with the suites' pattern")
    args = ap.parse_args(argv)
    size = args.path.stat().st_size
    with open(args.path, "rb") as f:                      # into the page cache
        while f.read(1 << 24):
            pass
    configs: dict[str, list[str]] = {
        f"extract_file jobs={j}": [sys.executable, "-c", CHILD, str(args.path), str(j)]
        for j in args.jobs}
    if args.cli:
        for j in args.jobs:
            configs[f"urlsift extract -j {j}"] = [sys.executable, "-m", "urlsift", "extract",
                                                  "-j", str(j), str(args.path)]
    if args.rg and shutil.which("rg"):
        configs["rg -o"] = ["rg", "-o", "-a", "--no-line-number", PATTERN, str(args.path)]
    times: dict[str, list[float]] = {name: [] for name in configs}
    rss: dict[str, int] = {}
    found: dict[str, str] = {}
    for _ in range(args.runs):
        for name, cmd in configs.items():
            quiet = not name.startswith("extract_file")
            wall, peak, out = child_rss(cmd, devnull=quiet)
            if not quiet:                         # the child's own figure: no start-up
                found[name], seconds = out.split()
                wall = float(seconds)
            times[name].append(wall)
            rss[name] = max(rss.get(name, 0), peak)
    first = statistics.median(next(iter(times.values())))
    print(f"{args.path}: {size / 1e6:.0f} MB, {args.runs} alternating runs")
    print(f"{'what':<26} {'median s':>9} {'best s':>8} {'MB/s':>7} {'peak RSS':>9} {'×first':>7}  URLs")
    for name, ts in times.items():
        med = statistics.median(ts)
        print(f"{name:<26} {med:9.3f} {min(ts):8.3f} {size / med / 1e6:7.0f} "
              f"{rss[name] / 1024:7.0f}MB {first / med:7.2f}  {found.get(name, '')}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
