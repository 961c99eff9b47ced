"""The Arrow sink: the scanner's records of a text as Arrow record batches, no Python
object made per URL (``urlsift.extract_table``; needs ``pyarrow``: ``urlsift[arrow]``).

Each batch of records (:mod:`.sinks`) becomes one ``pyarrow.RecordBatch``: ``url`` a
string column made in the core from offsets into the input (``_records.url_column``),
``start``/``end`` the records' fields as they are (input offsets), ``line`` counted in the
core, ``wrapped``/``hyphen_break``/``edits`` read from the flags with Arrow's kernels.
``scheme`` and ``host`` are cut where the tokenizer says, in the core; ``valid`` and
``problems`` are worked out once per distinct URL of the batch (the URL's lenient parse,
as ``--details``) and spread over its rows by index. The column types are :func:`urlsift.model.parts.table_schema`'s.
"""
from __future__ import annotations

from array import array
from typing import Any, Callable, Iterator, NamedTuple, Optional, Sequence

from .._layout import (EDITS_NON_ASCII, FIELDS, HIGH_SHIFT, HYPHEN_BREAK, RECORD_WIDTH,
                       R_END, R_FLAGS, R_START, SOFT_BREAK, TRIM_MASK, TRIM_SHIFT, WRAPPED)
from .._select import cores
from ..model.parts import checks_getter, table_schema
from .match import Match
from .rules import EDITS, TABLE
from .sinks import counted_lines, match_lists

__all__ = ["ArrowSink", "DEFAULT_COLUMNS", "MATCH_COLUMNS", "PER_URL_COLUMNS", "RecordColumns",
           "TEXT_COLUMNS", "Taken", "column_as", "flag_columns", "need_pyarrow",
           "per_url_columns", "plain"]

#: The columns of a text's table: the Match's fields (``raw`` left out), the file, and
#: what is worked out per distinct URL.
MATCH_COLUMNS: tuple[str, ...] = ("url", "start", "end", "line", "wrapped", "hyphen_break",
                                  "edits")
PER_URL_COLUMNS: tuple[str, ...] = ("scheme", "host", "valid", "problems")
TEXT_COLUMNS: tuple[str, ...] = (*MATCH_COLUMNS, "file", *PER_URL_COLUMNS)
DEFAULT_COLUMNS: tuple[str, ...] = ("url", "start", "end", "line", "file")
#: With per-URL columns, at least this many rows a batch (:meth:`ArrowSink.grouped`).
GROUP_ROWS = 1 << 16


def need_pyarrow() -> Any:
    """The ``pyarrow`` module, or ImportError saying which extra installs it."""
    try:
        import pyarrow as pa
    except ImportError:
        raise ImportError("extract_table needs pyarrow: pip install 'urlsift[arrow]'") from None
    return pa


class Taken(NamedTuple):
    """What :class:`RecordColumns` took of a batch of records: ``n`` rows, the
    ``columns`` by name. False when it has no row (as an empty record batch)."""

    n: int
    columns: dict[str, Any]

    def __bool__(self) -> bool:
        return self.n > 0


