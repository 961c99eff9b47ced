"""Scanning files for URLs without reading them whole: memory-map, or stream in blocks.

A buffer can be cut at a *split point*: just after a line break or, when a line is
very long, just after any character that ends a bare URL other than ``<`` (table bit
T_SPLIT). A bare URL or a scheme never crosses such a point, and the walk of a piece
may read past its end, so a wrapper opened before the point is finished whole by the
piece that opened it. The next piece starts fresh at the point; the matches it finds
before the end of the previous piece's last match are inside that match and dropped.
So pieces scanned apart (on threads, or block after block from a pipe) give exactly
the matches of one pass over the whole file. A piece that holds a JSON-escaped URL
(``https:\\/\\/...``) is read again through the escapes (:mod:`.jsonpieces`).
"""
from __future__ import annotations

import mmap
import os
import stat
import sys
from array import array
from typing import Any, BinaryIO, Callable, Iterator, Optional, Union

from .._layout import F_LINE, F_OFFSET, F_URL, RECORD_WIDTH, R_END, R_START
from .._select import cores
from .jsonpieces import piece_matches
from .mapping import Watch
from .shrinking import regular_size as _regular_size
from .match import Match
from .rules import KNOWN, TEXT_OCTETS, MAX_LENGTH, MAX_WRAPPER, TABLE
from .sinks import LayoutLines, UrlLines, counted_lines, match_lists

#: What a sink's ``batch`` is: (records, buffer, input offset of buffer[0], first record
#: kept, matches made already or None) -> what it makes of them (:mod:`.sinks`).
Make = Callable[..., Iterator[Any]]

__all__ = ["check_counts", "job_count", "F_LINE", "F_OFFSET", "F_URL", "match_lists", "scan_file",
           "sink_batches", "url_lines", "position_lines", "scan_buffer", "BLOCK_SIZE",
           "PIECE_SIZE", "WINDOW"]

#: Size of the pieces a mapped file or a buffer is cut into (one scanner call each).
#: Small enough that a piece's octets are still in the CPU cache when its matches are
#: built, whether this thread scanned them or a worker just did: larger pieces made the
#: 1 GB log slower on one thread and no faster on two (the runs: benchmarks/README.md,
#: "Measurements behind choices in the code").
PIECE_SIZE = 256 << 10
#: Size of the blocks read from a stream (a pipe, stdin), and its cut when a block
#: holds no split point.
BLOCK_SIZE = 8 << 20
#: How far to look for a split point before looking further.
WINDOW = 1 << 20
#: How often the pages already scanned are handed back to the kernel.
FORGET_EVERY = 64 << 20
#: What a piece may read past its end: a wrapper or a bare URL opened before it.
LOOKAHEAD = MAX_WRAPPER + MAX_LENGTH + 16

PathArg = Union[str, "os.PathLike[str]", bytes]


def _split_point(buf: Any, pos: int, n: int) -> int:
    """The first split point at or after ``pos`` (searching window by window), else n."""
    core = cores.scan
    while pos < n:
        b = core.next_boundary(buf, pos, min(pos + WINDOW, n), TABLE)
        if b >= 0:
            return b
        pos += WINDOW
    return n


def _cut_before(buf: Any, limit: int, force: bool = True) -> int:
    """A split point near ``limit`` and not after it: searched in windows growing back
    from ``limit``, so each block moves the stream on by about a block. With no split
    point at all (a block of URL characters without a single space), ``limit`` itself
    when ``force``, else -1 (read more first)."""
    w = 4096
    while True:
        lo = max(0, limit - w)
        b = cores.scan.next_boundary(buf, lo, limit, TABLE)
        if b > 0:
            return b
        if lo == 0:
            return limit if force else -1
        w *= 8


def _scan_piece(buf: Any, a: int, b: int) -> "array[int]":
    return cores.scan.scan(buf, a, b, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH, TEXT_OCTETS)


def _kept(arr: "array[int]", last_end: int) -> tuple[int, int]:
    """Index of the first record not inside the previous piece's last match, and the
    end of this piece's last match (or ``last_end`` when it has none)."""
    i, total = 0, len(arr) // RECORD_WIDTH
    while i < total and arr[RECORD_WIDTH * i + R_START] < last_end:
        i += 1
    return i, (arr[RECORD_WIDTH * (total - 1) + R_END] if i < total else last_end)


def _pieces(buf: Any, n: int, block: int, a: int = 0,
            check: Optional[Callable[[], None]] = None) -> Iterator[tuple[int, int]]:
    while a < n:
        if check is not None:
            check()                  # before the split point search reads the piece
        b = _split_point(buf, a + block, n) if a + block < n else n
        yield a, b
        a = b


