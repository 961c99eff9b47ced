"""The HTML of a ``text/html`` part (twin of ``_mail_html.pxi``): its URL values and
text runs, in document order, read on the decoded octets as the WHATWG tokenizer
(``urlsift._html_py``, HTML §13.2.5) and the ``email`` path's reader
(``urlsift.mail.html.whatwg_links``) read them: HTML5 comment ends (``<!-->``,
``<!--->``, ``--!>``), RCDATA (``title``, ``textarea``) and RAWTEXT (``script``,
``xmp``, ``iframe``, ``noembed``, ``noframes``; ``plaintext`` to the end) elements,
and the values of every URL attribute of HTML's attribute index that need no clean-up:
``href``, ``src``, ``action``, ``background``... one URL each, the image candidates of
a ``srcset``, the tokens of a ``ping``, the ``url()`` and ``@import`` strings of a
``style`` attribute or ``<style>`` block. Anything the walk does not lay out as that
reader does falls back (the message is read by the ``email`` path): a meta refresh,
``<base href>``, a value the URL Standard cleans (blanks or C0 controls, ``\\``,
``http:host``), a reference in a value the spec reads
otherwise than ``html.unescape``, CSS or a ``ping`` with an octet the reader's
``str`` rules read otherwise (past 0x7F, or 0x1C-0x1F), a bogus comment, ``</>``, a
NUL, a tag or comment never closed.

The one entry point is :func:`html` (``html(w, index, data, label)``): it takes the
decoded HTML octets and reports each run through the walker (``Walker.segment``): a
value kind (:data:`K_HREF`, :data:`K_SRC`, :data:`K_SRCSET`... the attribute it came
from) for a URL that starts with a scheme (its part offset is the value's first
octet, a ``<style>`` block's: the block's), and :data:`K_HTML_TEXT` for a text run,
with the segment of the ``href`` of the ``<a>`` it is in.

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

from ._mail_records import (AMP, BANG, DQUOTE, EQUALS, GT, K_ACTION, K_BACKGROUND, K_CITE,
                            K_DATA, K_FORMACTION, K_HREF, K_HTML_TEXT, K_LONGDESC, K_PING,
                            K_POSTER, K_SRC, K_SRCSET, K_STYLE, K_STYLE_BLOCK, K_XLINK_HREF,
                            QUESTION, QUOTE, SLASH)
from ._mail_values_py import CSS_URL, css_values, ping_spans, srcset_spans, strip, url_value
from ._mail_walker_py import Fallback, Walker, past

__all__ = ["html", "tag", "unescaped", "references", "legacy_in_value"]

#: the elements whose text the tokenizer reads as text, not tags (§13.2.6.4), and
#: whether their character references are decoded (RCDATA) or not (RAWTEXT, script)
_RAW_TEXT = {b"title": True, b"textarea": True, b"script": False, b"xmp": False,
             b"iframe": False, b"noembed": False, b"noframes": False}
#: the URL attributes of HTML's attribute index (the email path's fields), by the kind
#: of their segments (``data`` counts on ``<object>`` only: see _values)
_HTML_ATTRS = {b"href": K_HREF, b"src": K_SRC, b"action": K_ACTION,
               b"formaction": K_FORMACTION, b"background": K_BACKGROUND, b"cite": K_CITE,
               b"longdesc": K_LONGDESC, b"poster": K_POSTER, b"xlink:href": K_XLINK_HREF,
               b"srcset": K_SRCSET, b"ping": K_PING, b"style": K_STYLE}
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
            css_values(w, index, data[end:stop], label, K_STYLE_BLOCK, end)
        else:
            _text_run(w, index, data, end, stop, label, anchor, _RAW_TEXT[name])
        return stop, anchor
    return end, anchor


def _values(w: Walker, index: int, data: bytes, name: bytes,
            attrs: list[tuple[bytes, int, int]], label: tuple[int, int]) -> int:
    """The URL values of a start tag ``name`` laid out; the segment of its ``href``
    (-2 for one without a scheme, -1 for none)."""
    href = -1
    seen: set[int] = set()
    for attr, va, ve in attrs:
        kind = _HTML_ATTRS.get(attr)
        if kind is None and attr == b"data" and name == b"object":
            kind = K_DATA
        if kind is None:
            if (va < ve and attr == b"http-equiv" and name == b"meta"
                    and (b"refresh" in data[va:ve].lower() or AMP in data[va:ve])):
                raise Fallback                   # a URL the email path reads
            continue
        if kind in seen:
            continue                             # a duplicate: the tokenizer drops it
        seen.add(kind)
        if va < 0:
            continue
        if kind == K_STYLE:
            if CSS_URL.search(data, va, ve):
                css_values(w, index, _attribute_unescaped(w, data[va:ve]), label, K_STYLE, va)
            continue
        value = _attribute_unescaped(w, data[va:ve])
        if kind == K_SRCSET or kind == K_PING:
            for a, e in (srcset_spans(value) if kind == K_SRCSET else ping_spans(value)):
                url_value(w, index, value[a:e], label, kind, va)
            continue
        if name == b"base" and kind == K_HREF and strip(value):
            raise Fallback                       # relative links resolve against it
        seg = url_value(w, index, value, label, kind, va)
        if kind == K_HREF and seg != -1:
            href = seg
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


def tag(data: bytes, j: int) -> tuple[int, bool, bytes, list[tuple[bytes, int, int]]]:
    """The tag at ``data[j]``: (offset after its ``>``, closing, name, attributes as
    (name, value start, value end), -1 when without value); (-1, ...) when it never ends.

    >>> tag(b'<a href="x" b>', 0)
    (14, False, b'a', [(b'href', 9, 10), (b'b', -1, -1)])
    """
    n = len(data)
    closing = data[j + 1] == SLASH
    p = j + 2 if closing else j + 1
    q = past(data, p, _NAME_END, False)
    name = data[p:q].lower()
    attrs: list[tuple[bytes, int, int]] = []
    p = q
    while True:
        p = past(data, p, b"\t\n\f\r /", True)
        if p >= n:
            return -1, closing, name, attrs
        if data[p] == GT:
            break
        q = past(data, p + 1, b"\t\n\f\r />=", False)
        attr = data[p:q].lower()
        p = past(data, q, _SPACES, True)
        va = ve = -1
        if p < n and data[p] == EQUALS:
            p = past(data, p + 1, _SPACES, True)
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
                q = past(data, p, b"\t\n\f\r >", False)
                va, ve = p, q
                p = q
        attrs.append((attr, va, ve))
    return p + 1, closing, name, attrs
