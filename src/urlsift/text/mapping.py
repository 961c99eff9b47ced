"""A file read through a memory map, watched for what another process does to it.

A file that shrinks under its mapping (logrotate's ``copytruncate`` on a live log)
makes each read past its new end raise SIGBUS, which kills the interpreter. The
scanner survives it in two ways:

* before each piece is touched, the file's size is checked (``fstat``): a smaller file
  ends the read with :class:`FileShrankError`;
* the compiled core's ``_guard`` maps zeros over a page that faults while the scan of a
  piece is under way (on any thread), and counts it; the piece is then cut at the new
  size and the same error follows.

The pure-Python core cannot catch SIGBUS at all, so with it files are read in blocks,
never mapped (``_guard_py.GUARDS``): a file that shrinks then just ends early.

Either way every match that lies wholly before the new end is kept, and the error says
what happened in one line. A file rewritten in place without shrinking is caught where
it breaks a rule: a match whose octets are no longer ASCII (``_build``).
"""
from __future__ import annotations

import errno
import os
from array import array
from typing import Any

from .._select import cores

__all__ = ["FileShrankError", "Watch"]


class FileShrankError(OSError):
    """The file got shorter while it was read (truncated, or replaced in place)."""


class Watch:
    """The mapping ``mm`` of the open file ``f`` (``n`` octets when it was mapped)."""

    def __init__(self, f: Any, mm: Any, n: int) -> None:
        self.f, self.n = f, n
        self.guard = cores.guard
        self.token = self.guard.watch(mm)

    def _size(self) -> int:
        try:
            return os.fstat(self.f.fileno()).st_size
        except (OSError, ValueError):
            return self.n

    @staticmethod
    def shrank(f: Any, was: int, now: int) -> FileShrankError:
        """The error for the file ``f`` that had ``was`` octets and has ``now``."""
        return FileShrankError(errno.EIO, f"file shrank while being read ({was} bytes when "
                                          f"opened, {now} now)", getattr(f, "name", ""))

    def error(self, now: int) -> FileShrankError:
        return self.shrank(self.f, self.n, now)

    def check(self) -> None:
        """Before a piece is touched: the file is still as large as its mapping."""
        now = self._size()
        if now < self.n or self.guard.faults(self.token):
            raise self.error(now)

    def cut(self, arr: "array[int]", start: int) -> tuple["array[int]", bool]:
        """After the scan of a piece starting at ``start``: ``(arr, False)`` when the file
        is whole, else the triples that end before the file's new end, and True."""
        now = self._size()
        if now >= self.n and not self.guard.faults(self.token):
            return arr, False
        limit = min(now, self.n) if now < self.n else start   # zeros read: keep none
        k = 0
        while 3 * k < len(arr) and arr[3 * k + 1] <= limit:
            k += 1
        return arr[:3 * k], True

    def close(self) -> None:
        self.guard.unwatch(self.token)
