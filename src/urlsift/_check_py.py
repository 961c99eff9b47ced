"""Pure-Python twin of the ``_check`` core (``ext/urlsift/_check_c.pyx``).

Checks a URL against its scheme's RFC 1738 grammar, mechanically: the tokenizer
finds the offsets, then each part is walked with a 256-entry membership table
(composed in :mod:`urlsift._grammar`) plus a few rules (hostname labels,
hostnumber 0-255, port digits and range, ftp ``;type=``, nntp digits, wais and
prospero shapes). Which grammar applies to which scheme is decided in Python and
handed in as a :class:`Config`.

Every problem is a flat group of five ints: ``position, code, part, start, end``
(code indexes ``_layout.CODES``, part indexes ``_grammar.PARTS``, start/end is the
span of the part, for quoting). Same functions, same results as the Cython twin.
"""
from __future__ import annotations

from typing import Any, Iterable, Sequence

from . import _core_py
from ._grammar import (G_FILE, G_FTP, G_GENERIC, G_GOPHER, G_HTTP, G_MAILTO, G_MID,
                       G_NEWS, G_NNTP, G_PROSPERO, G_TELNET, G_WAIS, NGRAMMARS, TABLES, P, T)
from ._fields import (FRAGMENT_START, HOST_END, HOST_START, PASSWORD_END, PASSWORD_START,
                      PATH_START, PORT_END, PORT_START, SCHEME_END, SEARCH_START, USER_END,
                      USER_START)
from ._layout import CODE_INDEX

_C = CODE_INDEX
_LOGIN_OK = (G_FTP, G_TELNET)
#: An nntp article number has at most this many digits (every 64-bit number; RFC 3977
#: numbers fit in 31 bits): "digits" is unbounded in RFC 1738 §5, and a number of 65 536
#: digits made int() fail deep inside (Python's 4 300-digit limit).
ARTICLE_DIGITS = 20
_HIER = (G_FTP, G_HTTP, G_GOPHER, G_NNTP, G_TELNET, G_WAIS, G_FILE, G_PROSPERO)


class Config:
    """Scheme names with their grammar ids, the part tables and the lenient codes."""

    __slots__ = ("names", "gids", "tables", "lenient_ok", "index", "classes", "slots")

    def __init__(self, names: Sequence[str], gids: bytes, tables: bytes, lenient_ok: bytes,
                 classes: Sequence[type] = (), slots: Sequence[object] = ()) -> None:
        """``classes``: one per name, then the class for unknown schemes; ``slots``:
        the member descriptors ``_text``, ``_t``, ``_x`` that parse_new fills."""
        _validate(names, gids, tables, lenient_ok, classes, slots)
        self.classes = tuple(classes)
        self.slots: tuple[Any, ...] = tuple(slots)
        self.names = tuple(names)
        self.gids = bytes(gids)
        self.tables = bytes(tables)
        self.lenient_ok = bytes(lenient_ok)
        self.index = {name: i for i, name in enumerate(self.names)}


def _validate(names: Sequence[str], gids: bytes, tables: bytes, lenient_ok: bytes,
              classes: Sequence[type], slots: Sequence[object]) -> None:
    """Refuse a Config the Cython twin could not walk safely (it reads these as C arrays)."""
    if len(gids) != len(names) or any(g >= NGRAMMARS for g in bytes(gids)):
        raise ValueError("one grammar id (0-%d) per scheme name" % (NGRAMMARS - 1))
    if len(tables) != 256 * len(TABLES) or len(lenient_ok) != len(_C):
        raise ValueError("tables and lenient_ok must have the sizes urlsift._grammar gives")
    if not all(isinstance(n, str) and n.isascii() for n in names):
        raise ValueError("scheme names must be ASCII strings")
    if slots:
        if len(slots) != 3 or any(type(d).__name__ != "member_descriptor" for d in slots):
            raise TypeError("slots must be the three member descriptors _text, _t, _x")
        owner = getattr(slots[0], "__objclass__", None)
        if len(classes) != len(names) + 1 or not all(
                isinstance(c, type) and isinstance(owner, type) and issubclass(c, owner)
                for c in classes):
            raise TypeError("classes: one subclass of the slots' class per name, plus one")


