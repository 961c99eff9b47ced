"""When two URLs name the same thing: the canonical string (docs/design.md#equivalence).

The 1994 URI draft ("Reduced or increased safe character sets"): "Before two URIs
can be compared, it is therefore necessary to bring them to the same encoding
level. However, the reserved characters ... may NEVER be encoded and unencoded in
this way." :func:`normalized` brings a URL to one such level under exactly these
rules, and nothing else (equivalence errs on the side of "different"):

1. scheme and host are case-folded (ASCII letters only);
2. ``%xx`` is decoded only where the character is alphanumeric or one of
   ``$-_.!*'(),``; reserved characters (``; / ? : @ = &``), ``%``, ``+`` and unsafe
   characters stay encoded, and the hex digits of every remaining escape are
   upper-cased;
3. ports compare as numbers, and the scheme's default port equals no port;
4. for http, https and gopher an absent path equals ``/``; gopher's empty path
   equals ``/1``;
5. a file URL's host ``localhost`` equals the empty host;
6. an empty fragment equals no fragment;
7. ftp typecodes compare case-insensitively.

No dot-segment removal, no hostnumber rewriting, no mailto domain folding, and
nothing is ever *encoded*: ``a b`` and ``a%20b`` stay different.

Malformed escapes (``%*``, ``%as``, a ``%`` at the end) are kept literally and
compare as written: the draft (its example 3) reserves them "for future
extension", so no meaning is guessed for them. A decoded escape never lands
where it would complete a malformed one into a new escape (``%4%31`` keeps its
``%31``: decoded, it would read ``%41``), so :func:`normalized` is idempotent.

The work is done on the core tokenizer's offsets (:func:`urlsift.tokenize`),
so the parts split exactly as the parser splits them.
"""
from __future__ import annotations

import string
from typing import Optional

from ..charclass import ALPHA, DIGIT, EXTRA, HEX, char_table
from ..errors import URLSyntaxError
from .ports import DEFAULT_PORTS
from .tokens import tokenize

__all__ = ["normalized", "equivalent"]

# Rule 2: the characters an escape may be decoded into (alphanumerics and
# "$-_.!*'(),"); "+" is left out on purpose (the draft's space in a query).
_DECODABLE = char_table(ALPHA | DIGIT | EXTRA, "$-_.")
_HEX_DIGITS = char_table(HEX)
_ASCII_LOWER = str.maketrans(string.ascii_uppercase, string.ascii_lowercase)

# Rule 4: schemes whose "/" before an empty path may be omitted (RFC 1738 §3.3, §3.4).
_SLASH_OPTIONAL = frozenset(("http", "https", "gopher"))


def check_controls(s: str) -> None:
    """Raise :class:`URLSyntaxError` (``control-char``) at the first C0 control or DEL.

    RFC 1738 §2.2: control characters are never part of a URL, even leniently.

    >>> check_controls("http://a/b")
    >>> check_controls("http://a/\\nb")
    Traceback (most recent call last):
    ...
    urlsift.errors.URLSyntaxError: control character U+000A at position 9 (control-char)
    """
    if not isinstance(s, str):
        raise TypeError(f"expected str, not {type(s).__name__}")
    if s.isprintable():        # C0 and DEL are never printable: the common fast path
        return
    for i, ch in enumerate(s):
        c = ord(ch)
        if c < 0x20 or c == 0x7F:
            raise URLSyntaxError("control-char", i, f"control character U+{c:04X}", s)


def _fold(text: str) -> str:
    """ASCII case-folding (DNS names are case-insensitive in ASCII only)."""
    return text.lower() if text.isascii() else text.translate(_ASCII_LOWER)


def _is_hex(ch: str) -> bool:
    c = ord(ch)
    return c < 128 and _HEX_DIGITS[c] == 1


def _norm_escapes(text: str, fold: bool = False) -> str:
    """Rule 2 on one part: decode the harmless escapes, upper-case the others' hex.

    With ``fold``, decoded letters are lower-cased too (they land in a host).
    """
    if "%" not in text:
        return text
    out: list[str] = []
    size = 0                 # length of "".join(out)
    last_bad = -3            # output index of the last malformed "%" kept
    i, n = 0, len(text)
    while True:
        j = text.find("%", i)
        if j < 0:
            out.append(text[i:])
            return "".join(out)
        if j > i:
            out.append(text[i:j])
            size += j - i
        if j + 2 < n and _is_hex(text[j + 1]) and _is_hex(text[j + 2]):
            c = int(text[j + 1:j + 3], 16)
            # A hex digit decoded right after a kept malformed "%" would make a
            # new escape out of it: keep that one encoded (idempotence).
            if _DECODABLE[c] and not (_HEX_DIGITS[c] and size - last_bad <= 2):
                ch = chr(c)
                out.append(ch.lower() if fold else ch)
                size += 1
            else:
                out.append(text[j:j + 3].upper())
                size += 3
            i = j + 3
        else:                # malformed: kept literally, compared as written
            last_bad = size
            out.append("%")
            size += 1
            i = j + 1


