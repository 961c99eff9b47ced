"""The text of a ``//`` URL made from its parts (RFC 1738 §3.1), for ``URL.replace``,
``with_*`` and ``build``; and the search part read as pairs.

A part given *decoded* is %hex-encoded here with the characters its grammar (§5)
allows left as they are; given ``encoded=True`` it is taken as written. Nothing is
checked here: the caller parses the text, so a bad part is reported like any bad URL,
with its position and code.

>>> parts = {"host": "h.example", "path": "/a b/c", "search": "q=x y"}
>>> from_parts("http", {k: encode_part(k, v) for k, v in parts.items()})
'http://h.example/a%20b/c?q=x%20y'
>>> login = {"user": "me@home", "password": "p:w", "host": "h", "path": "/f"}
>>> from_parts("ftp", {k: encode_part(k, v) for k, v in login.items()})
'ftp://me%40home:p%3Aw@h/f'
"""
from __future__ import annotations

from typing import Iterable, Mapping, Optional, Union

from .. import codec

__all__ = ["HIER_PARTS", "PartValue", "decode", "encode_part", "from_parts", "pairs_of",
           "search_of"]

#: The parts of a ``//`` URL, in the order they are written.
HIER_PARTS: tuple[str, ...] = ("user", "password", "host", "port", "path", "search", "fragment")

#: What a part may be given as: text, a port number, pairs for the search, or None (absent).
PartValue = Union[str, int, Iterable[tuple[str, str]], None]

# The characters each part keeps as they are when it is given decoded, beyond the
# unreserved ones (``codec.quote``). §3.1: "Within the user and password field, any ":",
# "@", or "/" must be encoded"; §5: user and password are *[ uchar | ";" | "?" | "&" |
# "=" ] ("?" encoded all the same: it starts the search of http); hsegment and search
# are *[ uchar | ";" | ":" | "@" | "&" | "=" ], a path keeps its "/"; a fragment any
# reserved character.
_SAFE = {"user": ";&=", "password": ";&=", "path": "/;:@&=", "search": ";:@&=",
         "fragment": ";/?:@&="}
# In a pair of the search, "&" and "=" are the separators, so they are encoded.
_PAIR_SAFE = ";:@"


def decode(text: str) -> str:
    """%hex-decode a part as UTF-8, losslessly (surrogateescape), escapes kept if malformed."""
    if "%" not in text:
        return text
    # looked up at call time: the tests switch cores under it
    return codec.unquote(text, "utf-8", "surrogateescape", strict=False)


def encode_part(name: str, value: PartValue) -> Optional[str]:
    """``value`` of part ``name`` as written in a URL (None stays None: the part is left
    out). A port is an int or digits; a search may be ``(name, value)`` pairs, joined
    ``name=value&...`` with each side encoded.

    >>> encode_part("search", [("q", "a&b"), ("lang", "fr")])
    'q=a%26b&lang=fr'
    """
    if value is None:
        return None
    if name == "port":
        return str(value)
    if name == "search" and not isinstance(value, str):
        return search_of(value)  # type: ignore[arg-type]
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str or None, not {type(value).__name__}")
    if name == "host":
        return value           # a host name or number is written as it is (§3.1)
    return codec.quote(value, safe=_SAFE[name])


def search_of(pairs: Iterable[tuple[str, str]]) -> str:
    """``name=value`` pairs joined by ``&``, each side %hex-encoded (``&`` and ``=``
    inside a name or value too)."""
    return "&".join(f"{codec.quote(k, safe=_PAIR_SAFE)}={codec.quote(v, safe=_PAIR_SAFE)}"
                    for k, v in pairs)


def from_parts(scheme: str, parts: Mapping[str, Optional[str]]) -> str:
    """``scheme://[user[:password]@]host[:port][path][?search][#fragment]`` from parts
    as written (None: absent). A path that does not start with ``/`` gets one (§3.1:
    the url-path follows the ``/`` after hostport)."""
    user, password = parts.get("user"), parts.get("password")
    login = ""
    if user is not None or password is not None:
        login = (user or "") + (f":{password}" if password is not None else "") + "@"
    host = parts.get("host") or ""
    port = parts.get("port")
    path = parts.get("path")
    if path and not path.startswith("/"):
        path = "/" + path
    text = f"{scheme}://{login}{host}" + (f":{port}" if port is not None else "") + (path or "")
    if parts.get("search") is not None:
        text += "?" + str(parts["search"])
    if parts.get("fragment") is not None:
        text += "#" + str(parts["fragment"])
    return text


def pairs_of(search: Optional[str], form: bool = False) -> list[tuple[str, str]]:
    """The ``name=value`` pairs of a search part, %hex-decoded (UTF-8, octets that are
    not kept losslessly), in order; a piece without ``=`` is ``(piece, "")``, an empty
    piece is skipped. RFC 1738 gives ``+`` no meaning; with ``form=True`` it is a space,
    as in HTML forms (``application/x-www-form-urlencoded``).

    >>> pairs_of("q=a+b%26c&flag&&x=%C3%A9")
    [('q', 'a+b&c'), ('flag', ''), ('x', 'é')]
    >>> pairs_of("q=a+b", form=True)
    [('q', 'a b')]
    """
    if not search:
        return []
    out = []
    for piece in search.split("&"):
        if not piece:
            continue
        if form:
            piece = piece.replace("+", " ")
        name, _, value = piece.partition("=")
        out.append((decode(name), decode(value)))
    return out
