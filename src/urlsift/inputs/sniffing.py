"""What an input holds, decided once, the same way for ``urlsift.extract_file`` and for
the command: text, an mbox, or a Maildir.

* A directory with ``cur/`` and ``new/`` is a Maildir; any other directory is an error.
* Otherwise the input is opened (:func:`~urlsift.inputs.opening.open_input`:
  decompressed by its magic bytes) and its first octets decide: ``From `` (after a
  UTF-8 byte-order mark, if any) is an mbox, anything else text. ``mbox=True`` or
  ``False`` decides instead, unlooked.
* An input that can be read only once — standard input, a pipe, a FIFO, process
  substitution, ``/dev/fd/N``, a caller's open file — is sniffed on the stream that is
  then read to its end (:attr:`Input.stream`); only a regular file is opened again
  where it is read (to be memory-mapped when it is plain text).

>>> import contextlib, gzip, os, tempfile
>>> with tempfile.NamedTemporaryFile("wb", suffix=".gz", delete=False) as f:
...     _ = f.write(gzip.compress(b"From a@b Mon Jan  1 00:00:00 2024\\n\\nhi\\n"))
>>> with contextlib.ExitStack() as stack:
...     [sniff_input(f.name, stack).kind, sniff_input(f.name, stack, mbox=False).kind]
['mbox', 'text']
>>> os.unlink(f.name)
"""
from __future__ import annotations

import contextlib
import os
import stat
from typing import IO, Callable, NamedTuple, Optional

from .kinds import DIRECTORY, MAILDIR, file_kind
from .opening import PathLike, input_kind, open_input, reading

__all__ = ["Input", "sniff_input", "sniff_stream"]


class Input(NamedTuple):
    """One input: its name, what it holds (:mod:`~urlsift.inputs.kinds`: ``text``, ``mbox``, ``maildir``), and for
    what can be read only once the stream opened (and decompressed) for the whole run;
    None for a regular file or a directory, which are opened where they are read."""

    name: str
    kind: str
    stream: Optional[IO[bytes]] = None


def _regular(name: str) -> bool:
    try:
        return stat.S_ISREG(os.stat(name).st_mode)
    except OSError:
        return False   # opening it says why


def _kind(mbox: Optional[bool], name: str, stream: Optional[IO[bytes]]) -> str:
    if mbox is not None:
        return file_kind(None, mbox)
    return input_kind(name, stream)


def sniff_input(path: PathLike, stack: contextlib.ExitStack, *, mbox: Optional[bool] = None,
                progress: Optional[Callable[[int], None]] = None,
                directory_hint: str = "") -> Input:
    """``path`` (``"-"``: standard input) sniffed: an :class:`Input`. A stream opened
    here stays open until ``stack`` closes; what is read of it is told to ``progress``.
    Raises ``OSError`` naming the input when it cannot be opened; a directory that is
    no Maildir (or a Maildir with ``mbox=False``) is ``IsADirectoryError``, its reason
    followed by ``directory_hint``."""
    name = os.fsdecode(path)
    kind = input_kind(name)
    if kind == MAILDIR and mbox is not False:
        return Input(name, MAILDIR)
    if kind in (DIRECTORY, MAILDIR):
        reason = "Is a directory" + (" (a Maildir, not text)" if kind == MAILDIR else "")
        raise IsADirectoryError(21, reason + directory_hint, name)
    if name != "-" and _regular(name):     # opened again where it is read
        if mbox is not None:
            return Input(name, _kind(mbox, name, None))
        with open_input(name) as sniffed:
            return Input(name, input_kind(name, sniffed))
    stream = stack.enter_context(open_input(name, progress))   # read once: sniffed here
    return Input(name, _kind(mbox, name, stream), stream)


def sniff_stream(f: IO[bytes], stack: contextlib.ExitStack, *,
                 mbox: Optional[bool] = None) -> Input:
    """A caller's open binary file sniffed as :func:`sniff_input` sniffs a path (read
    from where it stands; decompressed; left open when ``stack`` closes)."""
    name = getattr(f, "name", None)
    shown = os.fsdecode(name) if isinstance(name, (str, bytes)) else "<stream>"
    stream = stack.enter_context(reading(f, shown))
    return Input(shown, _kind(mbox, shown, stream), stream)
