"""The HTML of a ``text/html`` part (twin of ``_mail_html.pxi``): its URL values and
text runs, in document order, read on the decoded octets as the WHATWG tokenizer
(``urlsift._html_py``, HTML §13.2.5) and the ``email`` path's reader
(``urlsift.mail.html.whatwg_links``) read them: HTML5 comment ends (``<!-->``,
``<!--->``, ``--!>``), RCDATA (``title``, ``textarea``) and RAWTEXT (``script``,
``xmp``, ``iframe``, ``noembed``, ``noframes``; ``plaintext`` to the end) elements,
``href`` and ``src`` values that need no clean-up. Anything the walk does not lay out
as that reader does falls back (the message is read by the ``email`` path): another
URL attribute of the attribute index with a value, a ``style`` attribute or
``<style>`` block with ``url(``/``@import``, a meta refresh, ``<base href>``, a value
the URL Standard cleans (blanks or C0 controls, ``\\``, ``http:host``), a duplicate
``href``/``src``, a reference in a value the spec reads otherwise than
``html.unescape``, a bogus comment, ``</>``, a NUL, a tag or comment never closed.

The one entry point is :func:`html` (``html(w, index, data, label)``): it takes the
decoded HTML octets and reports each run through the walker (``Walker.segment``):
:data:`K_HREF`/:data:`K_SRC` for a value that starts with a scheme (its part offset is
the value's first octet), and :data:`K_HTML_TEXT` for a text run, with the segment of
the ``href`` of the ``<a>`` it is in.

>>> from urlsift._mail_walker_py import Walker
>>> w = Walker(b"", 0, [], [], 8, None)
>>> html(w, 0, b'<p>see <a href="http://a.example/">it</a>', w.label(b"1 text/html"))
>>> bytes(w.out)
b'see \\x00http://a.example/\\x00it\\x00'
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Optional

from ._mail_records import (AMP, BANG, DQUOTE, EQUALS, GT, K_HREF, K_HTML_TEXT, K_SRC,
                            QUESTION, QUOTE, SEG, SLASH, SPACE)
from ._mail_walker_py import Fallback, Walker

__all__ = ["html", "tag", "unescaped", "references", "legacy_in_value"]

_SCHEME = re.compile(rb"[A-Za-z][A-Za-z0-9+.\-]*:")
#: the elements whose text the tokenizer reads as text, not tags (§13.2.6.4), and
#: whether their character references are decoded (RCDATA) or not (RAWTEXT, script)
_RAW_TEXT = {b"title": True, b"textarea": True, b"script": False, b"xmp": False,
             b"iframe": False, b"noembed": False, b"noframes": False}
_HTML_ATTRS = {b"href": K_HREF, b"src": K_SRC}
#: the other URL attributes of HTML's attribute index (``data``: of ``<object>``):
#: the walk leaves a tag with one of them to the ``email`` path
_OTHER_URL_ATTRS = frozenset({b"action", b"formaction", b"background", b"cite", b"longdesc",
                              b"poster", b"xlink:href", b"srcset", b"ping"})
#: CSS that may hold a URL (``url(``, ``@import``; ``&`` for one written as a reference)
_CSS_URL = re.compile(rb"url\(|@import|&", re.IGNORECASE)
_SPECIAL = frozenset({b"ftp", b"file", b"http", b"https", b"ws", b"wss"})
_NAME_END = b"\t\n\f\r />"
_SPACES = b"\t\n\f\r "
_MARKUP_START = bytes((SLASH, BANG, QUESTION))


def html(w: Walker, index: int, data: bytes, label: tuple[int, int]) -> None:
    """URL values and text runs of the HTML ``data``, in document order."""
    if b"\x00" in data:
        raise Fallback                           # the spec replaces it in places
    n = len(data)
    i = run = 0
    anchor = -1                  # the segment of the href of the <a> we are in
    while True:
        j = data.find(b"<", i)
        if j < 0 or j + 1 >= n:
            break
        c = data[j + 1]
        letter = _letter(c)
        if not (letter or c in _MARKUP_START):
            i = j + 1
            continue
        _text_run(w, index, data, run, j, label, anchor, True)
        if c == SLASH and j + 2 < n and data[j + 2] == GT:
            raise Fallback                       # "</>": the runs around it are one
        if letter or (c == SLASH and j + 2 < n and _letter(data[j + 2])):
            i, anchor = _element(w, index, data, j, label, anchor)
        else:
            i = _markup_end(data, j, c)
        run = i
    _text_run(w, index, data, run, n, label, anchor, True)


def _element(w: Walker, index: int, data: bytes, j: int, label: tuple[int, int],
             anchor: int) -> tuple[int, int]:
    """The tag at ``data[j]`` and, for a raw text or RCDATA element, its text: the
    offset after them, and the ``<a>`` the text after them is in."""
    end, closing, name, attrs = tag(data, j)
    if end < 0:
        raise Fallback                           # never closed
    if closing:
        return end, (-1 if name == b"a" else anchor)
    href = _values(w, index, data, name, attrs, label)
    if name == b"a":
        anchor = href
    if name == b"plaintext":                     # text to the end (§13.2.5.5)
        _text_run(w, index, data, end, len(data), label, anchor, False)
        return len(data), anchor
    if name == b"style" or name in _RAW_TEXT:
        m = re.compile(b"</" + name + rb"[\t\n\f\r />]", re.IGNORECASE).search(data, end)
        stop = m.start() if m else len(data)
        if name == b"style":                     # CSS, not text: its url()s are links
            if _CSS_URL.search(data, end, stop):
                raise Fallback
        else:
            _text_run(w, index, data, end, stop, label, anchor, _RAW_TEXT[name])
        return stop, anchor
    return end, anchor


def _values(w: Walker, index: int, data: bytes, name: bytes,
            attrs: list[tuple[bytes, int, int]], label: tuple[int, int]) -> int:
    """The ``href``/``src`` values of a start tag ``name`` laid out; the segment of its
    ``href`` (-2 for one without a scheme, -1 for none)."""
    href = -1
    seen: set[int] = set()
    for attr, va, ve in attrs:
        kind = _HTML_ATTRS.get(attr)
        if kind is None:
            if va < ve and (attr in _OTHER_URL_ATTRS or (attr == b"data" and name == b"object")
                            or (attr == b"style" and _CSS_URL.search(data, va, ve))
                            or (attr == b"http-equiv" and name == b"meta"
                                and (b"refresh" in data[va:ve].lower()
                                     or AMP in data[va:ve]))):
                raise Fallback                   # a URL the email path reads
            continue
        if kind in seen:
            raise Fallback                       # a duplicate: the tokenizer drops it
        seen.add(kind)
        if va < 0:
            continue
        value = _strip(_attribute_unescaped(w, data[va:ve]))
        if not value:
            continue
        if name == b"base" and kind == K_HREF:
            raise Fallback                       # relative links resolve against it
        seg = len(w.segs) // SEG
        has_scheme = _SCHEME.match(value) is not None
        if has_scheme:
            w.segment(index, 0, len(value), label, kind, va, value, -1)
            w.out.append(0)
        if kind == K_HREF:
            href = seg if has_scheme else -2
    return href


def _attribute_unescaped(w: Walker, raw: bytes) -> bytes:
    """An attribute value's references undone as the tokenizer does; a value where
    it reads one otherwise than ``html.unescape`` (``&copy=1``) falls back."""
    if AMP in raw and references(raw) is None and legacy_in_value(raw):
        raise Fallback
    return unescaped(w, raw)


def legacy_in_value(raw: bytes) -> bool:
    """``raw`` (an attribute value) holds a reference the tokenizer leaves as written
    (§13.2.5.73: a name matched without its ``;`` and followed by an alphanumeric or
    ``=``) and ``html.unescape`` decodes: one of HTML's names valid without ``;``.

    >>> legacy_in_value(b"?a=1&copy=2"), legacy_in_value(b"?a=1&b=2&amp;c")
    (True, False)
    """
    return _legacy_pattern().search(raw) is not None


@lru_cache(maxsize=1)
def _legacy_pattern() -> "re.Pattern[bytes]":
    # built at the first value that needs it: a scan that meets none pays nothing
    from html.entities import html5
    names = sorted((k for k in html5 if not k.endswith(";")), key=len, reverse=True)
    return re.compile(b"&(?:" + b"|".join(re.escape(k).encode() for k in names)
                      + b")[A-Za-z0-9=]")


def _markup_end(data: bytes, j: int, c: int) -> int:
    """The offset after a comment (HTML5's ends: ``-->``, ``--!>``, and ``<!-->``,
    ``<!--->`` closing at once), ``<!DOCTYPE ...>`` or ``<?...>`` at ``data[j]``."""
    if data.startswith(b"<!--", j):
        if data.startswith(b">", j + 4):
            return j + 5                         # abrupt-closing-of-empty-comment
        if data.startswith(b"->", j + 4):
            return j + 6
        k = data.find(b"--", j + 4)
        while k >= 0:
            if data.startswith(b">", k + 2):
                return k + 3
            if data.startswith(b"!>", k + 2):
                return k + 4                     # incorrectly-closed-comment
            k = data.find(b"--", k + 1)
        raise Fallback
    k = data.find(b">", j + 2)
    if k < 0 or not (c == QUESTION or data[j + 2:j + 9].lower() == b"doctype"):
        raise Fallback                           # never closed, or a bogus comment
    return k + 1


def _text_run(w: Walker, index: int, data: bytes, a: int, e: int, label: tuple[int, int],
              anchor: int, decode: bool) -> None:
    if a >= e:
        return
    raw = data[a:e]
    if decode and b"&" in raw:
        text = unescaped(w, raw)
        w.segment(index, 0, len(text), label, K_HTML_TEXT, a, text, -1, anchor)
    else:
        w.segment(index, a, e, label, K_HTML_TEXT, a, data, -1, anchor)
    w.out.append(0)


def unescaped(w: Walker, raw: bytes) -> bytes:
    """``raw`` with its character references undone (``w.unescape``): each reference
    written in UTF-8, every other octet as it stands. The text is read as ASCII with
    each octet past 0x7F held as a lone surrogate and written back as that octet, so a
    UTF-8 ``é`` stays two octets (read as Latin-1 and written as UTF-8 it became the
    four of ``Ã©``); ``w.unescape`` never makes a surrogate (a reference to one is
    U+FFFD)."""
    if AMP not in raw:
        return raw
    fast = references(raw)
    if fast is not None:
        return fast
    if w.unescape is None:
        raise Fallback
    return w.unescape(raw.decode("ascii", "surrogateescape")).encode("utf-8", "surrogateescape")


def _strip(value: bytes) -> bytes:
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


_FAST_REF = re.compile(rb"&(?:#([0-9]{1,7});|#[xX]([0-9a-fA-F]{1,6});|(amp|lt|gt|quot|apos);)")
_NAMED = {b"amp": 38, b"lt": 60, b"gt": 62, b"quot": 34, b"apos": 39}


def references(raw: bytes) -> Optional[bytes]:
    """``raw`` with its character references undone when each is one mail HTML is full
    of and ``html.unescape`` reads as one printable ASCII character (``&amp;``,
    ``&lt;``, ``&gt;``, ``&quot;``, ``&apos;``, ``&#NN;``/``&#xHH;`` for U+0020 to
    U+007E, the ``;`` written); else None, and ``html.unescape`` reads the text.

    >>> references(b"a&amp;b&#x3D;c"), references(b"&copy;")
    (b'a&b=c', None)
    """
    out = bytearray()
    p = 0
    while True:
        k = raw.find(b"&", p)
        if k < 0:
            out += raw[p:]
            return bytes(out)
        out += raw[p:k]
        m = _FAST_REF.match(raw, k)
        if m is None:
            return None
        v = int(m[1]) if m[1] else int(m[2], 16) if m[2] else _NAMED[m[3]]
        if not 32 <= v <= 126:
            return None
        out.append(v)
        p = m.end()


def _letter(c: int) -> bool:
    return 65 <= c <= 90 or 97 <= c <= 122


def _past(data: bytes, p: int, stop_set: bytes, inside: bool) -> int:
    """The offset after the run at ``p`` of octets in (``inside``) or not in ``stop_set``."""
    n = len(data)
    while p < n and ((data[p] in stop_set) == inside):
        p += 1
    return p


def tag(data: bytes, j: int) -> tuple[int, bool, bytes, list[tuple[bytes, int, int]]]:
    """The tag at ``data[j]``: (offset after its ``>``, closing, name, attributes as
    (name, value start, value end), -1 when without value); (-1, ...) when it never ends.

    >>> tag(b'<a href="x" b>', 0)
    (14, False, b'a', [(b'href', 9, 10), (b'b', -1, -1)])
    """
    n = len(data)
    closing = data[j + 1] == SLASH
    p = j + 2 if closing else j + 1
    q = _past(data, p, _NAME_END, False)
    name = data[p:q].lower()
    attrs: list[tuple[bytes, int, int]] = []
    p = q
    while True:
        p = _past(data, p, b"\t\n\f\r /", True)
        if p >= n:
            return -1, closing, name, attrs
        if data[p] == GT:
            break
        q = _past(data, p + 1, b"\t\n\f\r />=", False)
        attr = data[p:q].lower()
        p = _past(data, q, _SPACES, True)
        va = ve = -1
        if p < n and data[p] == EQUALS:
            p = _past(data, p + 1, _SPACES, True)
            if p >= n:
                return -1, closing, name, attrs
            quote = data[p]
            if quote in (DQUOTE, QUOTE):
                q = data.find(bytes((quote,)), p + 1)
                if q < 0:
                    return -1, closing, name, attrs
                va, ve = p + 1, q
                p = q + 1
            else:
                q = _past(data, p, b"\t\n\f\r >", False)
                va, ve = p, q
                p = q
        attrs.append((attr, va, ve))
    return p + 1, closing, name, attrs
