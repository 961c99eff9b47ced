"""``urlsift.extract_table`` of mail: record batches made of the walk's records
(:func:`urlsift.mail.rows.spool_rows`), no :class:`~urlsift.mail.MailMatch` per URL.

A row's fields are those of the match the trace would make (``urlsift._mail_trace_py``):
``url`` made in the core from the records over the walk's text
(``_records.url_column``); the segment of each record (``_records.segment_column``);
``start``/``end`` in the decoded part (a value's, ``href``/``src``: the tag's offset,
both), ``part``, ``message_id`` and ``date`` taken by the segment's and the message's
index with Arrow's kernels; ``wrapped``, ``hyphen_break``, ``edits`` from the flags as
for text. A message the walk leaves to ``email`` comes as its matches, a batch of them.
A Maildir, or ``URLSIFT_MAIL_ENGINE=email``, is read as matches throughout.
"""
from __future__ import annotations

from itertools import islice
from typing import Any, Callable, Iterator, Optional, Sequence

from .._layout import R_END, R_FLAGS, R_START
from .._mail_records import (K_HREF, SEG, SEG_END, SEG_KIND, SEG_MESSAGE,
                             SEG_PART_OFFSET, SEG_START)
from .._select import cores
from ..text.arrow import (MATCH_COLUMNS, column_as, flag_columns, need_pyarrow,
                          per_url_columns, plain)
from ..text.rules import CHUNK, TABLE

__all__ = ["mail_batches"]


def mail_batches(name: str, stream: Any, columns: list[str], schema: Any, jobs: int,
                 walked: Optional[Iterator[Any]]) -> Iterator[Any]:
    """Record batches of ``columns`` (``schema``) of the spool ``name``: of ``walked``
    (:func:`urlsift.mail.rows.spool_rows`' items), else of the matches of
    :func:`urlsift.inputs.iter_mail_urls` (a Maildir, the ``email`` engine)."""
    pa = need_pyarrow()
    per_url = per_url_columns([c for c in columns if c in ("scheme", "host", "valid",
                                                          "problems")])
    if walked is None:
        from .files import iter_mail_urls
        found = iter_mail_urls(name, stream=stream, jobs=jobs)
        items: Iterator[Any] = iter(lambda: list(islice(found, CHUNK)), [])
    else:
        items = walked
    for item in items:
        if isinstance(item, list):
            if item:
                got = _matches(item, columns)
            else:
                continue
        else:
            got = _walked(item, columns, name)
        got.update(per_url(got["url"]))
        yield pa.RecordBatch.from_arrays([column_as(got[c], f.type)
                                          for c, f in zip(columns, schema)], schema=schema)


def _matches(ms: list, columns: Sequence[str]) -> dict[str, Any]:
    """The columns of a list of matches (``file``: each one's source, the spool or the
    Maildir message file)."""
    from ..mail.dates import date_instant      # the mail layer: loaded for mail only
    pa = need_pyarrow()
    own = [c for c in columns if c in (*MATCH_COLUMNS, "message_id", "part")]
    got: dict[str, Any] = {c: pa.array([None if c == "line" else plain(getattr(m, c))
                                        for m in ms]) for c in own}
    got["url"] = got.get("url") or pa.array([m.url for m in ms])
    if "date" in columns:
        got["date"] = pa.array([date_instant(m.date) for m in ms])
    if "file" in columns:
        got["file"] = pa.array([m.source for m in ms])
    return got


def _walked(rows: Any, columns: Sequence[str], name: str) -> dict[str, Any]:
    """The columns of a :class:`~urlsift.mail.rows.WalkedRows`."""
    pa, pc = need_pyarrow(), _compute()
    records = cores.records
    keep, first, last = rows.keep, rows.first, rows.last
    n = last - first

    def ints(values: Any) -> Any:
        return pa.Array.from_buffers(pa.int64(), len(values), [None, pa.py_buffer(values)])

    data, offsets = records.url_column(keep, rows.out, TABLE, first, last)
    url = pa.StringArray.from_buffers(n, pa.py_buffer(offsets), pa.py_buffer(data))
    got: dict[str, Any] = {"url": url}
    starts = rows.starts()
    seg = ints(records.segment_column(keep, R_START, starts, 0, first, last))

    def field(f: int) -> Callable[[Any], Any]:
        values = ints(rows.segs[f::SEG])
        return lambda at: values.take(at)

    if "start" in columns or "end" in columns:
        kind = field(SEG_KIND)(seg)
        value = pc.greater_equal(kind, K_HREF)    # an attribute's URL: the value's offset
        offset, seg_start = field(SEG_PART_OFFSET), field(SEG_START)
        at = offset(seg)
        if "start" in columns:
            ms = ints(records.field_column(keep, R_START, 0, first, last))
            got["start"] = pc.if_else(value, at, pc.add(at, pc.subtract(ms, seg_start(seg))))
        if "end" in columns:
            me = ints(records.field_column(keep, R_END, 0, first, last))
            inside = pc.less_equal(me, field(SEG_END)(seg))
            # a wrapper over lines split at "> " ends in a later segment: that one's offset
            later = ints(records.segment_column(keep, R_END, starts, -1, first, last))
            end = pc.if_else(inside, pc.add(at, pc.subtract(me, seg_start(seg))),
                             pc.add(offset(later), pc.subtract(me, seg_start(later))))
            got["end"] = pc.if_else(value, at, end)
    if "line" in columns:
        got["line"] = pa.nulls(n, pa.int64())     # a URL of a decoded part: no line
    if "file" in columns:
        got["file"] = pa.repeat(name, n)
    if "part" in columns:
        used = pc.unique(seg)
        coded = pc.index_in(seg, used)
        got["part"] = pa.DictionaryArray.from_arrays(
            coded, pa.array([rows.part(r) for r in used.to_pylist()], pa.string()))
    if "message_id" in columns or "date" in columns:
        message = field(SEG_MESSAGE)(seg)
        heads = rows.heads
        if "message_id" in columns:
            got["message_id"] = pa.array([h[0] if h else None for h in heads],
                                         pa.string()).take(message)
        if "date" in columns:
            from ..mail.dates import date_instant
            got["date"] = pa.array([date_instant(h[1]) if h else None for h in heads],
                                   pa.timestamp("us", tz="UTC")).take(message)
    if any(c in columns for c in ("wrapped", "hyphen_break", "edits")):
        flags = ints(records.field_column(keep, R_FLAGS, 0, first, last))
        got.update(flag_columns(columns, flags, url))
    return got


def _compute() -> Any:
    import pyarrow.compute as pc
    return pc
