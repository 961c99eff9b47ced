"""The base URL object (and :class:`HierURL`, the base of the ``//`` schemes).

A URL object keeps the text and the tokenizer's offsets in slots and computes
its decoded parts lazily, on first use (cached; still immutable from outside).
Subclasses per scheme live in :mod:`urlsift.model.schemes`; the parser that makes
them (:mod:`urlsift.model.parsing`) sits above this module.

>>> from urlsift import parse
>>> u = parse("ftp://foo:@host.com/pub/file;type=I")
>>> (u.user, u.password, u.host, u.segments, u.typecode)
('foo', '', 'host.com', ('pub', 'file'), 'i')
"""
from __future__ import annotations

from typing import Any, Callable, Optional, TypeVar, cast

from .._fields import (FRAGMENT_START, HOST_START, NFIELDS, PASSWORD_START, PATH_START, PORT_START,
                       SCHEME_END, SEARCH_START, USER_START)
from .._grammar import G_GENERIC
from .equivalence import Rules, check_rules, normalized_3986
from .equivalence import normalized_text as _normalized
from .ports import default_port
from .problems import Problem, problems_from_flat
from .rebuild import HIER_PARTS, PartValue, decode, encode_part, from_parts, pairs_of
from .security import warnings_of
from .tokens import Tokens

__all__ = ["URL", "HierURL", "Problem", "decode", "set_parser"]

#: ``parse(text, strict=...)``: what unpickling calls. The parser imports this module,
#: so it hands itself down here when it loads (:func:`set_parser`) instead of this
#: module importing the one above it.
_parser: list[Callable[..., "URL"]] = []


def set_parser(parse: Callable[..., "URL"]) -> None:
    """Install the parser that :func:`_unpickle` calls (done by ``urlsift.model.parsing``)."""
    _parser[:] = [parse]


T = TypeVar("T")
#: ``replace``/``build`` give an object of the class they are called on
H = TypeVar("H", bound="HierURL")
U = TypeVar("U", bound="URL")


def _cached(fn: Callable[[Any], T]) -> T:
    """A read-only property computed once per object and kept in its ``_c`` slot.

    (Typed as the value it gives, so ``u.segments`` is a ``tuple[str, ...]`` to a type
    checker; at run time it is a plain ``property``, which costs nothing more.)"""
    name = fn.__name__

    def get(self: "URL") -> Any:
        try:
            cache = self._c
        except AttributeError:
            cache = {}
            object.__setattr__(self, "_c", cache)
        try:
            return cache[name]
        except KeyError:
            value = cache[name] = fn(self)
            return value

    get.__doc__ = fn.__doc__
    get.__name__ = name
    return cast(T, property(get))


