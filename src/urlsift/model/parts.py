"""A URL's parts as columns: what ``urlsift extract --parts`` and ``urlsift.dask`` add.

Each URL is parsed leniently once (cached), its parts made plain (str, int, bool, lists
of them) and valid Unicode (octets that are no UTF-8 become ``%XX``), and every scheme
gets a ``path`` (docs/cli.md).

>>> parts_getter(False)("ftp://u@h.example/pub/x;type=a")["path"]
'/pub/x;type=a'
"""
from __future__ import annotations

import codecs
from typing import Any, Callable, Sequence, TypeVar

from .parsing import is_valid, parse

__all__ = ["BOOL_COLUMNS", "CHECK_COLUMNS", "DICT_COLUMNS", "EXTRA_PARTS", "INT_COLUMNS", "LIST_COLUMNS",
           "PART_COLUMNS", "TIME_COLUMNS", "cached_by_url", "checks_getter", "parquet_schema",
           "parts_getter", "plain_value", "table_schema", "utf8_text"]

#: The parsed parts ``--parts`` adds, in column order (CSV and Parquet have exactly these).
PART_COLUMNS: tuple[str, ...] = (
    "scheme", "user", "password", "host", "port", "path", "search", "fragment", "parse_error",
)
#: Per-scheme attributes added to a JSON line when the URL object has them (not None).
EXTRA_PARTS: tuple[str, ...] = (
    "segments", "typecode", "gtype", "selector", "gopher_plus", "address", "group", "article",
    "database", "wtype", "wpath", "hsoname", "fields", "message_id", "content_id",
    "schemepart", "is_local",
)


#: The types of the output columns that are not strings, one definition for the command's
#: Parquet and the Dask frames (``parquet_schema``): integers, booleans, lists of strings,
#: and a message's Date, a UTC timestamp (docs/decisions-cli.md).
INT_COLUMNS = frozenset({"count", "line", "offset", "file_offset", "port", "start", "end"})
BOOL_COLUMNS = frozenset({"refanged", "valid_strict", "valid", "wrapped", "hyphen_break",
                          "deceptive"})
LIST_COLUMNS = frozenset({"problems", "edits"})
TIME_COLUMNS = frozenset({"date"})
#: Columns of ``urlsift.extract_table`` with few distinct values: dictionary-encoded there.
DICT_COLUMNS = frozenset({"scheme", "host", "file"})


def parquet_schema(names: "Sequence[str]") -> Any:
    """The pyarrow schema of output columns ``names``: ``int64``, ``bool``,
    ``list<string>``, ``timestamp[us, tz=UTC]``, else ``string`` (never ``large_string``).

    >>> str(parquet_schema(["url", "line", "date"]).field("date").type)  # doctest: +SKIP
    'timestamp[us, tz=UTC]'
    """
    import pyarrow as pa

    def kind(c: str) -> Any:
        return (pa.int64() if c in INT_COLUMNS else pa.bool_() if c in BOOL_COLUMNS
                else pa.list_(pa.string()) if c in LIST_COLUMNS
                else pa.timestamp("us", tz="UTC") if c in TIME_COLUMNS else pa.string())
    return pa.schema([pa.field(c, kind(c)) for c in names])


def table_schema(names: "Sequence[str]") -> Any:
    """The pyarrow schema of ``urlsift.extract_table``'s columns ``names``: as
    :func:`parquet_schema`, with :data:`DICT_COLUMNS` dictionary-encoded.

    >>> str(table_schema(["url", "host"]).field("host").type)  # doctest: +SKIP
    'dictionary<values=string, indices=int32, ordered=0>'
    """
    import pyarrow as pa
    schema = parquet_schema(names)
    return pa.schema([pa.field(f.name, pa.dictionary(pa.int32(), f.type))
                      if f.name in DICT_COLUMNS else f for f in schema])


#: How many URLs a per-URL cache keeps before it starts again (bounded memory).
CACHE_SIZE = 1_000_000
V = TypeVar("V")
U = TypeVar("U", str, bytes)


