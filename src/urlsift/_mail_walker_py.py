"""The mail walker's state and output (twin of ``_mail_walker.pxi``): what every room
of the walk writes to, and the line helpers they read with.

The output (see ``urlsift._mail_py`` for the whole): ``out``, the scan text, segments
one after another; ``segs`` and ``msgs``, records laid out as ``_mail_records`` names
them (``SEG_START``, ``MSG_FLAGS``...); ``names``, the labels the segments point to.
Lines end at LF (RFC 5322 section 2.1, as ``email`` cuts them: a CR before it is
part of the line end).

>>> w = Walker(b"From a\\n\\nhi\\n", 0, [], [], 8, None)
>>> w.segment(0, 8, 11, w.label(b"1 text/plain"), K_TEXT, 0)
>>> bytes(w.out), list(w.segs), bytes(w.names)
(b'hi\\n', [0, 0, 3, 8, 1, 0, 12, 0, -1], b'1 text/plain')
"""
from __future__ import annotations

from array import array
from typing import Any, Callable, Optional

from ._mail_records import CR, LF, K_TEXT

__all__ = ["Fallback", "Walker", "LABEL_CACHE", "line_end", "is_blank", "strip_eol", "past",
           "K_TEXT"]

#: How many of the last labels written are looked up before a label is written again.
LABEL_CACHE = 16


class Fallback(Exception):
    """The message is not one the walk reads exactly as ``email`` does: the caller
    walks it with the standard library (its record gets ``FALLBACK``)."""


class Walker:
    """The spool ``buf`` (at ``base`` in the caller's buffer), what the walk is told
    (header names, charsets, depth, ``unescape``), and the output it builds."""

    def __init__(self, buf: bytes, base: int, headers: list[bytes], charsets: list[bytes],
                 max_depth: int, unescape: Optional[Callable[[str], str]]) -> None:
        self.buf = buf
        self.base = base
        self.headers = headers
        self.lower_headers = [h.lower() for h in headers]
        self.charsets = charsets
        self.max_depth = max_depth
        self.unescape = unescape
        self.out = bytearray()
        self.segs = array("q")
        self.msgs = array("q")
        self.names = bytearray()
        self.recent: list[tuple[bytes, int, int]] = []   # the last labels written

    def label(self, name: bytes) -> tuple[int, int]:
        """Where ``name`` is in ``names``: one of the last :data:`LABEL_CACHE` labels
        written (a bounded look-up: linear on any input), else written now."""
        for label, a, e in reversed(self.recent):
            if label == name:
                return a, e
        a = len(self.names)
        self.names += name
        self.recent = self.recent[-(LABEL_CACHE - 1):] + [(name, a, len(self.names))]
        return a, len(self.names)

    def segment(self, index: int, a: int, e: int, label: tuple[int, int], kind: int,
                part_offset: int, data: Optional[bytes] = None, src: int = -1,
                anchor: int = -1) -> None:
        """Append ``data[a:e]`` (the spool when ``data`` is None) to ``out``, and its
        segment record (fields in ``_mail_records`` order: SEG_MESSAGE...SEG_ANCHOR)."""
        start = len(self.out)
        if data is None:
            self.out += self.buf[a:e]
            where = self.base + a
        else:
            self.out += data[a:e]
            where = self.base + src + a if src >= 0 else -1
        self.segs.extend((index, start, len(self.out), where, kind, label[0], label[1],
                          part_offset, anchor))

    def undo(self, out_len: int, segs_len: int, names_len: int) -> None:
        """Drop what a message that falls back wrote (and the labels it wrote)."""
        del self.out[out_len:]
        del self.segs[segs_len:]
        del self.names[names_len:]
        self.recent = [r for r in self.recent if r[1] < names_len]


def line_end(buf: Any, p: int, stop: int) -> int:
    """The offset after the line at ``p`` (after its LF), or ``stop``."""
    k = buf.find(b"\n", p, stop)
    return stop if k < 0 else k + 1


def is_blank(buf: Any, p: int, e: int) -> bool:
    """The line ``buf[p:e]`` is empty but for its line end."""
    return buf[p:e] in (b"\n", b"\r\n")


def strip_eol(buf: Any, a: int, e: int) -> int:
    """``e`` moved back over the CR and LF octets before it (``rstrip('\\r\\n')``)."""
    while e > a and buf[e - 1] in (LF, CR):
        e -= 1
    return e


def past(data: bytes, p: int, stop_set: bytes, inside: bool) -> int:
    """The offset after the run at ``p`` of octets in (``inside``) or not in ``stop_set``.

    >>> past(b"  ab ", 0, b" ", True), past(b"  ab ", 2, b" ", False)
    (2, 4)
    """
    n = len(data)
    while p < n and ((data[p] in stop_set) == inside):
        p += 1
    return p
