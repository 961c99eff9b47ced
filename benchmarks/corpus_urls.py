"""A labelled URL list: RFC 1738 URLs, about 70% valid and 30% invalid by construction.

Every valid URL is built from the BNF of RFC 1738 §5 for its scheme (ftp, http,
gopher, mailto, news, nntp, telnet, wais, file, prospero; https with http's grammar;
a few generic ``scheme:schemepart`` ones). Every invalid one is a valid one with one
known mutation applied, so its label is known without asking any validator:

========== ==================================================================
mutation   what it does (and why it is invalid in strict RFC 1738)
========== ==================================================================
unsafe     inserts one of space ``{ } | \\ ^ ~ [ ] ` < > "`` (§2.2 unsafe)
escape     inserts ``%zz``, ``%4`` ... (§2.2: ``%`` must start ``%hex hex``)
control    inserts a C0 control or DEL (§2.2: never in a URL)
non-ascii  inserts a raw non-ASCII character (§2.2: must be encoded)
hash2      adds a second ``#`` (docs/design.md#the-parts-of-each-scheme: a second ``#`` is unsafe)
upper      upper-cases the scheme (§5: ``scheme = 1*[lowalpha|digit|+|-|.]``)
empty-host drops the host of a hostport scheme (§3.1: host is required)
bad-port   port > 65535 or not digits (§3.1 ``port = digits``; 0-65535: design.md#strict-and-lenient)
hostnumber a dotted quad with a part > 255 (parts are 0-255: design.md#strict-and-lenient)
========== ==================================================================

The character lists here are test data quoted from the RFC, deliberately not taken
from ``urlsift.charclass``: the oracle must not share the code it checks.
Insertions go after the authority (``//login``), so that peers such as
``urllib.parse.urlsplit`` never raise on a bracket in a netloc.
"""
from __future__ import annotations

import random
from typing import Callable, Iterator, NamedTuple, Optional

__all__ = ["LabeledURL", "labeled_urls", "iter_labeled_urls", "urls", "MUTATIONS"]

WORDS = (
    "pub doc docs index home about news archive src lib rfc rfc1738 files images img "
    "search cgi-bin users staff project data www2 mirror gnu linux info readme faq "
    "report_2024 old new v1 v2 en de fr list tmp"
).split()
LABELS = "www ftp mail news gopher cs math lists uni-bonn a1 host-7 web01 archive mirror".split()
TLDS = "com org net edu de uk fr info io".split()
ESCAPES = ("%20", "%C3%A9", "%2F", "%7E", "%41", "%e2%82%ac", "%3D", "%25")
# uchar that is not a letter or digit: safe | extra (RFC 1738 §5)
UCHAR_PUNCT = "$-_.+!*'(),"
UNSAFE = ' {}|\\^~[]`<>"'
CONTROLS = "\x01\x07\x08\t\x1b\x7f"      # no CR/LF/VT/FF/FS..: the file is line based
NON_ASCII = "éüß€日"
BAD_ESCAPES = ("%zz", "%4", "%G1", "%", "%%20", "%2")


class LabeledURL(NamedTuple):
    """A URL, whether it is valid strict RFC 1738, and the mutation that broke it."""

    url: str
    valid: bool
    mutation: str        # "" for a valid URL


class _Parts(NamedTuple):
    scheme: str
    sep: str             # "//" or ""
    authority: str       # login (user:password@hostport) or ""
    rest: str            # path, search, fragment: where mutations are inserted

    def join(self) -> str:
        return f"{self.scheme}:{self.sep}{self.authority}{self.rest}"


def _word(r: random.Random) -> str:
    w = r.choice(WORDS)
    x = r.random()
    if x < 0.15:
        w += r.choice(ESCAPES) + r.choice(WORDS)
    elif x < 0.25:
        w += r.choice(UCHAR_PUNCT) + r.choice(WORDS)
    elif x < 0.35:
        w += "." + r.choice(("html", "txt", "gz", "tar", "ps", "gif"))
    return w


def _hostname(r: random.Random) -> str:
    labels = [r.choice(LABELS) for _ in range(r.randint(0, 2))]
    labels.append(r.choice(("example", "foo", "bar-baz", "x9", "w3")))
    return ".".join(labels + [r.choice(TLDS)])


def _host(r: random.Random) -> str:
    if r.random() < 0.12:
        return ".".join(str(r.randint(0, 255)) for _ in range(4))
    return _hostname(r)


def _hostport(r: random.Random, default: int) -> str:
    host = _host(r)
    x = r.random()
    if x < 0.08:
        return f"{host}:{default}"
    if x < 0.16:
        return f"{host}:{r.randint(0, 65535)}"
    return host


def _login(r: random.Random, default: int) -> str:
    if r.random() < 0.2:
        user = r.choice(("anonymous", "foo", "ann;x", "a%40b", "guest"))
        if r.random() < 0.5:
            return f"{user}:{r.choice(('', 'secret', 'p%3Aw', 'x&y=z'))}@{_hostport(r, default)}"
        return f"{user}@{_hostport(r, default)}"
    return _hostport(r, default)


