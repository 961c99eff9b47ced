"""telnet, rlogin and tn3270 URLs (RFC 1738 §3.8).

>>> from urlsift import parse
>>> u = parse("telnet://guest:secret@host.dom/")
>>> u.user, u.password, u.effective_port
('guest', 'secret', 23)
"""
from __future__ import annotations

from ..._grammar import G_TELNET
from ..url import HierURL


class TelnetURL(HierURL):
    """``telnet://user:password@host:port/``; user and password are advisory only."""

    __slots__ = ()
    default_scheme = "telnet"
    grammar = G_TELNET
