"""Where text comes from: plain, compressed and standard-input streams, mail spools.

* :func:`open_input` opens a path (or ``"-"`` for standard input) as a binary stream,
  decompressing ``.gz``, ``.bz2``, ``.xz`` and ``.zst`` on the fly. The magic bytes
  decide, so a rotated ``access.log.3.gz`` or a compressed stream on stdin needs no
  unpacking and a misnamed file is still read right.
* :func:`iter_stream_matches` scans such a stream in blocks cut at line ends (never
  the whole stream in memory), with optional line numbers and refanging.
* :func:`iter_file_matches` picks the fastest way for one input: ``extract_file``'s
  memory map for a plain file, the block stream for everything else.
* :func:`input_kind` tells a text file from an mbox (starts with ``From ``) or a
  Maildir (a directory with ``cur/`` and ``new/``); :mod:`urlsift.mail` walks those.
"""
from __future__ import annotations

import contextlib
import io
import os
import stat
import sys
from itertools import islice
from operator import itemgetter
from typing import IO, Any, Callable, Iterable, Iterator, NamedTuple, Optional, Union, cast

__all__ = [
    "MissingDependency", "Found", "compression_of", "input_kind", "iter_file_matches",
    "iter_file_urls", "iter_stream_matches", "open_input",
]

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

#: Block size of the stream scanner: big enough that the per-call overhead vanishes.
CHUNK = 4 << 20
#: How far back from a block's end an unclosed ``<`` wrapper may start and still be
#: carried whole into the next block.
WRAPPER_REACH = 8192
#: A line longer than this many blocks is cut anyway (bounded memory beats one URL).
LONG_LINE = 16


class MissingDependency(OSError):
    """An optional package needed for this input or output is not installed."""


class Found(NamedTuple):
    """One URL from a file or stream, with its place.

    ``start``/``end`` are byte offsets in the (decompressed) input; ``line`` is
    1-based, or None when line numbers were not asked for.
    """

    url: str
    start: int
    end: int
    line: Optional[int]
    refanged: bool
    match: Any  # the urlsift.extract.Match (offsets relative to its block)


def compression_of(head: bytes, name: str = "") -> Optional[str]:
    """The compression of a stream from its first bytes (its name when too short).

    >>> compression_of(b"\\x1f\\x8b\\x08\\x00"), compression_of(b"GET /"), compression_of(b"", "a.xz")
    ('gzip', None, 'xz')
    """
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
    reader = zstandard.ZstdDecompressor().stream_reader(raw, read_across_frames=True)
    return io.BufferedReader(reader, CHUNK)  # type: ignore[arg-type]


