"""Shapes the ``_check`` core works with: grammar ids, part ids, membership tables.

This is policy handed down to the core. The core knows how to walk each grammar
*shape* (login, hostport, a path region walked with a table); which characters
each part may hold is composed here from :mod:`urlsift.charclass` (RFC 1738 §5)
and handed to the core as one bytes blob of 256-entry tables. Both twins read
these names, so they can never number a part or a table differently.
"""
from __future__ import annotations

from .charclass import ALPHA, DIGIT, UCHAR, XCHAR, char_table
from ._layout import CODE_INDEX

# ---- grammar ids (one walk per id in the core) -------------------------------
G_GENERIC, G_FTP, G_HTTP, G_GOPHER, G_MAILTO, G_NEWS, G_NNTP, G_TELNET, G_WAIS, \
    G_FILE, G_PROSPERO, G_MID = range(12)
NGRAMMARS = 12

# ---- part ids (for messages: which part a problem is in) ----------------------
PARTS: tuple[str, ...] = (
    "scheme", "user", "password", "host", "port", "path", "search", "typecode",
    "selector", "address", "group", "article", "database", "wtype", "wpath",
    "hsoname", "field", "fragment", "schemepart", "gopher_plus",
)
P = {name: i for i, name in enumerate(PARTS)}

# ---- membership tables, RFC 1738 §5 -----------------------------------------
# Where a part is a sequence of segments, "/" is added so one walk covers it.
TABLES: tuple[tuple[str, bytes], ...] = (
    # user = *[ uchar | ";" | "?" | "&" | "=" ]   (password the same)
    ("user", char_table(UCHAR, ";?&=")),
    # fsegment = *[ uchar | "?" | ":" | "@" | "&" | "=" ], joined by "/"
    # (psegment of prospero is the same set)
    ("fpath", char_table(UCHAR, "?:@&=/")),
    # hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ], joined by "/"
    ("hpath", char_table(UCHAR, ";:@&=/")),
    # search = *[ uchar | ";" | ":" | "@" | "&" | "=" ]
    ("search", char_table(UCHAR, ";:@&=")),
    # xchar = unreserved | reserved | escape
    ("xchar", char_table(XCHAR)),
    # group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]
    ("group", char_table(ALPHA, DIGIT, "-.+_")),
    # article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host
    ("article", char_table(UCHAR, ";/?:&=")),
    # database = wtype = wpath = *uchar
    ("uchar", char_table(UCHAR)),
    # fieldname = fieldvalue = *[ uchar | "?" | ":" | "@" | "&" ]
    ("field", char_table(UCHAR, "?:@&")),
    # hostname characters (alphadigit | "-" | "."); structure checked by rule
    ("host", char_table(ALPHA, DIGIT, "-.")),
    # inside "[...]" (lenient IPv6 literal): hex digits, ":" and "."
    ("ipv6", char_table("0123456789abcdefABCDEF:.")),
)
T = {name: i for i, (name, _) in enumerate(TABLES)}
TABLE_BLOB: bytes = b"".join(t for _, t in TABLES)

#: Codes that ``strict=False`` accepts (and records in ``u.problems``). Every
#: other code makes a URL invalid in both modes (docs/design.md#strict-and-lenient).
LENIENT_OK: tuple[str, ...] = (
    "uppercase-scheme", "non-ascii", "unsafe-char", "bad-escape", "empty-port",
    "host-trailing-dot", "ipv6-host", "userinfo-not-allowed", "port-not-allowed",
    "bad-userinfo", "bad-path", "bad-search", "search-without-path", "file-short-form",
)


def lenient_ok_blob() -> bytes:
    """One byte per code in ``_layout.CODES``: 1 when lenient mode accepts it."""
    out = bytearray(len(CODE_INDEX))
    for code in LENIENT_OK:
        out[CODE_INDEX[code]] = 1
    return bytes(out)
