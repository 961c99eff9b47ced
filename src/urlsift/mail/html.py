"""Links in an HTML part as the ``email`` path reports them: URL attribute values and
the URLs of its text (:func:`whatwg_links`).

The part is read by the WHATWG tokenizer core (``cores.html`` through
:func:`urlsift.mail.htmllinks.html_links`: HTML5 comment ends, raw text and RCDATA
elements, every URL attribute of the attribute index, hrefs cleaned as the URL Standard
does); its time is linear in the part whatever the part holds, and malformed markup
never raises: where the part ends inside a tag or comment (what that hid) is reported
through ``on_problem``. A link whose text is its own URL (``<a href="U">U</a>``) counts
once; relative links are resolved against ``<base href>`` (RFC 3986), or dropped when
there is none (a relative link in a mail has nothing to be relative to).
"""
from __future__ import annotations

import re
from bisect import bisect_right
from html import unescape
from typing import Callable, Iterable, Iterator, Optional

from ..model.partial import resolve
from .anchors import anchor_text, same_link   # the rule, defined once for both mail paths
from .htmllinks import html_links as tokenized

__all__ = ["decode_char_refs", "same_link", "whatwg_links"]

#: ``scan(text)`` -> ``(match, start, end, raw, refanged)`` of the URLs of ``text``.
Scan = Callable[[str], Iterable[tuple]]
#: ``on_problem(offset, what)``: malformed markup met at ``offset`` of the part.
Problem = Callable[[int, str], None]

# html.unescape's own pattern of a character reference, to map offsets through it.
_CHARREF = re.compile(r"&(#[0-9]+;?|#[xX][0-9a-fA-F]+;?|[^\t\n\f <&#;]{1,32};?)")


def _reference(m: "re.Match[str]") -> str:
    """One character reference decoded, as :func:`html.unescape` does, except that a
    decimal one of more than 7 digits is U+FFFD at once (it is past U+10FFFF, and
    ``int()`` raises past 4300 digits)."""
    ref = m.group(0)
    if ref[1:2] == "#" and ref[2:3] not in ("x", "X") and len(ref.strip("&#;").lstrip("0")) > 7:
        return "\ufffd"
    return unescape(ref)


def decode_char_refs(value: str) -> str:
    """``value`` with its character references decoded (see :func:`_reference`); the
    mail walker's cores call it for what they do not decode themselves.

    >>> decode_char_refs("a?x=1&amp;y=&#50;&bogus")
    'a?x=1&y=2&bogus'
    """
    return _CHARREF.sub(_reference, value) if "&" in value else value


def _decoded(raw: str) -> tuple[str, list[int], list[int]]:
    """``raw`` with its character references decoded, and the map back: ``starts``
    (offsets in the decoded text where a piece begins, sorted) and ``origins`` (where
    that piece begins in ``raw``). Outside references, pieces are copied one to one."""
    if "&" not in raw:
        return raw, [0], [0]
    out: list[str] = []
    starts, origins = [0], [0]
    done = size = 0
    for m in _CHARREF.finditer(raw):
        piece = raw[done:m.start()]
        out.append(piece)
        size += len(piece)
        value = _reference(m)
        starts.append(size)
        origins.append(m.start())
        out.append(value)
        size += len(value)
        starts.append(size)
        origins.append(m.end())
        done = m.end()
    out.append(raw[done:])
    return "".join(out), starts, origins


def _back(offset: int, starts: list[int], origins: list[int]) -> int:
    """An offset of the decoded text as an offset of the raw text (see :func:`_decoded`);
    one inside the value of a reference goes to the reference's start."""
    k = bisect_right(starts, offset) - 1
    if k % 2 and offset > starts[k]:  # odd pieces are references' values
        return origins[k]
    return origins[k] + offset - starts[k]


def _absolute(value: str, base: Optional[str]) -> Optional[str]:
    """An attribute value as an absolute URL: itself when it has a scheme, resolved
    against ``<base href>`` (RFC 3986) when there is one, else None (a relative link
    in a mail has nothing to be relative to)."""
    colon = value.find(":")
    if colon > 0 and re.match(r"[A-Za-z][A-Za-z0-9+.\-]*:", value):
        return value
    if base is None:
        return None
    try:
        return resolve(base, value, rules="rfc3986")
    except ValueError:
        return None


#: the fields of :func:`urlsift.mail.htmllinks.html_links` read as text, not as links
_TEXT_FIELDS = frozenset({"#text"})


