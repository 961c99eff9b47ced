"""URLs of a binary stream scanned block by block, with reply quotes removed and/or
defanging undone first (``urlsift extract --quoted`` / ``--refang``).

Blocks end at a line end, and before a ``<`` wrapper still open near the end, so a
wrapped URL spread over lines stays whole; offsets count from the stream's start.
(A stream scanned without rewriting goes through :func:`urlsift.text.extract_file`'s
own streaming mode instead.)

>>> import io
>>> [(f.url, f.start, f.line) for f in iter_stream_matches(io.BytesIO(b"a\\nhxxp://x[.]example/ b"),
...                                                        refang=True, line_numbers=True)]
[('http://x.example/', 2, 2)]
"""
from __future__ import annotations

from typing import IO, Any, Callable, Iterable, Iterator, NamedTuple, Optional, Union

from .edits import unquote_replies
from .rewrite import extract_rewritten

__all__ = ["Found", "iter_stream_matches", "text_of"]

#: Block size of the stream scanner: big enough that the per-call overhead vanishes.
CHUNK = 4 << 20
#: How far back from a block's end an unclosed ``<`` wrapper may start and still be
#: carried whole into the next block.
WRAPPER_REACH = 8192
#: A line longer than this many blocks is cut anyway (bounded memory beats one URL).
LONG_LINE = 16


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
    match: Any  # the urlsift.Match (offsets relative to its block)


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
                        progress: Optional[Callable[[int], None]] = None,
                        log_escapes: bool = False) -> Iterator[Found]:
    """Scan a binary stream block by block; offsets count from the stream's start.

    ``refang`` undoes defanging (:mod:`urlsift.text.refang`), ``quoted`` removes reply-quote
    prefixes first (``> ``), ``log_escapes`` reads ``\\xHH`` (:mod:`.logescapes`), all
    keeping offsets in the original stream (an escape never spans a line, and blocks end
    at line ends).
    ``progress(n)`` is called with the number of bytes consumed after each block.
    """
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
                                                         schemes=schemes, valid=valid,
                                                         log_escapes=log_escapes):
            if line_numbers:
                line += part.count(b"\n", prev, start)
                prev = start
            yield Found(text_of(m.url), base + start, base + end,
                        line if line_numbers else None, refanged, m)
        if line_numbers:
            line += part.count(b"\n", prev)
        base += len(part)
        if progress is not None:
            progress(len(data))
        if final and not carry:
            break


def text_of(url: Union[str, bytes]) -> str:
    return url if isinstance(url, str) else url.decode("utf-8", "surrogateescape")
