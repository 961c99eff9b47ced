"""Pure-Python twin of ``urlsift._pipe_c``: the same pieces, scanned one by one in ``take()``.

The compiled ``Pipeline`` scans on worker threads without the GIL; here the walk holds
the GIL anyway, so threads would only add switching. ``workers`` is accepted and has
no effect; what ``take()`` returns is the same.
"""
from __future__ import annotations

from array import array
from typing import Any, Optional

from . import _scan_py as _scan

__all__ = ["Pipeline"]


class Pipeline:
    """``Pipeline(buf, block, window, table, known, max_wrapper, max_length, workers,
    depth=0, octets=None)``: the pieces of ``buf`` (``octets`` as ``scan`` takes it);
    ``take()`` the next one, or None after the last.

    >>> from urlsift.text.rules import TABLE, KNOWN
    >>> p = Pipeline(b"a http://x.example/ b\\n" * 3, 8, 64, TABLE, KNOWN, 8192, 65536, 1)
    >>> [(list(t), a, b) for t, a, b in iter(p.take, None)]
    [([2, 19, 0], 0, 22), ([24, 41, 0], 22, 44), ([46, 63, 0], 44, 66)]
    >>> p.close()
    """

    def __init__(self, buf: Any, block: int, window: int, table: bytes, known: bytes,
                 max_wrapper: int, max_length: int, workers: int, depth: int = 0,
                 octets: Optional[bytes] = None) -> None:
        if not isinstance(table, bytes) or len(table) != 256:
            raise ValueError("the policy table must have 256 entries")
        if block < 1 or window < 1 or workers < 1:
            raise ValueError("block, window and workers must be positive")
        _scan.check_known(known)
        _scan.check_octets(octets)
        with memoryview(buf) as view:
            self._n = view.nbytes
        self._buf: Any = buf      # as given: the twin scanner reads an mmap without a copy
        self._block, self._window = block, window
        self._args = (table, known, max_wrapper, max_length, octets)
        self._cursor = 0

    def _cut(self, a: int) -> int:
        """Where the piece starting at ``a`` ends: the first split point at or after
        ``a + block``, looked for a window at a time; the end of the buffer if none."""
        pos = a + self._block
        while pos < self._n:
            r = _scan.next_boundary(self._buf, pos, min(pos + self._window, self._n), self._args[0])
            if r >= 0:
                return r
            pos += self._window
        return self._n

    def take(self) -> Optional[tuple["array[int]", int, int]]:
        """The next piece as ``(array('q') of triples, start, stop)``, or None at the end."""
        if self._buf is None or self._cursor >= self._n:
            return None
        a = self._cursor
        b = self._cursor = self._cut(a)
        return _scan.scan(self._buf, a, b, *self._args), a, b

    def close(self) -> None:
        """Let go of the buffer. Idempotent."""
        self._buf = None
