"""The text output as ``grep`` and ``rg`` users read it: which position fields stand
before a URL (``-H`` file, ``-n`` line, ``-b`` byte offset), what follows a file name
(``:``, or NUL with ``-0``), colors (``--color``), and the ``-c``/``-l`` summaries.

One template serves the lines made in Python (:class:`~urlsift.cli.output.TextWriter`)
and the lines made in the core (:func:`core_layout`), so the two cannot differ.

>>> [text for _, text in line_template(["url", "file", "line"], null=False, color=False)]
['file', ':', 'line', ':', 'url']
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import IO, Optional, Sequence

from ..text.files import F_LINE, F_OFFSET, F_URL

__all__ = ["POSITION_FIELDS", "core_layout", "summary_line", "line_template", "use_color"]

#: The position fields, in the order they stand before the URL (as ``grep -H -n -b``).
POSITION_FIELDS = ("file", "line", "offset")
#: SGR colors, rg's defaults: path magenta, line numbers green, the match bold red.
COLORS = {"file": "35", "line": "32", "offset": "32", "message_id": "33", "url": "1;31"}
_RESET = "\x1b[0m"

#: ``(kind, text)``: kind ``"lit"`` is text as it is, ``"field"`` names a record field.
Template = list[tuple[str, str]]


def use_color(args: argparse.Namespace, out: Optional[IO[str]] = None) -> bool:
    """``--color``: always, never, or auto — on a terminal, unless ``NO_COLOR`` is set
    (https://no-color.org) — and only for the text format written to standard output."""
    mode = getattr(args, "color", "never")
    if mode == "always":
        return True
    if mode == "never" or getattr(args, "output", None) or getattr(args, "format", "text") != "text":
        return False
    if os.environ.get("NO_COLOR"):
        return False
    stream = out or sys.stdout
    return bool(getattr(stream, "isatty", lambda: False)())


def line_template(columns: Sequence[str], *, null: bool, color: bool) -> Template:
    """The text line of a record with ``columns``: the position fields present, each
    followed by ``:`` (by NUL after the file name with ``-0``), then the URL (the line
    end is the writer's). A mail record with ``--with-position`` reads
    ``FILE:OFFSET:MESSAGE-ID:URL``."""
    fields = [c for c in POSITION_FIELDS if c in columns]
    if "message_id" in columns and "file" in columns:
        fields = ["file", "offset", "message_id"]
    out: Template = []
    for name in fields:
        out += _painted(name, color)
        out.append(("lit", "\0" if name == "file" and null else ":"))
    return out + _painted("url", color)


def _painted(name: str, color: bool) -> Template:
    if not color:
        return [("field", name)]
    return [("lit", f"\x1b[{COLORS[name]}m"), ("field", name), ("lit", _RESET)]


def core_layout(template: Template, file_name: str) -> tuple:
    """``template`` and a line end as a layout of :func:`urlsift.text.files.position_lines`:
    the file name a literal (its octets as they are), line, offset and URL the core's
    fields."""
    codes = {"url": F_URL, "line": F_LINE, "offset": F_OFFSET}
    name = file_name.encode("utf-8", "surrogateescape")
    out: list = []
    for kind, text in [*template, ("lit", "\n")]:
        item = (text.encode("ascii") if kind == "lit" else name if text == "file"
                else codes[text])
        if out and isinstance(item, bytes) and isinstance(out[-1], bytes):
            out[-1] += item                      # fewer, longer literals
        else:
            out.append(item)
    return tuple(out)


def summary_line(name: Optional[str], count: Optional[int], *, null: bool,
                 color: bool) -> str:
    """A line of ``-c`` (``FILE:N``, or ``N`` alone when ``name`` is None) or of ``-l``
    (``FILE``, ``count`` None): with ``-0`` a NUL follows the name instead of ``:`` or
    the newline."""
    if name is None:
        return f"{count}\n"
    shown = f"\x1b[{COLORS['file']}m{name}{_RESET}" if color else name
    if count is None:
        return shown + ("\0" if null else "\n")
    return f"{shown}{chr(0) if null else ':'}{count}\n"
