"""prospero URLs (RFC 1738 §3.11).

>>> from urlsift import parse
>>> parse("prospero://host.dom//pros/name").hsoname       # §3.11
'/pros/name'
"""
from __future__ import annotations

from typing import Optional

from ..._grammar import G_PROSPERO
from ..url import HierURL, _cached, decode


class ProsperoURL(HierURL):
    """``prospero://host:port/<hsoname>;<field>=<value>``."""

    __slots__ = ()
    default_scheme = "prospero"
    grammar = G_PROSPERO
    _PARTS = ("scheme", "host", "port", "hsoname", "fields", "fragment")

    @_cached
    def _hf(self) -> tuple[Optional[str], tuple[tuple[str, str], ...]]:
        a, b = self._region()
        if a == b:
            return None, ()
        hso, *specs = self._text[a + 1:b].split(";")
        fields = []
        for spec in specs:
            name, _, value = spec.partition("=")
            fields.append((decode(name), decode(value)))
        return decode(hso), tuple(fields)

    @property
    def hsoname(self) -> Optional[str]:
        """The decoded host-specific object name."""
        return self._hf[0]

    @property
    def fields(self) -> tuple[tuple[str, str], ...]:
        """The decoded ``;field=value`` pairs, in order."""
        return self._hf[1]
