"""gopher URLs (RFC 1738 §3.4; draft-ietf-uri-url-03 for gopher+).

>>> from urlsift import parse
>>> u = parse("gopher://host/7a_gopher_selector%09foobar")
>>> u.gtype, u.selector, u.search, u.gopher_plus
('7', 'a_gopher_selector', 'foobar', None)
"""
from __future__ import annotations

from typing import Optional

from ..._grammar import G_GOPHER
from ..url import HierURL, _cached, decode


class GopherURL(HierURL):
    """``gopher://host:port/<gtype><selector>%09<search>%09<gopher+_string>``."""

    __slots__ = ()
    default_scheme = "gopher"
    grammar = G_GOPHER
    _PARTS = HierURL._PARTS[:-1] + ("gtype", "selector", "search", "gopher_plus", "fragment")

    @_cached
    def _gpath(self) -> tuple[str, str, Optional[str], Optional[str]]:
        a, b = self._region()
        text = self._text[a + 1:b]
        if not text:
            return "1", "", None, None  # §3.4: empty gopher-path: gtype "1", top level
        n = 3 if text[0] == "%" and len(text) >= 3 else 1
        gtype, rest = decode(text[:n]), text[n:]
        # §3.4: split on the first two %09 only (the tab delimiters)
        pieces: list[Optional[str]] = list(
            rest.replace("%09", "\t", 2).split("\t", 2) if "%09" in rest else [rest])
        pieces += [None] * (3 - len(pieces))
        sel, search, plus = pieces
        return (gtype, decode(sel or ""), None if search is None else decode(search),
                None if plus is None else decode(plus))

    @property
    def gtype(self) -> str:
        """The one-character gopher type; "1" when the gopher-path is empty."""
        return self._gpath[0]

    @property
    def selector(self) -> str:
        """The decoded selector ("" is the top level)."""
        return self._gpath[1]

    @property
    def search(self) -> Optional[str]:
        """The decoded search string after the first %09, or None."""
        return self._gpath[2]

    @property
    def gopher_plus(self) -> Optional[str]:
        """The decoded gopher+ string after the second %09, or None."""
        return self._gpath[3]
