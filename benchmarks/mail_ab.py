"""Mail speed, A/B: two checkouts on one spool, interleaved, on the CPU clock.

For each round and each checkout (its ``src`` first on ``PYTHONPATH``, its extensions
built in place): ``urlsift.extract_file(SPOOL, mbox=True)`` in a fresh interpreter (the
CPU time of the call, every match consumed) and ``python -m urlsift extract SPOOL >
/dev/null`` (the CPU time of the child). Prints the best and the median of each, and
the URL count (the checkouts must agree on it).

Usage: python benchmarks/mail_ab.py SPOOL NAME=SRC NAME=SRC [--rounds 7]

e.g. ``python benchmarks/mail_ab.py spool.mbox main=../main/src here=src`` (a build of
``main`` beside this checkout: ``git worktree add ../main main`` and ``python setup.py
build_ext --inplace`` there).
"""
from __future__ import annotations

import argparse
import os
import resource
import subprocess
import sys

_CALL = ("import time, urlsift; assert urlsift.__file__.startswith({src!r}), urlsift.__file__; "
         "t = time.process_time(); n = sum(1 for _ in urlsift.extract_file({spool!r}, mbox=True)); "
         "print(time.process_time() - t, n)")


def _env(src: str) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = src
    return env


def api(src: str, spool: str) -> tuple[float, int]:
    """CPU seconds of ``extract_file(spool, mbox=True)``, and the URLs it gave."""
    out = subprocess.run([sys.executable, "-c", _CALL.format(src=src, spool=spool)],
                         env=_env(src), capture_output=True, text=True, check=True).stdout
    seconds, count = out.split()
    return float(seconds), int(count)


def command(src: str, spool: str) -> float:
    """CPU seconds (user + system) of ``python -m urlsift extract spool``."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    with open(os.devnull, "wb") as null:
        subprocess.run([sys.executable, "-m", "urlsift", "extract", spool], env=_env(src),
                       stdout=null, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("spool")
    parser.add_argument("trees", nargs="+", metavar="NAME=SRC")
    parser.add_argument("--rounds", type=int, default=7)
    args = parser.parse_args(argv)
    trees = dict(t.split("=", 1) for t in args.trees)
    trees = {name: os.path.abspath(src) for name, src in trees.items()}
    times: dict[tuple[str, str], list[float]] = {}
    counts: dict[str, int] = {}
    for _ in range(args.rounds):
        for name, src in trees.items():       # interleaved: drift hits every tree alike
            seconds, counts[name] = api(src, args.spool)
            times.setdefault((name, "extract_file"), []).append(seconds)
            times.setdefault((name, "command"), []).append(command(src, args.spool))
    for (name, what), values in sorted(times.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        values.sort()
        print(f"{what:13} {name:10} best {values[0]:.3f} s  median "
              f"{values[len(values) // 2]:.3f} s  urls {counts[name]}")


if __name__ == "__main__":
    main()
