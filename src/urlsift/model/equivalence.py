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
from typing import Callable, Literal, Optional

from .. import codec
from ..charclass import ALPHA, DIGIT, EXTRA, HEX, char_table
from ..errors import URLSyntaxError
from .._fields import HOST_END, HOST_START, PATH_END, PATH_START, SCHEME_END
from .ports import DEFAULT_PORTS
from .tokens import tokenize

__all__ = ["normalized", "equivalent", "idna_host", "remove_dot_segments", "Rules", "RFC1738", "RFC3986"]

#: Which equivalence :func:`normalized` and :func:`equivalent` apply.
Rules = Literal["rfc1738", "rfc3986"]
RFC1738: Rules = "rfc1738"     # docs/design.md#equivalence, rules 1-7 (the default)
RFC3986: Rules = "rfc3986"     # RFC 3986 §6.2.2-§6.2.3 and IDNA: today's practice

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


def _escape_table(decodable: bytes, fold: bool) -> dict[str, tuple[str, bool]]:
    """Each ``XX`` of an escape ``%XX`` (either case): what rule 2 makes of it, and
    whether that is a decoded hex digit (see :func:`_norm_escapes`)."""
    table = {}
    for c in range(256):
        ch = chr(c)
        decoded = decodable[c] == 1
        shown = (ch.lower() if fold else ch) if decoded else f"%{c:02X}"
        for pair in {f"{c:02X}", f"{c:02x}", f"{c:02X}"[0] + f"{c:02x}"[1],
                     f"{c:02x}"[0] + f"{c:02X}"[1]}:
            table[pair] = (shown, decoded and _HEX_DIGITS[c] == 1)
    return table


_ESCAPES: dict[tuple[bytes, bool], dict[str, tuple[str, bool]]] = {}


def _norm_escapes(text: str, fold: bool = False, decodable: bytes = _DECODABLE) -> str:
    """Rule 2 on one part: decode the harmless escapes, upper-case the others' hex.

    With ``fold``, decoded letters are lower-cased too (they land in a host).
    ``decodable``: which octets an escape is decoded into (RFC 3986's unreserved
    for :data:`RFC3986`).

    >>> _norm_escapes("a%2db%2Fc%zz%41")
    'a-b%2Fc%zzA'
    """
    if "%" not in text:
        return text
    table = _ESCAPES.get((decodable, fold))
    if table is None:
        table = _ESCAPES[decodable, fold] = _escape_table(decodable, fold)
    pieces = text.split("%")      # each piece after the first follows a "%"
    out = [pieces[0]]
    size = len(pieces[0])         # length of "".join(out)
    last_bad = -3                 # output index of the last malformed "%" kept
    for piece in pieces[1:]:
        got = table.get(piece[:2])
        if got is None:           # malformed: kept literally, compared as written
            last_bad = size
            out += ("%", piece)
            size += 1 + len(piece)
            continue
        shown, hex_digit = got
        # A hex digit decoded right after a kept malformed "%" would make a new escape
        # out of it: keep that one encoded (idempotence).
        if hex_digit and size - last_bad <= 2:
            shown = "%" + piece[:2].upper()
        out += (shown, piece[2:])
        size += len(shown) + len(piece) - 2
    return "".join(out)


def _norm_port(port: str, scheme: str) -> Optional[str]:
    """Rule 3: the port as a number, None when it is the default (or empty)."""
    port = _norm_escapes(port)
    if port == "":
        return None          # "http://h:/" - an empty port is no port (RFC 3986 §6.2.3)
    if not (port.isascii() and port.isdigit()):
        return port          # not a number: compared as written
    # the number's digits without int(): a port of thousands of digits (which is_valid
    # accepts for a generic scheme) is past int()'s 4300-digit limit and its quadratic time
    digits = port.lstrip("0") or "0"
    default = DEFAULT_PORTS.get(scheme)
    return None if default is not None and digits == str(default) else digits


def _fold_typecode(tail: str) -> str:
    """Rule 7: ``;type=A`` ends an ftp url-path; its code letter is case-insensitive."""
    if len(tail) >= 7 and tail[-7:-1] == ";type=" and tail[-1] in "AIDaid":
        return tail[:-1] + tail[-1].lower()
    return tail


def _part(s: str, o: tuple, start: int) -> Optional[str]:
    """The part whose start offset is field ``start`` (its end is the next field)."""
    i = o[start]
    return None if i < 0 else s[i:o[start + 1]]


