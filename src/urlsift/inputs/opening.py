"""Opening an input: a path or ``"-"`` (standard input) as one binary stream,
decompressed on the fly, and telling what it holds (text, an mbox, a Maildir).

The magic bytes decide the compression (``.gz``, ``.bz2``, ``.xz``, ``.zst``), so a
rotated ``access.log.3.gz`` or a compressed stream on stdin needs no unpacking and a
misnamed file is still read right.

>>> compression_of(b"\\x1f\\x8b\\x08\\x00"), compression_of(b"GET /"), compression_of(b"", "a.xz")
('gzip', None, 'xz')
"""
from __future__ import annotations

import contextlib
import io
import os
import stat
import sys
from typing import IO, Any, Callable, Iterator, Optional, Union, cast

__all__ = ["MissingDependency", "PathLike", "compression_of", "decompressed", "input_kind", "is_plain_file",
           "open_input"]

PathLike = Union[str, "os.PathLike[str]"]

#: Magic bytes of the compressed formats read as streams.
MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bz2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
)
#: Extensions, used when a file is too short to show its magic bytes.
EXTENSIONS = {".gz": "gzip", ".bz2": "bz2", ".xz": "xz", ".zst": "zstd"}
#: Buffer of a zstd stream reader (the other formats buffer on their own).
READ_SIZE = 4 << 20

class MissingDependency(OSError):
    """An optional package needed for this input or output is not installed."""


def compression_of(head: bytes, name: str = "") -> Optional[str]:
    """The compression of a stream from its first bytes (its name when too short)."""
    for magic, kind in MAGIC:
        if head.startswith(magic):
            return kind
    if len(head) < 6:
        return EXTENSIONS.get(os.path.splitext(name)[1].lower())
    return None


def _zstd_reader(raw: IO[bytes]) -> IO[bytes]:
    try:
        import zstandard
    except ImportError:
        raise MissingDependency(
            "zstd-compressed input needs the 'zstandard' package "
            "(pip install 'urlsift[zstd]')") from None
    checked = cast(IO[bytes], _ZstdFramesChecked(raw))  # it only needs read()
    reader = zstandard.ZstdDecompressor().stream_reader(checked, read_across_frames=True)
    return io.BufferedReader(reader, READ_SIZE)  # type: ignore[arg-type]


class _ZstdFramesChecked:
    """``raw`` as zstandard's stream reader reads it, following the frames it holds
    (RFC 8878 §3.1: headers and block headers only, the blocks are skipped) so that
    the end of the input inside a frame raises EOFError, as gzip, bz2 and xz do: the
    stream reader itself ends a cut frame silently."""

    _MAGIC = 0xFD2FB528
    _NEED = {"magic": 4, "descriptor": 1, "block": 3, "skippable": 4}

    def __init__(self, raw: IO[bytes]) -> None:
        self._raw = raw
        self._state = "magic"
        self._head = b""        # the bytes of the header being read
        self._skip = 0          # bytes to pass over (a header's rest, a block, a checksum)
        self._checksum = False

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        if data:
            self._feed(data)
        elif self._state != "magic" or self._head or self._skip:
            raise EOFError("Compressed file ended before the end of a zstd frame "
                           "was reached")
        return data

    def _feed(self, data: bytes) -> None:
        i, n = 0, len(data)
        while i < n and self._state != "unknown":
            if self._skip:
                k = min(self._skip, n - i)
                self._skip -= k
                i += k
                continue
            k = min(self._NEED[self._state] - len(self._head), n - i)
            self._head += data[i:i + k]
            i += k
            if len(self._head) == self._NEED[self._state]:
                head, self._head = self._head, b""
                self._step(int.from_bytes(head, "little"))

    def _step(self, value: int) -> None:
        if self._state == "magic":
            if value == self._MAGIC:
                self._state = "descriptor"
            elif value & 0xFFFFFFF0 == 0x184D2A50:
                self._state = "skippable"
            else:
                self._state = "unknown"  # not zstd: the decompressor says so itself
        elif self._state == "skippable":
            self._skip, self._state = value, "magic"
        elif self._state == "descriptor":
            single = bool(value & 0x20)
            self._checksum = bool(value & 0x04)
            self._skip = ((0 if single else 1) + (0, 1, 2, 4)[value & 3]
                          + ((1 if single else 0), 2, 4, 8)[value >> 6])
            self._state = "block"
        else:  # a block header: last-block bit, type (raw, RLE, compressed), size
            kind, size = (value >> 1) & 3, value >> 3
            self._skip = 1 if kind == 1 else size
            if value & 1:
                self._skip += 4 if self._checksum else 0
                self._state = "magic"


