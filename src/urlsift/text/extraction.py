"""Finding URLs in running text: the rules of RFC 1738's appendix "Recommendations for
URLs in Context" and draft-ietf-uri-url-03's "Wrappers for URIs in plain text".

The walk itself is in the core (``urlsift._scan_c`` / ``urlsift._scan_py``), the policy
it follows in :mod:`urlsift.text.rules`; this module runs it over a text or a file
(:mod:`urlsift.text.files` cuts files into pieces) and filters the matches.

>>> [m.url for m in extract("Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;"
...                         "\\n type=d> and see http://example.com/a.")]
['ftp://info.cern.ch/pub/www/doc;type=d', 'http://example.com/a']

Matches from bytes carry ``url`` and ``raw`` as ``str``: what a match can contain is
printable US-ASCII, UTF-8 letters and Latin-1 letters that are no UTF-8 by the end
rules (a bare URL ends at any other non-ASCII octet, a wrapper holding one is not a
wrapper), so the decoding never fails: ``url`` writes such an octet ``%HH`` (RFC 1738
§2.2), ``raw`` shows its ISO-8859-1 character.

>>> [(m.url, m.raw, m.edits) for m in extract(b"see http://a.example/caf\\xe9 now")]
[('http://a.example/caf%E9', 'http://a.example/café', ('octets-encoded',))]
"""
from __future__ import annotations

from array import array
from functools import partial
from itertools import chain
from typing import Any, Iterable, Iterator, Literal, Optional

from .._select import cores
from ..model.parsing import is_valid
from .files import match_lists, scan_buffer, scan_file
from .logescapes import mapped, unescape_log
from .match import Match
from .rules import KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE, TEXT_OCTETS

__all__ = ["Match", "Validity", "filter_matches", "scan", "extract", "extract_with", "extract_file", "matches_of",
           "url_lines_of"]

def filter_matches(lists: Iterable[list[Match]], schemes: Optional[Iterable[str]],
                   valid: Optional[str]) -> Iterator[Match]:
    """Flatten lists of matches, keeping the wanted schemes (any case) and the URLs valid
    in the ``valid`` mode (:data:`Validity`; None keeps all): the one filter of the scans
    (the API, the mail walk and Dask).

    >>> ms = list(extract("http://a.example/ FTP://b.example/ http://c.example:x/"))
    >>> [m.url for m in filter_matches([ms], ["ftp", "http"], "strict")]
    ['http://a.example/']
    """
    if schemes is not None:
        wanted = frozenset(s.lower() for s in ([schemes] if isinstance(schemes, str) else schemes))
        lists = ([m for m in ms if m[0].partition(":")[0].lower() in wanted] for ms in lists)
    if valid is not None:
        strict = valid == "strict"
        lists = ([m for m in ms if is_valid(m[0], strict=strict)] for ms in lists)
    return chain.from_iterable(lists)


#: The ``valid=`` of the scans: ``"lenient"`` keeps what :func:`urlsift.is_valid` accepts
#: with ``strict=False``, ``"strict"`` what RFC 1738 accepts exactly; None keeps all.
Validity = Literal["lenient", "strict"]


def check_valid(valid: Optional[str]) -> None:
    """``valid`` is None or one of :data:`Validity`, else ValueError."""
    if valid not in (None, "lenient", "strict"):
        raise ValueError(f"valid must be None, 'lenient' or 'strict', not {valid!r}")


def scan(buffer: Any) -> "array[int]":
    """Raw spans of every URL in ``buffer`` as flat ``(start, end, flags)`` triples.

    One call for a whole buffer (bytes, bytearray, memoryview, mmap or str), the GIL
    released during the walk: the spans of the text as it stands, so a URL written with
    JSON escapes (``https:\\/\\/...``), which :func:`extract` reads, is not among them.
    ``flags & 0xFF`` holds WRAPPED, PREFIX, WHITESPACE, HYPHEN_BREAK, TRUNCATED,
    CUT_NON_ASCII, CUT_UNSAFE, ANGLE; ``(flags >> TRIM_SHIFT) & TRIM_MASK`` the number of
    characters trimmed from the end of a bare URL; above it ENCODED (octets written %HH
    in the URL), SOFT_BREAK (the ``=`` of a QP soft line break trimmed) and JOINED (QP
    soft line breaks inside). For a bare match with no flag but the count (or
    SOFT_BREAK) the URL is ``buffer[start:end - count]``.

    >>> list(scan(b"at http://a.example/x. ok"))
    [3, 22, 256]
    """
    return cores.scan.scan(buffer, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH, TEXT_OCTETS)


def matches_of(buffer: Any, triples: "array[int]", *, schemes: Optional[Iterable[str]] = None,
               valid: Optional[Validity] = None) -> list[Match]:
    """The :class:`Match` objects of the triples :func:`scan` gave for ``buffer`` (bytes),
    kept as :func:`extract` keeps them: ``extract(b)`` is ``matches_of(b, scan(b))``
    when ``b`` holds no JSON-escaped URL (:mod:`urlsift.text.jsonescapes`).
    The scan can run where the GIL is not needed (a thread); this part needs it.

    >>> [m.url for m in matches_of(b"at http://a.example/x. ok", scan(b"at http://a.example/x. ok"))]
    ['http://a.example/x']
    """
    lists = match_lists(triples, buffer, 0, 0)
    return list(filter_matches(lists, schemes, valid))


