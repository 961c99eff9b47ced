"""URL lines counted and sifted by their octets (twin of ``ext/urlsift/_lines_c.pyx``).

The command writes the URLs of a text input as lines the core makes (``urlsift extract
FILE``: no object per URL). ``--unique`` and ``--host`` work on those lines: each
distinct line is remembered once with its count and a verdict, so a filter's question is
asked once per distinct URL and no Python object is made per line in the compiled twin
(this one splits, as a reference). A *blob* is URL lines, each ended by a newline.

>>> t = LineTable()
>>> t.first_seen(b"http://a/\\nhttp://b/\\nhttp://a/\\n"), t.first_seen(b"http://b/\\nhttp://c/\\n")
(b'http://a/\\nhttp://b/\\n', b'http://c/\\n')
>>> t.counts()
[(b'http://a/', 2), (b'http://b/', 2), (b'http://c/', 1)]
>>> LineTable().sift(b"http://a/\\nhttp://b/\\nhttp://a/\\n", lambda line: line.endswith(b"a/"))
b'http://a/\\nhttp://a/\\n'
"""
from __future__ import annotations

from typing import Callable

__all__ = ["LineTable"]

#: a line's verdict: none yet, kept, left out
UNDECIDED, KEPT, LEFT = 0, 1, 2


def _lines(blob: bytes) -> list[bytes]:
    """The lines of ``blob`` without their newlines (what follows the last one: none)."""
    if not isinstance(blob, bytes):
        raise TypeError(f"a blob of lines is bytes, not {type(blob).__name__}")
    lines = blob.split(b"\n")
    lines.pop()
    return lines


class LineTable:
    """The distinct lines met, in the order first met, each with a count and a verdict."""

    def __init__(self) -> None:
        self._seen: dict[bytes, list[int]] = {}     # line -> [count, verdict]

    def __len__(self) -> int:
        return len(self._seen)

    def _entry(self, line: bytes) -> list[int]:
        entry = self._seen.get(line)
        if entry is None:
            entry = self._seen[line] = [0, UNDECIDED]
        return entry

    def count(self, blob: bytes) -> None:
        """Count every line of ``blob``."""
        for line in _lines(blob):
            self._entry(line)[0] += 1

    def first_seen(self, blob: bytes) -> bytes:
        """The lines of ``blob`` not met before, each once, in order, with their
        newlines; every line is counted."""
        out = []
        for line in _lines(blob):
            entry = self._entry(line)
            if entry[0] == 0:
                out.append(line + b"\n")
            entry[0] += 1
        return b"".join(out)

    def sift(self, blob: bytes, keep: Callable[[bytes], bool]) -> bytes:
        """The lines of ``blob`` to keep, in order, each with its newline: ``keep`` is
        asked once per distinct line, the first time it is met (its answer is kept);
        every line is counted."""
        out = []
        for line in _lines(blob):
            entry = self._entry(line)
            if entry[1] == UNDECIDED:
                entry[1] = KEPT if keep(line) else LEFT
            entry[0] += 1
            if entry[1] == KEPT:
                out.append(line + b"\n")
        return b"".join(out)

    def counts(self) -> list[tuple[bytes, int]]:
        """Every distinct line with its count, in the order first met."""
        return [(line, e[0]) for line, e in self._seen.items()]