class RecordColumns:
    """What the Arrow sink takes of each batch of records, made without pyarrow (so the
    scan may start while pyarrow is imported, and the Arrow arrays be made on another
    thread): a :class:`Taken` of ``n`` rows and ``{name: values}`` — ``url`` the UTF-8 octets and offsets of the
    column made in the core (``_records.url_column``), ``start``/``end``/``line``/
    ``flags`` an ``array('q')`` each, as ``columns`` need — or, for a piece whose
    matches were made already (``found``), the list of those matches (lines counted).

    >>> from urlsift.text.rules import KNOWN, MAX_WRAPPER, MAX_LENGTH
    >>> buf = b"a\\nsee <URL:http://x.example/> ok"
    >>> arr = cores.scan.scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)
    >>> [(n, got)] = RecordColumns(["url", "line"]).batch(arr, buf, 0, 0)
    >>> n, got["url"], got["line"]
    (1, (b'http://x.example/', array('i', [0, 17])), array('q', [2]))
    """

    def __init__(self, columns: Sequence[str]) -> None:
        self.columns = list(columns)
        self.state = [0, 1]          # the line count: [input offset counted to, line there]
        self.flags = any(c in ("wrapped", "hyphen_break", "edits") for c in self.columns)

    def batch(self, arr: "array[int]", buf: Any, base: int, first: int,
              found: Optional[list[Match]] = None) -> Iterator[Any]:
        """What is taken of the records ``first``... of ``arr`` over ``buf`` (at ``base``
        in the input), or of ``found``."""
        if found is not None:
            yield [m for ms in match_lists(arr, buf, base, first, found)
                   for m in (counted_lines(ms, buf, base, self.state)
                             if "line" in self.columns else ms)]
            return
        records = cores.records
        got: dict[str, Any] = {"url": records.url_column(arr, buf, TABLE, first)}
        for c in self.columns:
            if c in ("start", "end"):
                got[c] = records.field_column(arr, R_START if c == "start" else R_END, base,
                                              first)
            elif c == "line":
                got[c] = records.line_numbers(arr, buf, base, self.state, first)
        if self.flags:
            got["flags"] = records.field_column(arr, R_FLAGS, 0, first)
        yield Taken(len(arr) // RECORD_WIDTH - first, got)


class ArrowSink:
    """Record batches of ``columns`` (of :data:`TEXT_COLUMNS`) for the text file ``file``,
    of the types :func:`urlsift.model.parts.table_schema` gives them (or ``schema``'s).

    >>> from urlsift.text.rules import KNOWN, MAX_WRAPPER, MAX_LENGTH
    >>> buf = b"a\\nsee <URL:http://x.example/> ok"
    >>> arr = cores.scan.scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)
    >>> [b] = ArrowSink(["url", "line", "wrapped"], "log").batch(arr, buf, 0, 0)
    >>> b.to_pylist()
    [{'url': 'http://x.example/', 'line': 2, 'wrapped': True}]
    >>> sink = ArrowSink(["line", "host"])
    >>> [b] = sink.grouped(sink.batch(arr, buf, 0, 0))
    >>> b.to_pylist()
    [{'line': 2, 'host': 'x.example'}]
    """

    def __init__(self, columns: Sequence[str], file: Optional[str] = None,
                 schema: Any = None) -> None:
        unknown = [c for c in columns if c not in TEXT_COLUMNS]
        if unknown:
            raise ValueError(f"unknown column {unknown[0]!r} for a text: the columns are "
                             f"{', '.join(TEXT_COLUMNS)}")
        self.pa = need_pyarrow()
        self.columns = list(columns)
        # ``schema``: other types for the columns (the command's Parquet: no dictionaries)
        self.schema = schema if schema is not None else table_schema(self.columns)
        self.file = file
        self.records = RecordColumns(self.columns)
        wanted = [c for c in columns if c in PER_URL_COLUMNS]
        self.per_url = per_url_columns(wanted)
        # with per-URL columns a batch carries the url and the sink's own columns, and
        # grouped() adds the others over many batches at once (more repeats in a group)
        self.own = ["url", *[c for c in columns if c not in PER_URL_COLUMNS and c != "url"]] \
            if wanted else self.columns
        self.own_schema = self.pa.schema([self.schema.field(c) if c in self.columns
                                          else table_schema([c]).field(c) for c in self.own]) \
            if wanted else self.schema

    @property
    def state(self) -> list[int]:
        """The line count: ``[input offset counted to, line there]`` (settable: a Dask
        block counts from its own start)."""
        return self.records.state

    @state.setter
    def state(self, value: list[int]) -> None:
        self.records.state = value

    def batch(self, arr: "array[int]", buf: Any, base: int, first: int,
              found: Optional[list[Match]] = None) -> Iterator[Any]:
        """One record batch for the records ``first``... of ``arr`` over ``buf`` (at
        ``base`` in the input), or for ``found``, the piece's matches made already."""
        for got in self.records.batch(arr, buf, base, first, found):
            yield self.assemble(got)

    def assemble(self, got: Any) -> Any:
        """The record batch of what :class:`RecordColumns` took of a batch of records."""
        if isinstance(got, list):
            return self.matches(got)
        pa = self.pa
        n, raw = got
        data, offsets = raw["url"]
        url = pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data))

        def ints(values: "array[int]") -> Any:
            return pa.Array.from_buffers(pa.int64(), n, [None, pa.py_buffer(values)])

        columns: dict[str, Any] = {"url": url}
        for c in self.columns:
            if c in ("start", "end", "line"):
                columns[c] = ints(raw[c])
        if "flags" in raw:
            columns.update(flag_columns(self.columns, ints(raw["flags"]), url))
        return self._batch(columns, n)

    def matches(self, ms: Sequence[Any]) -> Any:
        """One record batch of Match objects (a piece read through JSON escapes)."""
        got = {c: [plain(getattr(m, c)) for m in ms] for c in MATCH_COLUMNS
               if c in self.columns or c == "url"}
        return self._batch({c: self.pa.array(v) for c, v in got.items()}, len(ms))

    def grouped(self, batches: Iterator[Any], rows: int = GROUP_ROWS) -> Iterator[Any]:
        """The record batches of ``columns`` of what :meth:`batch` gave: with per-URL
        columns, its batches of at least ``rows`` rows (the last fewer) joined into one,
        the per-URL columns worked out for the whole; else ``batches`` as they are."""
        if self.own is self.columns:
            yield from batches
            return
        group: list[Any] = []
        size = 0
        for b in batches:
            group.append(b)
            size += b.num_rows
            if size >= rows:
                yield self._finish(group)
                group, size = [], 0
        if group:
            yield self._finish(group)

    def _finish(self, group: list[Any]) -> Any:
        pa = self.pa
        own = pa.Table.from_batches(group, schema=self.own_schema).combine_chunks()
        got = {c: own.column(c).chunk(0) if own.num_rows else pa.array([], f.type)
               for c, f in zip(self.own, self.own_schema)}
        got.update(self.per_url(got["url"]))
        arrays = [column_as(got[c], f.type) for c, f in zip(self.columns, self.schema)]
        return pa.RecordBatch.from_arrays(arrays, schema=self.schema)

    def _batch(self, got: dict[str, Any], n: int) -> Any:
        pa = self.pa
        if "file" in self.columns:
            got["file"] = pa.repeat(self.file, n) if self.file is not None \
                else pa.nulls(n, pa.string())
        arrays = [column_as(got[c], f.type) for c, f in zip(self.own, self.own_schema)]
        return pa.RecordBatch.from_arrays(arrays, schema=self.own_schema)


