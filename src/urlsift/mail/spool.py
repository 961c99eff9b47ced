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
from typing import IO, Any, Iterator, Optional

__all__ = ["Message", "mbox_messages", "maildir_messages"]

#: ``(source, offset, data_or_error)``: one message of a spool.
Message = tuple[str, Optional[int], Any]


def mbox_messages(stream: IO[bytes], name: str) -> Iterator[Message]:
    """The messages of an mbox read from ``stream`` (named ``name`` in the results)."""
    # Like mailbox.mbox, every line starting with "From " begins a message; read as a
    # stream so that compressed spools and stdin work and memory holds one message.
    lines: list[bytes] = []
    start: Optional[int] = None
    pos = 0
    for line in stream:
        if line.startswith(b"From "):
            if start is not None or lines:
                yield name, start, b"".join(lines)
            lines = []
            start = pos
        else:
            lines.append(line)
        pos += len(line)
    if start is not None or any(line.strip() for line in lines):
        yield name, start, b"".join(lines)


def maildir_messages(name: str) -> Iterator[Message]:
    """The messages of a Maildir in the order of their paths under it (``cur/...``
    before ``new/...``): the files of ``cur`` and ``new``, as ``mailbox.Maildir`` lists
    them (a sub-directory is skipped; a message in both, by its unique name before the
    info suffix, counts once, from ``cur``)."""
    seen: set[str] = set()
    subpaths = []
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
            subpaths.append(os.path.join(sub, entry))
    for sub in subpaths:
        path = os.path.join(name, sub)
        try:
            with open(path, "rb") as f:
                yield path, None, f.read()
        except OSError as exc:
            yield path, None, exc
