"""Issue 22's figures in one run, on the CPU clock, best of N rounds interleaved (the
machine is shared: a round's wall time doubles while another process is busy).

    python benchmarks/tables_versus.py LOG --rounds 5          # LOG: a generated log (benchmarks/corpus_log.py)
    python benchmarks/tables_versus.py LOG --against ../urlsift-main --commands

Rows: ``extract_table`` with url, start, line and with host and valid, beside
``extract_file`` -> ``Match`` -> pandas and the peers of ``test_bench_table`` (skipped
when not installed); MB/s (10**6 bytes a second) and the ratio of the first row to each.
``--commands``: ``python -m urlsift extract`` with the options of the hot paths (plain,
``-u``, ``-c``, ``-f jsonl``, ``-n -b``, ``-f parquet``, ``-f csv``), this checkout and
``--against`` (a checkout, its ``src`` on ``PYTHONPATH``) round by round, CPU time of the
child (``RUSAGE_CHILDREN``), interpreter start included; the best wall time beside it
(``-f parquet`` writes on a thread of its own: its wall time is below its CPU time when
a core is free).
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
import test_bench_table as peers          # noqa: E402  (the same calls as the suite)

HERE = Path(__file__).resolve().parent.parent
COMMANDS = {"plain": [], "-u": ["-u"], "-c": ["-c"], "-f jsonl": ["-f", "jsonl"],
            "-n -b": ["-n", "-b"], "-f parquet": ["-f", "parquet", "-o", os.devnull],
            "-f csv": ["-f", "csv"], "-f csv -n": ["-f", "csv", "-n"]}


def _calls(path: Path) -> dict[str, Callable[[], object]]:
    import urlsift
    calls: dict[str, Callable[[], object]] = {
        f"extract_table {name}": (lambda cols=cols: urlsift.extract_table(path, cols))
        for name, cols in peers.COLUMNS.items()}

    class Bench:                 # what test_bench_table's functions are given
        def __init__(self, name: str) -> None:
            self.name = name

        def __call__(self, fn: Callable, *args: object, **_: object) -> None:
            calls[self.name] = lambda: fn(*args)

    for name, test in (("extract_file -> Match -> pandas", peers.test_extract_file_matches_to_pandas),
                       ("re.finditer -> pandas", peers.test_re_finditer_to_pandas),
                       ("polars str.extract_all", peers.test_polars_extract_all),
                       ("duckdb regexp_extract_all", peers.test_duckdb_regexp_extract_all)):
        try:
            test(Bench(name), argparse.Namespace(), path)
        except BaseException as exc:          # pytest.skip: the peer is not installed
            print(f"# {name}: skipped ({type(exc).__name__})", file=sys.stderr)
    return calls


def _child_cpu(cmd: list[str], env: dict) -> tuple[float, float]:
    """The CPU time of the child running ``cmd``, and its wall time."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    with open(os.devnull, "wb") as null:
        subprocess.run(cmd, stdout=null, stderr=subprocess.DEVNULL, env=env, check=False)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("path", type=Path)
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--against", type=Path, help="another checkout, for --commands")
    ap.add_argument("--commands", action="store_true")
    ap.add_argument("--only", action="append", metavar="ROW",
                    help="with --commands: only this row (plain, -u, -c, ...); repeatable")
    args = ap.parse_args(argv)
    size = args.path.stat().st_size
    best: dict[str, float] = {}
    walls: dict[str, float] = {}          # best wall time: what the overlap of threads buys
    calls = {} if args.commands else _calls(args.path)
    envs = {"this": dict(os.environ, PYTHONPATH=str(HERE / "src"))}
    if args.against is not None:
        envs["against"] = dict(os.environ, PYTHONPATH=str(args.against / "src"))
    for _ in range(args.rounds):
        for name, fn in calls.items():
            t, wall = time.process_time(), time.perf_counter()
            fn()
            best[name] = min(best.get(name, 1e9), time.process_time() - t)
            walls[name] = min(walls.get(name, 1e9), time.perf_counter() - wall)
        if args.commands:
            for name, opts in COMMANDS.items():
                if args.only and name not in args.only:
                    continue
                for which, env in envs.items():
                    cmd = [sys.executable, "-m", "urlsift", "extract", *opts, str(args.path)]
                    key = f"{name} ({which})"
                    cpu, wall = _child_cpu(cmd, env)
                    best[key] = min(best.get(key, 1e9), cpu)
                    walls[key] = min(walls.get(key, 1e9), wall)
    first = next(iter(best.values()))
    first_wall = next(iter(walls.values()))
    print("| row | CPU s | MB/s | ratio | wall s | wall ratio |\n|---|---:|---:|---:|---:|---:|")
    for name, secs in best.items():
        print(f"| {name} | {secs:.3f} | {size / secs / 1e6:.0f} | {secs / first:.2f} "
              f"| {walls[name]:.3f} | {walls[name] / first_wall:.2f} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
