"""``urlsift.extract_table``: the URLs of a file as an Arrow table, and as a stream of
record batches for files larger than memory (``urlsift[arrow]``).

An input is opened and sniffed as :func:`urlsift.extract_file` opens it (decompressed,
mail detected). Text goes through the Arrow sink (:mod:`urlsift.text.arrow`): each piece
scanned becomes a record batch made from the scanner's records, no ``Match`` built. An mbox
is walked as ``extract_file`` walks it, and its batches made of the walk's records
(:mod:`.mailtable`): no ``MailMatch`` per URL either, but for the few messages the walk
leaves to ``email``.
"""
from __future__ import annotations

import contextlib
import os
from typing import Any, Iterator, Optional, Sequence

from ..model.parts import table_schema
from ..text.arrow import DEFAULT_COLUMNS, TEXT_COLUMNS, ArrowSink, need_pyarrow
from ..text.files import check_counts, job_count, sink_batches
from .kinds import MAILDIR, TEXT
from .opening import is_plain_file, open_input
from .sniffing import sniff_input, sniff_stream

__all__ = ["MAIL_COLUMNS", "extract_table", "record_batches"]

#: The columns of a spool's table: the text's, and the message's ``message_id``,
#: ``date`` (a UTC timestamp) and ``part``; ``line`` is null (a URL of a decoded part
#: stands on no line of the file).
MAIL_COLUMNS: tuple[str, ...] = (*TEXT_COLUMNS, "message_id", "date", "part")


def extract_table(source: Any, columns: Sequence[str] = DEFAULT_COLUMNS, *,
                  mbox: Optional[bool] = None, jobs: int = 1,
                  block_size: Optional[int] = None) -> Any:
    """Every URL of a file as a ``pyarrow.Table``, one row per URL in file order: the
    rows of :func:`urlsift.extract_file` (``line_numbers=True``), made without a Python
    object per URL for text and an mbox.

    ``source``, ``mbox``, ``jobs`` and ``block_size`` are as ``extract_file``'s. The
    ``columns`` (in that order) are of ``url``, ``start``, ``end``, ``line``, ``file``
    (the path given), ``wrapped``, ``hyphen_break``, ``edits`` (what turned the raw
    span into the URL), ``scheme`` and ``host`` (of the URL's lenient parse,
    dictionary-encoded), ``valid`` (RFC 1738 exactly: no problem) and ``problems``
    (their codes, docs/codes.md); for mail also ``message_id``, ``date`` and ``part``.
    Needs pyarrow (``pip install 'urlsift[arrow]'``).

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("wb", suffix=".log", delete=False) as f:
    ...     _ = f.write(b"GET /\\nsee http://a.example/x and <URL:ftp://b.example/>\\n")
    >>> t = extract_table(f.name, ["url", "line", "host", "valid"])
    >>> t.to_pylist()[1]
    {'url': 'ftp://b.example/', 'line': 2, 'host': 'b.example', 'valid': True}
    >>> os.unlink(f.name)
    """
    reader = record_batches(source, columns, mbox=mbox, jobs=jobs, block_size=block_size)
    return reader.read_all()


def record_batches(source: Any, columns: Sequence[str] = DEFAULT_COLUMNS, *,
                   mbox: Optional[bool] = None, jobs: int = 1,
                   block_size: Optional[int] = None) -> Any:
    """:func:`extract_table`'s rows as a ``pyarrow.RecordBatchReader``: a batch per
    piece of the file as it is scanned, for files larger than memory. The input is
    opened and sniffed at once (a bad path raises here) and closed when the reader is
    read to its end or closed."""
    pa = need_pyarrow()
    check_counts(jobs, block_size)
    if mbox not in (None, True, False):
        raise ValueError(f"mbox must be None, True or False, not {mbox!r}")
    stack = contextlib.ExitStack()
    try:
        inp = (sniff_stream(source, stack, mbox=mbox) if hasattr(source, "read")
               else sniff_input(source, stack, mbox=mbox))
        name = None if hasattr(source, "read") else inp.name
        if inp.kind == TEXT:
            sink = ArrowSink(columns, name)
            target: Any = inp.stream if inp.stream is not None else (
                inp.name if is_plain_file(inp.name) else stack.enter_context(open_input(inp.name)))
            batches = sink.grouped(sink_batches(target, sink, jobs=jobs, block_size=block_size))
            schema = sink.schema
        else:
            schema = table_schema(_mail_columns(columns))
            batches = _mail_batches(inp.name, inp.stream, list(columns), schema, jobs,
                                    inp.kind == MAILDIR)
    except BaseException:
        stack.close()
        raise
    return pa.RecordBatchReader.from_batches(schema, _closing(batches, stack))


def _closing(batches: Iterator[Any], stack: contextlib.ExitStack) -> Iterator[Any]:
    with stack:
        yield from batches


def _mail_columns(columns: Sequence[str]) -> list[str]:
    unknown = [c for c in columns if c not in MAIL_COLUMNS]
    if unknown:
        raise ValueError(f"unknown column {unknown[0]!r}: the columns are "
                         f"{', '.join(MAIL_COLUMNS)}")
    return list(columns)


def _mail_batches(name: str, stream: Any, columns: list[str], schema: Any,
                  jobs: int, maildir: bool) -> Iterator[Any]:
    """The record batches of a spool: of the walk's records for an mbox
    (:mod:`.mailtable`), of matches for a Maildir or the ``email`` engine."""
    from ..mail.rows import spool_rows            # the mail layer: loaded for mail only
    from .files import _spool_opened
    from .mailtable import mail_batches
    jobs = job_count(jobs)
    if maildir or os.environ.get("URLSIFT_MAIL_ENGINE") == "email":   # see iter_mail_urls
        yield from mail_batches(name, stream, columns, schema, jobs, None)
        return
    with _spool_opened(name, stream) as opened:
        yield from mail_batches(name, stream, columns, schema, jobs,
                                spool_rows(opened, name, jobs=jobs))
