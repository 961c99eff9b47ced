"""ftp URLs (RFC 1738 §3.2).

>>> from urlsift import parse
>>> u = parse("ftp://myname@host.dom/%2Fetc/motd")      # §3.2.2: CWD /etc, RETR motd
>>> u.cwd, u.name
(('/etc',), 'motd')
"""
from __future__ import annotations

from typing import Optional

from ..._grammar import G_FTP
from ..url import HierURL, _cached, decode


class FtpURL(HierURL):
    """``ftp://user:password@host:port/cwd1/.../name;type=typecode``."""

    __slots__ = ()
    default_scheme = "ftp"
    grammar = G_FTP
    _PARTS = HierURL._PARTS[:-1] + ("segments", "typecode", "fragment")

    @_cached
    def _fpath(self) -> tuple[Optional[str], Optional[str]]:
        """(fpath as written, typecode) -- the url-path split at ``;type=``."""
        a, b = self._region()
        if a == b:
            return None, None
        text = self._text[a + 1:b]
        semi = text.find(";type=")
        if semi >= 0 and len(text) - semi == 7:
            return text[:semi], text[-1].lower()
        return text, None

    @_cached
    def segments(self) -> tuple[str, ...]:
        """The decoded url-path split on unencoded "/" (``ftp://h/`` gives ``("",)``)."""
        fpath = self._fpath[0]
        return () if fpath is None else tuple(decode(s) for s in fpath.split("/"))

    @property
    def cwd(self) -> tuple[str, ...]:
        """The CWD arguments: every segment but the last (§3.2.2)."""
        return self.segments[:-1]

    @property
    def name(self) -> Optional[str]:
        """The RETR argument: the last segment; None without a url-path."""
        return self.segments[-1] if self.segments else None

    @property
    def typecode(self) -> Optional[str]:
        """"a", "i" or "d" (lower-cased), None when ``;type=`` is omitted (§3.2.2)."""
        return self._fpath[1]
