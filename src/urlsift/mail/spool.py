"""The messages of a mail spool: an mbox stream cut at its ``From `` lines, or the
files of a Maildir's ``cur/`` and ``new/``.

Each message comes as ``(source, offset, data_or_error)``: the spool's name (or the
Maildir message file), the byte offset of its ``From `` line in an mbox (None in a
Maildir), and its bytes, or the ``OSError`` met reading it so a caller can report it
and go on. Opening a path (and decompressing it) is the inputs layer's work.

>>> import io
>>> [(o, d) for _, o, d in mbox_messages(io.BytesIO(b"From a\\nx\\nFrom b\\ny\\n"), "s")]
[(0, b'x\\n'), (9, b'y\\n')]
"""
from __future__ import annotations

import mailbox
import os
import stat
from typing import IO, Any, Iterator, Optional

from .._layout import FROM_LINE, MBOX_SEPARATOR
from ..text.bom import BOM, bom_length, without_bom
from ..text.mapping import Watch

__all__ = ["MESSAGE_MAX", "Message", "SpoolError", "mbox_messages", "mbox_blocks", "maildir_messages",
           "maildir_paths", "read_message_file", "BLOCK"]

#: ``(source, offset, data_or_error)``: one message of a spool.
Message = tuple[str, Optional[int], Any]

#: The most one message may hold (bytes): a larger one is reported and skipped, and
#: a "line" with no line end within this much means the input is no mbox at all.
MESSAGE_MAX = 64 << 20
#: How much of a line is read at once.
_LINE_CHUNK = 1 << 20
#: How much :func:`mbox_blocks` reads at once (its pieces are about this size).
BLOCK = 1 << 20


class SpoolError(ValueError):
    """A message that is not read (too large, not a regular file...): the reason."""


def mbox_messages(stream: IO[bytes], name: str,
                  max_size: Optional[int] = None) -> Iterator[Message]:
    """The messages of an mbox read from ``stream`` (named ``name`` in the results).

    A message of more than ``max_size`` bytes (default :data:`MESSAGE_MAX`) comes as a
    :class:`SpoolError` and the reading goes on at the next ``From`` line; a line of
    more than ``max_size`` bytes means the stream is no mbox (``/dev/zero``): a last
    :class:`SpoolError` and the rest is not read. Memory holds one message at most.
    A UTF-8 byte-order mark at the start of the stream is passed over (offsets still
    count it: the first ``From`` line is then at offset 3).
    """
    # Like mailbox.mbox, every line starting with "From " begins a message; read as a
    # stream so that compressed spools and stdin work and memory holds one message.
    limit = MESSAGE_MAX if max_size is None else max_size
    chunk = min(_LINE_CHUNK, limit + 1)
    lines: list[bytes] = []
    start: Optional[int] = None
    pos = size = run = 0         # run: bytes of the current line so far
    at_line_start = True
    in_from_line = too_large = False
    while True:
        line = stream.readline(chunk)  # a piece of a line when the line is longer
        if not line:
            break
        if pos == 0 and line.startswith(BOM):   # a BOM, not the spool's first octets
            line = line[len(BOM):] or stream.readline(chunk)
            pos = len(BOM)
            if not line:
                break
        run = len(line) if at_line_start else run + len(line)
        if run > limit:
            yield name, start, SpoolError(
                f"no line end within {_size(limit)} at offset {pos + len(line) - run}: "
                f"not an mbox, the rest of it is not read")
            return
        if at_line_start and line.startswith(FROM_LINE):
            if not too_large and (start is not None or lines):
                yield name, start, b"".join(lines)
            lines = []
            start = pos
            size = 0
            in_from_line = True
            too_large = False
        elif in_from_line or too_large:
            pass  # the rest of a long From line; a message past the limit
        elif size + len(line) > limit:
            yield name, start, SpoolError(f"message larger than {_size(limit)}")
            lines = []
            too_large = True
        else:
            lines.append(line)
            size += len(line)
        pos += len(line)
        at_line_start = line.endswith(b"\n")
        if at_line_start:
            in_from_line = False
    if not too_large and (start is not None or any(line.strip() for line in lines)):
        yield name, start, b"".join(lines)


