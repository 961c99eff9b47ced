"""The work of one partition of :func:`urlsift.dask.extract`, on a worker: no Dask here,
only a file system (fsspec's interface: ``info``, ``open``), byte ranges and the layers
below (text, mail, inputs). A partition's task returns ``(frame, Summary)``; one task
per file folds the summaries (:func:`fold`), and :func:`finish` makes each partition's
final frame from its own and the fold.

What an input is (:func:`look`, one task per input before the partitions are planned):
its size then (a file is never read past it, so one that grows meanwhile is read as it
was), a Maildir's message files, and unless the caller said, text or mbox by its first
octets (decompressed) — on the workers, which read the inputs anyway.

Plain text
    A file is cut at *split points* (:func:`split_at`): the nominal edges
    ``k * blocksize`` move forward to the first line end within ``WINDOW`` octets, else
    to the first split point of any kind (a line end, or a character that ends a bare
    URL). That is a function of the offset alone and never decreases with it, so two
    neighbouring blocks agree on their common edge and never overlap, however long the
    lines. :func:`scan_text_block` scans its block reading up to ``LOOKAHEAD`` octets
    into the next one, so a match that starts in the block comes out whole; it keeps
    the matches that start in the block, and reports ``(newlines, last start, last
    end)``. :func:`fold` sums the newline counts of a file's blocks once, in order, into
    each block's line base and the end of the last match before it: :func:`finish`
    drops the matches that start before that end (they are inside that match: a
    wrapper broken over lines) and adds the base to the line numbers. The same rule as
    the pieces of :mod:`urlsift.text.files`, so the blocks give exactly the rows of
    ``urlsift.extract_file(path, line_numbers=True)``.

Whole files
    A compressed file (and any text file with ``refang``) is one partition
    (:func:`scan_whole`): the command's own streaming scan.

Mail: :mod:`urlsift.dask.mailparts`.
"""
from __future__ import annotations

import os
from typing import IO, Any, Optional, Sequence, cast

from .._select import cores
from ..inputs.kinds import MAILDIR, MBOX, TEXT, file_kind, is_maildir
from ..inputs.opening import EXTENSIONS, HEAD, compression_of, reading
from ..text.extraction import filter_matches
from ..text.extraction import extract_file as extract_text_file
from .._layout import RECORD_WIDTH, R_END, R_START
from ..text.arrow import ArrowSink
from ..text.files import LOOKAHEAD, match_lists
from ..text.jsonpieces import piece_matches
from ..text.rules import KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE, TEXT_OCTETS
from . import mailparts
from .frames import Options, frame
from .reading import EMPTY, Bounded, Looked, Spec, Summary, shrunk

__all__ = ["WINDOW", "look", "split_at", "scan_partition", "scan_text_block", "scan_whole",
           "fold", "finish", "reports_of"]

#: How far past a nominal edge a line end is preferred to other split points.
WINDOW = 4096
#: How far a search for a split point of any kind reads at most at once.
MAX_WINDOW = 1 << 20


def look(fs: Any, path: str, name: str, mbox: Optional[bool], local: bool) -> Looked:
    """``path`` looked at on a worker (one ``info``; the first octets only when
    ``mbox`` is None, to tell an mbox from text). Raises ``OSError`` naming ``name``."""
    try:
        info = fs.info(path)
    except FileNotFoundError:
        raise FileNotFoundError(2, "No such file or directory", name) from None
    if info.get("type") == "directory":
        if is_maildir(path, fs.isdir):
            if not local:
                raise NotImplementedError(f"a Maildir must be a local directory: {name!r}")
            return Looked(MAILDIR, None, 0, tuple(mailparts.maildir_entries(path)))
        raise IsADirectoryError(21, "Is a directory", name)
    size = int(info.get("size") or 0)
    if mbox is not None:
        compression = EXTENSIONS.get(os.path.splitext(path)[1].lower())
        return Looked(file_kind(None, mbox), compression, size)
    try:
        with fs.open(path, "rb") as f:
            raw = Bounded(f, size, name)
            head = raw.read(HEAD)
            compression = compression_of(head, name)
            if compression is not None:      # the decompressed head tells an mbox
                raw.seek_start()
                with reading(cast(IO[bytes], raw), name) as stream:
                    head = stream.read(HEAD)
    except OSError as exc:
        raise _named(exc, name) from None
    return Looked(file_kind(head), compression, size)


def _named(exc: OSError, name: str) -> OSError:
    """``exc`` naming the input as it was given (not the absolute path opened)."""
    if exc.errno is None or exc.filename in (None, name):
        return exc
    try:
        return type(exc)(exc.errno, exc.strerror, name)
    except TypeError:
        return exc


