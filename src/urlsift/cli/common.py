"""What every subcommand shares: one-line errors, the errors of reading an input, the
errors of writing the output, batching.

>>> list(batches(range(5), 2))
[[0, 1], [2, 3], [4]]
"""
from __future__ import annotations

import lzma
import os
import sys
import zlib
from itertools import islice
from typing import Any, Callable, Iterable, Iterator, Optional

from ..inputs import MissingDependency

__all__ = ["BATCH", "OutputError", "batches", "error", "read_errors", "reason", "write_or_fail"]

#: Records handed to a writer per call.
BATCH = 8192
#: What reading a damaged or unreadable input raises (besides OSError).
READ_ERRORS: tuple = (OSError, EOFError, lzma.LZMAError, zlib.error)


def read_errors() -> tuple:
    """READ_ERRORS, and zstandard's error when it is installed."""
    try:
        import zstandard
    except ImportError:
        return READ_ERRORS
    return READ_ERRORS + (zstandard.ZstdError,)


def error(message: str) -> None:
    """One line on stderr, prefixed with the program name."""
    sys.stderr.write(f"urlsift: {message}\n")
    sys.stderr.flush()


def reason(exc: BaseException) -> str:
    """The reason an OSError gives (``strerror``, or its errno's: pyarrow raises OSErrors
    with only a number and its own text), else the exception's text."""
    if isinstance(exc, OSError) and not isinstance(exc, MissingDependency):
        if exc.strerror:
            return exc.strerror
        if exc.errno:
            return os.strerror(exc.errno)
    return str(exc) or type(exc).__name__


def batches(items: Iterable[Any], size: int = BATCH) -> Iterator[list]:
    """Lists of up to ``size`` items of ``items``, in order. An error raised by ``items``
    comes after the batch of the items before it (a compressed input cut short: its
    URLs are written, then the error is reported): ``list.extend`` keeps what it took.
    """
    it = iter(items)
    while True:
        batch: list = []
        try:
            batch.extend(islice(it, size))
        except Exception:
            if batch:
                yield batch
            raise
        if not batch:
            return
        yield batch


class OutputError(Exception):
    """Writing the output failed (not a reading error: the run cannot go on)."""


def write_or_fail(write: Callable[[Any], object], data: Any, output: Optional[str]) -> None:
    """``write(data)``; a failing output (not a closed pipe) ends the run as an OutputError."""
    try:
        write(data)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write '{output or '<stdout>'}': {reason(exc)}") from None