def _segments(r: random.Random, lo: int, hi: int) -> str:
    return "/".join(_word(r) for _ in range(r.randint(lo, hi)))


def _fragment(r: random.Random) -> str:
    return "#" + r.choice(("top", "sec-2", "a%20b", "x/y?z", "p=1;q", "")) if r.random() < 0.1 else ""


# ---- one builder per scheme, each following its RFC 1738 §5 production --------------

def _http(r: random.Random) -> _Parts:
    # httpurl = "http://" hostport [ "/" hpath [ "?" search ]]
    scheme = "https" if r.random() < 0.4 else "http"
    rest = ""
    if r.random() < 0.9:
        rest = "/" + _segments(r, 0, 4)
        if r.random() < 0.2:
            rest += r.choice((";jsessionid=a1", ":x", "@y", "&z=1"))
        if r.random() < 0.4:
            rest += "?" + "&".join(f"{_word(r)}={r.choice(WORDS)}" for _ in range(r.randint(1, 3)))
    return _Parts(scheme, "//", _hostport(r, 443 if scheme == "https" else 80), rest + _fragment(r))


def _ftp(r: random.Random) -> _Parts:
    # ftpurl = "ftp://" login [ "/" fpath [ ";type=" ftptype ]]
    rest = ""
    if r.random() < 0.9:
        rest = "/" + _segments(r, 1, 4)
        if r.random() < 0.2:
            rest += ";type=" + r.choice("aidAID")
    return _Parts("ftp", "//", _login(r, 21), rest)


def _gopher(r: random.Random) -> _Parts:
    # gopherurl = "gopher://" hostport [ / [ gtype [ selector [ "%09" search ...]]]]
    rest = ""
    if r.random() < 0.85:
        rest = "/" + r.choice("0179hIg") + _segments(r, 0, 3)
        if r.random() < 0.2:
            rest += "%09" + _word(r)
            if r.random() < 0.3:
                rest += "%09+"
    return _Parts("gopher", "//", _hostport(r, 70), rest)


def _mailto(r: random.Random) -> _Parts:
    # mailtourl = "mailto:" encoded822addr ; 1*xchar
    user = r.choice(("info", "j.doe", "ann+list", "postmaster", "a%20b", "x_y"))
    return _Parts("mailto", "", "", f"{user}@{_hostname(r)}")


def _news(r: random.Random) -> _Parts:
    # newsurl = "news:" grouppart ; "*" | group | article
    x = r.random()
    if x < 0.1:
        part = "*"
    elif x < 0.7:
        part = ".".join(r.choice(("comp", "infosystems", "www", "alt", "rec", "lang+c", "x_y"))
                        for _ in range(r.randint(1, 4)))
    else:
        part = f"{r.randint(1, 99999)}.{r.choice(WORDS)}@{_hostname(r)}"
    return _Parts("news", "", "", part)


def _nntp(r: random.Random) -> _Parts:
    # nntpurl = "nntp://" hostport "/" group [ "/" digits ]
    rest = "/" + ".".join(r.choice(("comp", "lang", "python", "misc")) for _ in range(r.randint(1, 3)))
    if r.random() < 0.5:
        rest += f"/{r.randint(1, 999999)}"
    return _Parts("nntp", "//", _hostport(r, 119), rest)


def _telnet(r: random.Random) -> _Parts:
    # telneturl = "telnet://" login [ "/" ]
    return _Parts("telnet", "//", _login(r, 23), r.choice(("", "/")))


def _wais(r: random.Random) -> _Parts:
    # waisdatabase | waisindex ("?" search) | waisdoc ("/" wtype "/" wpath)
    rest = "/" + _word(r)
    x = r.random()
    if x < 0.3:
        rest += "?" + _word(r)
    elif x < 0.6:
        rest += f"/{r.choice(('TEXT', 'HTML'))}/{_word(r)}"
    return _Parts("wais", "//", _hostport(r, 210), rest)


def _file(r: random.Random) -> _Parts:
    # fileurl = "file://" [ host | "localhost" ] "/" fpath
    host = r.choice(("", "", "localhost", _host(r)))
    return _Parts("file", "//", host, "/" + _segments(r, 1, 4))


def _prospero(r: random.Random) -> _Parts:
    # prosperourl = "prospero://" hostport "/" ppath *[ fieldspec ]
    rest = "/" + _segments(r, 1, 3)
    if r.random() < 0.3:
        rest += f";{r.choice(('version', 'x'))}={r.randint(1, 9)}"
    return _Parts("prospero", "//", _hostport(r, 1525), rest)


def _generic(r: random.Random) -> _Parts:
    # genericurl = scheme ":" schemepart ; schemepart = *xchar | ip-schemepart
    x = r.random()
    if x < 0.3:
        return _Parts(r.choice(("rtsp", "irc", "svn+ssh", "z39.50s")), "//", _hostport(r, 1),
                      "/" + _segments(r, 0, 2))
    if x < 0.5:
        return _Parts("urn", "", "", f"isbn:{r.randint(10**9, 10**10 - 1)}")
    if x < 0.75:
        return _Parts(r.choice(("mid", "cid")), "", "", f"{r.randint(1, 99999)}.{_word(r)}@{_hostname(r)}")
    return _Parts(r.choice(("x-note", "tag", "data")), "", "", f"{_word(r)}:{_word(r)};v={r.randint(0, 9)}")


