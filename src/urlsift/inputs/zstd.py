"""zstd-compressed input (``zstandard``, optional), read as gzip, bz2 and xz are read:
a stream cut inside a frame is an ``EOFError``, after the text before the cut.

zstandard's stream reader ends a cut frame silently, so the compressed octets it reads
are followed frame by frame (RFC 8878 §3.1: frame and block headers only, the blocks
are skipped, skippable frames too) and the end of the decompressed text is an
``EOFError`` when the input ended anywhere but between frames. The error comes at that
end, once the text the frames gave has been read: a reader asking for a large block
gets the text up to the cut first (zstandard's reader would drop what it had made
when its source raised). The decompressor's output stays bounded by the stream reader
(no ``decompressobj``, which returns a whole block's output at once).
"""
from __future__ import annotations

import io
from typing import IO, Any, Optional, cast

from .checked import MissingDependency

__all__ = ["READ_SIZE", "zstd_reader"]

#: Buffer of a zstd stream reader (the other formats buffer on their own).
READ_SIZE = 4 << 20
CUT = "Compressed file ended before the end of a zstd frame was reached"


def zstd_reader(raw: IO[bytes]) -> IO[bytes]:
    """``raw`` decompressed; :class:`~urlsift.inputs.checked.MissingDependency` when
    ``zstandard`` is not installed."""
    try:
        import zstandard
    except ImportError:
        raise MissingDependency(
            "zstd-compressed input needs the 'zstandard' package "
            "(pip install 'urlsift[zstd]')") from None
    frames = _Frames(raw)
    reader = zstandard.ZstdDecompressor().stream_reader(cast(IO[bytes], frames),
                                                        read_across_frames=True)
    return cast(IO[bytes], _EndChecked(reader, frames))


class _EndChecked(io.BufferedReader):
    """The stream reader, buffered; its end raises EOFError when the frames were cut."""

    def __init__(self, reader: Any, frames: _Frames) -> None:
        super().__init__(reader, READ_SIZE)
        self._frames = frames

    def _end(self, data: bytes) -> bytes:
        if not data:
            self._frames.check_end()
        return data

    def read(self, size: Optional[int] = -1) -> bytes:
        return self._end(super().read(size)) if size != 0 else b""

    def read1(self, size: int = -1) -> bytes:
        return self._end(super().read1(size)) if size != 0 else b""

    def readline(self, size: Optional[int] = -1) -> bytes:
        return self._end(super().readline(size)) if size != 0 else b""

    def peek(self, size: int = 0) -> bytes:
        return self._end(super().peek(size))

    def readinto(self, b: Any) -> int:
        n = super().readinto(b)
        if not n and len(memoryview(b)):
            self._frames.check_end()
        return n

    def __next__(self) -> bytes:
        line = self.readline()
        if not line:
            raise StopIteration
        return line


class _Frames:
    """``raw`` as zstandard's stream reader reads it, following the frames it holds;
    :meth:`check_end` raises EOFError when the input ended inside one."""

    _MAGIC = 0xFD2FB528
    _NEED = {"magic": 4, "descriptor": 1, "block": 3, "skippable": 4}

    def __init__(self, raw: IO[bytes]) -> None:
        self._raw = raw
        self._state = "magic"
        self._head = b""        # the bytes of the header being read
        self._skip = 0          # bytes to pass over (a header's rest, a block, a checksum)
        self._checksum = False
        self._ended = False

    def read(self, size: int = -1) -> bytes:
        data = self._raw.read(size)
        if data:
            self._feed(data)
        else:
            self._ended = True
        return data

    def check_end(self) -> None:
        """Raise EOFError when the input has ended inside a frame."""
        if self._ended and (self._state != "magic" or self._head or self._skip):
            raise EOFError(CUT)

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
