"""Links in an HTML part: ``href``/``src`` attribute values and the URLs of its text.

A link whose text is its own URL (``<a href="U">U</a>``) counts once; relative
links are resolved against ``<base href>`` (RFC 3986), or dropped when there is none
(a relative link in a mail has nothing to be relative to).
"""
from __future__ import annotations

import re
from html.parser import HTMLParser
from typing import Callable, Iterable, Iterator, Optional

from ..model.partial import resolve

__all__ = ["html_hits"]

_HTML_URL_ATTRS = frozenset({"href", "src"})

#: ``scan(text)`` -> ``(match, start, end, raw, refanged)`` of the URLs of ``text``.
Scan = Callable[[str], Iterable[tuple]]


class _LinkParser(HTMLParser):
    """Collects href/src attribute values and text runs, with their offsets."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.links: list[tuple[str, str, int]] = []      # (value, attribute, offset)
        self.texts: list[tuple[str, int, Optional[str]]] = []  # (text, offset, anchor href)
        self.base: Optional[str] = None
        self._anchor: Optional[str] = None

    def _offset(self) -> int:
        line, col = self.getpos()
        return self._line_starts[min(line, len(self._line_starts)) - 1] + col

    def handle_starttag(self, tag: str, attrs: list) -> None:
        pos = self._offset()
        href = None
        for name, value in attrs:
            if name in _HTML_URL_ATTRS and value and value.strip():
                if tag == "base" and name == "href":
                    self.base = value.strip()
                    continue
                self.links.append((value.strip(), name, pos))
                if name == "href":
                    href = value.strip()
        if tag == "a":
            self._anchor = href

    def handle_endtag(self, tag: str) -> None:
        if tag == "a":
            self._anchor = None

    def handle_data(self, data: str) -> None:
        self.texts.append((data, self._offset(), self._anchor))


def html_hits(text: str, scan: Scan) -> Iterator[tuple[tuple, str]]:
    """``(hit, how)`` in document order: ``how`` is the attribute (``href``/``src``)
    or ``"text"``; ``hit`` is ``(match, start, end, raw, refanged)``, offsets into
    ``text`` (an attribute's are its tag's)."""
    parser = _LinkParser(text)
    parser.feed(text)
    parser.close()
    # Text runs and attributes in document order, so output follows the message.
    events: list[tuple[int, int, tuple, str]] = []
    for value, attr, pos in parser.links:
        target = _absolute(value, parser.base)
        if target is None:
            continue
        for hit in scan(target):
            m, _, _, _, refanged = hit
            events.append((pos, 0, (m, pos, pos, value, refanged), attr))
    for data, pos, anchor in parser.texts:
        for hit in scan(data):
            m, start, end, raw, refanged = hit
            if anchor is not None and _same_link(m.url, anchor):
                continue  # <a href="U">U</a>: the href has reported it already
            events.append((pos + start, 1, (m, pos + start, pos + end, raw, refanged), "text"))
    events.sort(key=lambda e: (e[0], e[1]))
    for _, _, hit, how in events:
        yield hit, how


def _same_link(url: str, href: str) -> bool:
    return url == href or url.rstrip("/") == href.rstrip("/")


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

