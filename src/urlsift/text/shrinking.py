"""A regular file read as a stream to its end must have given as much as it held when
the reading began; when it gave less, it shrank meanwhile (truncated, ``copytruncate``)
and what was read is not the whole input: :class:`FileShrankError`, never a quiet end.

The text reader checks this in its own block loop (``text.files``); a spool is read by
the mail layer through whatever stream it is handed, so the inputs layer hands it a
:class:`ReadWatch`.

>>> import io
>>> regular_size(io.BytesIO(b"abc")) is None      # not a file: nothing to compare
True
"""
from __future__ import annotations

import io
import os
import stat
from typing import IO, Any, Optional

from .mapping import FileShrankError, Watch

__all__ = ["FileShrankError", "ReadWatch", "regular_size"]


def regular_size(f: IO[bytes]) -> Optional[int]:
    """The size of the regular file ``f`` reads as it is; None for anything else — a
    pipe, a BytesIO, or a decompressing reader (GzipFile, BZ2File...), whose
    ``fileno()`` is the compressed file's: its size says nothing of what is read."""
    if not isinstance(f, (io.BufferedReader, io.FileIO)):
        return None
    try:
        st = os.fstat(f.fileno())
    except (OSError, ValueError, AttributeError):   # no descriptor: a BytesIO, a wrapper
        return None
    return st.st_size if stat.S_ISREG(st.st_mode) else None


class ReadWatch:
    """``stream`` read through (``read``, ``readline``): the read that finds its end
    before the size its file had when this began raises :class:`FileShrankError`.

    Raised at that read, not later: what the reader holds then is the start of a piece
    the cut went through (a message whose end is gone), never given as if it were whole;
    what it gave before was read before the cut.
    """

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.size = regular_size(stream)
        self.at = 0
        if self.size is not None:
            try:
                self.at = stream.tell()
            except (OSError, ValueError):
                self.size = None

    def _got(self, data: bytes, n: int) -> bytes:
        """What a read of at most ``n`` octets gave, counted; nothing: the end."""
        if data:
            self.at += len(data)
        elif n != 0 and self.size is not None and self.at < self.size:
            raise Watch.shrank(self.stream, self.size, regular_size(self.stream) or self.at)
        return data

    def read(self, n: int = -1) -> bytes:
        return self._got(self.stream.read(n), n)

    def readline(self, n: int = -1) -> bytes:
        return self._got(self.stream.readline(n), n)

    def __getattr__(self, name: str) -> Any:    # name, fileno, close...: the stream's
        return getattr(self.stream, name)
