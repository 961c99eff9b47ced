"""Finding URLs in running text: the rules of RFC 1738's appendix "Recommendations for
URLs in Context" and draft-ietf-uri-url-03's "Wrappers for URIs in plain text".

The walk itself is in the core (``urlsift._scan_c`` / ``urlsift._scan_py``); this module
decides the policy it follows (the character table, the schemes known without ``//``)
and turns its raw spans into :class:`Match` objects.

>>> [m.url for m in extract("Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;"
...                         "\\n type=d> and see http://example.com/a.")]
['ftp://info.cern.ch/pub/www/doc;type=d', 'http://example.com/a']

Matches from bytes carry ``url`` and ``raw`` as ``str``: what a match can contain is
printable US-ASCII by the end rules (a bare URL ends at a non-ASCII character, a
wrapper holding one is not a wrapper), so the decoding never fails.
"""
from __future__ import annotations

from array import array
from itertools import chain
from typing import Any, Iterable, Iterator, Optional

from . import charclass as cc
from ._scan_py import (HYPHEN_BREAK, PREFIX, T_ALPHA, T_BARE, T_PLAIN, T_SCHEME, T_SPACE, T_SPLIT,
                       T_TRIM, T_WRAP, TRIM_SHIFT, TRUNCATED, WHITESPACE, WRAPPED)
from ._select import cores

__all__ = [
    "Match", "scan", "extract", "extract_file", "KNOWN_WITHOUT_SLASHES", "TRIMMED", "WHITE_SPACE",
    "MAX_WRAPPER", "MAX_LENGTH", "WRAPPED", "PREFIX", "WHITESPACE", "HYPHEN_BREAK",
    "TRUNCATED", "TRIM_SHIFT", "EDIT_WRAPPER", "EDIT_PREFIX", "EDIT_WHITESPACE",
    "EDIT_TRIMMED", "EDIT_TRUNCATED",
]

# ---- policy ---------------------------------------------------------------------
#: Schemes found without ``//`` after the colon (DESIGN "Extraction from text"):
#: RFC 1738 §3.5 mailto, §3.6 news, §3.10 file; draft-www-uri-00 mid, cid, urn.
KNOWN_WITHOUT_SLASHES: tuple[str, ...] = ("mailto", "news", "mid", "cid", "urn", "file")
#: Trimmed from the end of a bare URL: sentence punctuation and quotes.
TRIMMED = ".,;:!?'\""
#: White space removed inside a wrapper (RFC 1738 appendix: "spaces, linebreaks, tabs").
WHITE_SPACE = " \t\n\r\f\v"
#: A wrapper longer than this (from ``<`` to ``>``) is not a wrapper: bounds the look-ahead.
MAX_WRAPPER = 8192
#: A bare URL longer than this after its colon is cut there (flag TRUNCATED).
MAX_LENGTH = 65536

EDIT_WRAPPER = "wrapper-removed"
EDIT_PREFIX = "prefix-removed"
EDIT_WHITESPACE = "whitespace-removed"
EDIT_TRIMMED = "punctuation-trimmed"
EDIT_TRUNCATED = "truncated"


def _policy_table() -> bytes:
    # A bare URL runs over xchar plus "#" (fragment), "~" "[" "]" (common in practice);
    # it ends at white space, controls, non-ASCII and < > " { } | \ ^ `.
    bare = cc.char_table(cc.XCHAR, "#~[]")
    trim = cc.char_table(TRIMMED)
    scheme = cc.char_table(cc.SCHEME, cc.ALPHA)    # scheme chars, matched case-insensitively
    space = cc.char_table(WHITE_SPACE)
    graphic = cc.char_table(cc.XCHAR, cc.NATIONAL, cc.PUNCTUATION)
    alpha = cc.char_table(cc.ALPHA)
    out = bytearray(256)
    for c in range(256):
        bits = 0
        if bare[c]:
            bits |= T_BARE
        if trim[c]:
            bits |= T_TRIM
        if scheme[c]:
            bits |= T_SCHEME
        if space[c]:
            bits |= T_SPACE
        if graphic[c] and chr(c) not in "<>":
            bits |= T_WRAP
        # a buffer may be cut after any character that ends a bare URL, except "<"
        # (it may open a wrapper whose scheme lies on the other side)
        if not bare[c] and c != ord("<"):
            bits |= T_SPLIT
        if alpha[c]:
            bits |= T_ALPHA
        if bare[c] and chr(c) not in "()[]":
            bits |= T_PLAIN
        out[c] = bits
    return bytes(out)


