"""Pure-Python twin of ``ext/urlsift/_build_c.pyx``: the scanner's triples made into
objects — ``Match`` tuples (``build``), or the command's lines of URLs (``join_urls``).

A triple ``(start, end, flags)`` (see :mod:`urlsift._scan_py`) says where a URL's raw
span lies and what to strip from it: ``<`` ``>`` and a ``URL:`` prefix of a wrapper,
white space inside a wrapper (RFC 1738 appendix: "spaces, linebreaks, tabs"), and
trimmed punctuation after a bare URL. Every span is checked against the buffer before it
is read, and each span's octets are read once: what a concurrent writer changes in a
mapped file can change a URL, never the memory around it.

Two flags of a bare span change what is copied (:func:`triple_strings`): JOINED, every
``=`` + line break (a quoted-printable soft line break, RFC 2045 §6.7 rule 5) is left
out of the URL; ENCODED (octets only), each octet that starts no UTF-8 sequence is
written ``%HH`` in the URL (RFC 1738 §2.2) and as its ISO-8859-1 character in ``raw``
(the codec error handlers ``urlsift.percent`` and ``urlsift.latin1``; the compiled
twin does the same in C: ``encode_octets``, ``latin1_text``).

>>> hay = b"at http://caf\\xe9.example/x ok"
>>> triple_strings(hay, len(hay), 3, 24, ENCODED, bytes(256))
('http://caf%E9.example/x', 'http://café.example/x')
"""
from __future__ import annotations

import codecs
import re
from array import array
from typing import Any

from ._scan_py import (ANGLE, EDITS_NON_ASCII, ENCODED, HIGH_SHIFT, HYPHEN_BREAK, JOINED,
                       N_EDITS, PREFIX, SOFT_BREAK, T_SPACE, TRIM_SHIFT, WHITESPACE, WRAPPED,
                       _view, trim_count)

__all__ = ["build", "edits_index", "join_urls", "triple_strings", "url_span", "unbreak", "LATIN1", "PERCENT"]


def _latin1(err: UnicodeError) -> tuple[str, int]:
    """An octet that starts no UTF-8 sequence read as its ISO-8859-1 character."""
    assert isinstance(err, UnicodeDecodeError)
    return chr(err.object[err.start]), err.start + 1


def _percent(err: UnicodeError) -> tuple[str, int]:
    """An octet that starts no UTF-8 sequence written ``%HH`` (RFC 1738 §2.2)."""
    assert isinstance(err, UnicodeDecodeError)
    return "%%%02X" % err.object[err.start], err.start + 1


#: The names of the two error handlers of ENCODED spans: ``raw`` and ``url``. Each
#: replaces one octet and goes on at the next, so a sequence is read exactly where
#: the scanner read one (``_scan_py.utf8_at``: RFC 3629, as Python's decoder).
LATIN1, PERCENT = "urlsift.latin1", "urlsift.percent"
codecs.register_error(LATIN1, _latin1)
codecs.register_error(PERCENT, _percent)

_SOFT_BREAK = re.compile("=\r?\n")


def unbreak(url: str) -> str:
    """``url`` without its quoted-printable soft line breaks (``=`` and LF or CR LF,
    RFC 2045 §6.7 rule 5), read from left to right.

    >>> unbreak("http://a.example/lo=\\nng/pa=\\r\\nth")
    'http://a.example/long/path'
    """
    return _SOFT_BREAK.sub("", url)


def url_span(s: int, e: int, f: int) -> tuple[int, int]:
    """Where the cleaned URL of the triple ``(s, e, f)`` lies within its raw span.

    >>> url_span(10, 30, WRAPPED | PREFIX)      # <URL:...>
    (15, 29)
    >>> url_span(3, 22, 1 << TRIM_SHIFT)         # a bare URL, one character trimmed
    (3, 21)
    >>> url_span(0, 12, ANGLE)                   # news:<a@b.c>: the ">" left out (and the "<")
    (0, 11)
    """
    low = f & 0xFF
    if low & ANGLE:
        return s, e - 1
    if low & WRAPPED:
        return s + (5 if low & PREFIX else 1), e - 1
    return s + (4 if low & PREFIX else 0), e - trim_count(f)


def _check_span(s: int, e: int, f: int, n: int) -> tuple[int, int]:
    u0, u1 = url_span(s, e, f)
    if not (0 <= s <= u0 <= u1 <= e <= n):
        raise ValueError(f"span ({s}, {e}) with flags {f} does not fit the input")
    return u0, u1