# -- plain text, in blocks ---------------------------------------------------------


def split_at(f: Any, offset: int, size: int) -> int:
    """The split point for the nominal edge ``offset`` in the open file ``f`` of
    ``size`` octets: just after the first line end in ``[offset, offset + WINDOW)``,
    else the first split point of any kind at or after ``offset``; 0 at 0, ``size``
    when there is none. A function of ``offset`` that never decreases with it (two
    edges never cross), whatever the length of the lines.

    >>> import io
    >>> data = b"ab\\ncd " + b"x" * 5000 + b" http://a.example/ y\\n"
    >>> [split_at(io.BytesIO(data), o, len(data)) for o in (0, 1, 4, 10)]
    [0, 3, 6, 5007]

    (1: the line end at 2; 4: no line end within WINDOW, the space at 5; 10: none
    either, and the first split point of any kind is after the space at 5006.)
    """
    if offset <= 0:
        return 0
    pos = offset - 1          # a split point is just after a character: look at it too
    if pos >= size:
        return size
    f.seek(pos)
    buf = f.read(min(WINDOW, size - pos))
    nl = buf.find(b"\n")
    if nl >= 0:
        return pos + nl + 1
    window = WINDOW
    while buf:
        b = cores.scan.next_boundary(buf, 0, len(buf), TABLE)   # no line end in buf
        if b >= 0:
            return pos + b
        pos += len(buf)
        window = min(window * 8, MAX_WINDOW)
        buf = f.read(min(window, size - pos))
        nl = buf.find(b"\n")
        if nl >= 0:       # the first split point of any kind: a line end or before it
            b = cores.scan.next_boundary(buf, 0, nl, TABLE) if nl else -1
            return pos + (b if b >= 0 else nl + 1)
    return size


def _read_exactly(f: Any, n: int, name: str, size: int) -> bytes:
    data = f.read(n)
    if len(data) < n:
        raise shrunk(name, size)
    return data


def scan_text_block(f: Any, spec: Spec, lo: int, hi: int, opts: Options) -> tuple[Any, Summary]:
    """The matches starting in the block of the open file ``f`` between the split
    points for ``lo`` and ``hi``, and its :class:`Summary` (last start/end: of all its
    matches before filtering). Line numbers count from the block's start (0 on its
    first line): :func:`finish` adds the base."""
    size = spec.size
    start = split_at(f, lo, size)
    stop = split_at(f, hi, size) if hi < size else size
    if stop <= start:
        return frame({}, opts), EMPTY
    f.seek(start)
    buf = _read_exactly(f, min(stop + LOOKAHEAD, size) - start, spec.name, size)
    import numpy as np

    n = stop - start
    arr = cores.scan.scan(buf, 0, n, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH, TEXT_OCTETS)
    last = len(arr) - RECORD_WIDTH        # the last record
    ends = (start + arr[last + R_START], start + arr[last + R_END]) if arr else (-1, -1)
    found = piece_matches(buf, 0, n, start, 0, arr)   # JSON escapes read (text.jsonpieces)
    if found is not None:
        every = found[0]
        ends = (every[-1][1], every[-1][2]) if every else (-1, -1)
    if opts.schemes is None and opts.valid is None and not opts.parts and not opts.refang:
        df, (at, line) = _arrow_frame(arr, buf, start, None if found is None else found[0],
                                      spec.name, opts)
        # the sink counted the lines up to the last match: only the rest is counted here
        return df, Summary(line + buf.count(b"\n", at - start, n), *ends)
    summary = Summary(buf.count(b"\n", 0, n), *ends)
    newlines = np.flatnonzero(np.frombuffer(buf, dtype=np.uint8, count=n) == 10)
    lists = match_lists(arr, buf, start, 0, None if found is None else found[0])
    ms = list(filter_matches(lists, opts.schemes, opts.valid))
    offsets = np.fromiter((m[1] for m in ms), dtype=np.int64, count=len(ms))
    # the newlines of the block before each match's start (block-relative line)
    data = {"url": [m[0] for m in ms], "file": [spec.name] * len(ms),
            "line": np.searchsorted(newlines, offsets - start), "offset": offsets}
    if opts.refang:
        data["refanged"] = [False] * len(ms)
    return frame(data, opts), summary


def _arrow_frame(arr: Any, buf: Any, start: int, found: Any, name: str,
                 opts: Options) -> tuple[Any, list[int]]:
    """The frame of a block's records (at ``start`` in the file) made by the Arrow sink
    (``urlsift.extract_table``'s), no Match built; lines counted from the block's start
    (0 on its first line), as :func:`scan_text_block` counts them. With the sink's line
    count: ``[file offset counted to, line there]``."""
    sink = ArrowSink(["url", "file", "line", "start"], name)
    sink.state = [start, 0]
    [got] = sink.batch(arr, buf, start, 0, found)
    return frame({"url": got.column(0), "file": got.column(1), "line": got.column(2),
                  "offset": got.column(3)}, opts), sink.state


