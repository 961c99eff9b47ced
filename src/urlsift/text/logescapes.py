"""Apache and nginx escapes in access logs: ``\\xHH`` read as the octet it stands for.

Apache writes a non-printable or non-ASCII octet of the request line, the referer or the
user agent as ``\\xHH`` (and a quote as ``\\"``); nginx writes ``\\xHH`` too. A referer
``"http://\\xd0\\xb4\\xd0\\xbe.example/"`` then holds no URL for a scanner, since ``\\``
ends one. :func:`unescape_log` rewrites every ``\\xHH`` as ``%HH`` (RFC 1738 §2.2: an
octet that is not a safe character is written ``%`` and two hex digits) and keeps a map
back to the original offsets; ``urlsift.extract(text, log_escapes=True)`` scans the
rewritten text and gives each URL whose span held an escape the edit ``log-escapes``
(:func:`mapped`; ``urlsift extract --log-escapes``; docs/decisions-extract.md).

A host cannot hold ``%HH`` (RFC 1738 §3.1: letters, digits, ``-`` and ``.``), so the
escaped octets of a host are read as the UTF-8 they are in a log written by Apache,
the host's Unicode form (the IDN, :func:`unicode_host`), which ``--parts``, ``--host``
and ``stats`` take; the path keeps its ``%HH`` (RFC 1738 §2.2).

``\\"`` is left as it is: it ends a URL, as the ``"`` it stands for would.

>>> from urlsift import extract
>>> line = b'"GET / HTTP/1.1" 200 9 "http://\\\\xd0\\\\xb4\\\\xd0\\\\xbe.example/" "UA"'
>>> [(m.url, m.start, m.end, m.edits) for m in extract(line, log_escapes=True)]
[('http://до.example/', 24, 56, ('log-escapes',))]
"""
from __future__ import annotations

import re
from typing import Any
from urllib.parse import unquote_to_bytes

from .._build_py import LATIN1
from .edits import EditMap, T, apply_edits
from .match import Match

__all__ = ["EDIT_LOG_ESCAPES", "escaped", "mapped", "unescape_log", "unicode_host"]

#: The edit of a URL whose text held ``\xHH`` escapes, written ``%HH`` in ``url``.
EDIT_LOG_ESCAPES = "log-escapes"

_ESC_S = re.compile(r"\\x([0-9A-Fa-f]{2})")
_ESC_B = re.compile(rb"\\x([0-9A-Fa-f]{2})")


def unescape_log(text: T) -> tuple[T, EditMap]:
    """``text`` with every ``\\xHH`` written ``%HH`` (upper-case hex), and the map back.

    >>> unescape_log("a\\\\x2fb \\\\xE9")[0]
    'a%2Fb %E9'
    """
    if isinstance(text, str):
        if "\\x" not in text:
            return text, EditMap()
        return apply_edits(text, [(m.start(), m.end(), "%" + m.group(1).upper())
                                  for m in _ESC_S.finditer(text)])
    if b"\\x" not in text:
        return text, EditMap()
    return apply_edits(text, [(m.start(), m.end(), b"%" + m.group(1).upper())
                              for m in _ESC_B.finditer(text)])


#: scheme://[user[:password]@]host... (an IPv6 literal, in brackets, has no escapes)
_AUTHORITY = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*://(?:[^/?#@]*@)?)([^/?#:\[]*%[^/?#:]*)")
#: What a host's decoded octets must not hold: they would change where the host ends.
_NOT_IN_HOST = frozenset("/?#@:[]%\\ ")


def unicode_host(url: str) -> str:
    """``url`` with a host written with ``%HH`` (from log escapes) in its Unicode form,
    when its octets are UTF-8 and make a host name; ``url`` as it is otherwise.

    >>> unicode_host("http://%D0%B4%D0%BE.example/a%20b"), unicode_host("http://%FF.example/")
    ('http://до.example/a%20b', 'http://%FF.example/')
    """
    found = _AUTHORITY.match(url)
    if found is None:
        return url
    try:
        host = unquote_to_bytes(found.group(2)).decode("utf-8")
    except UnicodeDecodeError:
        return url
    if not host.isprintable() or not _NOT_IN_HOST.isdisjoint(host):
        return url
    return found.group(1) + host + url[found.end():]


def mapped(m: Match, original: Any, emap: EditMap) -> Match:
    """``m`` (found in the rewritten text) with its offsets and ``raw`` in ``original``,
    and the edit ``log-escapes`` when its span there holds one."""
    start, end = emap.start(m.start), emap.end(m.end)
    raw = original[start:end]
    # as the builders read a span: UTF-8, an octet that starts no sequence as its
    # ISO-8859-1 character (never U+FFFD: raw is the text as it stands)
    raw_text = raw if isinstance(raw, str) else bytes(raw).decode("utf-8", LATIN1)
    if not escaped(raw):
        return Match(m.url, start, end, raw_text, m.wrapped, m.hyphen_break, m.edits, m.line)
    return Match(unicode_host(m.url), start, end, raw_text, m.wrapped, m.hyphen_break,
                 m.edits + (EDIT_LOG_ESCAPES,), m.line)


def escaped(raw: Any) -> bool:
    """Does the text ``raw`` (str or bytes) hold a ``\\x`` escape?"""
    return (b"\\x" if isinstance(raw, (bytes, bytearray)) else "\\x") in raw
