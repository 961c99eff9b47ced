"""The partitions' pandas frames and their Parquet schema: the columns and types of
``urlsift extract --format parquet --with-position`` (``cli/records.py``'s
``columns_for`` and ``cli/parquet.py``'s ``ParquetWriter``), which the Dask layer, below
the command, cannot import; ``tests/test_dask.py`` compares the two.

>>> opts = Options(None, None, False, False, mail=True)
>>> columns(opts)
['url', 'file', 'line', 'offset', 'message_id', 'date', 'part', 'text', 'deceptive', 'file_offset']
>>> frame({"url": ["http://a.example/"], "offset": [7]}, opts).dtypes["line"]  # doctest: +SKIP
Int64Dtype()
"""
from __future__ import annotations

from typing import Any, NamedTuple, Optional, Sequence

from ..model.parts import (BOOL_COLUMNS, INT_COLUMNS, PART_COLUMNS, TIME_COLUMNS, parquet_schema,
                           parts_getter)
from ..text.extraction import Validity

__all__ = ["Options", "PART_COLUMNS", "columns", "frame", "parquet_schema"]

#: bool columns that are null where they do not apply (``deceptive`` of a text row)
NULLABLE_BOOL = frozenset({"deceptive"})
MAIL_COLUMNS = ("message_id", "date", "part", "text", "deceptive", "file_offset")


class Options(NamedTuple):
    """What every partition is asked for."""

    schemes: Optional[tuple]
    valid: Optional[Validity]
    parts: bool
    refang: bool
    mail: bool           # some input is mail: the mail columns for every row
    echo: bool = True    # what the mail layer reports is printed on the worker's stderr too


def columns(opts: Options) -> list[str]:
    """The columns of ``urlsift extract --format parquet --with-position`` for ``opts``."""
    cols = ["url", "file", "line", "offset"]
    if opts.mail:
        cols += MAIL_COLUMNS
    if opts.refang:
        cols.append("refanged")
    if opts.parts:
        cols += PART_COLUMNS
    return cols


def _ints(values: Sequence[Any]) -> Any:
    import numpy as np
    import pandas as pd
    import pyarrow as pa

    if isinstance(values, np.ndarray):
        return pd.array(values, dtype="Int64")
    column = values.cast(pa.int64()) if isinstance(values, pa.Array) \
        else pa.array(values, type=pa.int64())
    return pd.Int64Dtype().__from_arrow__(column)


def _times(values: Sequence[Any]) -> Any:
    # microseconds, UTC, as pyarrow holds them: every year a Date header can name fits
    # (pandas' nanoseconds end in 2262)
    import pandas as pd
    import pyarrow as pa

    from ..mail.dates import date_instant

    return pd.arrays.ArrowExtensionArray(
        pa.array([date_instant(v) for v in values], type=pa.timestamp("us", tz="UTC")))


def _strings(values: Sequence[Any]) -> Any:
    # built by pyarrow (about twice as fast as pd.array(..., dtype="string")); the
    # result is pandas' own string dtype all the same
    import pandas as pd
    import pyarrow as pa

    if isinstance(values, pa.Array):           # a column of the Arrow sink
        return pd.arrays.ArrowStringArray(values.cast(pa.large_string()))
    return pd.arrays.ArrowStringArray(pa.array(values, type=pa.large_string()))


def frame(data: dict, opts: Options) -> Any:
    """A pandas DataFrame of ``data`` (column -> sequence) with the columns and types of
    ``opts``: strings, nullable Int64 (``line``, ``offset``, ``file_offset``, ``port``),
    bool ``refanged``, nullable boolean ``deceptive``, ``date`` a UTC timestamp. Columns missing from ``data`` are all nulls; the parts are worked
    out from ``url`` when asked for and not given. The index is a RangeIndex of the
    partition (see docs/dask.md: it means nothing across partitions)."""
    import pandas as pd

    urls = data.get("url", ())
    n = len(urls)
    if opts.parts and "scheme" not in data:
        data = {**data, **_parts_of(urls)}
    out = {}
    for c in columns(opts):
        values = data.get(c)
        if values is None and c == "file_offset" and "message_id" not in data:
            values = data.get("offset")    # a text row's URL is where it stands (as cli)
        if values is None:
            values = [None] * n
        if c in INT_COLUMNS:
            out[c] = _ints(values)
        elif c in BOOL_COLUMNS:
            out[c] = pd.array(values, dtype="boolean" if c in NULLABLE_BOOL else "bool")
        elif c in TIME_COLUMNS:
            out[c] = _times(values)
        else:
            out[c] = _strings(values)
    return pd.DataFrame(out)


def _parts_of(urls: Sequence[str]) -> dict:
    """The PART_COLUMNS of each URL, as the command's ``--parts`` (one parse per URL)."""
    parts = parts_getter(False)
    rows = [parts(url) for url in urls]
    return {c: [r[c] for r in rows] for c in PART_COLUMNS}
