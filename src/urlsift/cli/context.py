"""``-A/-B/-C NUM``: lines of text around the line of each URL, as ``rg -o -C`` shows
them — each URL on its own line after ``LINE:`` (its line's number), the lines around
it whole after ``LINE-``, ``--`` between groups that do not touch, as grep and rg write
them. A text input is read once, in blocks cut at line ends; each block is scanned
with the tail of the one before (longer than a URL or a wrapper can be), so a URL over
a block's end is found whole, once. Only the lines shown are held, and the ``-B``
lines before the next URL.

>>> import io, urlsift
>>> out = []
>>> show = Context(before=1, after=1, template=line_template(["url", "line"], null=False,
...                color=False), write=out.append)
>>> text = b"a\\nb\\nsee http://x.example/\\nc\\nd\\ne\\nf\\nhttp://y.example/\\n"
>>> show.input(io.BytesIO(text), "t", lambda data: [
...     (m.url, m.start, m.end, data.count(b"\\n", 0, m.start) + 1) for m in urlsift.extract(data)])
2
>>> print("".join(out), end="")
2-b
3:http://x.example/
4-c
--
7-f
8:http://y.example/
"""
from __future__ import annotations

import argparse
import io
from collections import deque
from typing import IO, Callable, Iterable, Optional

from ..inputs import iter_file_matches
from .filters import url_filter
from .grepstyle import Template, line_template
from .records import scan_options

__all__ = ["BLOCK", "Context", "TAIL", "context_of", "scanner"]

#: What is read at once, and the tail of a block scanned again with the next one
#: (longer than a bare URL, 64 KiB, and a wrapper, 8 KiB, can be: rules.MAX_LENGTH).
BLOCK = 4 << 20
TAIL = 128 << 10

#: ``text -> [(url, start, end, line)]``: the URLs of a block, their offsets and
#: 1-based lines in it.
Scan = Callable[[bytes], Iterable[tuple[str, int, int, int]]]


def context_of(args: argparse.Namespace) -> Optional[tuple[int, int]]:
    """``(before, after)`` from ``-B``, ``-A`` and ``-C`` (``-A``/``-B`` win over ``-C``,
    as in grep), or None when no context is asked for."""
    both = args.context
    before = args.before_context if args.before_context is not None else both
    after = args.after_context if args.after_context is not None else both
    if before is None and after is None:
        return None
    return before or 0, after or 0


def scanner(args: argparse.Namespace) -> Scan:
    """The URLs of a block of text as ``urlsift extract`` finds them with these options
    (schemes, validity, ``--refang``, ``--quoted``, ``--log-escapes``, ``--host``...)."""
    schemes, valid = scan_options(args)
    keep = url_filter(args)

    def scan(data: bytes) -> Iterable[tuple[str, int, int, int]]:
        found = iter_file_matches("-", stream=io.BytesIO(data), schemes=schemes, valid=valid,
                                  refang=args.refang, quoted=args.quoted, line_numbers=True,
                                  log_escapes=args.log_escapes)
        return [(f.url, f.start, f.end, f.line or 1) for f in found
                if keep is None or keep(f.url)]

    return scan


class Context:
    """The lines of ``-A/-B/-C`` over one input after another (the ``--`` separator
    is written between the groups of different inputs too, as grep writes it)."""

    def __init__(self, before: int, after: int, template: Template,
                 write: Callable[[str], object]) -> None:
        self.before, self.after = before, after
        self.write = write
        self.url_line = template
        # a context line: "-" after the fields instead of ":", the line (not colored)
        # where the URL stands
        text = [("lit", "-") if item == ("lit", ":") else item for item in template]
        at = text.index(("field", "url"))
        if at and text[at - 1][1].startswith("\x1b"):
            del text[at + 1], text[at - 1]
        self.text_line = text
        self.printed = False
        self.scanner = scanner

    def input(self, stream: IO[bytes], name: str, scan: Scan) -> int:
        """Write the URLs of ``stream`` (named ``name``) with their context; how many."""
        found = 0
        carry, base, line0 = b"", 0, 1     # text carried over: its offset, its first line
        last_end = 0                       # where the last URL written ends (absolute)
        shown = 0                          # the last line written (0: none of this input)
        left = 0                           # lines of -A still to write
        recent: deque = deque(maxlen=self.before or None)   # (line, offset, text) not shown
        while True:
            data = stream.read(BLOCK)
            text = carry + data if carry else data
            if data and len(text) <= TAIL:
                carry = text
                continue
            cut = len(text) if not data else (text.rfind(b"\n", 0, len(text) - TAIL) + 1
                                              or len(text) - TAIL)
            by_line: dict[int, list[tuple[str, int]]] = {}
            for url, start, end, line in scan(text):
                # found in the tail before: written then (or a piece of one written)
                if start < cut and base + start >= last_end:
                    by_line.setdefault(line, []).append((url, base + start))
                    last_end = base + end
            offset = base
            lines = text[:cut].split(b"\n")
            if lines[-1] == b"" and cut:
                lines.pop()                 # after the last line end: no line
            out: list[str] = []
            for i, raw in enumerate(lines):
                n = line0 + i
                urls = by_line.get(i + 1)
                if urls:
                    gap = recent[0][0] if recent else n
                    if self.printed and (self.before or self.after) and (
                            shown == 0 or gap > shown + 1):
                        out.append("--\n")
                    for r in recent:
                        out.append(self._line(self.text_line, name, *r))
                    recent.clear()
                    for url, at in urls:
                        out.append(self._line(self.url_line, name, n, at, url))
                    found += len(urls)
                    shown, left, self.printed = n, self.after, True
                elif left:
                    out.append(self._line(self.text_line, name, n, offset, _text(raw)))
                    shown, left = n, left - 1
                elif self.before:
                    recent.append((n, offset, _text(raw)))
                offset += len(raw) + 1
            if out:
                self.write("".join(out))
            if not data:
                return found
            carry, base, line0 = text[cut:], base + cut, line0 + text.count(b"\n", 0, cut)

    def _line(self, template: Template, name: str, line: int, offset: int, url: str) -> str:
        values = {"file": name, "line": line, "offset": offset, "url": url}
        return "".join(text if kind == "lit" else str(values[text])
                       for kind, text in template) + "\n"


def _text(raw: bytes) -> str:
    """A line of the input as the text output writes it (its octets as they are)."""
    return raw.rstrip(b"\r").decode("utf-8", "surrogateescape")