def _is_escape(s: str, i: int, n: int) -> bool:
    return i + 2 < n and s[i + 1] in _HEXCHARS and s[i + 2] in _HEXCHARS


_HEXCHARS = frozenset("0123456789abcdefABCDEF")


class _Walk:
    """One URL's walk: the text, the config, and the problems found."""

    def __init__(self, s: str, cfg: Config) -> None:
        self.s = s
        self.n = len(s)
        self.cfg = cfg
        self.out: list[int] = []

    def add(self, pos: int, code: str, part: str, start: int, end: int) -> None:
        self.out += (pos, _C[code], P[part], start, end)

    def part(self, a: int, b: int, table: str, part: str, fallback: str) -> None:
        """Walk s[a:b] with a membership table; report every character it refuses."""
        s, n = self.s, self.n
        base = T[table] * 256
        tab = self.cfg.tables
        i = a
        while i < b:
            c = ord(s[i])
            if c < 0x20 or c == 0x7F:
                self.add(i, "control-char", part, a, b)
            elif c >= 0x80:
                self.add(i, "non-ascii", part, a, b)
            elif c == 0x25:
                if _is_escape(s, i, n) and i + 2 < b:
                    if not tab[base + 0x25]:
                        self.add(i, fallback, part, a, b)
                    i += 3
                    continue
                self.add(i, "bad-escape", part, a, b)
            elif tab[base + c]:
                pass
            elif c in _UNSAFE:
                self.add(i, "unsafe-char", part, a, b)
            else:
                self.add(i, fallback, part, a, b)
            i += 1

    def find(self, ch: str, a: int, b: int) -> int:
        j = self.s.find(ch, a, b)
        return b if j < 0 else j


_UNSAFE = frozenset(ord(c) for c in ' <>"#%{}|\\^~[]`')


def _host(w: _Walk, hs: int, he: int, required: bool) -> None:
    """host = hostname | hostnumber (RFC 1738 §5), hostnumber parts 0-255."""
    s = w.s
    if hs == he:
        if required:
            w.add(hs, "missing-host", "host", hs, he)
        return
    if s[hs] == "[":
        w.add(hs, "ipv6-host", "host", hs, he)
        if he - hs < 3 or s[he - 1] != "]":
            w.add(he - 1, "bad-host", "host", hs, he)
        else:
            w.part(hs + 1, he - 1, "ipv6", "host", "bad-host")
        return
    end = he
    if he - hs > 1 and s[he - 1] == ".":
        w.add(he - 1, "host-trailing-dot", "host", hs, he)
        end = he - 1
    tab = w.cfg.tables
    base = T["host"] * 256
    for i in range(hs, end):
        c = ord(s[i])
        if c < 0x20 or c == 0x7F:
            w.add(i, "control-char", "host", hs, he)
        elif c >= 0x80:
            w.add(i, "non-ascii", "host", hs, he)
        elif not tab[base + c]:
            w.add(i, "bad-host", "host", hs, he)
    # labels: non-empty, no "-" at either end; the last starts with a letter
    # unless the host is a hostnumber (four digit groups, each 0-255)
    ls = hs
    nlabels = 0
    all_digits = True
    last_start = hs
    i = hs
    while i <= end:
        if i == end or s[i] == ".":
            nlabels += 1
            last_start = ls
            if i == ls:
                w.add(i, "bad-host", "host", hs, he)
            else:
                if s[ls] == "-" or s[i - 1] == "-":
                    w.add(ls if s[ls] == "-" else i - 1, "bad-host", "host", hs, he)
                if not s[ls:i].isdigit() or not s[ls:i].isascii():
                    all_digits = False
            ls = i + 1
        i += 1
    if all_digits and nlabels == 4:
        ls = hs
        for i in range(hs, end + 1):
            if i == end or s[i] == ".":
                # an empty label (reported above) counts as 0, as in the Cython walk
                if i - ls > 3 or int(s[ls:i] or "0") > 255:
                    w.add(ls, "bad-host", "host", hs, he)
                ls = i + 1
    elif last_start < end and "0" <= s[last_start] <= "9":
        w.add(last_start, "bad-host", "host", hs, he)