TABLE: bytes = _policy_table()
KNOWN: bytes = b"".join(s.encode("ascii") + b"\0" for s in KNOWN_WITHOUT_SLASHES)


def _edits_for(low: int, trimmed: bool) -> tuple[str, ...]:
    out = []
    if low & WRAPPED:
        out.append(EDIT_WRAPPER)
    elif low & PREFIX:
        out.append(EDIT_PREFIX)
    if low & WHITESPACE:
        out.append(EDIT_WHITESPACE)
    if trimmed:
        out.append(EDIT_TRIMMED)
    if low & TRUNCATED:
        out.append(EDIT_TRUNCATED)
    return tuple(out)


#: edits by ``(flags & 31) * 2 + trimmed``, handed to the core's ``build``.
_EDITS = tuple(_edits_for(i // 2, bool(i % 2)) for i in range(64))


# ---- Match --------------------------------------------------------------------------
class Match(tuple):
    """One URL found in text. Immutable (a tuple underneath, no per-instance dict).

    ``url`` is the URL with wrapper and white space removed and trailing punctuation
    trimmed; ``raw`` the span ``input[start:end]`` as it stands (wrapper, white space
    and trimmed punctuation included); ``edits`` names what turned ``raw`` into ``url``;
    ``line`` is the 1-based line of ``start`` when asked for (extract_file), else None.

    >>> m = next(extract("see <URL:http://a.example/x-\\n y>"))
    >>> (m.url, m.raw, m.start, m.wrapped, m.hyphen_break, m.edits)
    ('http://a.example/x-y', '<URL:http://a.example/x-\\n y>', 4, True, True, ('wrapper-removed', 'whitespace-removed'))
    """

    __slots__ = ()
    _fields = ("url", "start", "end", "raw", "wrapped", "hyphen_break", "edits", "line")

    def __new__(cls, url: str, start: int, end: int, raw: str, wrapped: bool = False,
                hyphen_break: bool = False, edits: tuple[str, ...] = (),
                line: Optional[int] = None) -> "Match":
        return tuple.__new__(cls, (url, start, end, raw, wrapped, hyphen_break, edits, line))

    url = property(lambda self: self[0], doc="The URL: wrapper, white space and trimmed punctuation removed.")
    start = property(lambda self: self[1], doc="Offset of the raw span (octets for bytes, characters for str).")
    end = property(lambda self: self[2], doc="Offset just past the raw span.")
    raw = property(lambda self: self[3], doc="The span as it stands in the input.")
    wrapped = property(lambda self: self[4], doc="Found inside <...> (RFC 1738 appendix).")
    hyphen_break = property(lambda self: self[5],
                            doc="A line break right after '-' inside the wrapper: the hyphen may not belong.")
    edits = property(lambda self: self[6], doc="What turned raw into url (stable strings).")
    line = property(lambda self: self[7], doc="1-based line number of start, or None.")

    def __repr__(self) -> str:
        return f"Match(url={self[0]!r}, start={self[1]}, end={self[2]}, raw={self[3]!r})"

    def __reduce__(self) -> Any:
        return (Match, tuple(self))

    def parse(self) -> Any:
        """The URL parsed leniently (``urlsift.parsing.parse(url, strict=False)``)."""
        from .parsing import parse
        return parse(self[0], strict=False)

    @property
    def scheme(self) -> str:
        """The scheme, lower-cased (``"http"`` for ``HTTP://x``)."""
        return self[0].partition(":")[0].lower()


#: Matches built per core call: bounds the memory of a huge input's match list.
CHUNK = 4096


def _filter(lists: Iterable[list[Match]], schemes: Optional[Iterable[str]],
            valid: Optional[str]) -> Iterator[Match]:
    """Flatten lists of matches, keeping the wanted schemes and the valid URLs."""
    if schemes is not None:
        wanted = frozenset(s.lower() for s in ([schemes] if isinstance(schemes, str) else schemes))
        lists = ([m for m in ms if m[0].partition(":")[0].lower() in wanted] for ms in lists)
    if valid is not None:
        from .parsing import is_valid
        strict = valid == "strict"
        lists = ([m for m in ms if is_valid(m[0], strict=strict)] for ms in lists)
    return chain.from_iterable(lists)


def _check_valid(valid: Optional[str]) -> None:
    if valid not in (None, "lenient", "strict"):
        raise ValueError(f"valid must be None, 'lenient' or 'strict', not {valid!r}")


def scan(buffer: Any) -> "array[int]":
    """Raw spans of every URL in ``buffer`` as flat ``(start, end, flags)`` triples.

    One call for a whole buffer (bytes, bytearray, memoryview, mmap or str), the GIL
    released during the walk. ``flags & 0xFF`` holds WRAPPED, PREFIX, WHITESPACE,
    HYPHEN_BREAK, TRUNCATED; ``flags >> TRIM_SHIFT`` the number of punctuation
    characters trimmed from the end of a bare URL, so for a flag-free-low-byte bare
    match the URL is ``buffer[start:end - (flags >> TRIM_SHIFT)]``.

    >>> list(scan(b"at http://a.example/x. ok"))
    [3, 22, 256]
    """
    return cores.scan.scan(buffer, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)


def _scan_range(buffer: Any, start: int, stop: int) -> "array[int]":
    return cores.scan.scan(buffer, start, stop, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)


def extract(text_or_bytes: Any, *, schemes: Optional[Iterable[str]] = None,
            valid: Optional[str] = None) -> Iterator[Match]:
    """Every URL in a text, in order, as :class:`Match` objects.

    ``schemes`` keeps only those schemes (case-insensitive); ``valid`` ("lenient" or
    "strict") keeps only URLs that parse in that mode (``urlsift.parsing.is_valid``).
    Offsets are characters for ``str`` and octets for bytes-like input.

    >>> [m.url for m in extract("(see http://en.wikipedia.org/wiki/Foo_(bar)) at 10:23:45")]
    ['http://en.wikipedia.org/wiki/Foo_(bar)']
    >>> [m.url for m in extract(b"mailto:a@b.example, ftp://h/f", schemes=["ftp"])]
    ['ftp://h/f']
    """
    _check_valid(valid)
    text = text_or_bytes
    if isinstance(text, memoryview):
        text = text.cast("B")                    # offsets are octets whatever the format
    from ._filescan import scan_buffer
    if isinstance(text, str):
        n = len(text)
    else:
        with memoryview(text) as view:
            n = view.nbytes
    return _filter(scan_buffer(text, n, scan=_scan_range), schemes, valid)


def extract_file(path: Any, *, jobs: int = 1, line_numbers: bool = False,
                 schemes: Optional[Iterable[str]] = None, valid: Optional[str] = None,
                 block_size: Optional[int] = None, mbox: bool = False) -> Iterator[Any]:
    """Every URL in a file, in file order, without reading the file into memory.

    A non-empty regular file is memory-mapped and cut at line boundaries into pieces
    of ``block_size`` octets; with ``jobs=N`` > 1, N - 1 threads scan them without the
    GIL while this one builds the matches (and scans too while it would wait); a pipe,
    ``"-"`` (stdin), an open binary file or an empty file is streamed in blocks. Offsets are octets from the start of the file; ``line_numbers=True`` fills
    ``Match.line``. A file that cannot be opened raises ``OSError`` naming it.

    With ``mbox=True`` the file is a mail spool (mbox, or a Maildir directory) walked
    message by message by :func:`urlsift.mail.iter_mail_urls`: text parts decoded,
    HTML links read, URL-bearing headers scanned; each match then also carries the
    message's ``message_id``, ``date`` and ``part``.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("wb", suffix=".log", delete=False) as f:
    ...     _ = f.write(b"a\\nsee <URL:http://x.example/\\n y> ok\\n")
    >>> [(m.url, m.line) for m in extract_file(f.name, line_numbers=True)]
    [('http://x.example/y', 2)]
    >>> os.unlink(f.name)
    """
    _check_valid(valid)
    if mbox:
        from .mail import iter_mail_urls
        return iter_mail_urls(path, schemes=schemes, valid=valid)
    from ._filescan import scan_file
    matches = scan_file(path, jobs=jobs, line_numbers=line_numbers, block_size=block_size)
    return _filter(matches, schemes, valid)
