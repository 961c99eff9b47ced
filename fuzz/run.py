"""Run the fuzz targets for a while each: the CI job, and a local run.

Each target runs as its own subprocess (``python fuzz/fuzz_X.py`` with libFuzzer's
arguments), on a COPY of its seed corpus in a temporary directory (the repository is
never written to), ``--jobs`` targets at a time. Crash files go to an artifacts
directory, printed at the start. The environment is passed through untouched, so an
AddressSanitizer build runs the same way (``LD_PRELOAD=$(gcc -print-file-name=libasan.so)
ASAN_OPTIONS=detect_leaks=0 python fuzz/run.py``); the memory limit is generous for it.

Exit status 0 when every target ran its time without a finding; else 1, after printing
each failing target, its exit status, the tail of its output and the crashing inputs
(repr). A finding becomes a test in tests/ (see fuzz/README.md).

Usage: python fuzz/run.py [--seconds N] [--jobs J] [--artifacts DIR] [TARGET...]
"""
from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
TARGETS = sorted(p.stem for p in HERE.glob("fuzz_*.py"))
RSS_LIMIT_MB = 4096      # ASan's shadow memory and quarantine cost a lot
TAIL = 40                # lines of a failing target's output shown


def run_target(name: str, seconds: int, work: Path, artifacts: Path,
               extra: list[str]) -> tuple[str, int, str, list[Path], float]:
    """Fuzz one target; (name, exit status, its output, crash files, seconds taken)."""
    corpus = work / name
    seeds = HERE / "corpus" / name
    if seeds.is_dir():
        shutil.copytree(seeds, corpus)
    else:
        corpus.mkdir(parents=True)
    out_dir = artifacts / name
    out_dir.mkdir(parents=True, exist_ok=True)
    cmd = [sys.executable, str(HERE / f"{name}.py"), str(corpus),
           f"-max_total_time={seconds}", f"-rss_limit_mb={RSS_LIMIT_MB}",
           f"-artifact_prefix={out_dir}{os.sep}", "-print_final_stats=1", *extra]
    start = time.monotonic()
    # the environment as it is: LD_PRELOAD, ASAN_OPTIONS, URLSIFT_* reach the target
    proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                          cwd=str(work), env=os.environ.copy())
    took = time.monotonic() - start
    output = proc.stdout.decode("utf-8", "replace")
    crashes = sorted(p for p in out_dir.iterdir() if p.is_file())
    return name, proc.returncode, output, crashes, took


def stats(output: str) -> str:
    """libFuzzer's final count of executions, when it printed one."""
    for line in output.splitlines():
        if line.startswith("stat::number_of_executed_units:"):
            return line.split(":")[-1].strip() + " executions"
    return "no stats"


def main(argv: "list[str] | None" = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("targets", nargs="*", metavar="TARGET",
                        help=f"targets to run (default: all): {', '.join(TARGETS)}")
    parser.add_argument("--seconds", type=int, default=60, help="time per target (default 60)")
    parser.add_argument("--jobs", type=int, default=1, help="targets run at once (default 1)")
    parser.add_argument("--artifacts", help="where crash files go (default: a new temp dir)")
    parser.add_argument("--libfuzzer", action="append", default=[], metavar="ARG",
                        help="one more libFuzzer argument, e.g. --libfuzzer=-max_len=2048")
    args = parser.parse_args(argv)
    names = [t if t.startswith("fuzz_") else f"fuzz_{t}" for t in args.targets] or TARGETS
    unknown = [n for n in names if n not in TARGETS]
    if unknown:
        parser.error(f"no such target: {', '.join(unknown)} (there are: {', '.join(TARGETS)})")
    if args.seconds < 1 or args.jobs < 1:
        parser.error("--seconds and --jobs must be positive")
    artifacts = Path(args.artifacts or tempfile.mkdtemp(prefix="urlsift-fuzz-artifacts-"))
    artifacts.mkdir(parents=True, exist_ok=True)
    print(f"fuzzing {len(names)} target(s), {args.seconds} s each, {args.jobs} at a time; "
          f"artifacts in {artifacts}", flush=True)

    failed = 0
    with tempfile.TemporaryDirectory(prefix="urlsift-fuzz-") as tmp, \
            ThreadPoolExecutor(max_workers=args.jobs) as pool:
        futures = [pool.submit(run_target, n, args.seconds, Path(tmp), artifacts, args.libfuzzer)
                   for n in names]
        for future in futures:
            name, status, output, crashes, took = future.result()
            if status == 0 and not crashes:
                print(f"ok    {name}: {took:.0f} s, {stats(output)}", flush=True)
                continue
            failed += 1
            print(f"FAIL  {name}: exit status {status} after {took:.0f} s, {stats(output)}")
            print("\n".join("      " + line for line in output.splitlines()[-TAIL:]))
            for crash in crashes:
                shown = repr(crash.read_bytes())
                if len(shown) > 4000:
                    shown = shown[:4000] + f"... ({crash.stat().st_size} octets in all)"
                print(f"      input {crash}: {shown}")
            sys.stdout.flush()
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
