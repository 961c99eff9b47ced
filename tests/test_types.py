"""The type hints hold: mypy finds no error in ``src/urlsift``.

Skipped where mypy is not installed (it is a development tool, not a dependency).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Errors tolerated, as "module: [code] message" (none: every module is annotated).
KNOWN: set[str] = set()

# "src/urlsift/x.py:12: error: message  [code]"
_ERROR = re.compile(r"^(?P<path>[^:]+):\d+: error: (?P<message>.*?)  \[(?P<code>[a-z-]+)\]$")


def _errors(output: str) -> set[str]:
    found = set()
    for line in output.splitlines():
        m = _ERROR.match(line)
        if m:
            found.add(f"{os.path.basename(m['path'])}: [{m['code']}] {m['message']}")
    return found


def test_error_lines_are_understood():
    # If mypy changed its output format, _errors would see nothing and the test
    # below would pass on anything; this keeps it honest.
    line = 'src/urlsift/a.py:41: error: Value of type "int" is not indexable  [index]'
    assert _errors(line) == {'a.py: [index] Value of type "int" is not indexable'}


def test_mypy_finds_no_errors():
    pytest.importorskip("mypy")
    proc = subprocess.run(
        [sys.executable, "-m", "mypy", "src/urlsift", "--ignore-missing-imports",
         "--cache-dir", os.devnull, "--show-error-codes", "--no-pretty",
         "--no-color-output"],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )
    output = proc.stdout + proc.stderr
    errors = _errors(proc.stdout)
    assert not errors - KNOWN, output
    # mypy exits 1 for type errors only; 2 is a crash or a bad command line.
    assert proc.returncode == (1 if errors else 0), output
    assert errors or "Success: no issues found" in proc.stdout, output
