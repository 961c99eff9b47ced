"""Mail partitions of :func:`urlsift.dask.extract`, on a worker: an mbox cut at its
message boundaries (``\\nFrom ``, :func:`mbox_split_at`) and walked range by range
with the mail layer; a Maildir as groups of message files, each read by the command's
reader (:func:`urlsift.mail.spool.read_message_file`: regular files only, at most
``MESSAGE_MAX`` octets, a FIFO not waited on), so a file that is no message costs that
file alone, with one line saying so.

Every function returns ``(frame, Summary)``; what the mail layer reports (a message
skipped, a part not decoded) is printed on the worker's stderr as the command prints it
and carried in the summary, so ``urlsift extract --dask`` says it on the client too.
"""
from __future__ import annotations

import io
import os
from typing import IO, Any, Callable, Iterable, Iterator, Optional, Sequence

from .._layout import MBOX_SEPARATOR
from ..mail.message import MailMatch, print_error
from ..mail.walk import numbered
from .frames import Options, frame
from .reading import EMPTY, Spec, Summary, shrunk

__all__ = ["maildir_entries", "mbox_split_at", "scan_mbox_range", "scan_mbox_stream",
           "scan_maildir"]

#: Where a message boundary is looked for first; the window grows eightfold up to MAX.
FIRST_WINDOW = 4096
MAX_WINDOW = 1 << 20


def _reporter(opts: Options) -> tuple[list[str], Callable[[str], None]]:
    lines: list[str] = []

    def report(line: str) -> None:
        if opts.echo:
            print_error(line)    # the worker's log, as the command's stderr
        lines.append(line)
    return lines, report


def _mail_frame(with_lines: Iterable[tuple[MailMatch, Optional[int]]], opts: Options) -> Any:
    """The frame of the MailMatch rows with their lines (``(match, line)``, as
    :func:`urlsift.mail.walk.numbered` gives them): one list per column (faster than
    transposing the rows with ``zip(*rows)``), made columns by pyarrow (:func:`frame`)."""
    pairs = list(with_lines)
    rows = [m for m, _ in pairs]
    data = {"url": [m.url for m in rows], "file": [m.source for m in rows],
            "line": [line for _, line in pairs],
            "offset": [m.offset for m in rows], "message_id": [m.message_id for m in rows],
            "date": [m.date for m in rows], "part": [m.part for m in rows],
            "text": [m.text for m in rows], "deceptive": [m.deceptive for m in rows],
            "file_offset": [m.file_offset for m in rows]}
    if opts.refang:
        data["refanged"] = [bool(m.refanged) for m in rows]
    return frame(data, opts)


def mbox_split_at(f: Any, offset: int, size: int) -> int:
    """The first message boundary (a line starting with ``From ``) at or after
    ``offset`` in the open mbox ``f`` (0 at 0, ``size`` when there is none)."""
    if offset <= 0:
        return 0
    pos = offset - 1
    window = FIRST_WINDOW
    while pos < size:
        f.seek(pos)
        buf = f.read(min(window, size - pos))
        i = buf.find(MBOX_SEPARATOR)
        if i >= 0:
            return pos + i + 1
        if len(buf) < len(MBOX_SEPARATOR) or pos + len(buf) >= size:
            break
        pos += len(buf) - len(MBOX_SEPARATOR) + 1    # the pattern may straddle two windows
        window = min(window * 8, MAX_WINDOW)
    return size


def _walked(stream: IO[bytes], name: str, opts: Options, report: Callable[[str], None],
            offset: int = 0) -> Iterator[Any]:
    """The URLs of an mbox stream by the walk on the bytes (:mod:`urlsift.mail.walk`);
    with ``refang`` (which rewrites the text) by ``email``, message by message."""
    from itertools import chain

    from ..mail import iter_spool_urls, walk
    from ..mail.spool import mbox_messages

    if opts.refang:
        return iter_spool_urls(((src, None if off is None else off + offset, msg)
                                for src, off, msg in mbox_messages(stream, name)),
                               schemes=opts.schemes, valid=opts.valid, refang=True,
                               on_error=report)
    return chain.from_iterable(walk.spool_match_lists(stream, name, schemes=opts.schemes,
                                                      valid=opts.valid, offset=offset,
                                                      on_error=report))