def _port(w: _Walk, ps: int, pe: int) -> None:
    """port = digits (RFC 1738 §5), tightened to 0-65535."""
    s = w.s
    if ps == pe:
        w.add(ps, "empty-port", "port", ps, pe)
        return
    for i in range(ps, pe):
        if not "0" <= s[i] <= "9":
            w.add(i, "bad-port", "port", ps, pe)
            return
    if pe - ps > 5 or int(s[ps:pe]) > 65535:
        w.add(ps, "bad-port", "port", ps, pe)


def _login_tokens(s: str, r: tuple) -> tuple:
    """The tokens of ``s`` for a scheme whose login may hold "?" (ftp, telnet: RFC 1738
    §5 user = *[ uchar | ";" | "?" | "&" | "=" ]; they have no search part). The
    scheme-blind tokenizer ends the authority at the first "?"; when an "@" follows it
    before the path, the "?"s up to that "@" are login data, so the text is tokenized
    again with them masked (same length, same offsets). Else ``r`` itself."""
    q = r[SEARCH_START] - 1
    if q < 0 or r[HOST_START] < 0 or 0 <= r[PATH_START] < q:
        return r                                  # no "?" ended the authority
    auth = r[SCHEME_END] + 3
    stop = len(s)
    for ch in "/#":
        k = s.find(ch, q, stop)
        if k >= 0:
            stop = k
    at = s.rfind("@", q, stop)
    if at < 0:
        return r
    return _core_py.tokenize(s[:auth] + s[auth:at].replace("?", "_") + s[at:])


def _walk(s: str, cfg: Config) -> tuple[int, list[int], tuple]:
    """Check ``s``; return (scheme index, flat problems, tokens). Index len(names):
    unknown scheme."""
    w = _Walk(s, cfg)
    r = _core_py.tokenize(s)
    n = len(s)
    se = r[SCHEME_END]
    if se < 0:
        w.add(0, "missing-scheme", "scheme", 0, 0)
        return len(cfg.names), w.out, r
    for i in range(se):
        if "A" <= s[i] <= "Z":
            w.add(i, "uppercase-scheme", "scheme", 0, se)
            break
    idx = cfg.index.get(s[:se].lower(), len(cfg.names))
    gid = cfg.gids[idx] if idx < len(cfg.names) else G_GENERIC
    if gid in _LOGIN_OK:
        r = _login_tokens(s, r)
    frag = r[FRAGMENT_START]
    body_end = frag - 1 if frag >= 0 else n
    b0 = se + 1
    if gid in _HIER:
        _hier(w, r, gid, b0, body_end)
    else:
        _opaque(w, gid, b0, body_end)
    if frag >= 0:
        w.part(frag, n, "xchar", "fragment", "unsafe-char")
    return idx, w.out, r


def _opaque(w: _Walk, gid: int, a: int, b: int) -> None:
    s = w.s
    if gid == G_GENERIC:
        w.part(a, b, "xchar", "schemepart", "bad-path")
    elif gid in (G_MAILTO, G_MID):
        # encoded822addr = 1*xchar; mid/cid: the msg-id / content-id, same set
        if a == b:
            w.add(a, "missing-address", "address", a, b)
        w.part(a, b, "xchar", "address", "bad-path")
    elif gid == G_NEWS:
        at = w.find("@", a, b)
        if at < b and b - a >= 2 and s[a] == "<" and s[b - 1] == ">":
            # news:<id@host>: the message-id as RFC 822 writes it, brackets and all;
            # "<" and ">" are unsafe (§2.2): reported, and the inside walked as the id
            w.add(a, "unsafe-char", "article", a, b)
            w.add(b - 1, "unsafe-char", "article", a, b)
            a, b = a + 1, b - 1
        if at < b:
            # article = 1*[ uchar | ";" | "/" | "?" | ":" | "&" | "=" ] "@" host
            if at == a:
                w.add(a, "bad-article", "article", a, b)
            w.part(a, at, "article", "article", "bad-article")
            _host(w, at + 1, b, True)
        elif b - a == 1 and s[a] == "*":
            pass
        else:
            _group(w, a, b)


