"""What a partition of :func:`urlsift.dask.extract` reads and tells: the input as the
workers see it (:class:`Spec`, :class:`Looked`), the summary a partition hands to the
fold (:class:`Summary`), and a reader that stops at the size an input had when it was
looked at (:class:`Bounded`).

>>> import io
>>> Bounded(io.BytesIO(b"abcdef"), 4, "f").read()
b'abcd'
"""
from __future__ import annotations

import io
from typing import Any, NamedTuple, Optional

__all__ = ["Spec", "Looked", "Summary", "EMPTY", "Bounded", "shrunk"]


class Spec(NamedTuple):
    """One input as the partitions read it."""

    fs: Any
    path: str            # what ``fs`` opens (absolute for a local file)
    name: str            # what the ``file`` column says (the path as given)
    size: int            # when it was looked at: nothing is read past it
    kind: str            # text, mbox, maildir
    compression: Optional[str]
    blocksize: Optional[int]


class Looked(NamedTuple):
    """What :func:`look` found: ``kind`` (text, mbox, maildir), the compression by its
    magic octets (by its name when the kind was given and the file not opened),
    ``size``, and for a Maildir its message files ``((relative path, size), ...)``."""

    kind: str
    compression: Optional[str]
    size: int
    entries: tuple = ()


class Summary(NamedTuple):
    """What a partition tells the fold: the newlines of its block, the start and end of
    its last match (-1: none; before filtering), and the lines it reported."""

    newlines: int
    last_start: int
    last_end: int
    reports: tuple = ()


EMPTY = Summary(0, -1, -1)


class Bounded(io.RawIOBase):
    """The first ``size`` octets of the open file ``f`` (its size when it was looked
    at): a file that grows is read as it was; one that shrank raises ``OSError``
    naming it."""

    def __init__(self, f: Any, size: int, name: str) -> None:
        self._f, self._left, self._size, self._name = f, size, size, name

    def readable(self) -> bool:
        return True

    def seek_start(self) -> None:
        self._f.seek(0)
        self._left = self._size

    def readinto(self, b: Any) -> int:
        want = min(len(b), self._left)
        if want <= 0:
            return 0
        data = self._f.read(want)
        if not data:
            raise shrunk(self._name, self._size)
        b[:len(data)] = data
        self._left -= len(data)
        return len(data)


def shrunk(name: str, size: int) -> OSError:
    """The error of a file found shorter than when it was looked at."""
    return OSError(5, f"shorter than the {size} octets it had when urlsift.dask.extract "
                      f"looked at it", name)