class URL:
    """A parsed URL. Immutable, hashable, picklable; parts are computed lazily.

    ``_text`` is the URL (without a ``URL:`` prefix), ``_t`` the tokenizer offsets
    followed by the scheme index and the worst problem (read by name: ``urlsift._fields``),
    ``_x`` (optional) is ``(raw, problems)`` when they differ from the defaults.
    """

    __slots__ = ("_text", "_t", "_x", "_c", "__weakref__")
    _text: str
    _t: tuple
    _x: tuple
    _c: dict
    #: the grammar the ``_check`` core walks for this class (``urlsift._grammar``)
    grammar: int = G_GENERIC
    #: attributes shown by ``repr`` and compared by :meth:`parts`
    _PARTS: tuple[str, ...] = ("scheme", "fragment")

    def __new__(cls, *args: object, **kwargs: object) -> "URL":
        # the parser makes URL objects (object.__new__, which does not come here)
        hint = f" or {cls.__name__}.build(host=...)" if issubclass(cls, HierURL) else ""
        raise TypeError(f"{cls.__name__}(...) does not make a URL: use urlsift.parse(text)"
                        f"{hint}")

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"{type(self).__name__} objects are immutable")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"{type(self).__name__} objects are immutable")

    # ---- raw text and offsets ------------------------------------------------
    def _span(self, start: int) -> Optional[str]:
        """The part whose start field is ``start`` (``HOST_START``...): every part's end
        field follows its start (``urlsift._layout.URL_FIELDS``)."""
        a = self._t[start]
        return None if a < 0 else self._text[a:self._t[start + 1]]

    @property
    def raw(self) -> str:
        """The text as given to :func:`~urlsift.parse` (with any ``URL:`` prefix)."""
        try:
            return self._x[0]
        except AttributeError:
            return self._text

    @_cached
    def problems(self) -> tuple[Problem, ...]:
        """Departures lenient parsing accepted (always empty for a strict parse)."""
        try:
            raw, flat = self._x
        except AttributeError:
            return ()
        if not flat:
            return ()
        # kept as the core's flat ints until asked for: messages cost more than parsing
        return tuple(problems_from_flat(raw, self._text, flat))

    def __str__(self) -> str:
        return self._text

    def written(self, part: str) -> Optional[str]:
        """A tokenizer part as written (not decoded): user, password, host, port, path, search, fragment.

        >>> from urlsift import parse
        >>> parse("ftp://a%40b@h/").written("user")
        'a%40b'
        """
        return Tokens(self._text, self._t[:NFIELDS]).part(part)

    # ---- common parts --------------------------------------------------------
    @_cached
    def scheme(self) -> str:
        """The scheme, lower-cased (RFC 1738 §2.1: case-ignore)."""
        return self._text[:self._t[SCHEME_END]].lower()

    @property
    def fragment(self) -> Optional[str]:
        """The text after the first ``#``, as written; None without ``#``."""
        return self._span(FRAGMENT_START)

    @property
    def host(self) -> Optional[str]:
        """The host as written (None for schemes without one)."""
        return None

    @property
    def port(self) -> Optional[int]:
        """The port as written, as an int; None when absent (or empty, leniently)."""
        return None

    @property
    def effective_port(self) -> Optional[int]:
        """:attr:`port`, or the scheme's default port when none is written."""
        p = self.port
        if p is not None:
            return p
        return default_port(self.scheme)

    @_cached
    def warnings(self) -> tuple[Problem, ...]:
        """Security notes of RFC 1738 §6, and a gopher search that §5 reads otherwise
        than §3.4 (``ambiguous-search``); see ``docs/codes.md``."""
        return warnings_of(self)

    # ---- equivalence (rules in urlsift.model.equivalence) ---------------------------
    def normalized(self, *, rules: Rules = "rfc1738") -> str:
        """The canonical string of the equivalence rules (docs/design.md#equivalence);
        ``rules="rfc3986"``: RFC 3986 §6.2.2-§6.2.3 and IDNA hosts
        (:func:`urlsift.normalized`). ``==`` and ``hash`` use the default.

        >>> from urlsift import parse
        >>> u = parse("http://A.example/%7Ex/./y", strict=False)
        >>> u.normalized(), u.normalized(rules="rfc3986")
        ('http://a.example/%7Ex/./y', 'http://a.example/~x/y')
        """
        if rules != "rfc1738":
            check_rules(rules)
            return normalized_3986(self._text)
        try:
            return self._c["normalized"]
        except (AttributeError, KeyError):
            pass
        value = _normalized(self._text)
        self.scheme  # makes sure the cache exists
        self._c["normalized"] = value
        return value

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, URL):
            return NotImplemented
        return self.normalized() == other.normalized()

    def __ne__(self, other: object) -> bool:
        eq = self.__eq__(other)
        return eq if eq is NotImplemented else not eq

    def __hash__(self) -> int:
        return hash(self.normalized())

    # ``sorted(urls)``: ordered by the equivalence key, so the order agrees with ``==``
    def __lt__(self, other: object) -> bool:
        if not isinstance(other, URL):
            return NotImplemented
        return self.normalized() < other.normalized()

    def __le__(self, other: object) -> bool:
        if not isinstance(other, URL):
            return NotImplemented
        return self.normalized() <= other.normalized()

    def __gt__(self, other: object) -> bool:
        if not isinstance(other, URL):
            return NotImplemented
        return self.normalized() > other.normalized()

    def __ge__(self, other: object) -> bool:
        if not isinstance(other, URL):
            return NotImplemented
        return self.normalized() >= other.normalized()

    # ---- changing parts: a new URL, parsed again ---------------------------------
    def _strict(self) -> bool:
        """Was this URL parsed strictly (no problem let through)? Its changes are too."""
        return not getattr(self, "_x", (None, ()))[1]

    def _reparsed(self: U, text: str) -> U:
        new = _parser[0](text, strict=self._strict())
        if type(new) is not type(self):     # the registry changed under us
            raise TypeError(f"{text!r} parses as {type(new).__name__}, not {type(self).__name__}")
        return cast(U, new)

    def replace(self: U, *, encoded: bool = False, **parts: PartValue) -> U:
        """A new URL of the same scheme with ``parts`` changed (None: left out), parsed
        again as strictly as this one (a bad part raises :class:`~urlsift.URLSyntaxError`
        with its position and code). Parts are given decoded and %hex-encoded here,
        or as written with ``encoded=True``. Here only ``fragment``; the ``//`` schemes
        have ``user password host port path search`` too.

        >>> from urlsift import parse
        >>> parse("news:comp.lang.misc").replace(fragment="top")
        NewsURL('news:comp.lang.misc#top', scheme='news', group='comp.lang.misc', fragment='top')
        """
        unknown = set(parts) - {"fragment"}
        if unknown:
            raise TypeError(f"{type(self).__name__} has no part {sorted(unknown)[0]!r} to "
                            f"replace (only 'fragment')")
        text = self._text if self.fragment is None else self._text[:self._t[FRAGMENT_START] - 1]
        value = parts["fragment"]
        fragment = value if encoded and isinstance(value, str) else encode_part("fragment", value)
        return self._reparsed(text + (f"#{fragment}" if fragment is not None else ""))

    def with_fragment(self: U, fragment: Optional[str]) -> U:
        """:meth:`replace` of the fragment (None removes it)."""
        return self.replace(fragment=fragment)

    # ---- parts, repr, pickle ---------------------------------------------------
    def parts(self) -> dict[str, object]:
        """The decoded parts by name (for comparisons part by part).

        >>> from urlsift import parse
        >>> parse("news:*").parts()["group"]
        '*'
        """
        return {name: getattr(self, name) for name in self._PARTS}

    def __repr__(self) -> str:
        shown = ", ".join(f"{k}={v!r}" for k, v in self.parts().items() if v is not None)
        return f"{type(self).__name__}({self._text!r}, {shown})"

    def __reduce__(self) -> tuple:
        return (_unpickle, (self.raw, not getattr(self, "_x", (None, ()))[1]))

    def __copy__(self) -> "URL":
        return self

    def __deepcopy__(self, memo: dict) -> "URL":
        return self