def _norm_port(port: str, scheme: str) -> Optional[str]:
    """Rule 3: the port as a number, None when it is the default (or empty)."""
    port = _norm_escapes(port)
    if port == "":
        return None          # "http://h:/" - an empty port is no port (RFC 3986 §6.2.3)
    if not (port.isascii() and port.isdigit()):
        return port          # not a number: compared as written
    number = int(port)
    return None if DEFAULT_PORTS.get(scheme) == number else str(number)


def _fold_typecode(tail: str) -> str:
    """Rule 7: ``;type=A`` ends an ftp url-path; its code letter is case-insensitive."""
    if len(tail) >= 7 and tail[-7:-1] == ";type=" and tail[-1] in "AIDaid":
        return tail[:-1] + tail[-1].lower()
    return tail


def _part(s: str, o: tuple, start: int) -> Optional[str]:
    """The part whose start offset is field ``start`` (its end is the next field)."""
    i = o[start]
    return None if i < 0 else s[i:o[start + 1]]


def normalized(s: str) -> str:
    """The canonical string of ``s`` under rules 1-7 of docs/design.md#equivalence.

    Two URLs are equivalent exactly when their ``normalized`` strings are equal.
    ``s`` is read leniently; a C0 control character or DEL raises
    :class:`~urlsift.URLSyntaxError` (code ``control-char``), and so does a
    string without a scheme (``missing-scheme``): resolve a partial form first.

    >>> normalized("HTTP://Info.CERN.ch:80/albert/bertram/marie%2dclaude")
    'http://info.cern.ch/albert/bertram/marie-claude'
    >>> normalized("http://info.cern.ch/albert/bertram%2fmarie-claude")
    'http://info.cern.ch/albert/bertram%2Fmarie-claude'
    >>> normalized("gopher://Host.dom"), normalized("file://localhost/etc/motd#")
    ('gopher://host.dom/1', 'file:///etc/motd')
    >>> normalized("ftp://h.dom:021/pub/f;type=I")
    'ftp://h.dom/pub/f;type=i'
    >>> normalized("news:12345667123%asdghfh@info.cern.ch")   # draft example 3
    'news:12345667123%asdghfh@info.cern.ch'
    >>> normalized("URL:HTTP://a.example/")        # the RFC 1738 appendix prefix, as parse reads it
    'http://a.example/'
    """
    check_controls(s)
    # the prefix is no part of the URL (parse leaves it out too)
    return normalized_text(s[4:] if s[:4] == "URL:" else s)


def normalized_text(s: str) -> str:
    """:func:`normalized` of a URL's text without a ``URL:`` prefix (a parsed URL's:
    ``URL:l`` read leniently is scheme ``URL``, and stays so here).

    >>> normalized_text("URL:l")
    'url:l'
    """
    check_controls(s)
    o = tokenize(s).offsets   # field order: urlsift._layout.FIELDS
    if o[0] < 0:
        raise URLSyntaxError("missing-scheme", 0, "not an absolute URL: no scheme", s)
    scheme = s[:o[0]].lower()
    fragment = _part(s, o, 13)
    if o[5] < 0:             # not the "//" form: an opaque schemepart, rule 2 only
        body = _norm_escapes(s[o[9]:o[10]])
        if scheme == "ftp":
            body = _fold_typecode(body)
    else:
        user, password = _part(s, o, 1), _part(s, o, 3)
        host = _norm_escapes(_fold(s[o[5]:o[6]]), fold=True)
        port = _part(s, o, 7)
        if port is not None:
            port = _norm_port(port, scheme)
        path, search = _part(s, o, 9), _part(s, o, 11)
        if path is not None:
            path = _norm_escapes(path)
        if search is not None:
            search = _norm_escapes(search)
        if scheme == "gopher" and path in (None, "/") and search is None:
            path = "/1"      # §3.4: an empty gopher-path has gtype 1
        elif path is None and scheme in _SLASH_OPTIONAL:
            path = "/"
        if scheme == "ftp":
            if search is not None:
                search = _fold_typecode(search)
            elif path is not None:
                path = _fold_typecode(path)
        if scheme == "file" and host == "localhost" and user is None and port is None:
            host = ""        # §3.10: "localhost" and "" both mean this machine
        parts = ["//"]
        if user is not None:
            parts.append(_norm_escapes(user))
            if password is not None:
                parts += (":", _norm_escapes(password))
            parts.append("@")
        parts.append(host)
        if port is not None:
            parts += (":", port)
        if path is not None:
            parts.append(path)
        if search is not None:
            parts += ("?", search)
        body = "".join(parts)
    out = f"{scheme}:{body}"
    if fragment:             # rule 6: "#" with a void fragment-id is no fragment
        out += "#" + _norm_escapes(fragment)
    return out


def equivalent(a: str, b: str) -> bool:
    """True when ``a`` and ``b`` are the same URL at the same encoding level.

    This is ``normalized(a) == normalized(b)``; see :func:`normalized` for the
    rules and the errors raised.

    >>> equivalent("http://info.cern.ch/albert/bertram/marie-claude",
    ...            "http://info.cern.ch/albert/bertram/marie%2Dclaude")
    True
    >>> equivalent("http://info.cern.ch/albert/bertram/marie-claude",
    ...            "http://info.cern.ch/albert/bertram%2Fmarie-claude")
    False
    """
    return normalized(a) == normalized(b)
