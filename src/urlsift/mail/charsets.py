"""Which codec decodes a mail part: only those whose time is linear in the part.

A sender chooses a part's ``charset``, and Python finds a codec for many labels that
are no mail charset at all; some of those take time that grows faster than the part:
``punycode`` is quadratic in CPython (issue 25). So a part is decoded by
its declared charset only when the codec is on an allow-list of the charsets mail is
written in (Unicode's, ISO 8859, the Windows and DOS code pages, KOI8, and the East
Asian multibyte ones — all decoded in one pass); any other codec is not called: the part
is read as Latin-1 (each octet one character, so every ASCII URL is found as it stands)
and a problem says so. A label Python does not know at all is read the same way,
without a problem, as it always was (``x-unknown``, ``unknown-8bit``: common in mail).

The mail walker (``cores.mail``) never decodes a part by its charset: a part whose
charset it does not scan as octets is read by the ``email`` path
(:mod:`urlsift.mail.message`), which calls :func:`decode_part`.

>>> decode_part("caf\\u00e9".encode("utf-8"), "UTF-8")
('café', None)
>>> text, problem = decode_part(b"http://a.example/", "punycode")
>>> text, problem[:34]
('http://a.example/', "charset 'punycode' read as Latin-1")
"""
from __future__ import annotations

import codecs
from typing import Optional

__all__ = ["LINEAR_CODECS", "codec_of", "decode_part"]

#: Python's names (``codecs.lookup(label).name``) of the codecs a part may be decoded
#: with; a name ending in ``*`` is a prefix.
LINEAR_CODECS: tuple[str, ...] = (
    "ascii", "utf-8", "utf-8-sig", "utf-16*", "utf-32*", "latin-1", "iso8859-*",
    "cp125*", "cp437", "cp850", "cp852", "cp866", "cp874", "tis-620", "koi8-*", "kz1048",
    "mac-roman", "gb2312", "gbk", "gb18030", "hz", "big5*", "cp950", "shift_jis*", "cp932",
    "euc_*", "cp949", "johab", "iso2022_*",
)


def _allowed(name: str) -> bool:
    return any(name.startswith(c[:-1]) if c.endswith("*") else name == c
               for c in LINEAR_CODECS)


def codec_of(charset: Optional[str]) -> tuple[str, Optional[str]]:
    """The codec to decode a part of ``charset`` with (None: UTF-8, as the ``email``
    path has always read a part that says none), and the problem to report or None.

    >>> codec_of("Windows-1252"), codec_of("x-unknown"), codec_of("utf-7")[0]
    (('cp1252', None), ('latin-1', None), 'latin-1')
    """
    if not charset:
        return "utf-8", None
    try:
        name = codecs.lookup(charset).name
    except (LookupError, ValueError, TypeError):
        return "latin-1", None          # no codec: the octets as they are (URLs are ASCII)
    if _allowed(name):
        return name, None
    return "latin-1", (f"charset {charset!r} read as Latin-1: its codec is not on the list "
                       "of those that take linear time")


def decode_part(payload: bytes, charset: Optional[str]) -> tuple[str, Optional[str]]:
    """``payload`` (a part's octets, transfer encoding undone) as text by its declared
    ``charset``, and the problem to report (see :func:`codec_of`) or None."""
    codec, problem = codec_of(charset)
    return payload.decode(codec, "replace"), problem