def url_lines_of(buffer: Any, triples: "array[int]", first: int = 0, last: int = -1) -> bytes:
    """The URLs of triples ``first`` to ``last`` (of :func:`scan` over ``buffer``), each
    followed by a newline: the ``url`` of their matches, no :class:`Match` built.

    >>> url_lines_of(b"a http://a.example/. b ftp://b.example/", scan(b"a http://a.example/. b ftp://b.example/"))
    b'http://a.example/\\nftp://b.example/\\n'
    """
    return cores.build.join_urls(triples, buffer, TABLE, first, last)


def _scan_range(buffer: Any, start: int, stop: int,
                octets: Optional[bytes] = TEXT_OCTETS) -> "array[int]":
    return cores.scan.scan(buffer, start, stop, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH, octets)


def _is_buffer(obj: Any) -> bool:
    try:
        memoryview(obj).release()
    except TypeError:
        return False
    return True


def extract(text_or_bytes: Any, *, schemes: Optional[Iterable[str]] = None,
            valid: Optional[Validity] = None, log_escapes: bool = False) -> Iterator[Match]:
    """Every URL in a text, in order, as :class:`Match` objects.

    ``schemes`` keeps only those schemes (case-insensitive); ``valid`` ("lenient" or
    "strict") keeps only URLs that parse in that mode (``urlsift.is_valid``).
    Offsets are characters for ``str`` and octets for bytes-like input.
    ``log_escapes`` reads Apache's and nginx's ``\\xHH`` as the octet (written ``%HH``
    in ``url``; :mod:`urlsift.text.logescapes`). JSON string escapes are always read
    where a URL is written with them (``"https:\\/\\/a.example\\/x"``, ``\\u002F``;
    :mod:`urlsift.text.jsonescapes`): ``url`` is the URL they stand for, the offsets and
    ``raw`` those of the text as it stands, and ``edits`` holds ``json-escapes``.

    >>> [m.url for m in extract("(see http://en.wikipedia.org/wiki/Foo_(bar)) at 10:23:45")]
    ['http://en.wikipedia.org/wiki/Foo_(bar)']
    >>> [m.url for m in extract(b"mailto:a@b.example, ftp://h/f", schemes=["ftp"])]
    ['ftp://h/f']
    >>> [(m.url, m.start, m.end) for m in extract('{"u":"https:\\\\/\\\\/a.example\\\\/x"}')]
    [('https://a.example/x', 6, 28)]
    """
    return extract_with(text_or_bytes, schemes, valid, log_escapes, TEXT_OCTETS)


def extract_with(text_or_bytes: Any, schemes: Optional[Iterable[str]], valid: Optional[str],
                 log_escapes: bool, octets: Optional[bytes]) -> Iterator[Match]:
    """:func:`extract` with the scanner's ``octets`` table given (``rules.TEXT_OCTETS``
    for plain text; None for a mail part, decoded already: no octet read as Latin-1, no
    quoted-printable soft line break joined; ``_scan_py``'s docstring).

    >>> [m.url for m in extract_with("x http://a.example/p ", None, None, False, None)]
    ['http://a.example/p']
    """
    check_valid(valid)
    text = text_or_bytes
    if not isinstance(text, (str, bytes, bytearray, memoryview)) and not _is_buffer(text):
        raise TypeError(f"extract() takes a str or a bytes-like object (bytes, bytearray, "
                        f"memoryview, mmap), not {type(text).__name__}")
    if isinstance(text, memoryview):
        text = text.cast("B")                    # offsets are octets whatever the format
    if log_escapes:
        original: Any = text if isinstance(text, (str, bytes)) else bytes(text)
        new, emap = unescape_log(original)
        if emap:
            return (mapped(m, original, emap)
                    for m in extract_with(new, schemes, valid, False, octets))
    if isinstance(text, str):
        n = len(text)
    else:
        with memoryview(text) as view:
            n = view.nbytes
    return filter_matches(scan_buffer(text, n, scan=partial(_scan_range, octets=octets)), schemes, valid)


def extract_file(path: Any, *, jobs: int = 1, line_numbers: bool = False,
                 schemes: Optional[Iterable[str]] = None, valid: Optional[Validity] = None,
                 block_size: Optional[int] = None) -> Iterator[Match]:
    """Every URL in a text file, in file order, without reading the file into memory.

    A non-empty regular file is memory-mapped and cut at line boundaries into pieces
    of ``block_size`` octets; with ``jobs=N`` > 1, N - 1 threads scan them without the
    GIL while this one builds the matches (and scans too while it would wait); a pipe,
    ``"-"`` (stdin), an open binary file or an empty file is streamed in blocks.
    Offsets are octets from the start of the file; ``line_numbers=True`` fills
    ``Match.line``. A file that cannot be opened raises ``OSError`` naming it. JSON
    string escapes are read as :func:`extract` reads them, piece by piece (a piece
    without a backslash costs one ``memchr`` more).
    The octets are scanned as they are: a compressed file is not decompressed here,
    nor an mbox read as mail — ``urlsift.extract_file`` opens a path as the command
    does (decompressed, mail detected) and comes here for text.

    >>> import tempfile, os
    >>> with tempfile.NamedTemporaryFile("wb", suffix=".log", delete=False) as f:
    ...     _ = f.write(b"a\\nsee <URL:http://x.example/\\n y> ok\\n")
    >>> [(m.url, m.line) for m in extract_file(f.name, line_numbers=True)]
    [('http://x.example/y', 2)]
    >>> os.unlink(f.name)
    """
    check_valid(valid)
    matches = scan_file(path, jobs=jobs, line_numbers=line_numbers, block_size=block_size)
    return filter_matches(matches, schemes, valid)