def mbox_blocks(stream: IO[bytes], max_size: Optional[int] = None,
                block: int = BLOCK) -> Iterator[tuple[Optional[int], Any]]:
    """The bytes of an mbox in pieces of whole messages: ``(offset, data)``, each piece
    cut just before a ``From `` line (so it holds whole messages), ``offset`` where it
    starts in the stream. A message too large to hold (more than ``max_size``, default
    :data:`MESSAGE_MAX`) comes as ``(its offset or None, SpoolError)`` and is passed
    over, read but not kept; a line longer than that means the stream is no mbox
    (``/dev/zero``): a last ``SpoolError`` and the rest is not read. Memory holds a
    block and one message at most. The messages inside a piece are cut by the walker
    (:mod:`urlsift.mail.walk`), which also reports a message that is too large there.
    A UTF-8 byte-order mark at the start of the stream is passed over, the offsets
    counting it (the first piece then starts at 3).

    >>> import io
    >>> list(mbox_blocks(io.BytesIO(b"From a\\nx\\nFrom b\\ny\\n"), block=4))
    [(0, b'From a\\nx\\n'), (9, b'From b\\ny\\n')]
    """
    limit = MESSAGE_MAX if max_size is None else max_size
    buf = bytearray()   # the start of a message not yet whole
    clean = 0           # buf[:clean] holds no "\nFrom " (the search starts near there)
    first: Optional[bytes] = stream.read(block)
    base = bom_length(first or b"")     # a BOM is no part of the first message
    if base:
        first = (first or b"")[base:] or stream.read(block)
    while True:
        data, first = (first if first is not None else stream.read(block)), None
        k = data.rfind(MBOX_SEPARATOR)
        if k >= 0:              # the common case: one copy of the block, into the piece
            piece = b"".join((buf, memoryview(data)[:k + 1]))
            buf = bytearray(memoryview(data)[k + 1:])
            clean = len(buf)
            yield base, piece
            base += len(piece)
            continue
        if data:
            buf += data
            # one across the seam, say
            k = buf.rfind(MBOX_SEPARATOR, max(clean - len(MBOX_SEPARATOR) + 1, 0))
            if k < 0:
                clean = len(buf)
                if _too_large(buf, limit):        # one message, and it is too large
                    start = base if buf.startswith(FROM_LINE) else None
                    errors, skipped = _pass_over(stream, buf, start, base, limit, block)
                    for error in errors:
                        yield start, error
                    if skipped < 0:
                        return                    # no mbox: the rest is not read
                    base += skipped
                    clean = 0                     # what follows the message: not searched
                continue
            cut = k + 1
        else:
            cut = len(buf)
        if cut:
            yield base, bytes(buf[:cut])
            del buf[:cut]
            base += cut
            clean = len(buf)
        if not data:
            return


def _too_large(buf: bytearray, limit: int) -> bool:
    """``buf`` holds one message (from its ``From`` line, if any) and it is known to be
    too large: its data (the ``From`` line does not count, as in :func:`mbox_messages`)
    is over ``limit``, or a line is (no line end yet after ``limit`` octets)."""
    start = 0
    if buf.startswith(FROM_LINE):
        nl = buf.find(b"\n")
        if nl < 0:
            return len(buf) > limit           # a From line with no end in sight
        start = nl + 1
    end = len(buf)
    last = buf.rfind(b"\n", start) + 1
    if last and end - last < len(FROM_LINE) and FROM_LINE.startswith(buf[last:]):
        end = last                            # perhaps the next message's From line
    return end - start > limit


