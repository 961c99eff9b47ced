"""http and https URLs (RFC 1738 §3.3).

>>> from urlsift import parse
>>> u = parse("http://info.cern.ch/albert/bertram%2Fmarie-claude?x")
>>> u.path, u.segments, u.search
('/albert/bertram%2Fmarie-claude', ('albert', 'bertram/marie-claude'), 'x')
"""
from __future__ import annotations

from typing import Optional

from ..._fields import PATH_START, SEARCH_START
from ..._grammar import G_HTTP
from ..url import HierURL, _cached, decode


class HttpURL(HierURL):
    """``http://host:port/path?search``; no user or password in strict mode."""

    __slots__ = ()
    default_scheme = "http"
    grammar = G_HTTP
    _PARTS = HierURL._PARTS[:-1] + ("path", "search", "segments", "fragment")

    @property
    def path(self) -> Optional[str]:
        """The path as written, with its leading "/", or None."""
        return self._span(PATH_START)

    @property
    def search(self) -> Optional[str]:
        """The search part as written, without "?", or None."""
        return self._span(SEARCH_START)

    @_cached
    def segments(self) -> tuple[str, ...]:
        """The decoded path segments (after the leading "/"); () without a path."""
        p = self._span(PATH_START)
        return () if p is None else tuple(decode(s) for s in p[1:].split("/"))
