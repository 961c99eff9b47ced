"""wais URLs (RFC 1738 §3.9).

>>> from urlsift import parse
>>> u = parse("wais://quake.think.com/wais-discussion-archives?lynch")
>>> u.database, u.search
('wais-discussion-archives', 'lynch')
"""
from __future__ import annotations

from typing import Optional

from ..._grammar import G_WAIS
from ..url import HierURL, _cached, decode


class WaisURL(HierURL):
    """``wais://host:port/database``, ``...database?search``, ``...database/wtype/wpath``."""

    __slots__ = ()
    default_scheme = "wais"
    grammar = G_WAIS
    _PARTS = ("scheme", "host", "port", "database", "search", "wtype", "wpath", "fragment")

    @_cached
    def _w(self) -> tuple[Optional[str], Optional[str], Optional[str], Optional[str]]:
        a, b = self._region()
        text = self._text[a + 1:b]
        if a == b:
            return None, None, None, None
        q, s = text.find("?"), text.find("/")
        if q >= 0 and (s < 0 or q < s):
            return decode(text[:q]), text[q + 1:], None, None
        if s >= 0:
            wtype, _, wpath = text[s + 1:].partition("/")
            return decode(text[:s]), None, decode(wtype), decode(wpath)
        return decode(text), None, None, None

    @property
    def database(self) -> Optional[str]:
        """The decoded database name."""
        return self._w[0]

    @property
    def search(self) -> Optional[str]:
        """The search, as written (not decoded), or None."""
        return self._w[1]

    @property
    def wtype(self) -> Optional[str]:
        """The decoded WAIS type of the document, or None."""
        return self._w[2]

    @property
    def wpath(self) -> Optional[str]:
        """The decoded WAIS document-id, or None."""
        return self._w[3]