def whatwg_links(text: str, scan: Scan, on_problem: Optional[Problem] = None
                 ) -> Iterator[tuple[tuple, str, Optional[str]]]:
    """``(hit, how, shown)`` in document order: ``how`` is ``"text"`` or the field a
    link came from; ``hit`` is ``(match, start, end, raw, refanged)``; ``shown``, for
    the ``href`` of an ``<a>``, the text the reader sees on the link
    (:func:`urlsift.mail.anchors.anchor_text`), else None. Read by the HTML tokenizer
    core (WHATWG HTML §13.2.5, through :func:`urlsift.mail.htmllinks.html_links`):
    HTML5 comment ends, raw text and RCDATA elements, the spec's character references, every URL attribute of the attribute
    index (a field's name is the ``how``: ``srcset``, ``action``, ``style``...; a
    ``<style>`` block's URLs are ``"#style"``), each value cleaned as the URL Standard
    does (its edits added to the match's; ``raw`` is the value as written) and resolved
    against ``<base href>``.

    Offsets are characters of ``text``: an attribute's hits stand at its value's start;
    a text hit is mapped back through its run's references where they read as
    :func:`decode_char_refs` reads them, else it stands at the run's start.

    >>> from urlsift.mail.message import _scan, options
    >>> page = '<!-->http://a.example/<a href=" http:\\\\\\\\b.example">http:\\\\\\\\b.example</a>'
    >>> [(hit[0].url, how, hit[0].edits, shown) for hit, how, shown in whatwg_links(
    ...     page, lambda t: _scan(t, options(None, None, False), quoted=False))]
    [('http://a.example/', 'text', (), None), \
('http://b.example', 'href', ('c0-or-space-stripped', 'invalid-reverse-solidus'), 'http:\\\\\\\\b.example')]
    """
    data = text.encode("utf-8", "surrogateescape")
    chars = _Characters(text, data)
    base: Optional[str] = None
    anchor: Optional[str] = None     # the href of the <a> the text is in
    current = -1                     # that <a>'s number (its link's index in links)
    in_tag = -1                      # the end of the <a> start tag being read
    links: list[tuple[str, str, str, int, tuple[str, ...], int]] = []
    texts: list[tuple[int, int, str, Optional[str]]] = []
    shown: dict[int, list[str]] = {}
    for link in tokenized(data, anchors=True, on_problem=_problems(chars, on_problem)):
        field, value = link.field, link.value.decode("utf-8", "surrogateescape")
        if field == "<a>":
            anchor, current, in_tag = None, -1, link.end
        elif field == "</a>":
            anchor, current = None, -1
        elif field == "base href":
            if base is None and value:
                base = value
        elif field in _TEXT_FIELDS:
            texts.append((link.start, link.end, value, anchor))
            if current >= 0:
                shown.setdefault(current, []).append(value)
        elif value:
            target = _absolute(value, base)
            of_anchor = field == "href" and link.start < in_tag     # the href of this <a>
            if of_anchor:
                anchor, current = target or value, -1 if target is None else len(links)
            if target is not None:
                links.append((target, field, link.raw.decode("utf-8", "surrogateescape"),
                              chars.at(link.start), link.edits, current if of_anchor else -1))
    yield from _events(links, texts, shown, scan, text, chars)


def _events(links: list, texts: list, shown: dict, scan: Scan, text: str,
            chars: "_Characters") -> Iterator[tuple[tuple, str, Optional[str]]]:
    """The hits of :func:`whatwg_links`' links and text runs, in document order."""
    events: list[tuple[int, int, tuple, str, Optional[str]]] = []
    for target, how, raw, pos, edits, number in links:
        seen = anchor_text("".join(shown[number])) if number in shown else None
        for m, _, _, _, refanged in scan(target):
            if edits:
                m = type(m)(m.url, m.start, m.end, m.raw, m.wrapped, m.hyphen_break,
                            edits + m.edits, m.line)
            events.append((pos, 0, (m, pos, pos, raw, refanged), how, seen))
    for start, end, value, anchor in texts:
        a0 = chars.at(start)
        source = text[a0:chars.at(end)]
        decoded, starts, origins = _decoded(source)
        mapped = decoded == value
        for m, a, b, found, refanged in scan(value):
            if anchor is not None and same_link(m.url, anchor):
                continue  # <a href="U">U</a>: the href has reported it already
            a = a0 + (_back(a, starts, origins) if mapped else 0)
            b = a0 + (_back(b, starts, origins) if mapped else 0)
            events.append((a, 1, (m, a, b, found, refanged), "text", None))
    events.sort(key=lambda e: (e[0], e[1]))
    for _, _, hit, how, seen in events:
        yield hit, how, seen


class _Characters:
    """Offsets in the UTF-8 octets of ``text`` as offsets in ``text`` (characters),
    asked in any order; linear in the text when asked in order (as the records come)."""

    def __init__(self, text: str, data: bytes) -> None:
        self.data = data
        self.ascii = text.isascii()
        self.octet = self.char = 0

    def at(self, octet: int) -> int:
        if self.ascii:
            return octet
        if octet < self.octet:
            self.octet = self.char = 0
        self.char += len(self.data[self.octet:octet].decode("utf-8", "surrogateescape"))
        self.octet = octet
        return self.char


def _problems(chars: _Characters, on_problem: Optional[Problem]
              ) -> Optional[Callable[[int, str], None]]:
    """The tokenizer's ``(offset, code)`` problems said as :func:`html_links` says them."""
    if on_problem is None:
        return None
    what = {"eof-in-tag": "tag", "eof-in-comment": "comment", "eof-in-doctype": "DOCTYPE"}

    def told(offset: int, code: str) -> None:
        on_problem(chars.at(offset),
                   f"{what.get(code, 'markup')} not closed before the end of the part ({code})")
    return told
