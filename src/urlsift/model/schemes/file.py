"""file URLs (RFC 1738 §3.10).

>>> from urlsift import parse
>>> u = parse("file:///etc/motd")
>>> u.host, u.path, u.is_local
('', '/etc/motd', True)
"""
from __future__ import annotations

from typing import Optional

from ..._grammar import G_FILE
from ..url import HierURL, _cached, decode


class FileURL(HierURL):
    """``file://<host>/<path>``; host "" or "localhost" is this machine."""

    __slots__ = ()
    default_scheme = "file"
    grammar = G_FILE
    _PARTS = ("scheme", "host", "path", "is_local", "fragment")

    @_cached
    def path(self) -> Optional[str]:
        """The decoded path with its leading "/" (None when absent)."""
        a, b = self._region()
        return None if a < 0 or a == b else decode(self._text[a:b])

    @property
    def is_local(self) -> bool:
        """True for host "" or "localhost" (any case), and for ``file:/path`` (lenient)."""
        h = self.host
        return h is None or h == "" or h.lower() == "localhost"
