"""The links of an HTML part as a mail client shows and follows them: the one entry
point a walker calls (:func:`html_links`).

The part's octets go through the HTML tokenizer core (``cores.html``, WHATWG HTML
§13.2.5: comments, raw text and RCDATA elements, character references as the spec
reads them); what it gives is turned here into what a URL finder needs:

- a text run (``"#text"``) is text to scan for URLs, as it is shown (references decoded);
- the value of a URL attribute is a URL as the browser reads it (:func:`clean_href`,
  the URL Standard's clean-up, with the edits it made), one per candidate of a
  ``srcset`` (HTML's srcset parsing), one per token of ``ping``, the URL of a
  ``<meta http-equiv=refresh>`` (HTML's "shared declarative refresh steps") and each
  ``url(…)`` or ``@import`` string of a ``style`` attribute or ``<style>`` block;
- ``<base href>`` (the first one, as HTML takes it) is given as the field
  ``"base href"``: relative links are resolved against it by the caller, and a value
  whose scheme is the base's own is read relative to it as the URL Standard does;
- with ``anchors``, each ``<a>`` start tag and ``</a>`` end tag (fields ``"<a>"`` and
  ``"</a>"``, the tag's span; a start tag's comes before its attributes' links), for
  the caller's rules on a link's text.

>>> [(x.field, x.value, x.edits) for x in html_links(
...     b'<a href=" http://evil.example/a">x &amp; y</a><img srcset="a.png 1x, b.png 2x">')]
[('href', b'http://evil.example/a', ('c0-or-space-stripped',)), ('#text', b'x & y', ()), \
('srcset', b'a.png', ()), ('srcset', b'b.png', ())]
"""
from __future__ import annotations

import re
from typing import Callable, Iterator, NamedTuple, Optional

from .._select import cores
from .hrefs import SPECIAL_SCHEMES, clean_href

__all__ = ["HtmlLink", "html_links", "refresh_url", "srcset_urls", "style_urls"]

_ASCII_WHITESPACE = "\t\n\x0c\r "
# one character class after each fixed opener: no backtracking, linear in the text
_CSS_URL = re.compile(r"""url\(\s*(?:"([^"]*)"|'([^']*)'|([^)\s("']+))"""
                      r"""|@import\s*(?:"([^"]*)"|'([^']*)')""", re.IGNORECASE)
#: what each field's value holds
_TEXT, _STYLE_TEXT = "#text", "#style"
#: the tags of an anchor (``anchors=True``): spans, no value to read
_ANCHOR_TAGS = frozenset({"<a>", "</a>"})


class HtmlLink(NamedTuple):
    """One thing of an HTML part worth a URL finder's look.

    ``field``: ``"#text"`` (text to scan) or the attribute it came from
    (``urlsift._html_py.FIELDS``); ``start``/``end``: the span of the run or attribute
    value in the part; ``value``: the text (references decoded) or the URL as a browser
    reads it, in the part's octets (UTF-8 where a reference was decoded); ``raw``: the
    span's octets as written; ``edits``: what :func:`clean_href` did.
    """

    field: str
    start: int
    end: int
    value: bytes
    raw: bytes
    edits: tuple[str, ...]


def srcset_urls(value: str) -> list[str]:
    """The URL of each image candidate of a ``srcset`` (HTML "parse a srcset attribute":
    a URL is a run of non-whitespace; its descriptors run to the next comma outside
    parentheses).

    >>> srcset_urls(" a.png 1x,b.png (x,y) 2x , c.png,,, d.png")
    ['a.png', 'b.png', 'c.png', 'd.png']
    """
    out: list[str] = []
    i, n = 0, len(value)
    while True:
        while i < n and (value[i] in _ASCII_WHITESPACE or value[i] == ","):
            i += 1
        if i >= n:
            return out
        j = i
        while j < n and value[j] not in _ASCII_WHITESPACE:
            j += 1
        url = value[i:j]
        i = j
        if url.endswith(","):
            url = url.rstrip(",")
        else:                       # the descriptors: to a comma outside parentheses
            in_parens = False
            while i < n:
                c = value[i]
                i += 1
                if in_parens:
                    in_parens = c != ")"
                elif c == "(":
                    in_parens = True
                elif c == ",":
                    break
        out.append(url)