def flag_columns(names: Sequence[str], flags: Any, url: Any) -> dict[str, Any]:
    """The columns ``wrapped``, ``hyphen_break`` and ``edits`` among ``names`` of records'
    ``flags`` (an int64 column) and their ``url`` column, taken with Arrow's kernels:
    ``edits`` is the entry of the edits table the flags and the URL say
    (``_build_py.edits_index``)."""
    pa, pc = need_pyarrow(), _compute()
    got: dict[str, Any] = {}
    for c in ("wrapped", "hyphen_break"):
        if c in names:
            bit = WRAPPED if c == "wrapped" else HYPHEN_BREAK
            got[c] = pc.not_equal(pc.bit_wise_and(flags, bit), 0)
    if "edits" in names:
        low = pc.bit_wise_and(flags, 255)
        high = pc.bit_wise_and(pc.shift_right(flags, HIGH_SHIFT), 7)
        trim = pc.bit_wise_and(pc.shift_right(flags, TRIM_SHIFT), TRIM_MASK)
        soft = pc.if_else(pc.not_equal(pc.bit_wise_and(flags, SOFT_BREAK), 0), 1, 0)
        index = pc.add(pc.multiply(pc.bit_wise_or(pc.shift_left(high, 8), low), 2),
                       pc.cast(pc.greater(trim, soft), pa.int64()))
        index = pc.add(index, pc.if_else(pc.string_is_ascii(url), 0, EDITS_NON_ASCII))
        got["edits"] = _edits_table().take(index)
    return got


