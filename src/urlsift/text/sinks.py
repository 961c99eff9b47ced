"""Sinks: what takes the scanner's records, piece by piece, and makes an output of them.

The scanner knows no format. A piece of an input scanned gives a batch of records
(``_layout.RECORD``: the start, end and flags of each match, one ``array('q')``) over the
buffer it was found in; :mod:`.files` hands each batch to a sink's ``batch`` method,
which gives out what it makes of it, in input order:

- :func:`match_lists`: lists of :class:`~urlsift.text.match.Match`
  (the Python API);
- :class:`UrlLines`: the URLs as UTF-8 lines (the command's plain output);
- :class:`LayoutLines`: one line per URL laid out by literals and the fields URL, line and
  offset (the command's ``-H/-n/-b`` text and JSON lines: each writer gives its layout);
- :class:`urlsift.text.arrow.ArrowSink`: Arrow record batches (``extract_table``).

A batch may come with its matches made already (``found``: a piece read again through
JSON escapes, :mod:`.jsonpieces`); a sink makes its output of those instead.
"""
from __future__ import annotations

from array import array
from typing import Any, Callable, Iterator, Optional

from .._layout import F_LINE, F_OFFSET, F_URL, RECORD_WIDTH
from .._select import cores
from .jsonpieces import chunked
from .jsonpieces import url_lines as found_lines
from .match import Match
from .rules import CHUNK, EDITS, TABLE

__all__ = ["F_LINE", "F_OFFSET", "F_URL", "LayoutLines", "UrlLines", "counted_lines",
           "match_lists"]


def match_lists(arr: "array[int]", buf: Any, base: int, first: int,
                found: Optional[list[Match]] = None) -> Iterator[list[Match]]:
    """The Match sink: matches of records ``first``... in lists of CHUNK, built while the
    consumer's cache is warm (a whole piece at once is slower). ``found``: the piece's
    matches made already, given out instead."""
    if found is not None:
        yield from chunked(found)
        return
    build = cores.build.build
    for i in range(first, len(arr) // RECORD_WIDTH, CHUNK):
        yield build(arr, buf, base, Match, EDITS, TABLE, i, i + CHUNK)


def counted_lines(ms: list[Match], buf: Any, base: int, state: list[int]) -> list[Match]:
    """The matches with 1-based line numbers, counting newlines from the last match on.

    ``state`` is ``[input offset counted to, line there]``; ``base`` maps an input
    offset to an index of ``buf``.
    """
    count = cores.scan.count_newlines
    pos, line = state
    out = []
    for m in ms:
        line += count(buf, pos - base, m[1] - base)
        pos = m[1]
        out.append(tuple.__new__(Match, (*m[:7], line)))
    state[0], state[1] = pos, line
    return out


class UrlLines:
    """The URLs of a batch as newline-ended UTF-8 lines, no Match built.

    >>> from urlsift.text.rules import KNOWN, MAX_WRAPPER, MAX_LENGTH
    >>> buf = b"see http://x.example/ and <URL:ftp://y.example/>"
    >>> arr = cores.scan.scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)
    >>> b"".join(UrlLines().batch(arr, buf, 0, 0))
    b'http://x.example/\\nftp://y.example/\\n'
    """

    def batch(self, arr: "array[int]", buf: Any, base: int, first: int,
              found: Optional[list[Match]] = None) -> Iterator[bytes]:
        yield cores.build.join_urls(arr, buf, TABLE, first) if found is None \
            else found_lines(found)


class LayoutLines:
    """One line per URL laid out by ``layout`` — literal bytes and the fields
    :data:`F_URL`, :data:`F_LINE` (1-based) and :data:`F_OFFSET` (of the raw span) —
    made in the core. A writer that must write some octets of a URL otherwise (a JSON
    string's ``"``) names them in ``stop`` (256 octets, not 0 for those) and says how a
    URL is written in ``url_text``; a batch holding one is laid out here from its
    matches.

    >>> from urlsift.text.rules import KNOWN, MAX_WRAPPER, MAX_LENGTH
    >>> buf = b"a\\nsee http://x.example/ ok"
    >>> arr = cores.scan.scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)
    >>> b"".join(LayoutLines((F_LINE, b":", F_URL, b"\\n")).batch(arr, buf, 0, 0))
    b'2:http://x.example/\\n'
    """

    def __init__(self, layout: tuple, stop: Optional[bytes] = None,
                 url_text: Optional[Callable[[str], bytes]] = None) -> None:
        self.layout = layout
        self.stop = stop
        self.url_text = url_text or (lambda url: url.encode("utf-8"))
        self.lines = F_LINE in [i for i in layout if not isinstance(i, bytes)]
        self.state = [0, 1]

    def batch(self, arr: "array[int]", buf: Any, base: int, first: int,
              found: Optional[list[Match]] = None) -> Iterator[bytes]:
        got = None if found is not None else cores.records.join_positions(
            arr, buf, TABLE, self.layout, base, self.state, first, -1, self.stop)
        if got is not None:
            yield got
            return
        for ms in match_lists(arr, buf, base, first, found):
            yield self.matches(counted_lines(ms, buf, base, self.state) if self.lines else ms)

    def matches(self, ms: list[Match]) -> bytes:
        """The lines of matches (their ``line`` counted already, if asked)."""
        out = []
        for m in ms:
            fields = (self.url_text(m.url), b"%d" % (m.line or 0), b"%d" % m.start)
            out.append(b"".join(i if isinstance(i, bytes) else fields[i] for i in self.layout))
        return b"".join(out)