def refresh_url(content: str) -> Optional[str]:
    """The URL of a ``<meta http-equiv=refresh content>`` (HTML's shared declarative
    refresh steps), or None when it names none.

    >>> refresh_url("0; URL='http://r.example/'"), refresh_url("5"), refresh_url("x")
    ('http://r.example/', None, None)
    """
    i, n = 0, len(content)

    def skip_whitespace(k: int) -> int:
        while k < n and content[k] in _ASCII_WHITESPACE:
            k += 1
        return k

    i = skip_whitespace(i)
    start = i
    while i < n and content[i].isascii() and content[i].isdigit():
        i += 1
    if i == start and not content.startswith(".", i):
        return None
    while i < n and (content[i] == "." or (content[i].isascii() and content[i].isdigit())):
        i += 1
    if i >= n:
        return None
    if content[i] not in ";," + _ASCII_WHITESPACE:
        return None
    i = skip_whitespace(i)
    if i < n and content[i] in ";,":
        i = skip_whitespace(i + 1)
    if i >= n:
        return None
    url = content[i:]
    j = i
    if content[j] in "Uu":
        if content[j + 1:j + 2] not in ("R", "r") or content[j + 2:j + 3] not in ("L", "l"):
            return url
        j = skip_whitespace(j + 3)
        if not content.startswith("=", j):
            return url
        j = skip_whitespace(j + 1)
    quote = content[j] if j < n and content[j] in "'\"" else ""
    url = content[j + len(quote):]
    if quote and quote in url:
        url = url[:url.index(quote)]
    return url


def style_urls(css: str) -> list[str]:
    """The ``url(…)`` and ``@import`` strings of CSS (a ``style`` attribute or block).

    >>> style_urls("a{background:URL( 'http://a.example/x' )} @import \\"b.css\\"; url(c)")
    ['http://a.example/x', 'b.css', 'c']
    """
    return [next(g for g in m.groups() if g is not None) for m in _CSS_URL.finditer(css)]


def _text(octets: bytes) -> str:
    return octets.decode("utf-8", "surrogateescape")


def _octets(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


def html_links(data: bytes, anchors: bool = False,
               on_problem: Optional[Callable[[int, str], None]] = None) -> list[HtmlLink]:
    """The text runs and links of the HTML part ``data`` (its octets, transfer encoding
    undone), in the order of the part; see the module's docstring. ``on_problem(offset,
    code)`` hears where the part ends inside a tag or comment (the spec's ``eof-in-*``).

    >>> [x.value for x in html_links(b"<!--->http://a.example/<title><!--</title>")]
    [b'http://a.example/', b'<!--']
    >>> [x.field for x in html_links(b"<a href=http://a.example/>x</a>", anchors=True)]
    ['<a>', 'href', '#text', '</a>']
    """
    html = cores.html
    records, problems = html.html_runs(data, anchors=anchors)
    if on_problem is not None:
        for offset, code in problems:
            on_problem(offset, code)
    fields = html.FIELDS
    base_scheme = ""
    for field, start, end, decoded in records:
        if fields[field] == "base href":
            base = clean_href(_text(data[start:end] if decoded is None else decoded)).url
            colon = base.find(":")
            base_scheme = base[:colon].lower() if colon > 0 else ""
            break
    return list(_links(data, records, fields, base_scheme))


def _links(data: bytes, records: list, fields: tuple, base_scheme: str) -> Iterator[HtmlLink]:
    for number, start, end, decoded in records:
        field = fields[number]
        raw = data[start:end]
        value = raw if decoded is None else decoded
        if field == _TEXT or field in _ANCHOR_TAGS:
            yield HtmlLink(field, start, end, value, raw, ())
            continue
        text = _text(value)
        if field in ("srcset", "ping"):
            urls = srcset_urls(text) if field == "srcset" else text.split()
        elif field == "refresh content":
            found = refresh_url(text)
            urls = [] if found is None else [found]
        elif field in ("style", _STYLE_TEXT):
            urls = style_urls(text)
        else:
            urls = [text]
        for url in urls:
            cleaned = clean_href(url, base_scheme if base_scheme in SPECIAL_SCHEMES else "")
            yield HtmlLink(field, start, end, _octets(cleaned.url), raw, cleaned.edits)