def _authority_on(escapes: Callable[[str], str], user: Optional[str], password: Optional[str],
                  host: str, port: Optional[str], path: Optional[str],
                  search: Optional[str]) -> str:
    """``//[user[:password]@]host[:port][path][?search]``, the login's escapes made
    canonical by ``escapes`` (the other parts come canonical)."""
    parts = ["//"]
    if user is not None:
        parts.append(escapes(user))
        if password is not None:
            parts += (":", escapes(password))
        parts.append("@")
    parts.append(host)
    if port is not None:
        parts += (":", port)
    if path is not None:
        parts.append(path)
    if search is not None:
        parts += ("?", search)
    return "".join(parts)


def normalized(s: str, *, rules: Rules = RFC1738) -> str:
    """The canonical string of ``s`` under rules 1-7 of docs/design.md#equivalence.

    Two URLs are equivalent exactly when their ``normalized`` strings are equal.
    ``rules="rfc3986"`` applies today's practice instead (:func:`normalized_3986`:
    RFC 3986 §6.2.2-§6.2.3, IDNA hosts); RFC 1738's rules stay the default.
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
    >>> normalized("eXAMPLE://a/./b/../b/%63/%7bfoo%7d", rules="rfc3986")   # RFC 3986 §6.2.2
    'example://a/b/c/%7Bfoo%7D'
    """
    check_rules(rules)
    check_controls(s)
    # the prefix is no part of the URL (parse leaves it out too)
    text = s[4:] if s[:4] == "URL:" else s
    return normalized_text(text) if rules == RFC1738 else normalized_3986(text)


def check_rules(rules: object) -> None:
    """``rules`` is one of :data:`Rules`, else ValueError."""
    if rules not in (RFC1738, RFC3986):
        raise ValueError(f"rules must be 'rfc1738' or 'rfc3986', not {rules!r}")


def normalized_text(s: str) -> str:
    """:func:`normalized` of a URL's text without a ``URL:`` prefix (a parsed URL's:
    ``URL:l`` read leniently is scheme ``URL``, and stays so here).

    >>> normalized_text("URL:l")
    'url:l'
    """
    check_controls(s)
    o = tokenize(s).offsets   # field order: urlsift._layout.FIELDS
    if o[SCHEME_END] < 0:
        raise URLSyntaxError("missing-scheme", 0, "not an absolute URL: no scheme", s)
    scheme = s[:o[SCHEME_END]].lower()
    fragment = _part(s, o, 13)
    if o[HOST_START] < 0:    # not the "//" form: an opaque schemepart, rule 2 only
        body = _norm_escapes(s[o[PATH_START]:o[PATH_END]])
        if scheme == "ftp":
            body = _fold_typecode(body)
    else:
        user, password = _part(s, o, 1), _part(s, o, 3)
        host = _norm_escapes(_fold(s[o[HOST_START]:o[HOST_END]]), fold=True)
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
        body = _authority_on(_norm_escapes, user, password, host, port, path, search)
    out = f"{scheme}:{body}"
    if fragment:             # rule 6: "#" with a void fragment-id is no fragment
        out += "#" + _norm_escapes(fragment)
    return out


def equivalent(a: str, b: str, *, rules: Rules = RFC1738) -> bool:
    """True when ``a`` and ``b`` are the same URL at the same encoding level.

    This is ``normalized(a, rules=rules) == normalized(b, rules=rules)``; see
    :func:`normalized` for the rules and the errors raised.

    >>> equivalent("http://a.example/%7Euser", "http://a.example/~user")
    False
    >>> equivalent("http://a.example/%7Euser", "http://a.example/~user", rules="rfc3986")
    True

    >>> equivalent("http://info.cern.ch/albert/bertram/marie-claude",
    ...            "http://info.cern.ch/albert/bertram/marie%2Dclaude")
    True
    >>> equivalent("http://info.cern.ch/albert/bertram/marie-claude",
    ...            "http://info.cern.ch/albert/bertram%2Fmarie-claude")
    False
    """
    return normalized(a, rules=rules) == normalized(b, rules=rules)



# ---- RFC 3986 §6: today's practice (rules="rfc3986") ------------------------------

# §2.3 unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~": the only octets whose
# escapes §6.2.2.2 decodes ("~" is RFC 1738's unsafe; "$!*'(),+" are RFC 3986's
# sub-delims, kept encoded).
_UNRESERVED_3986 = char_table(ALPHA | DIGIT, "-._~")

# §6.2.3: schemes whose empty path equals "/" (RFC 9110 §4.2.3 for http and https).
_EMPTY_PATH_IS_SLASH = frozenset(("http", "https"))


