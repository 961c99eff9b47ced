"""``urlsift extract -f parquet``: the rows written as Parquet on a thread of their own.

The scan and the Parquet writing overlap: the command's thread scans and takes the
columns of each batch of records (:class:`urlsift.text.arrow.RecordColumns`, no
pyarrow needed), and hands them through a small bounded queue to a writer thread, which
imports pyarrow (while the first pieces are scanned), makes the Arrow record batches,
joins them into row groups of at least ``GROUP_ROWS`` rows (``text.arrow``'s: many
small row groups cost time to write and to read) and writes them —
pyarrow encodes and compresses without the GIL. The queue holds at most :data:`DEPTH`
items, so a slow output slows the scan instead of filling memory.

An error of the writer thread (a full disk, an output closed) is kept and raised on the
command's thread at its next hand-over or at :meth:`ParquetWriter.close`, as the
OSError it was: the command's one-line error and exit status 2, never a hang. After an
error the thread takes and drops what is still handed over, so a hand-over never waits
on it.
"""
from __future__ import annotations

import importlib.util
import os
import queue
import threading
from typing import Any, Callable, Optional, Sequence

from ..inputs import MissingDependency
from ..model.parts import TIME_COLUMNS, parquet_schema, plain_value
from ..text.arrow import GROUP_ROWS, ArrowSink, RecordColumns
from .output import Writer

__all__ = ["COMPRESSION", "DEPTH", "DICTIONARY_PAGE", "ParquetWriter"]

#: Items the queue holds: a row group's columns (64 Ki rows or more, a few MB) or a batch
#: of records; enough to ride out a slow write, little memory.
DEPTH = 4
#: The columns' compression (docs/arrow.md, "Parquet from the command"): pyarrow's
#: default, which every Parquet reader reads; on a thread of its own it costs the scan
#: nothing when a core is free.
COMPRESSION = "snappy"
#: The largest dictionary page of a column chunk (pyarrow's default: 1 MiB). The URLs
#: of a row group of a log fill more than 1 MiB of distinct octets, and past the limit
#: pyarrow writes the rest of the chunk plain: both slower to write and larger.
DICTIONARY_PAGE = 4 << 20

_END = object()          # the queue's last item: close the file


class ParquetWriter(Writer):
    """Row groups written with pyarrow on a writer thread, in the order given: the
    columns of the Arrow sink's batches (:meth:`core_sink`: one a piece of 256 KiB)
    joined into row groups of at least ``GROUP_ROWS`` rows, or one row group per
    batch of records given to :meth:`write`."""

    def __init__(self, out: Any, columns: Sequence[str]) -> None:
        super().__init__(out, columns)
        if importlib.util.find_spec("pyarrow") is None:
            raise _missing()
        self._queue: queue.Queue = queue.Queue(DEPTH)
        self._error: Optional[BaseException] = None
        self._held: list[Any] = []          # the sink's batches not handed over yet
        self._held_rows = 0
        self._thread = threading.Thread(target=self._run, name="urlsift-parquet", daemon=True)
        self._thread.start()

    def core_sink(self, name: str, columns: Sequence[str]) -> Any:
        """The columns of the Arrow sink (``urlsift.extract_table``'s) of a text file,
        taken on this thread; its ``start`` is the ``offset`` column, ``file`` the name as
        the records write it. Their record batches are made on the writer thread."""
        names = ["start" if c == "offset" else c for c in columns]
        sink = RecordColumns(names)
        self._hand_held()                   # the rows of the inputs before: their sink
        self._put(("sink", names, plain_value(name)))
        return sink

    def write_lines(self, data: Any) -> None:
        """What :meth:`core_sink`'s sink took of a batch of records: held until a row
        group's rows are there, and handed over together (a hand-over to a thread
        waiting for the GIL costs up to a switch interval, 5 ms: once a row group)."""
        self._held.append(data)
        self._held_rows += len(data) if isinstance(data, list) else data.n
        if self._held_rows >= GROUP_ROWS:
            self._hand_held()

    def write(self, batch: Sequence[Any]) -> None:
        if batch:
            self._hand_held()               # in the order found
            self._put(("rows", list(batch)))

    def _hand_held(self) -> None:
        if self._held:
            self._put(("records", self._held))
        self._held, self._held_rows = [], 0

    def close(self) -> None:
        if self._error is None:
            self._hand_held()
        if self._thread.is_alive():
            self._queue.put(_END)
            self._thread.join()
        self._raise()
        if hasattr(self.out, "flush"):
            self.out.flush()

    def _put(self, item: Any) -> None:
        self._raise()
        self._queue.put(item)

    def _raise(self) -> None:
        """The writer thread's error, raised here once (the run ends with it)."""
        if self._error is not None:
            error, self._error = self._error, None
            raise error

    # ---- the writer thread --------------------------------------------------------------

    def _run(self) -> None:
        ended = False

        def get() -> Any:
            nonlocal ended
            item = self._queue.get()
            ended = item is _END
            return item

        try:
            _Rows(self.columns, self.out).take_all(get)
        except BaseException as exc:
            self._error = _said(exc)
            while not ended:                # no hand-over waits on this thread
                get()


class _Rows:
    """The writer thread's side: the items of the queue made into row groups."""

    def __init__(self, columns: Sequence[str], out: Any) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq
        self.pa = pa
        self.schema = parquet_schema(columns)
        self.writer = pq.ParquetWriter(out, self.schema, compression=COMPRESSION,
                                       dictionary_pagesize_limit=DICTIONARY_PAGE)
        self.sink: Any = None

    def take_all(self, get: Callable[[], Any]) -> None:
        """Write the items ``get`` gives up to the last, and close the file."""
        try:
            while True:
                item = get()
                if item is _END:
                    break
                getattr(self, "_" + item[0])(*item[1:])
        finally:
            self.writer.close()

    def _sink(self, names: list[str], name: Optional[str]) -> None:
        types = self.pa.schema([self.pa.field(n, f.type) for n, f in zip(names, self.schema)])
        self.sink = ArrowSink(names, name, types)

    def _records(self, held: list[Any]) -> None:
        """One row group of the record batches of what the sink took."""
        batches = []
        for data in held:
            got = self.sink.assemble(data)
            batches.append(got.from_arrays(got.columns, schema=self.schema))
        table = self.pa.Table.from_batches(batches, self.schema)
        self.writer.write_table(table, row_group_size=max(table.num_rows, 1))

    def _rows(self, batch: list) -> None:
        columns = self.schema.names
        if columns == ["url"]:
            data = {"url": batch}
        else:
            data = {c: [r.get(c) for r in batch] for c in columns}
            for c in TIME_COLUMNS.intersection(data):
                from ..mail.dates import date_instant    # with mail only (loads the mail layer)
                data[c] = [date_instant(v) for v in data[c]]
        self.writer.write_table(self.pa.table(data, schema=self.schema))


def _said(exc: BaseException) -> BaseException:
    """The writer thread's error as the command says it: pyarrow's OSErrors carry its
    own text ("Error writing bytes to file. Detail: [errno 28] ..."); the errno's is
    what the other formats say."""
    if isinstance(exc, ImportError):
        return _missing()
    if isinstance(exc, OSError) and exc.errno and not isinstance(exc, MissingDependency):
        return type(exc)(exc.errno, os.strerror(exc.errno))
    return exc


def _missing() -> MissingDependency:
    return MissingDependency("--format parquet needs pyarrow (pip install 'urlsift[parquet]')")