def _unpickle(raw: str, strict: bool) -> URL:
    return _parser[0](raw, strict=strict)


class HierURL(URL):
    """Base of the ``//`` schemes: login and hostport (RFC 1738 §3.1). ``parse`` returns
    :class:`URL` to a type checker; ``isinstance(u, HierURL)`` narrows it to these
    common parts (or ``parse(s, scheme="ftp")`` to the scheme's class).

    >>> from urlsift import parse
    >>> u = parse("ftp://anon@h.example:2121/x")
    >>> isinstance(u, HierURL), u.user, u.host, u.port
    (True, 'anon', 'h.example', 2121)
    """

    __slots__ = ()
    _PARTS: tuple[str, ...] = ("scheme", "user", "password", "host", "port", "fragment")

    @_cached
    def user(self) -> Optional[str]:
        """The decoded user; None when absent, "" when empty (§3.1)."""
        u = self._span(USER_START)
        return None if u is None else decode(u)

    @_cached
    def password(self) -> Optional[str]:
        """The decoded password; None when absent, "" when empty (§3.1)."""
        p = self._span(PASSWORD_START)
        return None if p is None else decode(p)

    @property
    def host(self) -> Optional[str]:
        """The host as written ("" when empty, e.g. ``file:///x``)."""
        return self._span(HOST_START)

    @_cached
    def port(self) -> Optional[int]:
        """The port as written, as an int; None when absent or empty."""
        p = self._span(PORT_START)
        return int(p) if p and p.isdigit() and p.isascii() else None

    def _region(self) -> tuple[int, int]:
        """Offsets of the text after hostport up to the fragment ("/..." or "?...")."""
        t = self._t
        end = t[FRAGMENT_START] - 1 if t[FRAGMENT_START] >= 0 else len(self._text)
        start = t[PATH_START] if t[PATH_START] >= 0 else (
            t[SEARCH_START] - 1 if t[SEARCH_START] >= 0 else end)
        if t[HOST_START] < 0:  # lenient file:/path -- no "//"
            start = t[PATH_START]
        return start, end

    # ---- building and changing (RFC 1738 §3.1 parts) ------------------------------
    #: the scheme :meth:`build` writes when none is given (the scheme classes set it)
    default_scheme: Optional[str] = None

    def replace(self: H, *, encoded: bool = False, **parts: PartValue) -> H:
        """A new URL of the same scheme with some of ``user password host port path search
        fragment`` changed (None: left out), parsed again as strictly as this one; a
        bad part raises :class:`~urlsift.URLSyntaxError` with its position and code.

        Parts are given decoded and %hex-encoded here with what their grammar allows
        kept (a path keeps its ``/``; a search may be ``(name, value)`` pairs), or as
        written with ``encoded=True``. A host is always written as given.

        >>> from urlsift import parse
        >>> u = parse("http://h.example/a?q=1")
        >>> str(u.replace(path="/new dir/x", search=[("q", "a&b")]))
        'http://h.example/new%20dir/x?q=a%26b'
        >>> str(u.replace(host="other.example", port=8080, search=None))
        'http://other.example:8080/a'
        """
        unknown = set(parts) - set(HIER_PARTS)
        if unknown:
            raise TypeError(f"{type(self).__name__} has no part {sorted(unknown)[0]!r} to "
                            f"replace (parts: {', '.join(HIER_PARTS)})")
        written = {name: self.written(name) for name in HIER_PARTS}
        for name, value in parts.items():
            written[name] = value if encoded and isinstance(value, str) else encode_part(name, value)
        return self._reparsed(from_parts(self._text[:self._t[SCHEME_END]], written))

    def with_user(self: H, user: Optional[str]) -> H:
        """:meth:`replace` of the user (decoded; None removes the login's user)."""
        return self.replace(user=user)

    def with_password(self: H, password: Optional[str]) -> H:
        """:meth:`replace` of the password (decoded; None removes it)."""
        return self.replace(password=password)

    def with_host(self: H, host: str) -> H:
        """:meth:`replace` of the host."""
        return self.replace(host=host)

    def with_port(self: H, port: Optional[int]) -> H:
        """:meth:`replace` of the port (None: the scheme's default, written as nothing)."""
        return self.replace(port=port)

    def with_path(self: H, path: Optional[str]) -> H:
        """:meth:`replace` of the path (decoded, ``/`` kept; None: no path)."""
        return self.replace(path=path)

    def with_search(self: H, search: PartValue) -> H:
        """:meth:`replace` of the search: text (decoded), ``(name, value)`` pairs, or None."""
        return self.replace(search=search)

    @classmethod
    def build(cls: type[H], *, scheme: Optional[str] = None, encoded: bool = False,
              strict: bool = True, **parts: PartValue) -> H:
        """A URL of this class made from its parts (see :meth:`replace`), parsed ``strict``
        (the default) or leniently. ``scheme`` defaults to the class's own (``https`` must
        be asked for).

        >>> from urlsift import HttpURL, FtpURL
        >>> str(HttpURL.build(host="h.example", path="/a b", search=[("q", "1")]))
        'http://h.example/a%20b?q=1'
        >>> FtpURL.build(host="ftp.example", user="anonymous", path="/pub/x;type=i").typecode
        'i'
        """
        name = scheme or cls.default_scheme
        if name is None:
            raise TypeError(f"{cls.__name__}.build needs scheme=...")
        unknown = set(parts) - set(HIER_PARTS)
        if unknown:
            raise TypeError(f"{cls.__name__}.build got no part {sorted(unknown)[0]!r} "
                            f"(parts: {', '.join(HIER_PARTS)})")
        written = {k: (v if encoded and isinstance(v, str) else encode_part(k, v))
                   for k, v in parts.items()}
        new = _parser[0](from_parts(name, written), strict=strict)
        if not isinstance(new, cls):
            raise TypeError(f"scheme {name!r} makes a {type(new).__name__}, not a {cls.__name__}")
        return new

    def search_pairs(self, form: bool = False) -> list[tuple[str, str]]:
        """The search part as ``(name, value)`` pairs split at ``&`` and the first ``=``,
        %hex-decoded; [] without a search. ``form=True`` reads ``+`` as a space, as HTML
        forms write it (RFC 1738 gives ``+`` no meaning).

        >>> from urlsift import parse
        >>> parse("http://h.example/s?q=a+b%26c&n=2").search_pairs()
        [('q', 'a+b&c'), ('n', '2')]
        """
        return pairs_of(self.written("search"), form)
