"""The public API is typed precisely: mypy --strict on a user program
(``tests/typing/api_use.py``) reveals the expected type on each ``# R:`` line, and no
revealed type is ``Any`` (the ``property(lambda ...)`` and cached-property patterns used
to erase them). Skipped where mypy is not installed (a development tool).
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = ROOT / "tests" / "typing" / "api_use.py"

pytestmark = pytest.mark.twins      # a static check: once, not per core


def _mypy(program: Path) -> subprocess.CompletedProcess:
    """``mypy --strict`` on one user program (skipped where mypy is not installed)."""
    pytest.importorskip("mypy")
    return subprocess.run([sys.executable, "-m", "mypy", "--strict", "--no-incremental",
                           "--cache-dir", "/dev/null", str(program)],
                          capture_output=True, text=True, cwd=ROOT, timeout=600)


def _expected() -> dict[int, str]:
    out = {}
    for number, line in enumerate(PROGRAM.read_text().splitlines(), 1):
        m = re.search(r"reveal_type\(.*\)  # R: (.*)$", line)
        if m:
            out[number] = m.group(1)
    return out


def test_revealed_types_are_precise():
    done = _mypy(PROGRAM)
    assert done.returncode == 0, done.stdout + done.stderr
    revealed = {int(m[1]): m[2] for m in
                re.finditer(r'^.*api_use\.py:(\d+): note: Revealed type is "(.*)"$', done.stdout, re.M)}
    expected = _expected()
    assert len(expected) >= 25 and revealed.keys() == expected.keys()
    for line, want in expected.items():
        assert revealed[line] == want, f"line {line}: {revealed[line]} (expected {want})"
        assert "Any" not in revealed[line], f"line {line}: {revealed[line]}"


MISUSE = ROOT / "tests" / "typing" / "api_misuse.py"


def test_misuse_is_caught():
    # issue 24: what must NOT type-check (an attribute the base URL has not, a closed
    # choice outside its Literal) is an error of the expected code on exactly its line
    done = _mypy(MISUSE)
    assert done.returncode == 1, done.stdout + done.stderr
    found = {(int(m[1]), m[2]) for m in
             re.finditer(r"^.*api_misuse\.py:(\d+): error: .*\[([a-z-]+)\]$", done.stdout, re.M)}
    expected = {(number, m.group(1)) for number, line in
                enumerate(MISUSE.read_text().splitlines(), 1)
                if (m := re.search(r"  # E: ([a-z-]+)$", line))}
    assert len(expected) >= 9 and found == expected, done.stdout


def test_help_shows_types_not_strings():
    # issue 13: PEP 563 left every annotation a string ("s: 'str'", "-> 'URL'" in help());
    # urlsift._hints evaluates them at import
    import inspect
    import pydoc
    import sys

    import urlsift
    from urlsift._hints import _functions_of

    sig = inspect.signature(urlsift.parse)
    assert sig.parameters["s"].annotation is str and sig.return_annotation is urlsift.URL
    assert inspect.signature(urlsift.Match.parse).return_annotation is urlsift.URL
    assert inspect.signature(urlsift.HttpURL.build).parameters["strict"].annotation is bool
    page = pydoc.render_doc(urlsift.parse, renderer=pydoc.plaintext)
    assert "s: str" in page and "'str'" not in page
    left = {f.__qualname__ for name in urlsift.__all__ for f in _functions_of(getattr(urlsift, name))
            if any(isinstance(v, str) for v in f.__annotations__.values())}
    # what cannot be evaluated at import (urlsift._hints): MailMatch is for type checkers
    # only (the mail layer is not loaded); array[int] needs Python 3.12
    assert left <= {"extract_file", "scan"}
    if sys.version_info >= (3, 12):
        assert "scan" not in left
