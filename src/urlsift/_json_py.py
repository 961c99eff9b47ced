"""JSON-escaped runs read, and matches mapped back (twin of ``ext/urlsift/_json_c.pyx``).

The mechanics behind :mod:`urlsift.text.jsonescapes` (which says what a run is and why)
for bytes: :func:`unescape` rewrites every run of a text and lists the escapes it read;
:func:`remap` turns matches found in the rewritten text into matches of the text as it
stands. A run starts at ``:`` and two escaped slashes (``\\/`` or ``\\u002f``/``\\u002F``)
and goes on over the octets the policy table marks ``T_BARE``, octets 0x80-0xFF, ``\\/`` and
``\\uXXXX`` (a surrogate pair as one escape, a lone surrogate ends it); a ``\\"`` right
after it closes it (read as ``"``). ``\\/`` is ``/``; ``\\uXXXX`` is its character when the
table marks it bare, else its UTF-8 octets written ``%HH`` (RFC 1738 §2.2).

Every escape read is a quadruple of the *escapes* array, offsets from the text's start:
``(old, new, width, size)``, where it starts as written and as read, and its length in
each. Every run is a quadruple of the *runs* array: ``(old_start, old_end, new_start,
new_end)``.

>>> from urlsift.text.rules import TABLE
>>> new, runs, escapes = unescape(b'"http:\\\\/\\\\/a\\\\/b\\\\u00e9\\\\"', TABLE)
>>> new, list(runs), list(escapes)
(b'"http://a/b%C3%A9"', [5, 22, 5, 18], [6, 6, 2, 1, 8, 7, 2, 1, 11, 9, 2, 1, 14, 11, 6, 6, 20, 17, 2, 1])
"""
from __future__ import annotations

import re
from array import array
from typing import Any

from ._scan_py import T_BARE

__all__ = ["unescape", "old_offset", "remap"]

_SLASH = rb"(?:\\/|\\u002[fF])"
#: "\uXXXX" that is a character: not a surrogate, or a high and a low one (a pair)
_CHAR = (rb"\\u(?![dD][89a-fA-F])[0-9a-fA-F]{4}"
         rb"|\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}")
#: one escape of a run: "\/", or "\uXXXX" (a pair: a second "\uXXXX" after it)
_ESC = re.compile(rb"\\/|\\u([0-9a-fA-F]{4})(?:\\u([dD][c-fC-F][0-9a-fA-F]{2}))?")
_RUNS: dict[bytes, "re.Pattern[bytes]"] = {}


def _run_pattern(table: bytes) -> "re.Pattern[bytes]":
    """A run (group 1) and the escaped quote that may close it, for this policy table."""
    rx = _RUNS.get(table)
    if rx is None:
        bare = b"".join(re.escape(bytes([c])) for c in range(128) if table[c] & T_BARE)
        rx = _RUNS[table] = re.compile(b":" + _SLASH + _SLASH + rb"(?:[" + bare + rb"\x80-\xff]+|\\/|"
                                       + _CHAR + rb')*(?:\\")?')
    return rx


def _read(m: "re.Match[bytes]", table: bytes) -> bytes:
    """What one escape (a match of ``_ESC``) stands for in a URL."""
    if m.group(1) is None:
        return b"/"
    cp = int(m.group(1), 16)
    if m.group(2) is not None:           # a surrogate pair (a run holds no lone one)
        cp = 0x10000 + ((cp - 0xD800) << 10) + int(m.group(2), 16) - 0xDC00
    if cp < 128 and table[cp] & T_BARE:
        return bytes([cp])
    return b"".join(b"%%%02X" % o for o in chr(cp).encode("utf-8"))


def unescape(text: bytes, table: bytes) -> tuple[bytes, "array[int]", "array[int]"]:
    """``text`` with every JSON-escaped run read, its runs and its escapes (the module
    says how each is laid out). ``table``: the scanner's policy table (``T_BARE``)."""
    if not isinstance(text, bytes):
        raise TypeError(f"unescape() takes bytes, not {type(text).__name__}")
    if len(table) != 256:
        raise ValueError("the policy table must have 256 entries")
    runs, escapes = array("q"), array("q")
    out: list[bytes] = []
    done = 0                # text[:done] is in out
    grown = 0               # what the escapes read so far changed the length by
    for m in _run_pattern(table).finditer(text):
        s, e = m.span()
        out.append(text[done:s])
        new_start = s + grown
        closed = text.endswith(b'\\"', s, e)
        body_end = e - 2 if closed else e
        p = s
        for x in _ESC.finditer(text, s, body_end):
            out.append(text[p:x.start()])
            read = _read(x, table)
            out.append(read)
            escapes.extend((x.start(), x.start() + grown, x.end() - x.start(), len(read)))
            grown += len(read) - (x.end() - x.start())
            p = x.end()
        out.append(text[p:body_end])
        if closed:
            out.append(b'"')
            escapes.extend((body_end, body_end + grown, 2, 1))
            grown -= 1
        runs.extend((s, e, new_start, e + grown))
        done = e
    if not runs:
        return text, runs, escapes
    out.append(text[done:])
    return b"".join(out), runs, escapes


def old_offset(escapes: "array[int]", q: int, is_end: bool) -> int:
    """Where offset ``q`` of the rewritten text falls in the text as written; inside what
    an escape was read as, a start goes to the escape's start and an end to its end."""
    lo, hi = 0, len(escapes) // 4       # the last escape read at or before q
    while lo < hi:
        mid = (lo + hi) // 2
        if escapes[4 * mid + 1] <= q:
            lo = mid + 1
        else:
            hi = mid
    if lo == 0:
        return q
    old, new, width, size = escapes[4 * lo - 4:4 * lo]
    if q == new:
        return old
    if q < new + size:
        return old + width if is_end else old
    return old + width + q - new - size


def _holds_escape(escapes: "array[int]", k: int, start: int, end: int) -> tuple[bool, int]:
    """(whether an escape starts in ``[start, end)`` of the text as written, the index of
    the first escape not before ``start``), looking from escape ``k`` on."""
    count = len(escapes) // 4
    while k < count and escapes[4 * k] < start:
        k += 1
    return k < count and escapes[4 * k] < end, k


def remap(matches: list, escapes: "array[int]", text: bytes, shift: int, last_end: int,
          edit: str) -> list:
    """``matches`` (built on the rewritten text, offsets from its start, in order) as
    matches of ``text``: offsets mapped back and moved by ``shift``, those then starting
    before ``last_end`` left out; one whose span holds an escape gets ``raw`` from
    ``text`` (UTF-8, an undecodable octet as U+FFFD) and ``edit`` after its edits."""
    out = []
    k = 0
    for m in matches:
        s, e = old_offset(escapes, m[1], False), old_offset(escapes, m[2], True)
        if s + shift < last_end:
            continue
        held, k = _holds_escape(escapes, k, s, e)
        if held:
            fields: Any = (m[0], s + shift, e + shift, text[s:e].decode("utf-8", "replace"),
                           m[4], m[5], m[6] + (edit,), m[7])
        else:
            fields = (m[0], s + shift, e + shift) + tuple(m[3:])
        out.append(tuple.__new__(type(m), fields))
    return out