def _text(hay: Any, s: int, e: int) -> str:
    """``hay[s:e]`` as text, read once: octets are UTF-8 (the scanner reports ASCII and
    whole UTF-8 letters only, so anything else means the input changed under the scan)."""
    if isinstance(hay, str):
        return hay[s:e]
    octets = bytes(hay[s:e])
    if octets.isascii():
        return octets.decode("ascii")
    try:
        return octets.decode("utf-8")
    except UnicodeDecodeError:
        raise OSError(f"the input changed while it was read (no UTF-8 in {s}..{e})") from None


def edits_index(url: str, f: int) -> int:
    """Where the edits of a match with flags ``f`` and this ``url`` stand in the edits
    table (``N_EDITS`` entries): by the low byte and the three flags from HIGH_SHIFT
    on, trimmed or not (beyond the ``=`` of a SOFT_BREAK), non-ASCII or not.

    >>> edits_index("http://a/x", SOFT_BREAK | (1 << TRIM_SHIFT)), edits_index("http://a/é", 0)
    (1024, 4096)
    """
    return ((((f >> HIGH_SHIFT) & 7) << 8 | (f & 255)) * 2
            + (trim_count(f) > (1 if f & SOFT_BREAK else 0))
            + (0 if url.isascii() else EDITS_NON_ASCII))


def triple_strings(hay: Any, n: int, s: int, e: int, f: int, table: bytes) -> tuple[str, str]:
    """The URL and the raw span of the triple ``(s, e, f)`` over ``hay`` (a str, or the
    octets of a buffer, ``n`` long): the span checked, read once.

    >>> triple_strings(b"at http://a.example/x. ok", 25, 3, 22, 1 << TRIM_SHIFT, bytes(256))
    ('http://a.example/x', 'http://a.example/x.')
    """
    u0, u1 = _check_span(s, e, f, n)
    low = f & 0xFF
    bare = not low & (WRAPPED | ANGLE)
    if bare and f & ENCODED and not isinstance(hay, str):
        octets = bytes(hay[s:e])                 # read once; both strings made from it
        raw = octets.decode("utf-8", LATIN1)
        url = octets[u0 - s:u1 - s].decode("utf-8", PERCENT)
    else:
        raw = _text(hay, s, e)
        # what is cut at either end is ASCII ("URL:", trimmed punctuation), so the same
        # count of characters as of octets: a UTF-8 letter inside counts once in raw
        url = raw[u0 - s:len(raw) - (e - u1)]
    if not bare and not raw.isascii():
        raise OSError(f"the input changed while it was read (a non-ASCII character in {s}..{e})")
    if low & WRAPPED and low & WHITESPACE:
        quotes = trim_count(f) > 0     # reply-quote prefixes inside: their ">" go too
        url = "".join(ch for ch in url if not (table[ord(ch)] & T_SPACE or quotes and ch == ">"))
    elif low & ANGLE:
        url = url.replace("<", "")
    elif bare and f & JOINED:
        url = unbreak(url)
    return url, raw


def _range(arr: Any, first: int, last: int, name: str) -> tuple[int, int]:
    if not isinstance(arr, array) or arr.typecode != "q":
        raise TypeError(f"{name} needs an array('q')")
    total = len(arr) // 3
    last = total if last < 0 or last > total else last
    return min(max(first, 0), last), last


def build(arr: "array[int]", buf: Any, offset: int, cls: type, edits: tuple, table: bytes,
          first: int = 0, last: int = -1) -> list:
    """``cls`` tuples (url, start, end, raw, wrapped, hyphen_break, edits, None) for the
    triples ``first`` to ``last`` of ``arr`` over ``buf``; offsets shifted by ``offset``."""
    first, last = _range(arr, first, last, "build")
    if len(edits) != N_EDITS:
        raise ValueError(f"edits must have {N_EDITS} entries")
    hay = buf if isinstance(buf, str) else _view(buf)[1]
    n = len(hay)
    new = tuple.__new__
    out: list[Any] = []
    for k in range(first, last):
        s, e, f = arr[3 * k], arr[3 * k + 1], arr[3 * k + 2]
        url, raw = triple_strings(hay, n, s, e, f, table)
        low = f & 0xFF
        out.append(new(cls, (url, s + offset, e + offset, raw, bool(low & WRAPPED),
                             bool(low & HYPHEN_BREAK), edits[edits_index(url, f)], None)))
    return out


def join_urls(arr: "array[int]", buf: Any, table: bytes, first: int = 0,
              last: int = -1) -> bytes:
    """The URLs of triples ``first`` to ``last``, each followed by a newline, as one bytes
    object: ``build``'s ``url``s without building a Match (the command's fast path)."""
    first, last = _range(arr, first, last, "join_urls")
    matches = build(arr, buf, 0, tuple, ("",) * N_EDITS, table, first, last)
    return "".join(m[0] + "\n" for m in matches).encode("utf-8")
