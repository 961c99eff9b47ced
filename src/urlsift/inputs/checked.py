"""A compressed input that is cut short or damaged is one clear error: what (the
format, cut or damaged, the decompressor's reason) and where (octets of the file read,
octets of text given), never a bare ``EOFError`` or ``zlib.error`` from deep inside
a decompressor.

:class:`Checked` wraps the decompressing reader of :func:`urlsift.inputs.open_input`;
every read goes through it, so the command and the API report the same error.

>>> import gzip, io
>>> cut = gzip.compress(b"see http://a.example/ " * 1000)[:-20]
>>> raw = Tally(io.BytesIO(cut))
>>> stream = Checked(gzip.GzipFile(fileobj=raw), "gzip", "a.log.gz", raw)
>>> try:
...     while stream.read(4096):
...         pass
... except DamagedInputError as exc:
...     print(exc.strerror)
gzip data cut short: the file ends at octet 94 inside the compressed data, after 17825 octets of text
"""
from __future__ import annotations

import errno
import lzma
import zlib
from typing import IO, Any, Optional

__all__ = ["Checked", "DamagedInputError", "MissingDependency", "Tally", "TruncatedInputError",
           "decompression_errors"]


class MissingDependency(OSError):
    """An optional package needed for this input or output is not installed."""


class DamagedInputError(OSError):
    """A compressed input that cannot be decompressed: ``strerror`` says what and where,
    ``filename`` names the input; ``compression`` (``"gzip"``, ``"bz2"``, ``"xz"``,
    ``"zstd"``), ``file_offset`` (octets of the file read when it failed) and
    ``text_offset`` (octets of decompressed text given before it) are attributes."""

    compression: str = ""
    file_offset: Optional[int] = None
    text_offset: int = 0


class TruncatedInputError(DamagedInputError, EOFError):
    """The compressed data ends before its end-of-stream marker (a file cut short, a
    download stopped): also an ``EOFError``, as the standard library's decompressors
    raise it."""


def decompression_errors() -> tuple[type[BaseException], ...]:
    """What the decompressors raise on bad data: ``EOFError`` (cut short), ``zlib.error``,
    ``lzma.LZMAError``, the ``OSError`` of gzip and bz2 without an errno (``Not a gzipped
    file``, ``Invalid data stream``), ``zstandard.ZstdError`` when it is installed."""
    found: tuple[type[BaseException], ...] = (EOFError, zlib.error, lzma.LZMAError, OSError)
    try:
        import zstandard
    except ImportError:
        return found
    return found + (zstandard.ZstdError,)


class Tally:
    """A reader that counts the octets read through it (``count``): the position in
    the compressed file, for an error message. ``peek`` takes nothing."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw
        self.count = 0

    def read(self, n: int = -1) -> bytes:
        data = self.raw.read(n)
        self.count += len(data)
        return data

    def read1(self, n: int = -1) -> bytes:
        data = self.raw.read1(n) if hasattr(self.raw, "read1") else self.raw.read(n)
        self.count += len(data)
        return data

    def readinto(self, b: Any) -> int:
        n = self.raw.readinto(b) or 0  # type: ignore[attr-defined]
        self.count += n
        return n

    def __getattr__(self, name: str) -> Any:     # peek, fileno, close, readable...
        return getattr(self.raw, name)


class Checked:
    """The decompressed stream ``stream`` of the input ``name``: reads as ``stream`` does,
    and a decompressor's error becomes :class:`TruncatedInputError` (cut short) or
    :class:`DamagedInputError` (bad data) saying what and where. An ``OSError`` with an
    errno (the disk, the network) is the file's, not the data's: it passes as it is.
    ``tally``: the reader under the decompressor, counting the file's octets."""

    def __init__(self, stream: IO[bytes], compression: str, name: str,
                 tally: Optional[Tally] = None) -> None:
        self.stream = stream
        self.compression = compression
        self.name = name
        self.tally = tally
        self.given = 0            # octets of text handed out
        self._pending: Optional[BaseException] = None   # met after text still handed out
        self._errors = decompression_errors()

    def read(self, n: Optional[int] = -1) -> bytes:
        """Up to ``n`` octets (all: ``n`` None or negative). Of a sized read, the text
        decompressed before an error is returned first and the error comes with the next
        read (a reader loops until ``b""``: it meets it); ``read()`` raises at once."""
        if self._pending is not None:
            raise self._pending
        want = -1 if n is None or n < 0 else n
        parts: list[bytes] = []
        got = 0
        while want < 0 or got < want:
            try:
                data: bytes = self.stream.read1(want - got if want >= 0 else 1 << 20)  # type: ignore[attr-defined]
            except self._errors as exc:
                error = self._damaged(exc)
                if not parts or want < 0:     # read(): "all of it" cannot be a part
                    raise error from None
                self._pending = error.with_traceback(None)
                break
            if not data:
                break
            parts.append(data)
            got += len(data)
            self.given += len(data)
        return parts[0] if len(parts) == 1 else b"".join(parts)

    def read1(self, n: int = -1) -> bytes:
        if self._pending is not None:
            raise self._pending
        try:
            data: bytes = self.stream.read1(n)  # type: ignore[attr-defined]
        except self._errors as exc:
            raise self._damaged(exc) from None
        self.given += len(data)
        return data

    def readinto(self, b: Any) -> int:
        if self._pending is not None:
            raise self._pending
        try:
            n = self.stream.readinto(b) or 0  # type: ignore[attr-defined]
        except self._errors as exc:
            raise self._damaged(exc) from None
        self.given += n
        return n

    def readline(self, limit: int = -1) -> bytes:
        if self._pending is not None:
            raise self._pending
        try:
            data: bytes = self.stream.readline(limit)
        except self._errors as exc:
            raise self._damaged(exc) from None
        self.given += len(data)
        return data

    def peek(self, n: int = 0) -> bytes:
        if self._pending is not None:
            raise self._pending
        try:
            return self.stream.peek(n)  # type: ignore[attr-defined, no-any-return]
        except self._errors as exc:
            raise self._damaged(exc) from None

    def __iter__(self) -> Checked:
        return self

    def __next__(self) -> bytes:
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    def __enter__(self) -> Checked:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        self.stream.close()

    def __getattr__(self, name: str) -> Any:     # closed, readable, fileno...
        return getattr(self.stream, name)

    def _damaged(self, exc: BaseException) -> BaseException:
        if isinstance(exc, OSError) and exc.errno is not None:
            return exc          # reading the file failed, not decompressing it
        at = self.tally.count if self.tally is not None else None
        cut = isinstance(exc, EOFError)
        if cut:
            message = (f"{self.compression} data cut short: the "
                       + (f"file ends at octet {at}" if at is not None else "input ends")
                       + f" inside the compressed data, after {self.given} octets of text")
        else:
            message = (f"{self.compression} data damaged "
                       + (f"within the first {at} octets of the file" if at is not None
                          else "") + f", after {self.given} octets of text: "
                       + (str(exc) or type(exc).__name__))
        err = (TruncatedInputError if cut else DamagedInputError)(errno.EIO, message, self.name)
        err.compression, err.file_offset, err.text_offset = self.compression, at, self.given
        return err

