"""What the generators of names from ``urlsift._layout`` share (``gen_mail_records.py``,
``gen_fields.py``): the definition loaded by its path, and their files written or
checked.

>>> load_layout().FIELDS[0]
'scheme_end'
"""
from __future__ import annotations

import importlib.util
import sys
import textwrap
from pathlib import Path
from types import ModuleType
from typing import Callable

ROOT = Path(__file__).resolve().parent.parent


def load_layout() -> ModuleType:
    """``urlsift/_layout.py`` loaded by its path (the package need not be built)."""
    path = ROOT / "src" / "urlsift" / "_layout.py"
    spec = importlib.util.spec_from_file_location("_layout", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def python_module(doc: list[str], consts: list[tuple[str, int, str]]) -> str:
    """A module of constants: the docstring of the lines ``doc``, ``__all__``, then one
    ``NAME = value  # comment`` a line for each ``(NAME, value, comment)`` of ``consts``."""
    lines = ['"""' + doc[0], *doc[1:], '"""', ""]
    lines += textwrap.wrap("__all__ = [" + ", ".join(f'"{n}"' for n, _, _ in consts) + "]",
                           width=88, subsequent_indent="           ")
    lines.append("")
    lines += [f"{n} = {v}  # {comment}" for n, v, comment in consts]
    return "\n".join(lines) + "\n"


def generate(renderers: dict[Path, Callable[[ModuleType], str]], argv: list[str],
             tool: str) -> int:
    """Write each file of ``renderers`` (path -> its text made from ``_layout``); with
    ``--check`` in ``argv`` write nothing and say which are not up to date (exit status
    1). ``tool`` is the script to run, for that message."""
    L = load_layout()
    stale = []
    for target, render in renderers.items():
        text = render(L)
        if "--check" in argv:
            if not target.exists() or target.read_text(encoding="utf-8") != text:
                stale.append(target)
        else:
            target.write_text(text, encoding="utf-8")
    for target in stale:
        print(f"{target} is not up to date: run python tools/{tool}", file=sys.stderr)
    return 1 if stale else 0