def scan_buffer(buf: Any, n: int, block: int = PIECE_SIZE,
                scan: Callable[[Any, int, int], "array[int]"] = _scan_piece) -> Iterator[list[Match]]:
    """Lists of the matches of an in-memory buffer of ``n`` units (octets, or characters
    of a str), scanned piece by piece by ``scan(buf, start, stop)``: the same matches as
    one scan of the whole, each piece's built while it is in cache. The first piece is
    scanned at once, so a bad buffer raises here, not at the first ``next``."""
    b = _split_point(buf, block, n) if block < n else n
    return _buffer_lists(buf, n, block, scan, scan(buf, 0, b), b)


def _buffer_lists(buf: Any, n: int, block: int, scan: Callable[[Any, int, int], "array[int]"],
                  arr: "array[int]", b: int) -> Iterator[list[Match]]:
    lists, last_end = _piece_lists(arr, buf, 0, b, 0)
    yield from lists
    for a, b in _pieces(buf, n, block, b):
        lists, last_end = _piece_lists(scan(buf, a, b), buf, a, b, last_end)
        yield from lists


def _piece_lists(arr: "array[int]", buf: Any, a: int, b: int, last_end: int, base: int = 0,
                 make: Make = match_lists,
                 json: bool = True) -> tuple[Iterator[Any], int]:
    """What ``make`` gives for the piece ``[a, b)`` of ``buf`` (at ``base`` in the input)
    scanned into ``arr`` — read again when it holds JSON escapes (``json``) — and the end
    of its last match in the input (``last_end``, the previous one's, when it has none)."""
    found = piece_matches(buf, a, b, base, last_end, arr) if json else None
    if found is not None:
        return make(arr, buf, base, 0, found[0]), found[1]
    first, end = _kept(arr, last_end - base)
    return make(arr, buf, base, first), end + base


_PAGE = mmap.PAGESIZE


def _forget(mm: Any, a: int, b: int) -> None:
    """Let the kernel drop the pages of a finished piece: the resident set stays at a
    few blocks however large the file (the pages are file-backed, so this is only a
    hint; a page read again is simply read again)."""
    lo, hi = a - a % _PAGE, b - b % _PAGE
    if hi > lo and hasattr(mm, "madvise") and hasattr(mmap, "MADV_DONTNEED"):
        try:
            mm.madvise(mmap.MADV_DONTNEED, lo, hi - lo)
        except (OSError, ValueError):
            pass