def remove_dot_segments(path: str) -> str:
    """RFC 3986 §5.2.4, step by step, in one pass: an index walks the input buffer
    instead of slicing it, so a path of n segments costs O(n), not O(n²).

    >>> remove_dot_segments("/a/b/c/./../../g"), remove_dot_segments("mid/content=5/../6")
    ('/a/g', 'mid/6')
    """
    if "." not in path:
        return path
    out: list[str] = []     # segments, each with its leading "/" (the first maybe without)
    i, n = 0, len(path)
    while i < n:
        if path.startswith("../", i):             # A
            i += 3
        elif path.startswith("./", i):
            i += 2
        elif path.startswith("/./", i):           # B
            i += 2
        elif path.startswith("/.", i) and i + 2 == n:
            out.append("/")                       # the input is now "/": E moves it
            break
        elif path.startswith("/../", i):          # C
            i += 3
            if out:
                out.pop()
        elif path.startswith("/..", i) and i + 3 == n:
            if out:
                out.pop()
            out.append("/")
            break
        elif n - i <= 2 and path[i:] in (".", ".."):   # D
            break
        else:                                     # E
            j = path.find("/", i + 1)
            j = n if j < 0 else j
            out.append(path[i:j])
            i = j
    return "".join(out)


def idna_host(host: str) -> str:
    """A reg-name host as RFC 3986 §6.2.2 and IDNA compare it: escapes of UTF-8
    decoded (§3.2.2), non-ASCII labels turned into their ASCII form (RFC 3490
    ToASCII, the standard library's ``idna`` codec), lower case. A host that has no
    IDNA form (an empty label, a label too long) is kept, folded: different.

    >>> idna_host("Bücher.Example"), idna_host("B%C3%BCcher.example"), idna_host("A..b")
    ('xn--bcher-kva.example', 'xn--bcher-kva.example', 'a..b')
    """
    if "%" in host:
        try:
            host = codec.unquote(host)
        except (URLSyntaxError, ValueError):
            return _norm_escapes(_fold(host), True, _UNRESERVED_3986)
    if host.isascii():
        return host.lower()
    try:
        return host.encode("idna").decode("ascii").lower()
    except UnicodeError:
        return _norm_escapes(_fold(host), True, _UNRESERVED_3986)


def normalized_3986(s: str) -> str:
    """The canonical string of ``s`` (no ``URL:`` prefix) under RFC 3986 §6.2.2-§6.2.3.

    Scheme and host lower case, the hex of escapes upper case (§6.2.2.1); escapes
    of unreserved characters decoded (§6.2.2.2); ``.`` and ``..`` segments removed
    from a ``//`` URL's path (§6.2.2.3); an empty or default port removed, and an
    empty http(s) path is ``/`` (§6.2.3); a non-ASCII host in its IDNA ASCII form.
    Empty ``?`` and ``#`` are kept (§6.2.3: a delimiter of an empty component is
    not removed unless the scheme says so).

    >>> normalized_3986("HTTP://www.Example.com:80")
    'http://www.example.com/'
    >>> normalized_3986("http://B%C3%BCcher.example/%7Ea/../b")
    'http://xn--bcher-kva.example/b'
    """
    check_controls(s)
    o = tokenize(s).offsets
    if o[SCHEME_END] < 0:
        raise URLSyntaxError("missing-scheme", 0, "not an absolute URL: no scheme", s)
    scheme = s[:o[SCHEME_END]].lower()
    fragment = _part(s, o, 13)
    esc = _UNRESERVED_3986
    if o[HOST_START] < 0:
        body = _norm_escapes(s[o[PATH_START]:o[PATH_END]], False, esc)
    else:
        user, password = _part(s, o, 1), _part(s, o, 3)
        host = s[o[HOST_START]:o[HOST_END]]
        host = host.lower() if host[:1] == "[" else idna_host(host)
        port = _part(s, o, 7)
        if port is not None:
            port = _norm_port(port, scheme)
        path, search = _part(s, o, 9), _part(s, o, 11)
        path = remove_dot_segments(_norm_escapes(path, False, esc)) if path else None
        if path is None and scheme in _EMPTY_PATH_IS_SLASH:
            path = "/"
        if search is not None:
            search = _norm_escapes(search, False, esc)
        body = _authority_on(lambda text: _norm_escapes(text, False, esc), user, password, host,
                             port, path, search)
    out = f"{scheme}:{body}"
    if fragment is not None:
        out += "#" + _norm_escapes(fragment, False, esc)
    return out