@contextlib.contextmanager
def open_input(path: PathLike) -> Iterator[IO[bytes]]:
    """Open ``path`` (``"-"``: standard input) as a decompressed binary stream.

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
        head = raw.peek(8)[:8] if hasattr(raw, "peek") else b""  # type: ignore[attr-defined]
        kind = compression_of(head, name)
        if kind == "gzip":
            import gzip
            # typeshed declares BZ2File and LZMAFile IO[bytes] but GzipFile only a
            # BufferedIOBase; at run time it is the same binary file interface.
            gz = cast(IO[bytes], gzip.GzipFile(fileobj=raw, mode="rb"))
            stream: IO[bytes] = stack.enter_context(gz)
        elif kind == "bz2":
            import bz2
            stream = stack.enter_context(bz2.BZ2File(raw))
        elif kind == "xz":
            import lzma
            stream = stack.enter_context(lzma.LZMAFile(raw))
        elif kind == "zstd":
            stream = stack.enter_context(_zstd_reader(raw))
        else:
            stream = raw
        yield stream


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


def _cut(block: bytes, final: bool, limit: int, quoted: bool = False) -> int:
    """Where to end a block: after its last line break, and before an unclosed
    ``<`` wrapper near the end (so a wrapped URL spread over lines stays whole).
    0 means "no line end yet: read more" (up to ``limit`` bytes, then cut anyway)."""
    if final:
        return len(block)
    cut = block.rfind(b"\n") + 1
    if cut <= 0:
        return len(block) if len(block) >= limit else 0
    lt = block.rfind(b"<", max(0, cut - WRAPPER_REACH), cut)
    if lt >= 0 and quoted:  # a ">" that starts a quoted line does not close the wrapper
        from ._edits import unquote_replies
        closed = unquote_replies(block[lt:cut])[0].find(b">") >= 0
    else:
        closed = lt >= 0 and block.find(b">", lt, cut) >= 0
    if lt >= 0 and not closed:
        line_start = block.rfind(b"\n", 0, lt) + 1
        if line_start > 0:
            cut = line_start
    return cut


def iter_stream_matches(stream: IO[bytes], *, schemes: Optional[Iterable[str]] = None,
                        valid: Optional[str] = None, refang: bool = False,
                        quoted: bool = False, line_numbers: bool = False, chunk: int = CHUNK,
                        progress: Optional[Callable[[int], None]] = None) -> Iterator[Found]:
    """Scan a binary stream block by block; offsets count from the stream's start.

    ``refang`` undoes defanging (:mod:`urlsift.refang`), ``quoted`` removes reply-quote
    prefixes first (``> ``), both keeping offsets in the original stream.
    ``progress(n)`` is called with the number of bytes consumed after each block.
    """
    from ._edits import extract_rewritten

    schemes = tuple(schemes) if schemes is not None else None
    base = 0
    line = 1
    carry = b""
    while True:
        data = stream.read(chunk)
        final = not data
        block = carry + data if carry else data
        if not block:
            break
        cut = _cut(block, final, LONG_LINE * chunk, quoted)
        part, carry = block[:cut], block[cut:]
        if not part:
            continue
        prev = 0
        for m, start, end, refanged in extract_rewritten(part, quoted=quoted, refang=refang,
                                                         schemes=schemes, valid=valid):
            if line_numbers:
                line += part.count(b"\n", prev, start)
                prev = start
            yield Found(_text(m.url), base + start, base + end,
                        line if line_numbers else None, refanged, m)
        if line_numbers:
            line += part.count(b"\n", prev)
        base += len(part)
        if progress is not None:
            progress(len(data))
        if final and not carry:
            break


def _text(url: Union[str, bytes]) -> str:
    return url if isinstance(url, str) else url.decode("utf-8", "surrogateescape")


def iter_file_matches(path: PathLike, *, schemes: Optional[Iterable[str]] = None,
                      valid: Optional[str] = None, refang: bool = False,
                      quoted: bool = False, line_numbers: bool = False, jobs: int = 1,
                      progress: Optional[Callable[[int], None]] = None) -> Iterator[Found]:
    """The URLs of one text input (plain, compressed or ``"-"``), in order.

    A plain regular file goes through ``urlsift.extract.extract_file`` (memory map,
    ``jobs`` threads); anything else through :func:`iter_stream_matches`.
    """
    name = os.fspath(path)
    rewrite = refang or quoted
    if not rewrite and name != "-" and _is_plain_file(name):
        yield from _via_extract_file(name, schemes, valid, line_numbers, jobs, progress)
        return
    with open_input(name) as stream:
        if rewrite:  # the text is rewritten: our own block loop with its offset maps
            yield from iter_stream_matches(stream, schemes=schemes, valid=valid, refang=refang,
                                           quoted=quoted, line_numbers=line_numbers,
                                           progress=progress)
        else:       # extract_file's streaming mode (blocks cut where no URL can cross)
            yield from _via_extract_file(stream, schemes, valid, line_numbers, 1, None)


def iter_file_urls(path: PathLike, *, schemes: Optional[Iterable[str]] = None,
                   valid: Optional[str] = None, jobs: int = 1,
                   progress: Optional[Callable[[int], None]] = None) -> Iterable[str]:
    """Just the URL strings of one text input: the CLI's fast path.

    For a plain file this is ``map(itemgetter(0), extract_file(...))``: no Python code
    runs per URL (the CLI must cost little beyond ``extract_file`` itself).
    """
    name = os.fspath(path)
    from .extract import extract_file

    kwargs: dict[str, Any] = {"schemes": tuple(schemes) if schemes is not None else None,
                              "valid": valid}
    if name == "-" or not _is_plain_file(name):
        return _stream_urls(name, kwargs)
    kwargs["jobs"] = jobs
    matches = extract_file(name, **kwargs)
    if progress is None:
        return map(itemgetter(0), matches)
    return _urls_with_progress(matches, progress, os.path.getsize(name))


def _stream_urls(name: str, kwargs: dict) -> Iterator[str]:
    from .extract import extract_file

    with open_input(name) as stream:
        yield from map(itemgetter(0), extract_file(stream, **kwargs))


def _urls_with_progress(matches: Iterator[Any], progress: Callable[[int], None],
                        size: int) -> Iterator[str]:
    done = 0
    while True:
        batch = list(islice(matches, 1 << 16))
        if not batch:
            break
        end = batch[-1].end
        progress(end - done)
        done = end
        yield from map(itemgetter(0), batch)
    progress(size - done)


def _is_plain_file(name: str) -> bool:
    try:
        st = os.stat(name)
    except OSError:
        return False  # let open_input raise the real error
    if not stat.S_ISREG(st.st_mode) or st.st_size == 0:
        return False
    with open(name, "rb") as f:
        return compression_of(f.read(8), name) is None


def _via_extract_file(name: Any, schemes: Optional[Iterable[str]], valid: Optional[str],
                      line_numbers: bool, jobs: int,
                      progress: Optional[Callable[[int], None]]) -> Iterator[Found]:
    from .extract import extract_file

    matches = extract_file(name, jobs=jobs, line_numbers=line_numbers, valid=valid,
                           schemes=tuple(schemes) if schemes is not None else None)
    done = 0
    step = 1 << 16
    for i, m in enumerate(matches):
        yield Found(_text(m.url), m.start, m.end, m.line if line_numbers else None, False, m)
        if progress is not None and not i % step:
            progress(m.end - done)
            done = m.end
    if progress is not None and isinstance(name, str):
        progress(os.path.getsize(name) - done)
