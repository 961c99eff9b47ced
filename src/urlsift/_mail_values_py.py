"""The URLs of an HTML attribute's value as segments (twin of ``_mail_values.pxi``): one
URL (``href``, ``src``, ``action``, ``background``...), the image candidates of a
``srcset``, the tokens of a ``ping``, the ``url(...)`` and ``@import`` strings of CSS (a
``style`` attribute, a ``<style>`` block). The HTML reader (``_mail_html_py``) hands
each value here, its character references undone.

Each is cut as the ``email`` path's reader cuts it (``urlsift.mail.htmllinks``:
``srcset_urls``, ``str.split``, ``style_urls``) — a reader of its own, on octets, so
that the two paths stay two opinions the tests compare — and a URL the URL Standard's
clean-up would change, or an octet that reader's ``str`` rules read otherwise, falls
back (:class:`~urlsift._mail_walker_py.Fallback`: the message goes to ``email``).

>>> from urlsift._mail_walker_py import Walker
>>> from urlsift._mail_records import K_SRCSET
>>> w = Walker(b"", 0, [], [], 8, None)
>>> value = b"http://a.example/1.png 1x, http://a.example/2.png 2x"
>>> for a, e in srcset_spans(value):
...     _ = url_value(w, 0, value[a:e], w.label(b"1 text/html"), K_SRCSET, 5)
>>> bytes(w.out)
b'http://a.example/1.png\\x00http://a.example/2.png\\x00'
"""
from __future__ import annotations

import re

from ._mail_records import COMMA, SEG, SPACE
from ._mail_walker_py import Fallback, Walker, past

__all__ = ["url_value", "strip", "css_values", "srcset_spans", "ping_spans", "CSS_URL"]

_SCHEME = re.compile(rb"[A-Za-z][A-Za-z0-9+.\-]*:")
_SPECIAL = frozenset({b"ftp", b"file", b"http", b"https", b"ws", b"wss"})
#: CSS that may hold a URL (``url(``, ``@import``; ``&`` in a style attribute for one
#: written as a reference): CSS without one is not read further
CSS_URL = re.compile(rb"url\(|@import|&", re.IGNORECASE)
#: the email path's ``url(...)``/``@import`` strings (``htmllinks.style_urls``) on
#: octets: the same where the CSS has no octet past 0x7F nor 0x1C-0x1F (``\s`` of a
#: ``str`` pattern matches those, of a bytes pattern not: such CSS falls back)
_CSS_STRING = re.compile(rb"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s("']+))"""
                         rb"""|@import\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)
#: octets a ``str`` reader splits or matches otherwise than the octets say
_STR_ONLY = re.compile(rb"[\x1c-\x1f\x80-\xff]")
#: ASCII whitespace (HTML §2.3.2, the srcset parser's)
_ASCII_WHITESPACE = b"\t\n\f\r "
#: what ``str.split()`` splits at, in ASCII (the rest falls back: _STR_ONLY)
_SPLIT_WHITESPACE = b"\t\n\x0b\f\r "
_LEFT, _RIGHT = 0x28, 0x29           # "(" and ")"


def url_value(w: Walker, index: int, value: bytes, label: tuple[int, int], kind: int,
              part_offset: int) -> int:
    """The URL ``value`` as a segment of ``kind`` when it starts with a scheme (the
    clean-up leaving it as it is: :func:`strip`): its segment; -2 for one without a
    scheme (relative: nothing to be relative to), -1 for none."""
    value = strip(value)
    if not value:
        return -1
    if _SCHEME.match(value) is None:
        return -2
    seg = len(w.segs) // SEG
    w.segment(index, 0, len(value), label, kind, part_offset, value, -1)
    w.out.append(0)
    return seg


def strip(value: bytes) -> bytes:
    """``value`` as it stands when the URL Standard's clean-up would leave it so: a C0
    control or space at either end, a tab or newline anywhere (the only ones it takes
    from inside), a non-ASCII octet at either end, a ``\\`` (``/`` for a special
    scheme) or a special scheme without its ``//`` (``http:host``) falls back, with its
    edit."""
    if not value:
        return value
    if (value[0] <= SPACE or value[-1] <= SPACE or value[0] >= 0x80 or value[-1] >= 0x80
            or any(c in value for c in b"\t\n\r\\")):
        raise Fallback
    colon = value.find(b":")
    if (colon > 0 and value[:colon].lower() in _SPECIAL
            and not value.startswith(b"//", colon + 1)):
        raise Fallback
    return value


def css_values(w: Walker, index: int, css: bytes, label: tuple[int, int], kind: int,
               part_offset: int) -> None:
    """The ``url(...)`` and ``@import`` strings of ``css`` laid out (:func:`url_value`).

    >>> w = Walker(b"", 0, [], [], 8, None)
    >>> css_values(w, 0, b"a{background:URL( 'http://a.example/x' )} @import url(b.css)",
    ...            w.label(b"1 text/html"), 15, 0)
    >>> bytes(w.out)
    b'http://a.example/x\\x00'
    """
    if not CSS_URL.search(css):
        return
    if _STR_ONLY.search(css):
        raise Fallback
    for m in _CSS_STRING.finditer(css):
        url_value(w, index, next(g for g in m.groups() if g is not None), label, kind,
                  part_offset)


def srcset_spans(value: bytes) -> list[tuple[int, int]]:
    """The spans of the URLs of a ``srcset``'s image candidates (HTML §4.8.4.3.10,
    "parse a srcset attribute", as the email path reads it: a URL is a run of
    non-whitespace, the commas ending it dropped; its descriptors run to the next comma
    outside parentheses).

    >>> v = b" a.png 1x,b.png (x,y) 2x , c.png,,, d.png"
    >>> [v[a:e] for a, e in srcset_spans(v)]
    [b'a.png', b'b.png', b'c.png', b'd.png']
    """
    out: list[tuple[int, int]] = []
    i, n = 0, len(value)
    while True:
        i = past(value, i, _ASCII_WHITESPACE + b",", True)
        if i >= n:
            return out
        j = past(value, i, _ASCII_WHITESPACE, False)
        e = j
        while value[e - 1] == COMMA:            # value[i] is none: e stays past i
            e -= 1
        out.append((i, e))
        i = j
        if e < j:
            continue                            # its commas ended the candidate
        inside = False                          # in parentheses
        while i < n:
            c = value[i]
            i += 1
            if inside:
                inside = c != _RIGHT
            elif c == _LEFT:
                inside = True
            elif c == COMMA:
                break


def ping_spans(value: bytes) -> list[tuple[int, int]]:
    """The spans of a ``ping``'s tokens as ``str.split()`` cuts them (the email path).

    >>> [b" a b\\tc "[a:e] for a, e in ping_spans(b" a b\\tc ")]
    [b'a', b'b', b'c']
    """
    if _STR_ONLY.search(value):
        raise Fallback
    out: list[tuple[int, int]] = []
    i, n = 0, len(value)
    while True:
        i = past(value, i, _SPLIT_WHITESPACE, True)
        if i >= n:
            return out
        j = past(value, i, _SPLIT_WHITESPACE, False)
        out.append((i, j))
        i = j