def _mapped(f: BinaryIO, mm: Any, jobs: int, block: int, line_numbers: bool,
            make: Make = match_lists,
            progress: Optional[Callable[[int], None]] = None) -> Iterator[Any]:
    """Pieces scanned on ``jobs`` threads (the walk releases the GIL); their matches
    given here to the sink ``make`` (:mod:`.sinks`), its output in file order; the
    octets of each piece told to ``progress`` once it is done. With ``jobs`` > 1 the
    pieces are scanned by ``Pipeline`` (compiled core: on threads). A file that
    shrinks meanwhile ends it with FileShrankError (:mod:`.mapping`)."""
    n = len(mm)
    last_end = 0
    state = [0, 1]
    forgotten = 0
    watch = Watch(f, mm, n)

    def emit(arr: "array[int]", a: int, b: int) -> Iterator[list[Match]]:
        nonlocal last_end, forgotten
        arr, shrank = watch.cut(arr, a)
        # a piece cut short by a shrinking file keeps the scanner's matches (an error follows)
        made, last_end = _piece_lists(arr, mm, a, b, last_end, make=make, json=not shrank)
        for ms in made:
            yield counted_lines(ms, mm, 0, state) if line_numbers else ms
        if shrank:
            watch.check()       # raises: the matches before the new end are out
        if progress is not None:
            progress(b - a)
        if b - forgotten >= FORGET_EVERY:
            _forget(mm, forgotten, b)
            forgotten = b - b % _PAGE

    try:
        if jobs == 1:
            for a, b in _pieces(mm, n, block, check=watch.check):
                yield from emit(_scan_piece(mm, a, b), a, b)
            return
        # jobs threads in all: jobs - 1 scan without the GIL (the core's Pipeline); this
        # one builds the matches (that needs the GIL) and scans too while it would wait.
        workers = min(jobs - 1, -(-n // block))      # no more threads than pieces
        pipe = cores.pipe.Pipeline(mm, block, WINDOW, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH,
                                   workers, octets=TEXT_OCTETS)
        try:
            while True:
                watch.check()     # the pure Pipeline scans the next piece in take()
                got = pipe.take()
                if got is None:
                    break
                yield from emit(got[0], got[1], got[2])
        finally:
            pipe.close()
    finally:
        watch.close()


def _streamed(f: BinaryIO, block: int, line_numbers: bool,
              progress: Optional[Callable[[int], None]] = None,
              make: Make = match_lists, state: Optional[list[int]] = None) -> Iterator[Any]:
    """The sink's output (``make``) for each block read; ``state``: the sink's line count
    (``[offset counted to, line there]``), carried to each cut as the matches' is."""
    carry = line_numbers or state is not None
    state = [0, 1] if state is None else state
    buf = bytearray()
    base = 0                  # input offset of buf[0]
    last_end = 0
    eof = False
    size = _regular_size(f)   # a regular file read to its end must have given this much
    want = block + LOOKAHEAD  # octets held before a cut is looked for
    while True:
        while not eof and len(buf) < want:
            try:
                data = f.read(block)
            except (OSError, EOFError):
                # a compressed input cut short, a disk error: the matches before it first
                yield from _streamed_tail(buf, base, last_end, state, line_numbers, make)
                raise
            if isinstance(data, str):
                raise TypeError(f"extract_file needs a binary file, not text: open "
                                f"{getattr(f, 'name', f)!r} with 'rb'")
            if not data:
                eof = True
                if size is not None and base + len(buf) < size:
                    # truncated meanwhile: the matches before the cut, then the error
                    yield from _streamed_tail(buf, base, last_end, state, line_numbers, make)
                    raise Watch.shrank(f, size, _regular_size(f) or base + len(buf))
            else:
                buf += data
                if progress is not None:
                    progress(len(data))
        n = len(buf)
        if eof:
            stop = n
        else:
            # no split point in a small block (block_size=2, a long word): read on,
            # doubling, and cut where no URL may end only past BLOCK_SIZE octets
            stop = _cut_before(buf, n - LOOKAHEAD, force=n - LOOKAHEAD >= BLOCK_SIZE)
            if stop < 0:
                want = 2 * n
                continue
            want = block + LOOKAHEAD
        lists, last_end = _piece_lists(_scan_piece(buf, 0, stop), buf, 0, stop, last_end, base,
                                       make)
        for ms in lists:
            yield counted_lines(ms, buf, base, state) if line_numbers else ms
        if eof:
            return
        if carry:                 # carry the line count to the cut
            state[1] += cores.scan.count_newlines(buf, state[0] - base, stop)
            state[0] = base + stop
        del buf[:stop]
        base += stop


def _streamed_tail(buf: bytearray, base: int, last_end: int, state: list[int],
                   line_numbers: bool, make: Make = match_lists) -> Iterator[Any]:
    """The sink's output for what is left in ``buf`` when the stream ends early."""
    lists, _ = _piece_lists(_scan_piece(buf, 0, len(buf)), buf, 0, len(buf), last_end, base,
                            make)
    for ms in lists:
        yield counted_lines(ms, buf, base, state) if line_numbers else ms


def job_count(jobs: Any) -> int:
    """The number of threads ``jobs`` asks for: a positive int as it is, 0 one per core
    (``os.cpu_count()``, as the command's ``-j 0``); anything else is a ValueError.

    >>> job_count(3), job_count(0) == (os.cpu_count() or 1)
    (3, True)
    """
    if not isinstance(jobs, int) or isinstance(jobs, bool) or jobs < 0:
        raise ValueError(f"jobs must be 0 (one per core) or a positive int, not {jobs!r}")
    return jobs or (os.cpu_count() or 1)


def check_counts(jobs: Any, block_size: Any = None) -> int:
    """:func:`job_count` of ``jobs``; ``block_size`` must be None or a positive int,
    else ValueError."""
    if block_size is not None and (not isinstance(block_size, int) or isinstance(block_size, bool)
                                   or block_size < 1):
        raise ValueError(f"block_size must be a positive int, not {block_size!r}")
    return job_count(jobs)


def scan_file(path: Union[PathArg, BinaryIO], *, jobs: int = 1, line_numbers: bool = False,
              block_size: Optional[int] = None) -> Iterator[list[Match]]:
    """Lists of the matches of a file, piece by piece, in file order: mapped when it is a non-empty regular file,
    else streamed. ``path`` may be ``"-"`` (stdin) or an open binary file.

    Arguments are checked and the file is opened at once (a bad path raises here, not
    at the first ``next``); the file is closed when the iterator ends or is closed.
    """
    jobs = check_counts(jobs, block_size)
    if hasattr(path, "read"):
        return _streamed(path, block_size or BLOCK_SIZE, line_numbers)  # type: ignore[arg-type]
    if path == "-" or path == b"-":
        return _streamed(sys.stdin.buffer, block_size or BLOCK_SIZE, line_numbers)
    f, mm = _open(path)
    return _opened(f, mm, jobs, block_size, line_numbers)


def _open(path: PathArg) -> tuple[BinaryIO, Any]:
    """The file, and its memory map when it is a non-empty regular file and the core in
    use guards mapped reads (else None: the file is read in blocks)."""
    f = open(path, "rb")              # OSError naming the path: missing, directory, no access
    try:
        st = os.fstat(f.fileno())
        mm = None
        # mapped only where a read past a new end (the file shrank) cannot kill the
        # process: with the compiled core's SIGBUS guard (:mod:`.mapping`); else read
        if stat.S_ISREG(st.st_mode) and st.st_size > 0 and cores.guard.GUARDS:
            try:
                mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
            except (OSError, ValueError):
                mm = None
    except BaseException:
        f.close()
        raise
    return f, mm


def url_lines(path: PathArg, *, jobs: int = 1,
              progress: Optional[Callable[[int], None]] = None) -> Iterator[bytes]:
    """The URLs of a file as UTF-8 lines (each URL and a newline), piece by piece: the
    ``url`` of every match of :func:`scan_file`, without building the matches (the
    command's plain output; :class:`~.sinks.UrlLines`). The file is opened at once, so a
    bad path raises here; ``progress`` is told the octets of each piece scanned (or read).
    """
    return sink_batches(path, UrlLines(), jobs=jobs, progress=progress)


def position_lines(path: PathArg, layout: Union[tuple, LayoutLines], *, jobs: int = 1,
                   progress: Optional[Callable[[int], None]] = None) -> Iterator[bytes]:
    """One line per URL of a file, laid out by ``layout`` (a :class:`~.sinks.LayoutLines`,
    or its layout: literal bytes and the fields :data:`F_URL`, :data:`F_LINE` (1-based)
    and :data:`F_OFFSET` (of the raw span)), piece by piece: made in the core, no Match
    built (the command's ``--with-position`` text and JSON lines).

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("wb", delete=False) as f:
    ...     _ = f.write(b"a\\nsee http://x.example/ and\\n\\n<URL:ftp://y.example/>\\n")
    >>> b"".join(position_lines(f.name, (b"log:", F_LINE, b":", F_OFFSET, b":", F_URL, b"\\n")))
    b'log:2:6:http://x.example/\\nlog:4:29:ftp://y.example/\\n'
    >>> os.unlink(f.name)
    """
    sink = layout if isinstance(layout, LayoutLines) else LayoutLines(layout)
    return sink_batches(path, sink, jobs=jobs, progress=progress)


def sink_batches(path: Union[PathArg, BinaryIO], sink: Any, *, jobs: int = 1,
                 block_size: Optional[int] = None,
                 progress: Optional[Callable[[int], None]] = None) -> Iterator[Any]:
    """What ``sink`` (:mod:`.sinks`: its ``batch``, and its line count ``state`` if it
    keeps one) makes of each batch of records of a file, in file order: mapped and
    scanned on ``jobs`` threads when it is a non-empty regular file, else streamed.
    Opened at once (a bad path raises here)."""
    jobs = check_counts(jobs, block_size)
    state = getattr(sink, "state", None)
    if hasattr(path, "read"):
        return _streamed(path, block_size or BLOCK_SIZE, False, progress,   # type: ignore
                         sink.batch, state)
    if path == "-" or path == b"-":
        return _streamed(sys.stdin.buffer, block_size or BLOCK_SIZE, False, progress,
                         sink.batch, state)
    f, mm = _open(path)
    return _opened(f, mm, jobs, block_size, False, progress, sink.batch, state)


def _opened(f: BinaryIO, mm: Any, jobs: int, block_size: Optional[int],
            line_numbers: bool, progress: Optional[Callable[[int], None]] = None,
            make: Make = match_lists, state: Optional[list[int]] = None) -> Iterator[Any]:
    if block_size is None:
        block_size = BLOCK_SIZE if mm is None else PIECE_SIZE
    try:
        if mm is None:
            yield from _streamed(f, block_size, line_numbers, progress, make, state)
        else:
            if hasattr(mmap, "MADV_SEQUENTIAL"):
                mm.madvise(mmap.MADV_SEQUENTIAL)
            yield from _mapped(f, mm, jobs, block_size, line_numbers, make, progress)
    finally:
        if mm is not None:
            mm.close()
        f.close()