def cached_by_url(fn: Callable[[U], V]) -> Callable[[U], V]:
    """``fn`` with its results kept by URL (each distinct URL worked out once; the cache
    starts again past CACHE_SIZE URLs): ``--parts``, ``--details``, ``--host``, ``--unique``;
    a URL given as str, or as its UTF-8 octets (the lines the core makes).

    >>> calls = []
    >>> f = cached_by_url(lambda u: calls.append(u) or len(u))
    >>> f("http://a/"), f("http://a/"), calls
    (9, 9, ['http://a/'])
    """
    cache: dict[U, V] = {}

    def get(url: U) -> V:
        try:
            return cache[url]
        except KeyError:
            pass
        got = fn(url)
        if len(cache) > CACHE_SIZE:
            cache.clear()
        cache[url] = got
        return got

    return get


def parts_getter(extras: bool) -> Callable[[str], dict]:
    """``url -> {part: value}`` for ``--parts`` (lenient parse), cached by URL."""

    def parts(url: str) -> dict:
        try:
            u = parse(url, strict=False)
        except ValueError as exc:
            got: dict = dict.fromkeys(PART_COLUMNS)
            got["parse_error"] = getattr(exc, "code", None) or str(exc)
            return got
        got = {name: plain_value(getattr(u, name, None)) for name in PART_COLUMNS}
        if got["path"] is None:
            # a scheme without a "path" of its own: its path-like part as written
            # (docs/cli.md: ftp url-path, gopher path, news group or message-id...)
            got["path"] = u.written("path")
        if extras:
            for name in EXTRA_PARTS:
                value = getattr(u, name, None)
                if value is not None:
                    got[name] = plain_value(value)
        return got

    return cached_by_url(parts)


#: What ``--details`` adds from the URL itself: valid by RFC 1738 exactly (named
#: ``valid_strict`` so it is not taken for ``--valid-lenient``'s lenient validity), and the codes
#: of what lenient mode let pass (or the one code that made it refuse the URL).
CHECK_COLUMNS: tuple[str, ...] = ("valid_strict", "problems")


def checks_getter() -> Callable[[str], dict]:
    """``url -> {"valid_strict": bool, "problems": [code, ...]}``, cached by URL.

    ``valid_strict`` is :func:`urlsift.is_valid` (strict); ``problems`` are the codes (docs/codes.md)
    of the lenient parse, each once, or the code of the error when even lenient mode
    refuses the URL. A URL is valid exactly when it has no problem.

    >>> check = checks_getter()
    >>> check("http://a.example/~x"), check("http://a.example:99999/")
    ({'valid_strict': False, 'problems': ['unsafe-char']}, {'valid_strict': False, 'problems': ['bad-port']})
    """

    def checks(url: str) -> dict:
        try:
            codes = list(dict.fromkeys(p.code for p in parse(url, strict=False).problems))
        except ValueError as exc:
            codes = [getattr(exc, "code", None) or "invalid"]
        return {"valid_strict": is_valid(url, strict=True), "problems": codes}

    return cached_by_url(checks)


def _percent_octets(exc: UnicodeError) -> tuple[str, int]:
    assert isinstance(exc, UnicodeDecodeError)
    return "".join("%%%02X" % b for b in exc.object[exc.start:exc.end]), exc.end


codecs.register_error("urlsift-percent", _percent_octets)


def utf8_text(value: str) -> str:
    """``value`` as valid Unicode: octets that were not UTF-8 (kept as lone surrogates by
    ``surrogateescape`` decoding, e.g. a %E9 in a decoded part or a Latin-1 file name)
    become ``%XX``, so JSON, CSV and Parquet get text every reader can encode.

    >>> utf8_text("caf\\udce9 ok"), utf8_text("café")
    ('caf%E9 ok', 'café')
    """
    if value.isascii() or value.isprintable():      # a surrogate is never printable
        return value
    return value.encode("utf-8", "surrogateescape").decode("utf-8", "urlsift-percent")


def plain_value(value: Any) -> Any:
    """A part as JSON, CSV and Parquet take it: str (valid Unicode), int, bool or a list."""
    if isinstance(value, str):
        return utf8_text(value)
    if value is None or isinstance(value, (int, bool)):
        return value
    if isinstance(value, (tuple, list)):
        return [plain_value(v) for v in value]
    return str(value)