def _group(w: _Walk, a: int, b: int) -> None:
    """group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]"""
    if a == b:
        w.add(a, "bad-group", "group", a, b)
        return
    c = w.s[a]
    if not ("a" <= c <= "z" or "A" <= c <= "Z"):
        w.add(a, "bad-group", "group", a, b)
        a += 1
    w.part(a, b, "group", "group", "bad-group")


def _hier(w: _Walk, r: tuple, gid: int, b0: int, b: int) -> None:
    s = w.s
    if r[HOST_START] < 0:
        if gid == G_FILE and b0 < b and s[b0] == "/":
            w.add(b0, "file-short-form", "path", b0, b)
            w.part(b0, b, "fpath", "path", "bad-path")
        else:
            w.add(b0, "missing-authority", "schemepart", b0, b)
        return
    us, ue, pws, pwe = r[USER_START], r[USER_END], r[PASSWORD_START], r[PASSWORD_END]
    if us >= 0:
        if gid in _LOGIN_OK:
            w.part(us, ue, "user", "user", "bad-userinfo")
            if pws >= 0:
                w.part(pws, pwe, "user", "password", "bad-userinfo")
        else:
            end = pwe if pws >= 0 else ue
            w.add(us, "userinfo-not-allowed", "user", us, end)
            # not walked (the scheme has no login), but a control character is refused
            # everywhere, lenient mode too: "http://a\r\nX: 1@h/" is no URL
            for i in range(us, end):
                c = ord(s[i])
                if c < 0x20 or c == 0x7F:
                    w.add(i, "control-char", "user", us, end)
    _host(w, r[HOST_START], r[HOST_END], gid != G_FILE)
    if r[PORT_START] >= 0:
        if gid == G_FILE:
            w.add(r[PORT_START] - 1, "port-not-allowed", "port", r[PORT_START], r[PORT_END])
        _port(w, r[PORT_START], r[PORT_END])
    rs = r[PATH_START] if r[PATH_START] >= 0 else (
        r[SEARCH_START] - 1 if r[SEARCH_START] >= 0 else b)
    _REGION[gid](w, r, rs, b)


def _r_ftp(w: _Walk, r: tuple, rs: int, b: int) -> None:
    # ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]
    s = w.s
    if rs == b:
        return
    if s[rs] != "/":
        w.add(rs, "bad-path", "path", rs, b)
    semi = w.find(";", rs + 1, b)
    w.part(rs + 1, semi, "fpath", "path", "bad-path")
    if semi == b:
        return
    if s.startswith(";type=", semi, b):
        if b - semi != 7 or s[b - 1] not in "aidAID":
            w.add(semi + 6, "bad-typecode", "typecode", semi + 6, b)
        return
    w.part(semi, b, "fpath", "path", "bad-path")


def _r_http(w: _Walk, r: tuple, rs: int, b: int) -> None:
    # httpurl = "http://" hostport [ "/" hpath [ "?" search ]]
    s = w.s
    if rs == b:
        return
    if s[rs] == "?":
        w.add(rs, "search-without-path", "search", rs + 1, b)
        w.part(rs + 1, b, "search", "search", "bad-search")
        return
    q = w.find("?", rs, b)
    w.part(rs, q, "hpath", "path", "bad-path")
    if q < b:
        w.part(q + 1, b, "search", "search", "bad-search")


def _r_gopher(w: _Walk, r: tuple, rs: int, b: int) -> None:
    # gopherurl = "gopher://" hostport [ / [ gtype [ selector
    #             [ "%09" search [ "%09" gopher+_string ] ] ] ] ]
    # selector and gopher+_string are *xchar; search = *[ uchar | ";" | ":" | "@" | "&" |
    # "=" ] has no "/" or "?", but the selector (*xchar) takes in "%09" and everything
    # after it, so every *xchar gopher-path is in §5's language: all three parts are
    # walked as xchar, split as §3.4 says (for the messages). A "/" or "?" in the search
    # is the warning ambiguous-search (model/security.py, u.warnings; docs/decisions.md).
    s = w.s
    if rs == b:
        return
    if s[rs] != "/":
        w.add(rs, "bad-path", "selector", rs, b)
    start = rs + 1
    sel = start + (3 if start < b and s[start] == "%" and start + 3 <= b else 1)  # the gtype
    t1 = s.find("%09", min(sel, b), b)
    if t1 < 0:
        w.part(start, b, "xchar", "selector", "bad-path")
        return
    w.part(start, t1, "xchar", "selector", "bad-path")
    t2 = s.find("%09", t1 + 3, b)
    w.part(t1 + 3, b if t2 < 0 else t2, "xchar", "search", "bad-path")
    if t2 >= 0:
        w.part(t2 + 3, b, "xchar", "gopher_plus", "bad-path")


