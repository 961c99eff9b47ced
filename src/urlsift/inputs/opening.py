"""Opening an input: a path or ``"-"`` (standard input) as one binary stream,
decompressed on the fly, and telling what it holds (text, an mbox, a Maildir).

The magic bytes decide the compression (``.gz``, ``.bz2``, ``.xz``, ``.zst``), so a
rotated ``access.log.3.gz`` or a compressed stream on stdin needs no unpacking and a
misnamed file is still read right; the decompressed text decides mail (an mbox starts
with ``From ``, after a UTF-8 byte-order mark if there is one). Offsets into a
compressed input are offsets into its decompressed text. A compressed input cut short
or damaged is one :class:`~urlsift.inputs.checked.DamagedInputError` saying what and
where.

>>> compression_of(b"\\x1f\\x8b\\x08\\x00"), compression_of(b"GET /"), compression_of(b"", "a.xz")
('gzip', None, 'xz')
"""
from __future__ import annotations

import contextlib
import os
import stat
import sys
from typing import IO, Any, Callable, Iterator, Optional, Union, cast

from .checked import Checked, MissingDependency, Tally
from .kinds import DIRECTORY, MAILDIR, TEXT, file_kind, is_maildir
from .zstd import zstd_reader

__all__ = ["MissingDependency", "PathLike", "Peekable", "compression_of", "decompressed",
           "input_kind", "is_plain_file", "open_input", "reading"]

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
#: How much of the start of an input is looked at: magic bytes, ``From `` after a BOM.
HEAD = 8


def compression_of(head: bytes, name: str = "") -> Optional[str]:
    """The compression of a stream from its first bytes (its name when too short)."""
    for magic, kind in MAGIC:
        if head.startswith(magic):
            return kind
    if len(head) < 6:
        return EXTENSIONS.get(os.path.splitext(name)[1].lower())
    return None


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


class Peekable:
    """A binary reader without ``peek`` (``io.BytesIO``, a socket's file, a wrapper) with
    one: what is peeked is kept and read first. Closing it leaves ``raw`` open (the
    caller's)."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw
        self.head = b""

    def peek(self, n: int = 1) -> bytes:
        if len(self.head) < max(n, 1):
            more = self.raw.read(max(n, 1) - len(self.head))
            if isinstance(more, str):
                name = getattr(self.raw, "name", self.raw)
                raise TypeError(f"extract_file needs a binary file, not text: open "
                                f"{name!r} with 'rb'")
            self.head += more or b""
        return self.head

    def read(self, n: Optional[int] = -1) -> bytes:
        if not self.head:
            return self.raw.read(-1 if n is None else n)
        if n is None or n < 0:
            data, self.head = self.head + self.raw.read(), b""
        else:
            data, self.head = self.head[:n], self.head[n:]
        return data

    read1 = read

    def readinto(self, b: Any) -> int:
        view = memoryview(b).cast("B")
        data = self.read(len(view))
        view[:len(data)] = data
        return len(data)

    def readline(self, limit: int = -1) -> bytes:
        if not self.head:
            return self.raw.readline(limit)
        end = self.head.find(b"\n") + 1 or len(self.head)
        if 0 <= limit < end:
            end = limit
        data, self.head = self.head[:end], self.head[end:]
        if data.endswith(b"\n") or self.head or len(data) == limit:
            return data
        return data + self.raw.readline(-1 if limit < 0 else limit - len(data))

    def close(self) -> None:
        self.head = b""

    def __getattr__(self, name: str) -> Any:      # name, fileno, readable...
        return getattr(self.raw, name)


def _peekable(raw: IO[bytes]) -> IO[bytes]:
    return raw if hasattr(raw, "peek") else cast(IO[bytes], Peekable(raw))


@contextlib.contextmanager
def open_input(path: PathLike,
               progress: Optional[Callable[[int], None]] = None) -> Iterator[IO[bytes]]:
    """Open ``path`` (``"-"``: standard input) as a decompressed binary stream;
    ``progress(n)`` is told of the octets read from the file itself (:class:`Counted`).

    The stream supports ``peek`` (to sniff an mbox). Raises ``OSError`` (with the
    reason) when the input cannot be read, :class:`MissingDependency` for a
    ``.zst`` file without ``zstandard``; reading a compressed input cut short or
    damaged raises :class:`~urlsift.inputs.checked.DamagedInputError`.
    """
    with contextlib.ExitStack() as stack:
        name = os.fspath(path)
        if name == "-":
            raw: IO[bytes] = _peekable(sys.stdin.buffer)
        else:
            if os.path.isdir(name):
                raise IsADirectoryError(21, "Is a directory", name)
            raw = stack.enter_context(open(name, "rb"))
        if progress is not None:
            raw = cast(IO[bytes], Counted(raw, progress))
        yield stack.enter_context(reading(raw, "<stdin>" if name == "-" else name))


@contextlib.contextmanager
def reading(raw: IO[bytes], name: str) -> Iterator[IO[bytes]]:
    """The opened binary input ``raw`` decompressed when its magic bytes say so (its
    ``name`` decides for a file too short to show them), with ``peek``; a
    decompressor's error is one :class:`~urlsift.inputs.checked.DamagedInputError`
    naming ``name``. ``raw`` itself is left open."""
    raw = _peekable(raw)
    kind = compression_of(raw.peek(HEAD)[:HEAD], name)  # type: ignore[attr-defined]
    if kind is None:
        yield raw
        return
    tally = Tally(raw)
    with decompressed(cast(IO[bytes], tally), kind) as stream:
        yield cast(IO[bytes], Checked(stream, kind, name, tally))


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
        return zstd_reader(raw)
    if kind is None:
        return raw
    raise ValueError(f"unknown compression: {kind!r}")


def input_kind(path: PathLike, stream: Optional[IO[bytes]] = None) -> str:
    """``"maildir"``, ``"mbox"`` (a stream starting with ``From ``, see
    :func:`~urlsift.inputs.kinds.looks_like_mbox`) or ``"text"``; ``"directory"`` for
    any other directory (the names of :mod:`urlsift.inputs.kinds`).

    ``stream`` is the opened (decompressed) input, peeked at without consuming it.
    """
    name = os.fspath(path)
    if name != "-" and os.path.isdir(name):
        return MAILDIR if is_maildir(name) else DIRECTORY
    if stream is not None and hasattr(stream, "peek"):
        return file_kind(stream.peek(HEAD)[:HEAD])
    return TEXT


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
