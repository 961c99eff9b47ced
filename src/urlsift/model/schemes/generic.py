"""Every other scheme (RFC 1738 §5 genericurl), ``x-`` schemes included.

>>> from urlsift import parse
>>> u = parse("urn:/iana/dns/ch/cern/cn/techdoc/94/1642-3")
>>> u.scheme, u.schemepart, u.host
('urn', '/iana/dns/ch/cern/cn/techdoc/94/1642-3', None)
"""
from __future__ import annotations

from typing import Optional

from ..._fields import (FRAGMENT_START, HOST_START, PASSWORD_START, PATH_START, PORT_START,
                        SCHEME_END, SEARCH_START, USER_START)
from ..._grammar import G_GENERIC
from ..url import URL, _cached


class GenericURL(URL):
    """``scheme:schemepart``; a ``//`` schemepart is split into login/host/port/path too."""

    __slots__ = ()
    grammar = G_GENERIC
    _PARTS = ("scheme", "schemepart", "user", "password", "host", "port", "path", "fragment")

    @property
    def schemepart(self) -> str:
        """Everything after "scheme:" up to the fragment, as written."""
        t = self._t
        end = t[FRAGMENT_START] - 1 if t[FRAGMENT_START] >= 0 else len(self._text)
        return self._text[t[SCHEME_END] + 1:end]

    @property
    def user(self) -> Optional[str]:
        """The user as written (``//`` form only)."""
        return self._span(USER_START)

    @property
    def password(self) -> Optional[str]:
        """The password as written (``//`` form only)."""
        return self._span(PASSWORD_START)

    @property
    def host(self) -> Optional[str]:
        """The host as written (``//`` form only)."""
        return self._span(HOST_START)

    @_cached
    def port(self) -> Optional[int]:
        """The port when it is digits (``//`` form only), else None."""
        p = self._span(PORT_START)
        return int(p) if p and p.isdigit() and p.isascii() and len(p) <= 5 else None

    @property
    def path(self) -> Optional[str]:
        """The url-path as written with its "/" and any "?search" (``//`` form only)."""
        t = self._t
        if t[HOST_START] < 0:
            return None
        end = t[FRAGMENT_START] - 1 if t[FRAGMENT_START] >= 0 else len(self._text)
        start = t[PATH_START] if t[PATH_START] >= 0 else (
            t[SEARCH_START] - 1 if t[SEARCH_START] >= 0 else end)
        return self._text[start:end] if start < end else None