def _r_nntp(w: _Walk, r: tuple, rs: int, b: int) -> None:
    # nntpurl = "nntp://" hostport "/" group [ "/" digits ]
    s = w.s
    if rs == b:
        w.add(rs, "missing-path", "group", rs, b)
        return
    if s[rs] != "/":
        w.add(rs, "bad-group", "group", rs, b)
    gs = rs + 1
    ge = w.find("/", gs, b)
    _group(w, gs, ge)
    if ge < b:
        if ge + 1 == b:
            w.add(b, "bad-article", "article", ge + 1, b)
        for i in range(ge + 1, b):
            if not "0" <= s[i] <= "9":
                w.add(i, "bad-article", "article", ge + 1, b)
                break
        else:
            if b - ge - 1 > ARTICLE_DIGITS:   # a stated tightening, as for ports
                w.add(ge + 1 + ARTICLE_DIGITS, "bad-article", "article", ge + 1, b)


def _r_telnet(w: _Walk, r: tuple, rs: int, b: int) -> None:
    # telneturl = "telnet://" login [ "/" ]
    if rs == b or (b - rs == 1 and w.s[rs] == "/"):
        return
    a = rs + 1 if w.s[rs] == "/" else rs
    w.add(a, "bad-path", "path", rs, b)
    # still walk it: a control character there is refused in both modes
    w.part(a, b, "xchar", "path", "bad-path")


def _r_wais(w: _Walk, r: tuple, rs: int, b: int) -> None:
    # waisurl = "wais://" hostport "/" database [ "?" search | "/" wtype "/" wpath ]
    s = w.s
    if rs == b or s[rs] != "/":
        w.add(rs, "missing-path", "database", rs, b)
        if rs == b:
            return
    ds = rs + 1
    de = ds
    while de < b and s[de] not in "/?":
        de += 1
    w.part(ds, de, "uchar", "database", "bad-path")
    if de == b:
        return
    if s[de] == "?":
        w.part(de + 1, b, "search", "search", "bad-search")
        return
    ts = de + 1
    te = w.find("/", ts, b)
    w.part(ts, te, "uchar", "wtype", "bad-path")
    if te == b:
        w.add(b, "bad-path", "wpath", b, b)
        return
    w.part(te + 1, b, "uchar", "wpath", "bad-path")


def _r_file(w: _Walk, r: tuple, rs: int, b: int) -> None:
    # fileurl = "file://" [ host | "localhost" ] "/" fpath
    if rs == b:
        w.add(rs, "missing-path", "path", rs, b)
        return
    if w.s[rs] != "/":
        w.add(rs, "missing-path", "path", rs, b)
    w.part(rs + 1, b, "fpath", "path", "bad-path")


def _r_prospero(w: _Walk, r: tuple, rs: int, b: int) -> None:
    # prosperourl = "prospero://" hostport "/" ppath *[ ";" fieldname "=" fieldvalue ]
    s = w.s
    if rs == b or s[rs] != "/":
        w.add(rs, "missing-path", "hsoname", rs, b)
        if rs == b:
            return
    semi = w.find(";", rs + 1, b)
    w.part(rs + 1, semi, "fpath", "hsoname", "bad-path")
    while semi < b:
        fs = semi + 1
        semi = w.find(";", fs, b)
        eq = w.find("=", fs, semi)
        w.part(fs, eq, "field", "field", "bad-field")
        if eq == semi:
            w.add(semi, "bad-field", "field", fs, semi)
        else:
            w.part(eq + 1, semi, "field", "field", "bad-field")


_REGION = {
    G_FTP: _r_ftp, G_HTTP: _r_http, G_GOPHER: _r_gopher, G_NNTP: _r_nntp,
    G_TELNET: _r_telnet, G_WAIS: _r_wais, G_FILE: _r_file, G_PROSPERO: _r_prospero,
}


