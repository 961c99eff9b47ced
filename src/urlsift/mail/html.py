"""Links in an HTML part: ``href``/``src`` attribute values and the URLs of its text.

A link whose text is its own URL (``<a href="U">U</a>``) counts once; relative
links are resolved against ``<base href>`` (RFC 3986), or dropped when there is none
(a relative link in a mail has nothing to be relative to).

The part is read by a small tokenizer of our own, not :mod:`html.parser`: one pass
from left to right, each step a ``str.find`` or an anchored match of one character
class, so its time is linear in the part whatever the part holds (``html.parser``
takes minutes on ``'<a ' * 50000`` and raises on ``<![ x``, which let a sender hide
every link of a message). Malformed markup is read the way HTML5 browsers read it
(``<!...>``, ``<?...>`` and ``</...>`` not starting with a letter are bogus comments
ending at the first ``>``; a tag, comment or quoted value that never ends runs to the
end of the part) and never raises: what it hid is reported through ``on_problem``.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from html import unescape
from typing import Callable, Iterable, Iterator, Optional

from ..model.partial import resolve
from .anchors import anchor_text, same_link   # the rule, defined once for both mail paths
from .htmllinks import html_links as tokenized

__all__ = ["decode_char_refs", "html_hits", "html_links", "html_tokens", "same_link"]

_HTML_URL_ATTRS = frozenset({"href", "src"})
#: Elements whose content is raw text up to their end tag (as html.parser had it).
_RAW_TEXT = ("script", "style")

#: ``scan(text)`` -> ``(match, start, end, raw, refanged)`` of the URLs of ``text``.
Scan = Callable[[str], Iterable[tuple]]
#: ``on_problem(offset, what)``: malformed markup met at ``offset`` of the part.
Problem = Callable[[int, str], None]

# Each pattern is one character class, matched at a given place: no backtracking.
_SPACE = re.compile(r"[\t\n\f\r /]*")          # between attributes ("/" as HTML5 does)
_WS = re.compile(r"[\t\n\f\r ]*")
_TAG_NAME = re.compile(r"[^\t\n\f\r />]*")
_ATTR_NAME = re.compile(r"[^\t\n\f\r />=]*")
_UNQUOTED = re.compile(r"[^\t\n\f\r >]*")
_RAW_END = {name: re.compile(f"</{name}[\t\n\f\r />]", re.IGNORECASE) for name in _RAW_TEXT}
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


def _past(pattern: "re.Pattern[str]", text: str, pos: int) -> int:
    """The offset after what ``pattern`` (one character class, starred) takes at ``pos``."""
    m = pattern.match(text, pos)
    return m.end() if m else pos


def _ascii_letter(c: str) -> bool:
    return ("a" <= c <= "z") or ("A" <= c <= "Z")


def html_tokens(text: str, on_problem: Optional[Problem] = None) -> Iterator[tuple]:
    """The tokens of ``text`` that matter for links, in order:

    - ``("start", offset, tag, attrs)``: a start tag, ``tag`` lower case, ``attrs`` a
      list of ``(name, value)`` (name lower case, value entity-decoded, None without
      ``=``);
    - ``("end", offset, tag)``: an end tag;
    - ``("text", offset, raw)``: a run of text as written (entities not decoded), and
      ``("rawtext", offset, raw)`` for the content of ``<script>``/``<style>``.

    Comments, declarations and processing instructions are skipped.
    """
    problem = on_problem or (lambda offset, what: None)
    n = len(text)
    i = 0           # where reading goes on
    run = 0         # where the current text run began
    while True:
        j = text.find("<", i)
        if j < 0 or j + 1 >= n:
            break
        c = text[j + 1]
        if not (_ascii_letter(c) or c in "/!?"):
            i = j + 1           # "a < b": a "<" that opens nothing is text
            continue
        if c == "/" and j + 2 < n and text[j + 2] == ">":
            if run < j:
                yield "text", run, text[run:j]
            i = run = j + 3     # "</>": nothing
            continue
        if run < j:
            yield "text", run, text[run:j]
        if _ascii_letter(c) or (c == "/" and j + 2 < n and _ascii_letter(text[j + 2])):
            end, token = _tag(text, j)
            if token is None:
                problem(j, "tag not closed before the end of the part")
                i = run = n
                break
            yield token
            i = run = end
            if token[0] == "start" and token[2] in _RAW_TEXT:
                m = _RAW_END[token[2]].search(text, i)
                stop = m.start() if m else n
                if i < stop:
                    yield "rawtext", i, text[i:stop]
                i = run = stop
            continue
        if text.startswith("<!--", j):
            k = text.find("-->", j + 4)
            if k < 0:
                problem(j, "comment not closed before the end of the part")
                i = run = n
                break
            i = run = k + 3
            continue
        # "<!DOCTYPE ...>", "<?xml ...?>", and the bogus comments "<![ x", "</ x", "<!x":
        # all end at the first ">".
        k = text.find(">", j + 2)
        bogus = not (c == "?" or text[j + 2:j + 9].lower() == "doctype")
        if k < 0:
            problem(j, f"{text[j:j + 3]!r} not closed before the end of the part")
            i = run = n
            break
        if bogus:
            problem(j, f"malformed markup {text[j:min(k + 1, j + 12)]!r} skipped up to offset {k + 1}")
        i = run = k + 1
    if run < n:
        yield "text", run, text[run:]


def _tag(text: str, j: int) -> tuple[int, Optional[tuple]]:
    """The tag at ``text[j]`` (``<`` then a letter, or ``</`` then a letter): the offset
    after its ``>`` and its token, or ``(len(text), None)`` when it never ends."""
    n = len(text)
    closing = text[j + 1] == "/"
    p = j + 2 if closing else j + 1
    q = _past(_TAG_NAME, text, p)
    tag = text[p:q].lower()
    attrs: list[tuple[str, Optional[str]]] = []
    p = q
    while True:
        p = _past(_SPACE, text, p)
        if p >= n:
            return n, None
        if text[p] == ">":
            break
        # an attribute name may begin with "=" (HTML5), then runs to space, "/", ">", "="
        q = _past(_ATTR_NAME, text, p + 1)
        name = text[p:q].lower()
        p = _past(_WS, text, q)
        value: Optional[str] = None
        if p < n and text[p] == "=":
            p = _past(_WS, text, p + 1)
            if p >= n:
                return n, None
            quote = text[p]
            if quote in "\"'":
                q = text.find(quote, p + 1)
                if q < 0:
                    return n, None
                value = decode_char_refs(text[p + 1:q])
                p = q + 1
            else:
                q = _past(_UNQUOTED, text, p)
                value = decode_char_refs(text[p:q])
                p = q
        attrs.append((name, value))
    if closing:
        return p + 1, ("end", j, tag)
    return p + 1, ("start", j, tag, attrs)


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


def html_hits(text: str, scan: Scan,
              on_problem: Optional[Problem] = None) -> Iterator[tuple[tuple, str]]:
    """``(hit, how)`` in document order: ``how`` is the attribute (``href``/``src``)
    or ``"text"``; ``hit`` is ``(match, start, end, raw, refanged)``, offsets into
    ``text`` (an attribute's are its tag's; a text URL's ``raw`` is entity-decoded).
    Malformed markup never raises: it is reported through ``on_problem(offset, what)``
    and read on past, as a browser would."""
    for hit, how, _ in html_links(text, scan, on_problem):
        yield hit, how


def html_links(text: str, scan: Scan,
               on_problem: Optional[Problem] = None) -> Iterator[tuple[tuple, str, Optional[str]]]:
    """:func:`html_hits` with, for the ``href`` of an ``<a>``, the text the reader sees
    on the link (:func:`urlsift.mail.anchors.anchor_text` of the text runs inside the
    ``<a>``, character references decoded), else None.

    >>> from urlsift.mail.message import _scan, options
    >>> page = '<a href="http://evil.example/">https://bank.example/ &amp; more</a>'
    >>> [(hit[0].url, how, shown) for hit, how, shown in html_links(page, lambda t: _scan(t, options(None, None, False), quoted=False))]
    [('http://evil.example/', 'href', 'https://bank.example/ & more'), ('https://bank.example/', 'text', None)]
    """
    links: list[tuple[str, str, int, int]] = []     # (value, attribute, offset, anchor)
    texts: list[tuple[str, int, Optional[str], bool, int]] = []  # (raw, offset, anchor href, decode, anchor)
    shown: dict[int, list[str]] = {}                # anchor -> its text runs, decoded
    base: Optional[str] = None
    anchor: Optional[str] = None
    current = -1                                    # the <a> the text is in (its number)
    for token in html_tokens(text, on_problem):
        kind, pos = token[0], token[1]
        if kind == "start":
            tag, attrs = token[2], token[3]
            href = None
            number = len(links) if tag == "a" else -1
            for name, value in attrs:
                if name in _HTML_URL_ATTRS and value and value.strip():
                    if tag == "base" and name == "href":
                        base = value.strip()
                        continue
                    if name == "href":
                        href = value.strip()
                        number = len(links)
                    links.append((value.strip(), name, pos, number if name == "href" else -1))
            if tag == "a":
                anchor = href
                current = number if href is not None else -1
        elif kind == "end":
            if token[2] == "a":
                anchor = None
                current = -1
        else:
            texts.append((token[2], pos, anchor, kind == "text", current))
            if current >= 0:      # the runs of an <a>, as the walk lays them (rawtext too)
                shown.setdefault(current, []).append(
                    decode_char_refs(token[2]) if kind == "text" else token[2])
    # Text runs and attributes in document order, so output follows the message.
    events: list[tuple[int, int, tuple, str, Optional[str]]] = []
    for value, attr, pos, number in links:
        target = _absolute(value, base)
        if target is None:
            continue
        seen = anchor_text("".join(shown[number])) if number in shown else None
        for hit in scan(target):
            m, _, _, _, refanged = hit
            events.append((pos, 0, (m, pos, pos, value, refanged), attr, seen))
    for raw, pos, anchor, decode, _ in texts:
        data, starts, origins = _decoded(raw) if decode else (raw, [0], [0])
        for hit in scan(data):
            m, start, end, found, refanged = hit
            if anchor is not None and same_link(m.url, anchor):
                continue  # <a href="U">U</a>: the href has reported it already
            a = pos + _back(start, starts, origins)
            b = pos + _back(end, starts, origins)
            events.append((a, 1, (m, a, b, found, refanged), "text", None))
    events.sort(key=lambda e: (e[0], e[1]))
    for _, _, hit, how, seen in events:
        yield hit, how, seen


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


# -- the same over the WHATWG tokenizer (issue 25; wired in when the walk reads alike) --

#: the fields of :func:`urlsift.mail.htmllinks.html_links` read as text, not as links
_TEXT_FIELDS = frozenset({"#text"})


def whatwg_links(text: str, scan: Scan, on_problem: Optional[Problem] = None
                 ) -> Iterator[tuple[tuple, str, Optional[str]]]:
    """:func:`html_links` over the HTML tokenizer core (WHATWG HTML §13.2.5, through
    :func:`urlsift.mail.htmllinks.html_links`): HTML5 comment ends, raw text and RCDATA
    elements, the spec's character references, every URL attribute of the attribute
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