def scan_partition(spec: Spec, index: int, opts: Options) -> tuple[Any, Summary]:
    """Partition ``index`` of a file: block ``index`` of plain text or a range of an
    mbox, or the whole file (partition 0; the others then are empty) when its first
    octets say it is compressed or it is text read with ``refang``."""
    if spec.compression is not None or (spec.kind == TEXT and opts.refang) \
            or spec.blocksize is None or spec.size == 0:
        return scan_whole(spec, opts) if index == 0 else (frame({}, opts), EMPTY)
    lo = index * spec.blocksize
    hi = min(lo + spec.blocksize, spec.size)
    with spec.fs.open(spec.path, "rb") as f:
        if compression_of(f.read(HEAD), spec.name) is not None:
            # compressed after all (it was not looked into: the kind was given)
            return scan_whole(spec, opts) if index == 0 else (frame({}, opts), EMPTY)
        if spec.kind == MBOX:
            return mailparts.scan_mbox_range(f, spec, lo, hi, opts)
        return scan_text_block(f, spec, lo, hi, opts)


def scan_whole(spec: Spec, opts: Options) -> tuple[Any, Summary]:
    """Every match of a whole file (decompressed by its magic octets, up to its size
    when looked at): the command's own streaming scan; one partition."""
    with spec.fs.open(spec.path, "rb") as f, \
            reading(cast(IO[bytes], Bounded(f, spec.size, spec.name)), spec.name) as stream:
        data: dict[str, list[Any]]
        if spec.kind == MBOX:
            return mailparts.scan_mbox_stream(stream, spec, opts)
        if opts.refang:
            from ..text.streams import iter_stream_matches
            found = list(iter_stream_matches(stream, schemes=opts.schemes, valid=opts.valid,
                                             refang=True, line_numbers=True))
            data = {"url": [f.url for f in found], "line": [f.line for f in found],
                    "offset": [f.start for f in found],
                    "refanged": [bool(f.refanged) for f in found]}
        else:
            ms = list(extract_text_file(stream, line_numbers=True, schemes=opts.schemes,
                                        valid=opts.valid))
            data = {"url": [m[0] for m in ms], "line": [m[7] for m in ms],
                    "offset": [m[1] for m in ms]}
            if opts.refang:
                data["refanged"] = [False] * len(ms)
    data["file"] = [spec.name] * len(data["url"])
    # whole-file line numbers already: a base of -1 leaves them as they are
    return frame(data, opts), Summary(-1, -1, -1)


# -- the fold: line numbers from the newline counts, summed once --------------------


def fold(summaries: Sequence[Summary]) -> tuple[list[tuple[int, int]], tuple]:
    """Each partition's carry ``(newlines before it, end of the last match kept before
    it)`` from the summaries of a file's partitions in order, and the lines they
    reported. A block whose matches all lie inside the previous block's last match
    passes that end on.

    >>> fold([Summary(2, 5, 40), Summary(1, 10, 20), Summary(3, 50, 60)])
    ([(0, 0), (2, 40), (3, 40)], ())
    """
    carries = []
    lines, last_end = 0, 0
    reports: list[str] = []
    for s in summaries:
        carries.append((lines, last_end))
        if s.newlines >= 0:
            lines += s.newlines
        if s.last_start >= 0 and s.last_start >= last_end:
            last_end = s.last_end
        reports.extend(s.reports)
    return carries, tuple(reports)


def finish(scanned: tuple[Any, Summary], folded: tuple[list, tuple], index: int) -> Any:
    """Partition ``index``'s rows with whole-file line numbers, without the matches
    that start inside the previous block's last match."""
    df, summary = scanned
    lines, last_end = folded[0][index]
    if summary.newlines < 0 or not len(df) or df["line"].isna().all():
        return df     # a whole file, or mail: nothing to add
    if int(df["offset"].iloc[0]) < last_end:
        df = df[df["offset"] >= last_end].reset_index(drop=True)
    return df.assign(line=df["line"] + (lines + 1))


def reports_of(folded: Sequence[tuple[list, tuple]]) -> Any:
    """The lines every file's partitions reported, in input order: a frame of one
    column, ``line``."""
    import pandas as pd

    return pd.DataFrame({"line": pd.array([line for _, reports in folded for line in reports],
                                          dtype="string")})
