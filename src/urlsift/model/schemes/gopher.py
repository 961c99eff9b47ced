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

    def _split(self) -> tuple[int, int, int, int]:
        """Offsets in ``str(self)`` of the gopher-path after its "/" (``a``), of the
        selector after the gtype, and of the first and second ``%09`` (-1 when absent),
        with the path's end: ``(a, selector, tab1, tab2)``; the end is ``_region()[1]``.
        §3.4 splits the path at the first two %09 only (the tab delimiters)."""
        a, b = self._region()
        a += 1
        if a >= b:
            return a, a, -1, -1
        text = self._text
        sel = a + (3 if text[a] == "%" and b - a >= 3 else 1)
        t1 = text.find("%09", sel, b)
        t2 = text.find("%09", t1 + 3, b) if t1 >= 0 else -1
        return a, sel, t1, t2

    @_cached
    def _gpath(self) -> tuple[str, str, Optional[str], Optional[str]]:
        a, sel, t1, t2 = self._split()
        b = self._region()[1]
        if a >= b:
            return "1", "", None, None  # §3.4: empty gopher-path: gtype "1", top level
        text = self._text
        gtype = decode(text[a:sel])
        if t1 < 0:
            return gtype, decode(text[sel:b]), None, None
        search = decode(text[t1 + 3:b if t2 < 0 else t2])
        return gtype, decode(text[sel:t1]), search, None if t2 < 0 else decode(text[t2 + 3:b])

    def _search_span(self) -> Optional[tuple[int, int]]:
        """Where the search is written in ``str(self)`` (between the first and the second
        ``%09``, or the end), or None without one.

        >>> from urlsift import parse
        >>> parse("gopher://h/7sel%09a/b%09+")._search_span()
        (18, 21)
        """
        a, sel, t1, t2 = self._split()
        if t1 < 0:
            return None
        return t1 + 3, (self._region()[1] if t2 < 0 else t2)

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