# ---- the entry points ------------------------------------------------------------

def _worst(out: list[int], cfg: Config) -> int:
    """0: no problem; 1: only problems lenient mode accepts; 2: a fatal one."""
    worst = 0
    for k in range(1, len(out), 5):
        if not cfg.lenient_ok[out[k]]:
            return 2
        worst = 1
    return worst


def problems(s: str, cfg: Config) -> list[int]:
    """Every problem of ``s`` as flat (position, code, part, start, end) groups."""
    if not isinstance(s, str):
        raise TypeError(f"expected str, not {type(s).__name__}")
    return _walk(s, cfg)[1]


def parse_tokens(s: str, cfg: Config) -> tuple:
    """The tokenizer's 17 offsets, then the scheme index and the worst problem (0/1/2)."""
    if not isinstance(s, str):
        raise TypeError(f"expected str, not {type(s).__name__}")
    idx, out, r = _walk(s, cfg)
    return r + (idx, _worst(out, cfg))


def _strip(s: str) -> str:
    # RFC 1738 appendix: the "URL:" prefix is not part of the URL
    return s[4:] if s.startswith("URL:") else s


def is_valid(s: str, cfg: "Config | None" = None, strict: bool = True) -> "bool | int":
    """True when ``s`` (a "URL:" prefix allowed) has no problem (strict) or no fatal one;
    -1 when no ``cfg`` is given and no default is set."""
    if cfg is None:
        cfg = _default
        if cfg is None:
            return -1
    if not isinstance(s, str):
        raise TypeError(f"expected str, not {type(s).__name__}")
    out = _walk(_strip(s), cfg)[1]
    return not out if strict else _worst(out, cfg) < 2


def validate_many(urls: Iterable[str], cfg: Config, strict: bool = True) -> list[bool]:
    """:func:`is_valid` for every string of ``urls``, in one call."""
    return [is_valid(u, cfg, strict) is True for u in urls]   # cfg given: a bool each


_default: "Config | None" = None


def set_default(cfg: "Config | None") -> None:
    """The Config parse_new uses when it is given none (None: no default)."""
    global _default
    _default = cfg


def parse_new(s: str, cfg: "Config | None" = None, strict: "bool | None" = None) -> object:
    """The URL object of ``s`` (a "URL:" prefix is stripped and kept as raw) when it
    has no problem at all; -1 when no ``cfg`` is given and no default is set. Else,
    with ``strict`` None, the worst problem, 1 or 2, as an int; with ``strict`` a bool,
    the problem that refuses ``s`` as (position, code, part, start, end), positions
    in the text without the prefix (strict: the first of all; lenient: the first
    fatal one); lenient mode builds the object of a URL whose every problem it accepts
    too, its problems kept as the flat groups of ``problems`` (issue 27: one walk)."""
    if cfg is None:
        cfg = _default
        if cfg is None:
            return -1
    if type(s) is not str:
        if not isinstance(s, str):
            raise TypeError(f"expected str, not {type(s).__name__}")
        s = str.__str__(s)    # a str subclass: keep the plain text
    text = _strip(s)
    idx, out, r = _walk(text, cfg)
    if out:
        if strict is None:
            return _worst(out, cfg)
        refused = _refusal(out, cfg, strict)
        if refused != 1:
            return refused
    if len(cfg.slots) < 3 or not cfg.classes:
        raise TypeError("Config has no classes/slots to build URL objects")
    u: Any = object.__new__(cfg.classes[idx])
    cfg.slots[0].__set__(u, text)
    cfg.slots[1].__set__(u, r + (idx, 1 if out else 0))
    if out:
        cfg.slots[2].__set__(u, (s, tuple(out)))
    elif text is not s:
        cfg.slots[2].__set__(u, (s, ()))
    return u


def _refusal(out: list[int], cfg: Config, strict: bool) -> object:
    best = None
    for k in range(0, len(out), 5):   # the first by position; on a tie the first found
        if (strict or not cfg.lenient_ok[out[k + 1]]) and (best is None or out[k] < out[best]):
            best = k
    return 1 if best is None else tuple(out[best:best + 5])
