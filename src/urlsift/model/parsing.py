"""parse, is_valid, check, validate_many: URLs against their scheme's RFC 1738 grammar.

>>> u = parse("ftp://@host.com/")          # RFC 1738 §3.1: empty user, no password
>>> (u.user, u.password)
('', None)
>>> is_valid("http://h/a b"), is_valid("http://h/a b", strict=False)
(False, True)
>>> [p.code for p in check("http://u@h:x/")]
['userinfo-not-allowed', 'bad-port']
>>> validate_many(["news:*", "nntp://h/"])
[True, False]
"""
from __future__ import annotations

from itertools import chain
from typing import TYPE_CHECKING, Iterable, Literal, Optional, Sequence, cast, overload

from . import registry, url
from .._fields import SCHEME_INDEX
from .._grammar import PARTS
from .._layout import CODES
from .._select import bind, cores
from ..errors import URLSyntaxError
from .problems import Problem, problem_message, problems_from_flat
from .schemes import (CidURL, FileURL, FtpURL, GopherURL, HttpURL, MailtoURL, MidURL, NewsURL,
                      NntpURL, ProsperoURL, TelnetURL, WaisURL)
from .url import URL

__all__ = ["parse", "is_valid", "check", "validate_many", "URLSyntaxError"]

_new = object.__new__
_SLOTS = vars(URL)              # the slots' member descriptors set what __setattr__ refuses
_set_text = _SLOTS["_text"].__set__
_set_t = _SLOTS["_t"].__set__
_set_x = _SLOTS["_x"].__set__
_configs = registry._configs
if TYPE_CHECKING:
    def parse_new(s: str, cfg: object = None, strict: object = None) -> object: ...
else:  # the core's parse_new, re-bound when tests switch cores
    bind(globals(), "check", ("parse_new",))
_check: dict = {}     # core functions whose public names are taken here
bind(_check, "check", ("is_valid",))


def _config(core):  # the registry's Config for this core (rebuilt after register_scheme)
    cfg = _configs.get(core)
    return cfg if cfg is not None else registry.config(core)


def _problems(s: str, text: str) -> list[Problem]:
    """Every problem of ``text`` (``s`` without a "URL:" prefix), positions in ``s``."""
    core = cores.check
    found = problems_from_flat(s, text, core.problems(text, _config(core)))
    return _add_controls(s, text, found)


def _add_controls(s: str, text: str, found: list[Problem]) -> list[Problem]:
    """Add the control characters the walk did not reach (it stops at a broken
    structure, e.g. no scheme): they are never part of a URL, so always reported."""
    if text.isprintable():    # no C0 control and no DEL: the usual case
        return found
    shift = len(s) - len(text)
    seen = {p.position for p in found if p.code == "control-char"}
    for i, ch in enumerate(text):
        c = ord(ch)
        if (c < 0x20 or c == 0x7F) and i + shift not in seen:
            found.append(Problem(i + shift, "control-char",
                                 f"control character U+{c:04X} (RFC 1738 §2.2)"))
    found.sort(key=lambda p: p.position)
    return found


# The class a type checker sees for ``parse(s, scheme=NAME)``: the built-in registry's
# (RFC 1738 §3.2-§3.11; https, rlogin and tn3270 per docs/design.md#the-scheme-classes).
# A scheme given to register_scheme is not known statically: ``URL``.
@overload
def parse(s: str, *, strict: bool = True, scheme: Literal["http", "https"]) -> HttpURL: ...
@overload
def parse(s: str, *, strict: bool = True, scheme: Literal["ftp"]) -> FtpURL: ...
@overload
def parse(s: str, *, strict: bool = True, scheme: Literal["gopher"]) -> GopherURL: ...
@overload
def parse(s: str, *, strict: bool = True, scheme: Literal["mailto"]) -> MailtoURL: ...
@overload
def parse(s: str, *, strict: bool = True, scheme: Literal["news"]) -> NewsURL: ...
@overload
def parse(s: str, *, strict: bool = True, scheme: Literal["nntp"]) -> NntpURL: ...
@overload
def parse(s: str, *, strict: bool = True,
          scheme: Literal["telnet", "rlogin", "tn3270"]) -> TelnetURL: ...
@overload
def parse(s: str, *, strict: bool = True, scheme: Literal["wais"]) -> WaisURL: ...
@overload
def parse(s: str, *, strict: bool = True, scheme: Literal["file"]) -> FileURL: ...
@overload
def parse(s: str, *, strict: bool = True, scheme: Literal["prospero"]) -> ProsperoURL: ...
@overload
def parse(s: str, *, strict: bool = True, scheme: Literal["mid"]) -> MidURL: ...
@overload
def parse(s: str, *, strict: bool = True, scheme: Literal["cid"]) -> CidURL: ...
@overload
def parse(s: str, *, strict: bool = True, scheme: Optional[str] = None) -> URL: ...


