"""Rewrite a text and keep a map from offsets in the rewritten text back to the original.

Refanging (``hxxp`` -> ``http``) and removing reply-quote prefixes (``> ``) change a
text before it is scanned; the offsets the scanner reports must still point into the
text the user gave. :func:`apply_edits` makes the new text and an :class:`EditMap`.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from typing import Sequence, Tuple, TypeVar

__all__ = ["Edit", "EditMap", "apply_edits", "unquote_replies"]

T = TypeVar("T", str, bytes)
#: (start, end, replacement) in the original text; non-overlapping, sorted by start.
#: The replacement is of the text's type (``Edit[str]``, ``Edit[bytes]``).
Edit = Tuple[int, int, T]


class EditMap:
    """Maps offsets of a rewritten text to offsets of the original.

    >>> text, emap = apply_edits("a[.]b", [(1, 4, ".")])
    >>> text, emap.start(2), emap.end(3)
    ('a.b', 4, 5)
    """

    __slots__ = ("_new_starts", "_new_ends", "_old_starts", "_old_ends")

    def __init__(self) -> None:
        self._new_starts: list[int] = []
        self._new_ends: list[int] = []
        self._old_starts: list[int] = []
        self._old_ends: list[int] = []

    def __bool__(self) -> bool:
        return bool(self._new_starts)

    def _add(self, new_start: int, new_end: int, old_start: int, old_end: int) -> None:
        self._new_starts.append(new_start)
        self._new_ends.append(new_end)
        self._old_starts.append(old_start)
        self._old_ends.append(old_end)

    def _map(self, p: int, is_end: bool) -> int:
        k = bisect_right(self._new_starts, p) - 1
        if k < 0:
            return p
        ns, ne = self._new_starts[k], self._new_ends[k]
        if is_end and p == ns:
            # A span ending where an edit begins excludes it (a deleted "> " prefix
            # after the last character stays outside the span).
            return self._old_starts[k]
        if p >= ne:
            return self._old_ends[k] + (p - ne)
        # Inside a replacement: a span covering part of it covers all of it.
        return self._old_ends[k] if is_end else self._old_starts[k]

    def start(self, p: int) -> int:
        """The original offset of a span starting at ``p`` in the rewritten text."""
        return self._map(p, False)

    def end(self, p: int) -> int:
        """The original offset of a span ending (exclusively) at ``p``."""
        return self._map(p, True)


def apply_edits(text: T, edits: Sequence[Edit[T]]) -> tuple[T, EditMap]:
    """Apply sorted, non-overlapping ``(start, end, replacement)`` edits to ``text``.

    >>> apply_edits(b"> x\\n> y", [(0, 2, b""), (4, 6, b"")])[0]
    b'x\\ny'
    """
    emap = EditMap()
    if not edits:
        return text, emap
    pieces: list[T] = []
    old = 0
    new = 0
    for start, end, repl in edits:
        pieces.append(text[old:start])
        new += start - old
        pieces.append(repl)
        emap._add(new, new + len(repl), start, end)
        new += len(repl)
        old = end
    pieces.append(text[old:])
    return text[:0].join(pieces), emap


# A reply-quote prefix at a line start: "> ", ">> ", "> > ", possibly indented.
_QUOTE = r"^[ \t]*>(?:[ \t]?>)*[ \t]?"
_QUOTE_S = re.compile(_QUOTE, re.MULTILINE)
_QUOTE_B = re.compile(_QUOTE.encode("ascii"), re.MULTILINE)


def unquote_replies(text: T) -> tuple[T, EditMap]:
    """Remove reply-quote prefixes, so a ``<URL:...>`` wrapped over quoted lines is whole.

    >>> unquote_replies("a\\n> <URL:http://x/very-\\n>> long>")[0]
    'a\\n<URL:http://x/very-\\nlong>'
    """
    rx = _QUOTE_S if isinstance(text, str) else _QUOTE_B
    gt = ">" if isinstance(text, str) else b">"
    if gt not in text:
        return text, EditMap()
    empty = text[:0]
    return apply_edits(text, [(m.start(), m.end(), empty) for m in rx.finditer(text)
                              if m.end() > m.start()])
