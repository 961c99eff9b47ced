"""The work of one partition of :func:`urlsift.dask.extract`, on a worker: no Dask here,
only a file system (fsspec's interface: ``open``, ``size``), byte ranges and the
layers below (text, mail, inputs). Each function returns a pandas DataFrame with the
columns of :func:`frame`.

Plain text
    A file is cut at *split points* (:mod:`urlsift.text.files`: just after a line break,
    or on a very long line after a character that ends a bare URL): the nominal edges
    ``k * blocksize`` move forward to the first split point (:func:`split_at`), so two
    neighbouring blocks agree on their common edge without talking to each other.
    :func:`scan_text_block` scans its block reading up to ``LOOKAHEAD`` octets into the
    next one, so a match that starts in the block comes out whole; it keeps the
    matches that start in the block, and reports ``(newlines, last start, last end)``.
    :func:`next_carry` folds those summaries, block after block, into each block's line
    number base and the end of the previous block's last match: :func:`fix_text_block`
    drops the matches that start before it (they are inside that match: a wrapper
    broken over lines) and adds the base to the line numbers. The same rule as the
    pieces of :mod:`urlsift.text.files`, so the blocks give exactly the rows of
    ``urlsift.extract_file(path, line_numbers=True)``.

Whole files
    A compressed file (and any text file with ``refang``) is one partition:
    :func:`scan_text_file` streams it as the command does.

Mail
    An mbox is cut at its message boundaries (``\\nFrom ``, :func:`mbox_split_at`);
    :func:`scan_mbox_range` walks the messages of its range with the mail layer. A
    Maildir is partitioned by lists of message files (:func:`maildir_paths`,
    :func:`scan_maildir_files`).
"""
from __future__ import annotations

import io
import os
from typing import Any, Iterable, Iterator, NamedTuple, Optional, Sequence

from .._select import cores
from ..inputs.opening import decompressed
from ..model.parts import PART_COLUMNS, parts_getter
from ..text.extraction import Validity, _filter
from ..text.extraction import extract_file as extract_text_file
from ..text.files import LOOKAHEAD, match_lists
from ..text.jsonpieces import piece_matches
from ..text.rules import KNOWN, TEXT_OCTETS, MAX_LENGTH, MAX_WRAPPER, TABLE

__all__ = ["Options", "PART_COLUMNS", "frame", "split_at", "mbox_split_at", "scan_text_block",
           "fix_text_block", "next_carry", "scan_text_file", "scan_mbox_range",
           "maildir_paths", "scan_maildir_files", "FIRST_CARRY"]

_INT_COLUMNS = frozenset({"line", "offset", "port"})
#: Where a split point is looked for first; the window grows eightfold up to MAX_WINDOW.
FIRST_WINDOW = 4096
MAX_WINDOW = 1 << 20
#: A block's carry: (newlines before it, end of the last match before it).
FIRST_CARRY = (0, 0)


class Options(NamedTuple):
    """What every partition is asked for."""

    schemes: Optional[tuple]
    valid: Optional[Validity]
    parts: bool
    refang: bool
    mail: bool           # some input is mail: the mail columns for every row


def columns(opts: Options) -> list[str]:
    """The columns of ``urlsift extract --format parquet --with-position`` for ``opts``."""
    cols = ["url", "file", "line", "offset"]
    if opts.mail:
        cols += ["message_id", "date", "part"]
    if opts.refang:
        cols.append("refanged")
    if opts.parts:
        cols += PART_COLUMNS
    return cols


def frame(data: dict, opts: Options) -> Any:
    """A pandas DataFrame of ``data`` (column -> list) with the columns and types of
    ``opts``: strings, nullable int64 (``line``, ``offset``, ``port``), bool ``refanged``.
    Columns missing from ``data`` are all nulls; ``parts`` are computed from ``url``."""
    import pandas as pd

    urls = data.get("url", [])
    n = len(urls)
    if opts.parts and "scheme" not in data:
        data = {**data, **_parts_of(urls)}
    out = {}
    for c in columns(opts):
        values = data.get(c)
        if values is None:
            values = [None] * n
        if c in _INT_COLUMNS:
            out[c] = pd.array(values, dtype="Int64")
        elif c == "refanged":
            out[c] = pd.array(values, dtype="bool")
        else:
            out[c] = pd.array(values, dtype="string")
    return pd.DataFrame(out)


def _parts_of(urls: Sequence[str]) -> dict:
    """The PART_COLUMNS of each URL, as the command's ``--parts`` (one parse per URL)."""
    parts = parts_getter(False)
    rows = [parts(url) for url in urls]
    return {c: [r[c] for r in rows] for c in PART_COLUMNS}


# -- plain text, in blocks ---------------------------------------------------------