class Counted:
    """A binary reader that tells ``progress(n)`` of the ``n`` octets each read took from
    ``raw``: for a compressed input, octets of the file as it lies on disk, so a bar's
    total is the file's size. ``peek`` takes nothing and tells nothing."""

    def __init__(self, raw: IO[bytes], progress: Callable[[int], None]) -> None:
        self.raw = raw
        self.progress = progress

    def read(self, n: int = -1) -> bytes:
        data = self.raw.read(n)
        if data:
            self.progress(len(data))
        return data

    def read1(self, n: int = -1) -> bytes:
        data = self.raw.read1(n) if hasattr(self.raw, "read1") else self.raw.read(n)  # type: ignore[attr-defined]
        if data:
            self.progress(len(data))
        return data

    def readinto(self, b: Any) -> int:
        n = self.raw.readinto(b) if hasattr(self.raw, "readinto") else 0  # type: ignore[attr-defined]
        if n:
            self.progress(n)
        return n or 0

    def readline(self, limit: int = -1) -> bytes:
        data = self.raw.readline(limit)
        if data:
            self.progress(len(data))
        return data

    def __getattr__(self, name: str) -> Any:      # peek, fileno, close, readable...
        return getattr(self.raw, name)


@contextlib.contextmanager
def open_input(path: PathLike,
               progress: Optional[Callable[[int], None]] = None) -> Iterator[IO[bytes]]:
    """Open ``path`` (``"-"``: standard input) as a decompressed binary stream;
    ``progress(n)`` is told of the octets read from the file itself (:class:`Counted`).

    The stream supports ``peek`` (to sniff an mbox). Raises ``OSError`` (with the
    reason) when the input cannot be read, :class:`MissingDependency` for a
    ``.zst`` file without ``zstandard``.
    """
    with contextlib.ExitStack() as stack:
        name = os.fspath(path)
        if name == "-":
            raw: IO[bytes] = sys.stdin.buffer
        else:
            if os.path.isdir(name):
                raise IsADirectoryError(21, "Is a directory", name)
            raw = stack.enter_context(open(name, "rb"))
        if progress is not None:
            raw = cast(IO[bytes], Counted(raw, progress))
        head = raw.peek(8)[:8] if hasattr(raw, "peek") else b""  # type: ignore[attr-defined]
        kind = compression_of(head, name)
        stream = stack.enter_context(decompressed(raw, kind)) if kind else raw
        yield stream


def decompressed(raw: IO[bytes], kind: Optional[str]) -> IO[bytes]:
    """``raw`` read through the decompressor of ``kind`` (:func:`compression_of`), or
    ``raw`` itself when ``kind`` is None. Close the result, then ``raw``."""
    if kind == "gzip":
        import gzip
        # typeshed declares BZ2File and LZMAFile IO[bytes] but GzipFile only a
        # BufferedIOBase; at run time it is the same binary file interface.
        return cast(IO[bytes], gzip.GzipFile(fileobj=raw, mode="rb"))
    if kind == "bz2":
        import bz2
        return bz2.BZ2File(raw)
    if kind == "xz":
        import lzma
        return lzma.LZMAFile(raw)
    if kind == "zstd":
        return _zstd_reader(raw)
    if kind is None:
        return raw
    raise ValueError(f"unknown compression: {kind!r}")


def input_kind(path: PathLike, stream: Optional[IO[bytes]] = None) -> str:
    """``"maildir"``, ``"mbox"`` (a stream starting with ``From ``) or ``"text"``.

    ``stream`` is the opened (decompressed) input, peeked at without consuming it.
    """
    name = os.fspath(path)
    if name != "-" and os.path.isdir(name):
        if os.path.isdir(os.path.join(name, "cur")) and os.path.isdir(os.path.join(name, "new")):
            return "maildir"
        return "directory"
    if stream is not None and hasattr(stream, "peek"):
        if stream.peek(5)[:5] == b"From ":  # type: ignore[attr-defined]
            return "mbox"
    return "text"


def is_plain_file(name: str) -> bool:
    """A non-empty, uncompressed regular file: one that can be memory-mapped as text."""
    try:
        st = os.stat(name)
    except OSError:
        return False  # let open_input raise the real error
    if not stat.S_ISREG(st.st_mode) or st.st_size == 0:
        return False
    with open(name, "rb") as f:
        return compression_of(f.read(8), name) is None
