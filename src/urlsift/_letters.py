"""Which non-ASCII characters continue a bare URL, for the text scanner's pure twin
(``_scan_py``; the compiled ``_scan_c`` reads :data:`UNSPACED` and the same marks).

Non-ASCII letters (IRIs, RFC 3987: ``http://例え.jp/パス``, ``.../wiki/Straße``): a
character over U+007F continues a bare URL when it is a letter, digit or mark
(``str.isalnum``, or in :data:`urlsift._marks.MARKS`: a combining accent, a vowel sign;
in bytes, a valid UTF-8 sequence of one), unless it belongs to a
script written without spaces (:data:`UNSPACED`) and follows an ASCII letter or digit
(``見てhttp://example.com谢谢`` gives ``http://example.com``). Anything else over U+007F
ends the walk with CUT_NON_ASCII. Bytes are read as UTF-8; a str's characters as they are.
"""
from __future__ import annotations

from bisect import bisect_right
from typing import Any

from ._marks import MARKS

__all__ = ["UNSPACED", "utf8_at", "letter_at", "is_mark"]

#: Scripts written without spaces between words, as inclusive code point ranges: a letter
#: of one glued to an ASCII letter or digit is the running text, not the URL (Thai,
#: Lao, Myanmar, Khmer, Hangul Jamo, and from the CJK radicals on: kana, CJK, Hangul
#: syllables, full-width forms). Korean writes spaces, but its particles are glued to
#: the word before them (``http://example.com에서``).
UNSPACED = (0x0E00, 0x0EFF, 0x1000, 0x109F, 0x1100, 0x11FF, 0x1780, 0x17FF,
            0x2E80, 0x10FFFF)


def utf8_at(codes: Any, i: int, lim: int) -> tuple[int, int]:
    """(code point, length) of the UTF-8 sequence starting at ``codes[i]`` and ending
    by ``lim``, or (-1, 0) when it is not one (RFC 3629: no overlong form, no surrogate).

    >>> utf8_at("é!".encode(), 0, 3), utf8_at(bytes([0xED, 0xA0, 0x80]), 0, 3), utf8_at(bytes([0xC3]), 0, 1)
    ((233, 2), (-1, 0), (-1, 0))
    """
    b0 = codes[i]
    k = 2 if 0xC2 <= b0 <= 0xDF else 3 if 0xE0 <= b0 <= 0xEF else 4 if 0xF0 <= b0 <= 0xF4 else 0
    if k == 0 or i + k > lim:
        return -1, 0
    try:
        return ord(bytes(codes[i:i + k]).decode("utf-8")), k
    except UnicodeDecodeError:
        return -1, 0


def letter_at(codes: Any, octets: bool, e: int, lim: int) -> int:
    """How many units the non-ASCII character at ``codes[e]`` (over U+007F) adds to a
    bare URL: its length when it is a letter or digit that may continue one (see the
    module's docstring), else 0."""
    if octets:
        c, k = utf8_at(codes, e, lim)
        if k == 0:
            return 0
    else:
        c, k = codes[e], 1
    if not (chr(c).isalnum() or is_mark(c)):
        return 0
    before = codes[e - 1]
    if before < 128 and chr(before).isalnum() and _unspaced(c):
        return 0
    return k


def is_mark(c: int) -> bool:
    """Is ``c`` a Unicode mark (category M; :mod:`urlsift._marks`)?

    >>> is_mark(0x0301), is_mark(0x093F), is_mark(ord("e"))
    (True, True, False)
    """
    i = bisect_right(MARKS, c)
    return i % 2 == 1 or (i > 0 and MARKS[i - 1] == c)


def _unspaced(c: int) -> bool:
    return any(UNSPACED[a] <= c <= UNSPACED[a + 1] for a in range(0, len(UNSPACED), 2))