#: builder, weight, has a hostport (so host/port mutations apply)
SCHEMES: tuple[tuple[Callable[[random.Random], _Parts], int, bool], ...] = (
    (_http, 45, True), (_ftp, 10, True), (_gopher, 4, True), (_mailto, 8, False),
    (_news, 4, False), (_nntp, 3, True), (_telnet, 3, True), (_wais, 3, True),
    (_file, 6, False), (_prospero, 2, True), (_generic, 12, False),
)


# ---- mutations: each returns a URL that strict RFC 1738 refuses -------------------

def _insert(r: random.Random, p: _Parts, text: str) -> str:
    rest = p.rest or "/x"
    if p.scheme == "telnet":      # telnet allows only "" or "/" after the login
        rest = "/"
    at = r.randint(1 if rest.startswith("/") else 0, len(rest))
    return f"{p.scheme}:{p.sep}{p.authority}{rest[:at]}{text}{rest[at:]}"


def _with_host(p: _Parts, host: str) -> str:
    login, _, hostport = p.authority.rpartition("@")
    port = hostport.partition(":")[2]
    authority = (login + "@" if login else "") + host + (":" + port if port else "")
    return f"{p.scheme}://{authority}{p.rest}"


def _with_port(p: _Parts, port: str) -> str:
    login, _, hostport = p.authority.rpartition("@")
    host = hostport.partition(":")[0]
    return f"{p.scheme}://{login + '@' if login else ''}{host}:{port}{p.rest}"


def _hash2(r: random.Random, p: _Parts) -> str:
    url = p.join()
    return url + ("#" if "#" in url else "#" + r.choice(WORDS) + "#") + r.choice(WORDS)


def _upper(r: random.Random, p: _Parts) -> str:
    scheme = p.scheme.upper() if r.random() < 0.5 else p.scheme.capitalize()
    return p._replace(scheme=scheme).join()


def _bad_port(r: random.Random, p: _Parts) -> str:
    port = str(r.randint(65536, 999999)) if r.random() < 0.6 else r.choice(("8o", "80a", "-1", "0x50", "http"))
    return _with_port(p, port)


def _hostnumber(r: random.Random, p: _Parts) -> str:
    parts = [str(r.randint(0, 255)) for _ in range(4)]
    parts[r.randrange(4)] = str(r.randint(256, 999))
    return _with_host(p, ".".join(parts))


Mutation = Callable[[random.Random, _Parts], str]
#: name -> (mutation, needs a hostport scheme)
MUTATIONS: dict[str, tuple[Mutation, bool]] = {
    "unsafe": (lambda r, p: _insert(r, p, r.choice(UNSAFE)), False),
    "escape": (lambda r, p: _insert(r, p, r.choice(BAD_ESCAPES) + "q"), False),
    "control": (lambda r, p: _insert(r, p, r.choice(CONTROLS)), False),
    "non-ascii": (lambda r, p: _insert(r, p, r.choice(NON_ASCII)), False),
    "hash2": (_hash2, False),
    "upper": (_upper, False),
    "empty-host": (lambda r, p: _with_host(p, ""), True),
    "bad-port": (_bad_port, True),
    "hostnumber": (_hostnumber, True),
}
_GENERAL = [name for name, (_, hp) in MUTATIONS.items() if not hp]
_ALL = list(MUTATIONS)


def iter_labeled_urls(count: int, seed: int = 1, invalid: float = 0.3) -> Iterator[LabeledURL]:
    """Yield ``count`` labelled URLs; the same ``seed`` gives the same URLs.

    >>> [u.valid for u in iter_labeled_urls(3, seed=7)] == [u.valid for u in iter_labeled_urls(3, seed=7)]
    True
    """
    r = random.Random(seed)
    builders = [b for b, _, _ in SCHEMES]
    weights = [w for _, w, _ in SCHEMES]
    hostport = {b: hp for b, _, hp in SCHEMES}
    for _ in range(count):
        build = r.choices(builders, weights)[0]
        parts = build(r)
        if r.random() >= invalid:
            yield LabeledURL(parts.join(), True, "")
            continue
        name = r.choice(_ALL if hostport[build] else _GENERAL)
        yield LabeledURL(MUTATIONS[name][0](r, parts), False, name)


def labeled_urls(count: int, seed: int = 1, invalid: float = 0.3) -> list[LabeledURL]:
    """The list of :func:`iter_labeled_urls`."""
    return list(iter_labeled_urls(count, seed, invalid))


def urls(count: int, seed: int = 1, invalid: float = 0.3) -> list[str]:
    """Only the URL strings of :func:`labeled_urls`."""
    return [u.url for u in iter_labeled_urls(count, seed, invalid)]


def parse_label(line: str) -> tuple[bool, Optional[str]]:
    """Read one line of a ``.labels`` file written by :mod:`corpus`: ``1`` or ``0 mutation``."""
    valid, _, mutation = line.partition(" ")
    return valid == "1", mutation or None
