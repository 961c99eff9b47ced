"""Warnings: security notes (RFC 1738 §6; draft-ietf-uri-url-03, Security
considerations), and a gopher search the §5 BNF reads otherwise than §3.4's prose.

>>> from urlsift import parse
>>> [w.code for w in parse("gopher://h:25/0a%0D%0AQUIT").warnings]
['privileged-port', 'encoded-delimiter', 'encoded-delimiter']
>>> [(w.position, w.code) for w in parse("gopher://h/7sel%09a/b").warnings]
[(19, 'ambiguous-search')]
"""
from __future__ import annotations

from typing import TYPE_CHECKING, cast

from .._fields import FRAGMENT_START, PASSWORD_START, PORT_START, SCHEME_END
from .._grammar import G_GOPHER
from .ports import default_port
from .problems import Problem, excerpt

if TYPE_CHECKING:   # the URL objects these notes are about sit above this module
    from .schemes.gopher import GopherURL
    from .url import URL

#: Schemes that pass decoded parts to a line protocol, with the escapes that
#: would end or split a command there (§6: "CR and LF characters for telnet").
LINE_PROTOCOLS: dict[str, tuple[str, ...]] = {
    "telnet": ("%0D", "%0A"), "rlogin": ("%0D", "%0A"), "tn3270": ("%0D", "%0A"),
    "ftp": ("%0D", "%0A"),
    "gopher": ("%0D", "%0A", "%09"),
    "nntp": ("%0D", "%0A", "%09", "%20"),
}


def warnings_of(u: "URL") -> tuple[Problem, ...]:
    """The warnings for ``u``: password, non-default port, encoded delimiters (§6), and
    a gopher search holding "/" or "?" (:func:`_ambiguous_search`), in that order."""
    text = str(u)
    t = u._t
    out = []
    if t[PASSWORD_START] >= 0:
        at = t[PASSWORD_START]
        out.append(Problem(at, "password-in-url",
                           f"password in the URL {excerpt(text, 0, len(text), at)}: URLs are "
                           f"not secret (RFC 1738 §6)"))
    port = u.port
    default = default_port(u.scheme)
    # a scheme without a known default port has no "other" port to warn about
    if port is not None and default is not None and port != default:
        if port < 1024:
            out.append(Problem(t[PORT_START], "privileged-port",
                               f"port {port} is in the reserved range and not the {u.scheme} "
                               f"default ({default}): another protocol may answer (RFC 1738 §6)"))
        else:
            out.append(Problem(t[PORT_START], "non-default-port",
                               f"port {port} is not the {u.scheme} default ({default}) (RFC 1738 §6)"))
    escapes = LINE_PROTOCOLS.get(u.scheme)
    if escapes:
        out += _delimiters(u, text, escapes)
    if u.grammar == G_GOPHER:
        out += _ambiguous_search(cast("GopherURL", u), text)
    return tuple(out)


def _ambiguous_search(u: "GopherURL", text: str) -> list[Problem]:
    """A warning at each "/" and "?" of a gopher search.

    RFC 1738 §5 has ``search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]``, without "/"
    and "?", but also ``selector = *xchar``, which takes in the "%09" and all after it:
    such a URL is in §5's language (valid, strictly too), read as one long selector.
    §3.4's prose splits the gopher-path at the first two %09 ("Within the <gopher-path>,
    no characters are reserved"); urlsift keeps that split (``u.search``), and says here
    that §5 would read it otherwise."""
    span = u._search_span()
    if span is None:
        return []
    a, b = span
    out = []
    for i in range(a, b):
        ch = text[i]
        if ch == "/" or ch == "?":
            out.append(Problem(i, "ambiguous-search",
                               f"{ch!r} in the gopher search {excerpt(text, a, b, i)}: RFC 1738 "
                               f"§5's search has no '/' or '?', so §5 derives this URL only with "
                               f"the first '%09' and all after it in the selector (*xchar); kept "
                               f"as the search, as §3.4 splits the gopher-path"))
    return out


def _delimiters(u: "URL", text: str, escapes: tuple[str, ...]) -> list[Problem]:
    start = u._t[SCHEME_END] + 1
    end = u._t[FRAGMENT_START] - 1 if u._t[FRAGMENT_START] >= 0 else len(text)
    upper = text.upper()
    skip_tabs = 2 if u.scheme == "gopher" else 0   # gopher's first two %09 are its syntax
    out = []
    i = upper.find("%", start, end)
    while i >= 0:
        esc = upper[i:i + 3]
        if esc in escapes:
            if esc == "%09" and skip_tabs:
                skip_tabs -= 1
            else:
                out.append(Problem(i, "encoded-delimiter",
                                   f"encoded {esc} in {excerpt(text, 0, len(text), i)} would end "
                                   f"or split a {u.scheme} command if decoded before sending "
                                   f"(RFC 1738 §6)"))
        i = upper.find("%", i + 1, end)
    return out
