"""The HTML of a ``text/html`` part (twin of ``_mail_html.pxi``): the values of its
``href`` and ``src`` attributes and its text runs, in document order, read on the
decoded octets as the tokenizer of :mod:`urlsift.mail.html` (``html.parser``) reads
them (HTML 4.01 section 3.2: tags, attributes, comments; section 5.3: character
references); anything it would report as malformed, and ``<base href>`` (relative
links resolve against it, section 12.4), fall back.

The one entry point is :func:`html` (``html(w, index, data, label)``): it takes the
decoded HTML octets and reports each run through the walker (``Walker.segment``):
:data:`K_HREF`/:data:`K_SRC` for a value that starts with a scheme, and
:data:`K_HTML_TEXT` for a text run, with the segment of the ``href`` of the ``<a>``
it is in. Another tokenizer plugs in there.

>>> from urlsift._mail_walker_py import Walker
>>> w = Walker(b"", 0, [], [], 8, None)
>>> html(w, 0, b'<p>see <a href="http://a.example/">it</a>', w.label(b"1 text/html"))
>>> bytes(w.out)
b'see \\x00http://a.example/\\x00it\\x00'
"""
from __future__ import annotations

import re
from typing import Optional

from ._mail_records import (AMP, BANG, DQUOTE, EQUALS, GT, K_HREF, K_HTML_TEXT, K_SRC, QUESTION,
                            QUOTE, SEG, SLASH)
from ._mail_walker_py import Fallback, Walker

__all__ = ["html", "tag", "unescaped", "references"]

_SCHEME = re.compile(rb"[A-Za-z][A-Za-z0-9+.\-]*:")
_RAW_TEXT = (b"script", b"style")
_HTML_ATTRS = {b"href": K_HREF, b"src": K_SRC}
_NAME_END = b"\t\n\f\r />"
_SPACES = b"\t\n\f\r "
_MARKUP_START = bytes((SLASH, BANG, QUESTION))


def html(w: Walker, index: int, data: bytes, label: tuple[int, int]) -> None:
    """``href``/``src`` values and text runs of the HTML ``data``, in document order."""
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
        if c == SLASH and j + 2 < n and data[j + 2] == GT:        # "</>": nothing
            i = run = j + 3
            continue
        if letter or (c == SLASH and j + 2 < n and _letter(data[j + 2])):
            i, anchor = _element(w, index, data, j, label, anchor)
        else:
            i = _markup_end(data, j, c)
        run = i
    _text_run(w, index, data, run, n, label, anchor, True)


def _element(w: Walker, index: int, data: bytes, j: int, label: tuple[int, int],
             anchor: int) -> tuple[int, int]:
    """The tag at ``data[j]`` and, for ``<script>``/``<style>``, its raw text: the
    offset after them, and the ``<a>`` the text after them is in."""
    end, closing, name, attrs = tag(data, j)
    if end < 0:
        raise Fallback                           # never closed
    if closing:
        return end, (-1 if name == b"a" else anchor)
    href = _values(w, index, data, j, name, attrs, label)
    if name == b"a":
        anchor = href
    if name in _RAW_TEXT:
        m = re.compile(b"</" + name + rb"[\t\n\f\r />]", re.IGNORECASE).search(data, end)
        stop = m.start() if m else len(data)
        _text_run(w, index, data, end, stop, label, anchor, False)
        return stop, anchor
    return end, anchor


def _values(w: Walker, index: int, data: bytes, j: int, name: bytes,
            attrs: list[tuple[bytes, int, int]], label: tuple[int, int]) -> int:
    """The ``href``/``src`` values of the tag at ``j`` laid out; the segment of its
    ``href`` (-2 for one without a scheme, -1 for none)."""
    href = -1
    for attr, va, ve in attrs:
        kind = _HTML_ATTRS.get(attr)
        if kind is None or va < 0:
            continue
        value = _strip(unescaped(w, data[va:ve]))
        if not value:
            continue
        if name == b"base" and kind == K_HREF:
            raise Fallback                       # relative links resolve against it
        seg = len(w.segs) // SEG
        has_scheme = _SCHEME.match(value) is not None
        if has_scheme:
            w.segment(index, 0, len(value), label, kind, j, value, -1)
            w.out.append(0)
        if kind == K_HREF:
            href = seg if has_scheme else -2
    return href


def _markup_end(data: bytes, j: int, c: int) -> int:
    """The offset after a comment, ``<!DOCTYPE ...>`` or ``<?...>`` at ``data[j]``."""
    if data.startswith(b"<!--", j):
        k = data.find(b"-->", j + 4)
        if k < 0:
            raise Fallback
        return k + 3
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
    """``raw`` with its character references undone (``w.unescape``, on the text read
    as Latin-1 so octets map one to one; a reference to a character past U+00FF
    gives that character in UTF-8: it is not ASCII either way)."""
    if AMP not in raw:
        return raw
    fast = references(raw)
    if fast is not None:
        return fast
    if w.unescape is None:
        raise Fallback
    return w.unescape(raw.decode("latin-1")).encode("utf-8", "surrogatepass")


def _strip(value: bytes) -> bytes:
    """``value`` without the ASCII white space around it; with a non-ASCII octet or an
    information separator at either end (``str.strip`` would take U+00A0...) the
    message falls back."""
    value = value.strip()
    if value and (value[0] >= 0x80 or value[-1] >= 0x80 or 0x1c <= value[0] <= 0x1f
                  or 0x1c <= value[-1] <= 0x1f):
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