def split_at(f: Any, offset: int, size: int) -> int:
    """The first split point at or after ``offset`` in the open file ``f`` of ``size``
    octets (0 at 0; ``size`` when there is none). Searched in windows growing from
    FIRST_WINDOW, so every block finds the same edge for the same ``offset``."""
    if offset <= 0:
        return 0
    pos = offset - 1          # a split point is just after a character: look at it too
    window = FIRST_WINDOW
    while pos < size:
        f.seek(pos)
        buf = f.read(window)
        if not buf:
            break
        b = cores.scan.next_boundary(buf, 0, len(buf), TABLE)
        if b >= 0:
            return pos + b
        pos += len(buf)
        window = min(window * 8, MAX_WINDOW)
    return size


def scan_text_block(fs: Any, path: str, name: str, lo: int, hi: int, size: int,
                    opts: Options) -> tuple[Any, tuple]:
    """The matches starting in the block of ``path`` between the split points at or
    after ``lo`` and ``hi``, and the block's summary ``(newlines, last start, last end)``
    (last start/end: of all its matches before filtering; -1 when it has none).

    Line numbers in the frame count from the block's start (0 on its first line):
    :func:`fix_text_block` adds the base.
    """
    with fs.open(path, "rb") as f:
        start = split_at(f, lo, size)
        stop = split_at(f, hi, size) if hi < size else size
        if stop <= start:
            return frame({}, opts), (0, -1, -1)
        f.seek(start)
        buf = f.read(min(stop + LOOKAHEAD, size) - start)
    import numpy as np

    n = stop - start
    core = cores.scan
    arr = core.scan(buf, 0, n, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH, TEXT_OCTETS)
    newlines = np.flatnonzero(np.frombuffer(buf, dtype=np.uint8, count=n) == 10)
    summary = (len(newlines), start + arr[-3] if arr else -1, start + arr[-2] if arr else -1)
    found = piece_matches(buf, 0, n, start, 0, arr)   # JSON escapes read (text.jsonpieces)
    if found is not None:
        every = found[0]
        summary = (len(newlines), every[-1][1] if every else -1, every[-1][2] if every else -1)
    lists = match_lists(arr, buf, start, 0, None if found is None else found[0])
    ms = list(_filter(lists, opts.schemes, opts.valid))
    offsets = np.fromiter((m[1] for m in ms), dtype=np.int64, count=len(ms))
    # the newlines of the block before each match's start (block-relative line)
    data = {"url": [m[0] for m in ms], "file": [name] * len(ms),
            "line": np.searchsorted(newlines, offsets - start), "offset": offsets}
    if opts.refang:
        data["refanged"] = [False] * len(ms)
    return frame(data, opts), summary


def next_carry(carry: tuple, summary: tuple) -> tuple:
    """The carry of the block after the one of ``carry`` and ``summary``: newlines
    before it, and the end of the last match kept before it (a block whose matches
    all lie inside the previous block's last match passes that end on)."""
    lines, last_end = carry
    newlines, last_start, end = summary
    if last_start >= 0 and last_start >= last_end:
        last_end = end
    return lines + newlines, last_end


def fix_text_block(df: Any, carry: tuple) -> Any:
    """The block's rows with whole-file line numbers, without the matches that start
    inside the previous block's last match."""
    lines, last_end = carry
    if len(df) and int(df["offset"].iloc[0]) < last_end:
        df = df[df["offset"] >= last_end].reset_index(drop=True)
    if len(df):
        df = df.assign(line=df["line"] + (lines + 1))
    return df


# -- whole files --------------------------------------------------------------------


def _open_decompressed(fs: Any, path: str, compression: Optional[str]) -> Any:
    """The file opened and decompressed; closing it closes both."""
    raw = fs.open(path, "rb")
    if compression is None:
        return raw
    try:
        stream = decompressed(raw, compression)
    except BaseException:
        raw.close()
        raise
    return _Both(stream, raw)


class _Both(io.RawIOBase):
    """A decompressed stream that closes its raw file too."""

    def __init__(self, stream: Any, raw: Any) -> None:
        self._stream, self._raw = stream, raw

    def readable(self) -> bool:
        return True

    def read(self, n: int = -1) -> bytes:  # type: ignore[override]
        return self._stream.read(n)

    def readinto(self, b: Any) -> int:
        data = self._stream.read(len(b))
        b[:len(data)] = data
        return len(data)

    def __iter__(self) -> Iterator[bytes]:  # type: ignore[override]
        return iter(self._stream)

    def close(self) -> None:
        try:
            self._stream.close()
        finally:
            self._raw.close()
            super().close()


def scan_text_file(fs: Any, path: str, name: str, compression: Optional[str],
                   opts: Options) -> Any:
    """Every match of a whole text file (compressed, or read with ``refang``): the
    command's own streaming scan; one partition."""
    data: dict[str, list[Any]]
    with _open_decompressed(fs, path, compression) as stream:
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
    data["file"] = [name] * len(data["url"])
    if opts.refang and "refanged" not in data:
        data["refanged"] = [False] * len(data["url"])
    return frame(data, opts)


