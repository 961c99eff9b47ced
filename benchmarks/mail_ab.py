"""Mail speed, A/B: two checkouts on one spool, interleaved, on the CPU clock and the wall.

For each round, each checkout (its ``src`` first on ``PYTHONPATH``, its extensions built
in place) and each ``--jobs`` count, in a fresh interpreter:
``urlsift.extract_file(SPOOL, mbox=True, jobs=J)`` (every match consumed: the CPU time
of the process, the wall time, and the CPU time of the calling thread, the one that
traces the matches while the workers walk), ``urlsift.extract_table(SPOOL, mbox=True)``
with ``--table`` (CPU and wall), and ``python -m urlsift extract -j J SPOOL > /dev/null``
(the CPU time of the child and the wall). Prints the best and the median of each, and
the URL count (the checkouts must agree on it). On a machine shared with other work the
wall of ``jobs=2`` is only as good as the second core is free: the calling thread's CPU
says what that thread costs whatever the load.

Usage: python benchmarks/mail_ab.py SPOOL NAME=SRC NAME=SRC [--rounds 7] [--jobs 1 2]
[--table]

e.g. ``python benchmarks/mail_ab.py spool.mbox main=../main/src here=src --jobs 1 2`` (a
build of ``main`` beside this checkout: ``git worktree add ../main main`` and ``python
setup.py build_ext --inplace`` there).
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys
import time

_CALL = ("import time, urlsift; assert urlsift.__file__.startswith({src!r}), urlsift.__file__; "
         "w = time.perf_counter(); c = time.process_time(); t = time.thread_time(); "
         "n = sum(1 for _ in urlsift.extract_file({spool!r}, mbox=True, jobs={jobs})); "
         "print(time.process_time() - c, time.perf_counter() - w, time.thread_time() - t, n)")

_TABLE = ("import time, urlsift; assert urlsift.__file__.startswith({src!r}), urlsift.__file__; "
          "w = time.perf_counter(); c = time.process_time(); "
          "n = urlsift.extract_table({spool!r}, mbox=True).num_rows; "
          "print(time.process_time() - c, time.perf_counter() - w, n)")


def _env(src: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = src
    return env


def _child(code: str, src: str) -> list[str]:
    return subprocess.run([sys.executable, "-c", code], env=_env(src), capture_output=True,
                          text=True, check=True).stdout.split()


def api(src: str, spool: str, jobs: int = 1) -> tuple[float, float, float, int]:
    """CPU seconds of ``extract_file(spool, mbox=True, jobs=jobs)``, its wall seconds,
    the CPU seconds of the calling thread, and the URLs it gave."""
    cpu, wall, thread, count = _child(_CALL.format(src=src, spool=spool, jobs=jobs), src)
    return float(cpu), float(wall), float(thread), int(count)


def table(src: str, spool: str) -> tuple[float, float, int]:
    """CPU and wall seconds of ``extract_table(spool, mbox=True)`` (pyarrow), its rows."""
    cpu, wall, count = _child(_TABLE.format(src=src, spool=spool), src)
    return float(cpu), float(wall), int(count)


def command(src: str, spool: str, jobs: int = 1) -> tuple[float, float]:
    """CPU seconds (user + system) and wall seconds of ``python -m urlsift extract -j
    jobs spool``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall = time.perf_counter()
    with open(os.devnull, "wb") as null:
        subprocess.run([sys.executable, "-m", "urlsift", "extract", "-j", str(jobs), spool],
                       env=_env(src), stdout=null, check=True)
    wall = time.perf_counter() - wall
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spool")
    parser.add_argument("trees", nargs="+", metavar="NAME=SRC")
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--jobs", type=int, nargs="+", default=[1])
    parser.add_argument("--table", action="store_true", help="extract_table too (pyarrow)")
    args = parser.parse_args(argv)
    trees = dict(t.split("=", 1) for t in args.trees)
    trees = {name: os.path.abspath(src) for name, src in trees.items()}
    times: dict[tuple[str, str], list[float]] = {}
    counts: dict[str, set[int]] = {}

    def note(name: str, what: str, seconds: float) -> None:
        times.setdefault((name, what), []).append(seconds)

    for _ in range(args.rounds):
        for name, src in trees.items():       # interleaved: drift hits every tree alike
            for jobs in args.jobs:
                cpu, wall, thread, count = api(src, args.spool, jobs)
                counts.setdefault(name, set()).add(count)
                note(name, f"extract_file j{jobs} cpu", cpu)
                note(name, f"extract_file j{jobs} wall", wall)
                if jobs > 1:
                    note(name, f"extract_file j{jobs} tracing thread cpu", thread)
                cpu, wall = command(src, args.spool, jobs)
                note(name, f"command j{jobs} cpu", cpu)
                note(name, f"command j{jobs} wall", wall)
            if args.table:
                cpu, wall, count = table(src, args.spool)
                note(name, "extract_table cpu", cpu)
                note(name, "extract_table wall", wall)
    for (name, what), values in sorted(times.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        values.sort()
        print(f"{what:36} {name:8} best {values[0]:.3f} s  median "
              f"{values[len(values) // 2]:.3f} s  urls {sorted(counts[name])}")


if __name__ == "__main__":
    main()