_EDITS: list[Any] = []


def _edits_table() -> Any:
    """The edits table (``rules.EDITS``) as an Arrow list column, made once."""
    if not _EDITS:
        pa = need_pyarrow()
        _EDITS.append(pa.array([list(e) for e in EDITS], pa.list_(pa.string())))
    return _EDITS[0]


def per_url_columns(names: Sequence[str]) -> Callable[[Any], dict[str, Any]]:
    """``url column -> {name: column}`` for ``names`` of :data:`PER_URL_COLUMNS`, worked
    out once for each distinct URL of the column and spread over the rows by the index of
    its dictionary encoding: ``scheme`` (lower-cased, as :attr:`Match.scheme`) and
    ``host`` cut where the tokenizer says, in the core (``_records.part_column``);
    ``valid`` and ``problems`` of the URL's lenient parse (cached across batches)."""
    if not names:
        return lambda url: {}
    pa = need_pyarrow()
    pc = _compute()
    checks = checks_getter()

    def part(url: Any, start_field: int, end_field: int) -> Any:
        _, offsets, data = url.buffers()
        starts = array("i")
        starts.frombytes(memoryview(offsets)[url.offset * 4:(url.offset + len(url) + 1) * 4])
        got, where, present = cores.records.part_column(data.to_pybytes(), starts,
                                                        start_field, end_field)
        return pa.StringArray.from_buffers(len(url), pa.py_buffer(where), pa.py_buffer(got),
                                           pa.py_buffer(present))

    def columns(url: Any) -> dict[str, Any]:
        # one hash pass over the rows: each column is worked out for the distinct URLs
        # and spread by the URL's index
        encoded = pc.dictionary_encode(url)
        distinct, index = encoded.dictionary, encoded.indices
        out: dict[str, Any] = {}
        for name, fields in (("scheme", (-1, FIELDS.index("scheme_end"))),
                             ("host", (FIELDS.index("host_start"), FIELDS.index("host_end")))):
            if name in names:
                values = part(distinct, *fields)
                values = pc.utf8_lower(values) if name == "scheme" else values
                coded = pc.dictionary_encode(values)
                out[name] = pa.DictionaryArray.from_arrays(coded.indices.take(index),
                                                           coded.dictionary)
        if "valid" in names or "problems" in names:
            got = [checks(u)["problems"] for u in distinct.to_pylist()]
            if "valid" in names:
                out["valid"] = pa.array([not g for g in got], pa.bool_()).take(index)
            if "problems" in names:
                out["problems"] = pa.array(got, pa.list_(pa.string())).take(index)
        return out

    return columns


def column_as(column: Any, kind: Any) -> Any:
    """``column`` as ``kind`` (a dictionary column encoded, a null column typed)."""
    pa = need_pyarrow()
    if column.type == kind:
        return column
    if pa.types.is_dictionary(kind):
        column = column.cast(kind.value_type) if column.type != kind.value_type else column
        return _compute().dictionary_encode(column).cast(kind)
    return column.cast(kind)


def plain(value: Any) -> Any:
    """A Match field as Arrow takes it (a tuple of edits: a list)."""
    return list(value) if isinstance(value, tuple) else value


def _compute() -> Any:
    import pyarrow.compute as pc
    return pc