def parse(s: str, *, strict: bool = True, scheme: Optional[str] = None) -> URL:
    """Parse ``s`` into the URL object of its scheme; raise URLSyntaxError when invalid.

    A ``URL:`` prefix (RFC 1738 appendix) is accepted and kept in ``u.raw`` only.
    With ``strict=False`` the departures of the lenient list are accepted and listed in
    ``u.problems``; control characters are always refused (the lists:
    docs/design.md#strict-and-lenient).

    ``scheme="http"`` (any scheme name, lower case) also requires that scheme: another
    one raises URLSyntaxError code ``unexpected-scheme`` at position 0. A type checker
    then knows the class (``HttpURL`` for ``"http"``/``"https"``, ``FtpURL``...), so
    ``parse(s, scheme="ftp").typecode`` type-checks; without it ``parse`` returns
    :class:`URL`, and ``isinstance(u, HierURL)`` gives the common Internet scheme
    parts (``user``, ``password``, ``host``, ``port``; RFC 1738 §3.1).

    >>> u = parse("URL:http://Info.CERN.ch:8080/a%20b?x#top")
    >>> (u.scheme, u.host, u.port, u.segments, u.search, u.fragment, u.raw[:4])
    ('http', 'Info.CERN.ch', 8080, ('a b',), 'x', 'top', 'URL:')
    >>> parse("http://h/a b", strict=False).problems[0].code
    'unsafe-char'
    >>> parse("ftp://h.example/f;type=i", scheme="ftp").typecode
    'i'
    >>> parse("ftp://h.example/", scheme="http")
    Traceback (most recent call last):
    urlsift.errors.URLSyntaxError: expected a http URL, not ftp at position 0 (unexpected-scheme)
    """
    u = parse_new(s, None, strict)   # the core builds the object when s is clean
    if type(u) is tuple:             # else it says which problem refuses s
        raise _first_error(s, u)  # type: ignore[arg-type]
    url = _parse_slow(s, strict) if type(u) is int else cast(URL, u)
    if scheme is not None and url.scheme != scheme:
        raise _unexpected(s, url.scheme, scheme)
    return url


def _unexpected(s: str, found: str, wanted: object) -> Exception:
    if not isinstance(wanted, str):
        return TypeError(f"scheme must be str or None, not {type(wanted).__name__}")
    return URLSyntaxError("unexpected-scheme", 0, f"expected a {wanted} URL, not {found}", s)


def _parse_slow(s: str, strict: bool) -> URL:
    """The core had no Config yet (first use, or a new scheme), or lenient mode
    accepts every problem of ``s``: the URL keeps them all."""
    core = cores.check
    cfg = _config(core)
    built = core.parse_new(s, cfg, bool(strict))
    if type(built) is tuple:
        raise _first_error(s, built)
    if type(built) is not int:
        return built
    text = s[4:] if s[:4] == "URL:" else s
    flat = core.problems(text, cfg)
    t = core.parse_tokens(text, cfg)
    u = _new(registry.classes()[t[SCHEME_INDEX]])
    _set_text(u, text)
    _set_t(u, t)
    _set_x(u, (s, tuple(flat)))
    return u


def _first_error(s: str, first: Sequence[int]) -> URLSyntaxError:
    """The error for the problem that refuses ``s`` (the core picked it; this runs for
    every invalid URL a strict caller meets, so no message is built until read)."""
    pos, code, part, a, b = first
    shift = 4 if s[:4] == "URL:" else 0    # the core's positions are in the text
    name = CODES[code]
    return URLSyntaxError(name, pos + shift,
                          lambda: problem_message(s[shift:], pos, name, PARTS[part], a, b), s)


def is_valid(s: str, *, strict: bool = True) -> bool:
    """True when ``s`` parses (in the given mode); no object is built.

    >>> is_valid("http://999"), is_valid("ftp://h/x;type=q"), is_valid("news:*")
    (False, False, True)
    """
    ok = _check["is_valid"](s, None, strict)   # the core's default Config
    if ok != -1:
        return ok
    core = cores.check      # no Config yet (first use, or a new scheme)
    return core.is_valid(s, _config(core), strict)


def check(s: str) -> list[Problem]:
    """EVERY problem of ``s`` against the strict grammar, in position order.

    Each :class:`~urlsift.Problem` has a position, a stable code (``docs/codes.md``)
    and a message quoting the text. An empty list means ``s`` is strictly valid.

    >>> [(p.position, p.code) for p in check("HTTP://h/a b#c#d")]
    [(0, 'uppercase-scheme'), (10, 'unsafe-char'), (14, 'unsafe-char')]
    """
    if not isinstance(s, str):
        raise TypeError(f"expected str, not {type(s).__name__}")
    return _problems(s, s[4:] if s[:4] == "URL:" else s)


#: The byte-order mark as a character (``urlsift.text.bom``, a layer above this one).
_BOM = "\ufeff"
_NONE = object()


def validate_many(urls: Iterable[str], *, strict: bool = True) -> list[bool]:
    """:func:`is_valid` for every string of ``urls``, in ONE call through the core.

    ``urls`` are taken as the lines of a file of URLs (their line ends stripped), so a
    byte-order mark (U+FEFF) at the start of the FIRST string is the file's, not the
    URL's, and is passed over — what ``str.strip()`` leaves of a file saved by Notepad
    and read with ``encoding="utf-8"``. Anywhere else U+FEFF is a character of the URL
    (``is_valid("\\ufeffhttp://a.b/")`` is False): a file has one start.

    >>> validate_many(["http://a.b/", "http://a_b/", "URL:mailto:x@y"])
    [True, False, True]
    >>> validate_many(["\\ufeffhttp://a.b/", "\\ufeffhttp://a.b/"])
    [True, False]
    """
    core = cores.check
    cfg = _config(core)
    if isinstance(urls, (list, tuple)):
        out: list[bool] = core.validate_many(urls, cfg, strict)
        if urls and isinstance(urls[0], str) and urls[0].startswith(_BOM):
            out[0] = core.validate_many([urls[0][1:]], cfg, strict)[0]
        return out
    it = iter(urls)
    first = next(it, _NONE)
    if first is _NONE:
        return []
    if isinstance(first, str) and first.startswith(_BOM):
        first = first[1:]
    return core.validate_many(chain((first,), it), cfg, strict)


url.set_parser(parse)   # unpickling a URL parses its text again (url.py is below this module)
