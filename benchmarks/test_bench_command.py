"""Issue 13: the ``urlsift extract`` options people use, on the access log, beside
``grep -o`` and ``rg -o`` with and without positions (``-n -b``), in the same run.

Each round is one process (``python -m urlsift ...``, output to /dev/null), as a user
runs it; the interpreter's start (about 50 ms) is part of every urlsift row. The peers
use the reasonable URL pattern of ``test_bench_extract``. ``report.py --versus`` gives
the ratio of each row to plain ``extract``.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from test_bench_extract import PATTERN
from test_bench_mail import ERE

#: ``extract`` options, by row name (the acceptance rows of issue 13 first).
OPTIONS = {
    "plain": [],
    "with-position": ["--with-position"],
    "jsonl": ["-f", "jsonl"],
    "jsonl-with-position": ["-f", "jsonl", "--with-position"],
    "jsonl-parts": ["-f", "jsonl", "--parts"],
    "jsonl-details": ["-f", "jsonl", "--details"],
    "csv-with-position": ["-f", "csv", "--with-position"],
    "unique": ["--unique"],
    "with-position-j2": ["--with-position", "-j", "2"],
    "jsonl-with-position-j2": ["-f", "jsonl", "--with-position", "-j", "2"],
}


def _lines(cmd: list[str], env: dict, count: bool = False) -> int:
    """Run ``cmd``; its output lines when ``count``, else its output goes to /dev/null."""
    with open(os.devnull, "wb") as null:
        done = subprocess.run(cmd, stdout=subprocess.PIPE if count else null,
                              stderr=subprocess.PIPE, env=env, check=False)
    if done.returncode > 1:                  # 1 is "nothing found"; 2 is an error
        raise RuntimeError(f"{cmd[0]} failed: {done.stderr.decode(errors='replace').strip()}")
    return done.stdout.count(b"\n") if done.stdout else 0


@pytest.mark.parametrize("name", list(OPTIONS))
def test_command_urlsift(bench, benchmark, log_path: Path, name: str):
    """``urlsift extract OPTIONS access.log > /dev/null``."""
    benchmark.group = "command-options"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    cmd = [sys.executable, "-m", "urlsift", "extract", "--no-progress", *OPTIONS[name],
           str(log_path)]
    bench(lambda: _lines(cmd, env), heavy=True, bytes=log_path.stat().st_size, corpus="log")


@pytest.mark.parametrize("tool, flags", [("grep", ["-o", "-a", "-E"]),
                                         ("grep", ["-n", "-b", "-o", "-a", "-E"]),
                                         ("rg", ["-o", "-a", "--no-filename", "--no-line-number"]),
                                         ("rg", ["-n", "-b", "-o", "-a", "--no-filename"])],
                         ids=["grep-o", "grep-nbo", "rg-o", "rg-nbo"])
def test_command_peer(bench, benchmark, log_path: Path, tool: str, flags: list[str]):
    """The peers a user would run instead (their output lines are counted)."""
    exe = shutil.which(tool)
    if exe is None:
        pytest.skip(f"{tool} is not installed")
    benchmark.group = "command-options"
    pattern = ERE if tool == "grep" else PATTERN.decode()     # grep: the same as POSIX ERE
    cmd = [exe, *flags, "--color=never", "-e", pattern, str(log_path)]
    env = dict(os.environ, LC_ALL="C")
    found = bench(lambda: _lines(cmd, env, count=True), heavy=True,
                  bytes=log_path.stat().st_size, corpus="log")
    benchmark.extra_info["items"] = found