def _pass_over(stream: IO[bytes], buf: bytearray, start: Optional[int], base: int,
               limit: int, block: int) -> tuple[list[SpoolError], int]:
    """Read past the message too large that ``buf`` (at ``base``) begins, up to the next
    ``From`` line, which is left at the start of ``buf``: the errors to report (as
    :func:`mbox_messages` reports them, in the order it would) and how many octets were
    passed over, or -1 when a line longer than ``limit`` was met (the stream is no
    mbox: the rest is not read)."""
    pos = base          # offset of buf[0]
    line_at = base      # offset where the current line starts
    data_at = None      # where the message's data starts (after its From line)
    if start is None:
        data_at = base
    i = 0
    larger = SpoolError(f"message larger than {_size(limit)}")
    while True:
        k = buf.find(b"\n", i)
        if k < 0:
            if pos + len(buf) - line_at > limit:
                break                                   # a line with no end in sight
            del buf[:i]
            pos += i
            i = 0
            data = stream.read(block)
            if not data:
                skipped = pos + len(buf) - base
                del buf[:]
                return [larger], skipped
            buf += data
            continue
        if pos + k + 1 - line_at > limit:
            break
        line_at = pos + k + 1
        if data_at is None:
            data_at = line_at                           # past the From line
        i = k + 1
        while len(buf) - i < len(FROM_LINE):         # enough to see "From "
            data = stream.read(block)
            if not data:
                break
            buf += data
        if buf.startswith(FROM_LINE, i):
            del buf[:i]
            return [larger], pos + i - base
    errors = [larger] if data_at is not None and line_at - data_at > limit else []
    return errors + [SpoolError(f"no line end within {_size(limit)} at offset {line_at}: "
                                f"not an mbox, the rest of it is not read")], -1


def _size(n: int) -> str:
    """``n`` bytes for a message: in MiB when whole, else in bytes."""
    return f"{n >> 20} MiB" if n and not n % (1 << 20) else f"{n} bytes"


def maildir_messages(name: str) -> Iterator[Message]:
    """The messages of a Maildir in the order of their paths under it (``cur/...``
    before ``new/...``): the files of ``cur`` and ``new``, as ``mailbox.Maildir`` lists
    them (a sub-directory is skipped; a message in both, by its unique name before the
    info suffix, counts once, from ``cur``). A UTF-8 byte-order mark before a
    message's headers is left out."""
    for path in maildir_paths(name):
        data = read_message_file(path)
        yield path, None, without_bom(data) if isinstance(data, bytes) else data


def maildir_paths(name: str) -> list[str]:
    """The message files of the Maildir ``name``, in the order :func:`maildir_messages`
    reads them (``mailbox.NoSuchMailboxError`` when it has no ``cur`` or ``new``)."""
    seen: set[str] = set()
    paths = []
    for sub in ("cur", "new"):
        try:
            entries = sorted(os.listdir(os.path.join(name, sub)))
        except FileNotFoundError:
            raise mailbox.NoSuchMailboxError(name) from None
        for entry in entries:
            uniq = entry.split(":")[0]
            if uniq in seen or os.path.isdir(os.path.join(name, sub, entry)):
                continue
            seen.add(uniq)
            paths.append(os.path.join(name, sub, entry))
    return paths


def read_message_file(path: str) -> Any:
    """The bytes of one Maildir message file, or the error met reading it (an
    ``OSError``, or a :class:`SpoolError` for what is not read: see
    :func:`_read_message_file`); it never raises."""
    try:
        return _read_message_file(path, MESSAGE_MAX)
    except OSError as exc:
        return exc


def _read_message_file(path: str, limit: int) -> Any:
    """The bytes of one Maildir file, or a :class:`SpoolError` saying why not: only a
    regular file (after symlinks) of at most ``limit`` bytes is read. It is opened
    non-blocking, so a FIFO does not hang the open, and checked on the open file."""
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    with os.fdopen(fd, "rb") as f:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return SpoolError("not a regular file")
        if st.st_size > limit:
            return SpoolError(f"message larger than {_size(limit)}")
        data = f.read(limit + 1)   # the file may have grown since fstat
        if len(data) > limit:
            return SpoolError(f"message larger than {_size(limit)}")
        if len(data) < st.st_size:  # truncated since fstat: said, as a text input's is
            raise Watch.shrank(f, st.st_size, len(data))
        return data
