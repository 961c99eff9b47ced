"""The default port of each scheme: the one table every module reads.

RFC 1738 §3 gives the defaults of the schemes it defines ("If :<port> is omitted,
the port defaults to ..."); https is RFC 2818's. rlogin and tn3270 have no port
in RFC 1738: 513 (rlogin, RFC 1282) and 23 (tn3270 runs over telnet), as
docs/design.md#the-scheme-classes settles. Equivalence (rule 3: the default port
equals no port) and the scheme classes (``effective_port``) both read
:data:`DEFAULT_PORTS`, so a scheme's default is defined exactly once. A port given
to ``register_scheme(..., default_port=N)`` is kept here too (:func:`set_registered_port`):
it counts for ``effective_port`` and the security notes, never for equivalence.

>>> DEFAULT_PORTS["http"], default_port("HTTP"), default_port("mailto")
(80, 80, None)
"""
from __future__ import annotations

from types import MappingProxyType
from typing import Mapping, Optional

__all__ = ["DEFAULT_PORTS", "default_port", "set_registered_port"]

#: scheme (lower case) -> default port. Read-only; schemes without a port are absent.
DEFAULT_PORTS: Mapping[str, int] = MappingProxyType({
    "ftp": 21,          # RFC 1738 §3.2
    "http": 80,         # RFC 1738 §3.3
    "https": 443,       # RFC 2818 §2.3
    "gopher": 70,       # RFC 1738 §3.4
    "nntp": 119,        # RFC 1738 §3.7
    "telnet": 23,       # RFC 1738 §3.8
    "rlogin": 513,      # RFC 1282; docs/design.md#the-scheme-classes: telnet's grammar
    "tn3270": 23,       # docs/design.md#the-scheme-classes: telnet's grammar, port
    "wais": 210,        # RFC 1738 §3.9
    "prospero": 1525,   # RFC 1738 §3.11
})


#: Ports given with ``register_scheme``: scheme -> port (they win over the table).
_registered: dict[str, int] = {}


def default_port(scheme: str) -> Optional[int]:
    """The default port of ``scheme`` (any case): as registered, else the table's, else None.

    >>> default_port("wais"), default_port("file")
    (210, None)
    """
    name = scheme.lower()
    port = _registered.get(name)
    return port if port is not None else DEFAULT_PORTS.get(name)


def set_registered_port(scheme: str, port: Optional[int]) -> None:
    """Record (or with None forget) the default port ``register_scheme`` was given."""
    if port is None:
        _registered.pop(scheme, None)
    else:
        _registered[scheme] = port