# -- mail ---------------------------------------------------------------------------

_FROM = b"\nFrom "


def mbox_split_at(f: Any, offset: int, size: int) -> int:
    """The first message boundary (a line starting with ``From ``) at or after
    ``offset`` in the open mbox ``f`` (0 at 0, ``size`` when there is none)."""
    if offset <= 0:
        return 0
    pos = offset - 1
    window = FIRST_WINDOW
    while pos < size:
        f.seek(pos)
        buf = f.read(window)
        i = buf.find(_FROM)
        if i >= 0:
            return pos + i + 1
        if len(buf) < len(_FROM) or pos + len(buf) >= size:
            break
        pos += len(buf) - len(_FROM) + 1       # the pattern may straddle two windows
        window = min(window * 8, MAX_WINDOW)
    return size


def _mail_frame(found: Iterable[Any], opts: Options) -> Any:
    rows = list(found)
    data = {"url": [m.url for m in rows], "file": [m.source for m in rows],
            "offset": [m.offset for m in rows], "message_id": [m.message_id for m in rows],
            "date": [m.date for m in rows], "part": [m.part for m in rows]}
    if opts.refang:
        data["refanged"] = [bool(m.refanged) for m in rows]
    return frame(data, opts)


def _spool_urls(messages: Iterable[Any], opts: Options) -> Iterator[Any]:
    from ..mail import iter_spool_urls   # loads email: only on the workers that read mail
    return iter_spool_urls(messages, schemes=opts.schemes, valid=opts.valid,
                           refang=opts.refang)


def _walked(stream: Any, name: str, opts: Options, offset: int = 0) -> Iterator[Any]:
    """The URLs of an mbox stream by the walk on the bytes (:mod:`urlsift.mail.walk`);
    with ``refang`` (which rewrites the text) by ``email``, message by message."""
    from itertools import chain

    from ..mail import walk
    from ..mail.spool import mbox_messages

    if opts.refang:
        return _spool_urls(((src, None if off is None else off + offset, msg)
                            for src, off, msg in mbox_messages(stream, name)), opts)
    return chain.from_iterable(walk.spool_match_lists(stream, name, schemes=opts.schemes,
                                                      valid=opts.valid, offset=offset))


def scan_mbox_range(fs: Any, path: str, name: str, lo: int, hi: Optional[int], size: int,
                    compression: Optional[str], opts: Options) -> Any:
    """The URLs of the messages of an mbox between the boundaries at or after ``lo``
    and ``hi`` (``hi`` None: the whole spool, compressed or not; one partition)."""
    if hi is None:
        with _open_decompressed(fs, path, compression) as stream:
            return _mail_frame(_walked(stream, name, opts), opts)
    with fs.open(path, "rb") as f:
        start = mbox_split_at(f, lo, size)
        stop = mbox_split_at(f, hi, size) if hi < size else size
        if stop <= start:
            return frame({}, opts)
        f.seek(start)
        data = f.read(stop - start)
    return _mail_frame(_walked(io.BytesIO(data), name, opts, start), opts)


def maildir_paths(name: str) -> list[tuple[str, int]]:
    """``(path, size)`` of the messages of a local Maildir, in the order and with the
    rule of :func:`urlsift.mail.spool.maildir_messages` (``cur`` then ``new``, sorted;
    a message in both, by its unique name, counts once; sub-directories skipped)."""
    seen: set[str] = set()
    out = []
    for sub in ("cur", "new"):
        for entry in sorted(os.listdir(os.path.join(name, sub))):
            uniq = entry.split(":")[0]
            path = os.path.join(name, sub, entry)
            if uniq in seen or os.path.isdir(path):
                continue
            seen.add(uniq)
            try:
                size = os.path.getsize(path)
            except OSError:
                size = 0
            out.append((path, size))
    return out


def _file_messages(paths: Sequence[str]) -> Iterator[tuple]:
    for path in paths:
        try:
            with open(path, "rb") as f:
                yield path, None, f.read()
        except OSError as exc:
            yield path, None, exc


def scan_maildir_files(paths: Sequence[str], opts: Options) -> Any:
    """The URLs of a list of Maildir message files (each walked on its bytes; with
    ``refang``, read by ``email``)."""
    if opts.refang:
        return _mail_frame(_spool_urls(_file_messages(paths), opts), opts)
    from ..mail import walk
    from ..mail.message import message_matches, options, print_error

    mopts = options(opts.schemes, opts.valid, False)
    found: list[Any] = []
    for source, _, data in _file_messages(paths):
        if isinstance(data, Exception):
            found.extend(message_matches(source, None, data, mopts, print_error))
        else:
            found.extend(walk.message_urls_fast(data, source, mopts, print_error))
    return _mail_frame(found, opts)