def scan_mbox_stream(stream: IO[bytes], spec: Spec, opts: Options) -> tuple[Any, Summary]:
    """The URLs of a whole mbox (compressed or not) read from ``stream``, with the lines
    of the file as the command's ``-n`` gives them (whole-file lines: nothing to add)."""
    from ..inputs import iter_numbered_mail_urls

    reports, report = _reporter(opts)
    found = iter_numbered_mail_urls(spec.name, stream=stream, schemes=opts.schemes,
                                    valid=opts.valid, refang=opts.refang, on_error=report)
    return _mail_frame(found, opts), Summary(-1, -1, -1, tuple(reports))


def scan_mbox_range(f: Any, spec: Spec, lo: int, hi: int,
                    opts: Options) -> tuple[Any, Summary]:
    """The URLs of the messages of the open mbox ``f`` between the boundaries at or
    after ``lo`` and ``hi``."""
    start = mbox_split_at(f, lo, spec.size)
    stop = mbox_split_at(f, hi, spec.size) if hi < spec.size else spec.size
    if stop <= start:
        return frame({}, opts), EMPTY
    f.seek(start)
    data = f.read(stop - start)
    if len(data) < stop - start:
        raise shrunk(spec.name, spec.size)
    reports, report = _reporter(opts)
    found = list(_walked(io.BytesIO(data), spec.name, opts, report, start))
    # lines counted from the range's start; the fold adds the lines of the ranges before
    return (_mail_frame(numbered(found, data, start, 0), opts),
            Summary(data.count(b"\n"), -1, -1, tuple(reports)))


def maildir_entries(path: str) -> list[tuple[str, int]]:
    """``(path relative to the Maildir, size)`` of its messages, in the order and with
    the rule of :func:`urlsift.mail.spool.maildir_paths` (``cur`` then ``new``,
    sorted; a message in both, by its unique name, counts once; sub-directories
    skipped). The size is the link's target's, 0 when it cannot be told."""
    from ..mail.spool import maildir_paths

    out = []
    for p in maildir_paths(path):
        try:
            size = os.stat(p).st_size
        except OSError:
            size = 0
        out.append((os.path.relpath(p, path), size))
    return out


def scan_maildir(spec: Spec, entries: Sequence[str], opts: Options) -> tuple[Any, Summary]:
    """The URLs of a group of a Maildir's message files (``entries``, relative to it),
    read where the Maildir is (``spec.path``) and named as it was given (``spec.name``).
    A Maildir the worker cannot see fails the run, naming it."""
    from ..mail import iter_spool_urls, walk
    from ..mail.message import message_matches, options
    from ..mail.spool import read_message_file
    from ..text.bom import without_bom

    if not os.path.isdir(spec.path):
        raise FileNotFoundError(2, "No such directory on the worker", spec.name)
    reports, report = _reporter(opts)
    files = ((os.path.join(spec.name, e), read_message_file(os.path.join(spec.path, e)))
             for e in entries)
    found: list[Any] = []         # (match, line in its message file), as the command's -n
    if opts.refang:               # read by email: a URL's line is its message's first
        found.extend((m, 1) for m in iter_spool_urls(
            ((shown, None, without_bom(data) if isinstance(data, bytes) else data)
             for shown, data in files),
            schemes=opts.schemes, valid=opts.valid, refang=True, on_error=report))
    else:
        mopts = options(opts.schemes, opts.valid, False)
        for shown, data in files:
            if isinstance(data, Exception):
                found.extend((m, None) for m in message_matches(shown, None, data, mopts,
                                                                 report))
            else:
                found.extend(numbered(walk.message_urls_fast(data, shown, mopts, report),
                                           data, 0, 1))
    return _mail_frame(found, opts), Summary(-1, -1, -1, tuple(reports))
