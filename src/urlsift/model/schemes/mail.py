"""mailto, news, nntp (RFC 1738 §3.5-§3.7) and mid, cid (the 1994 URI draft).

>>> from urlsift import parse
>>> parse("news:comp.infosystems.www.misc").group
'comp.infosystems.www.misc'
>>> parse("nntp://news.dom/comp.lang.c/42").article
42
"""
from __future__ import annotations

from typing import Optional

from ..._fields import FRAGMENT_START, SCHEME_END
from ..._grammar import G_MAILTO, G_MID, G_NEWS, G_NNTP
from ..url import HierURL, URL, _cached, decode


class _OpaqueURL(URL):
    __slots__ = ()

    def _schemepart(self) -> str:
        """The text after "scheme:" up to the fragment, as written."""
        t = self._t
        end = t[FRAGMENT_START] - 1 if t[FRAGMENT_START] >= 0 else len(self._text)
        return self._text[t[SCHEME_END] + 1:end]


class MailtoURL(_OpaqueURL):
    """``mailto:<rfc822-addr-spec>``: no reserved characters (§3.5)."""

    __slots__ = ()
    grammar = G_MAILTO
    _PARTS = ("scheme", "address", "fragment")

    @_cached
    def address(self) -> str:
        """The whole decoded schemepart (RFC 1738 has no headers: "?" is data)."""
        return decode(self._schemepart())

    @_cached
    def headers(self) -> Optional[tuple[tuple[str, str], ...]]:
        """An RFC 6068 reading of the part after the first "?": decoded (name, value)
        pairs split on "&" and "="; None without "?". ``address`` is unchanged.

        >>> from urlsift import parse
        >>> u = parse("mailto:a@b?subject=hi%20there&cc=c@d")
        >>> u.address, u.headers
        ('a@b?subject=hi there&cc=c@d', (('subject', 'hi there'), ('cc', 'c@d')))
        """
        part = self._schemepart()
        q = part.find("?")
        if q < 0:
            return None
        pairs = []
        for field in part[q + 1:].split("&"):
            if field:
                name, _, value = field.partition("=")
                pairs.append((decode(name), decode(value)))
        return tuple(pairs)


class NewsURL(_OpaqueURL):
    """``news:<newsgroup-name>``, ``news:<message-id>`` or ``news:*`` (§3.6)."""

    __slots__ = ()
    grammar = G_NEWS
    _PARTS = ("scheme", "group", "article", "fragment")

    @property
    def group(self) -> Optional[str]:
        """The group ("*" for all groups); None when this is an article."""
        part = self._schemepart()
        return None if "@" in part else decode(part)

    @property
    def article(self) -> Optional[str]:
        """The decoded message-id without "<>" (a grouppart with "@"), or None.

        Leniently, ``news:<id@host>`` (the brackets RFC 822 puts around a message-id,
        unsafe in a URL) gives the id without them.

        >>> from urlsift import parse
        >>> parse("news:<foo@bar.example>", strict=False).article
        'foo@bar.example'
        """
        part = self._schemepart()
        if "@" not in part:
            return None
        if len(part) >= 2 and part[0] == "<" and part[-1] == ">":
            part = part[1:-1]
        return decode(part)


class NntpURL(HierURL):
    """``nntp://host:port/<newsgroup-name>/<article-number>`` (§3.7)."""

    __slots__ = ()
    default_scheme = "nntp"
    grammar = G_NNTP
    _PARTS = ("scheme", "host", "port", "group", "article", "fragment")

    @_cached
    def _ga(self) -> tuple[Optional[str], Optional[int]]:
        a, b = self._region()
        if a == b:
            return None, None
        group, slash, number = self._text[a + 1:b].partition("/")
        art = int(number) if number.isdigit() and number.isascii() else None
        return decode(group), art

    @property
    def group(self) -> Optional[str]:
        """The decoded group name."""
        return self._ga[0]

    @property
    def article(self) -> Optional[int]:
        """The article number, or None."""
        return self._ga[1]


class MidURL(_OpaqueURL):
    """``mid:<message-id>``: an RFC 822 msg-id without "<>" (1994 URI draft, Message ID)."""

    __slots__ = ()
    grammar = G_MID
    _PARTS = ("scheme", "message_id", "fragment")

    @_cached
    def message_id(self) -> str:
        """The decoded message-id."""
        return decode(self._schemepart())


class CidURL(_OpaqueURL):
    """``cid:<content-id>``: a MIME Content-ID without "<>" (1994 URI draft, Content-Id)."""

    __slots__ = ()
    grammar = G_MID
    _PARTS = ("scheme", "content_id", "fragment")

    @_cached
    def content_id(self) -> str:
        """The decoded content-id."""
        return decode(self._schemepart())
