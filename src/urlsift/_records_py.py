"""Pure-Python twin of ``ext/urlsift/_records_c.pyx``: the scanner's triples handed to
the sinks as plain arrays, never formatted here.

A batch of records is the scanner's triples (``_layout.RECORD``: start, end, flags of
each match) over the buffer they were found in. The sinks take from it what they write:

- ``join_positions``: one line per record laid out by literal octets and the fields
  ``_layout.F_URL``, ``F_LINE``, ``F_OFFSET`` (the text and JSON lines sinks' layouts);
- ``url_column``: the URLs one after the other in UTF-8 and where each starts (an Arrow
  string column's data and offsets);
- ``line_numbers``: the 1-based line of each record's start;
- ``segment_column``: which of a list of ascending starts (the mail walker's segments)
  each record's field stands in.

No format is known here: a sink that cannot write some octets as they are (a JSON string
holding a ``"``) gives them in ``stop`` and writes that batch itself.
"""
from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from typing import Any, Callable, Optional

from ._build_py import build
from ._layout import F_LINE, F_OFFSET, F_URL, N_EDITS, RECORD_WIDTH, R_START
from ._scan_py import count_newlines

__all__ = ["MAX_LAYOUT", "without_same_urls", "check_fields", "check_layout", "field_column", "join_positions", "line_numbers", "part_column",
           "counted_to", "segment_column", "url_column"]

#: At most this many items in a layout of :func:`join_positions`.
MAX_LAYOUT = 16


def _clip(arr: Any, first: int, last: int, name: str) -> tuple[int, int]:
    """``first``, ``last`` clipped to the records of ``arr`` (an ``array('q')``)."""
    if not isinstance(arr, array) or arr.typecode != "q":
        raise TypeError(f"{name} needs an array('q')")
    total = len(arr) // RECORD_WIDTH
    last = total if last < 0 or last > total else last
    return min(max(first, 0), last), last


def _urls(arr: "array[int]", buf: Any, table: bytes, first: int, last: int) -> list[bytes]:
    """The UTF-8 URLs of records ``first`` to ``last`` (as ``build`` cuts them)."""
    return [m[0].encode("utf-8")
            for m in build(arr, buf, 0, tuple, ("",) * N_EDITS, table, first, last)]


def check_layout(layout: tuple) -> bool:
    """Whether ``layout`` asks for the line; ValueError for a bad layout."""
    if len(layout) > MAX_LAYOUT:
        raise ValueError(f"a layout has at most {MAX_LAYOUT} items")
    for item in layout:
        if not isinstance(item, bytes) and (not isinstance(item, int) or isinstance(item, bool)
                                            or item not in (F_URL, F_LINE, F_OFFSET)):
            raise ValueError(f"a layout item is bytes or 0, 1, 2, not {item!r}")
    return F_LINE in [i for i in layout if not isinstance(i, bytes)]


def join_positions(arr: "array[int]", buf: Any, table: bytes, layout: tuple, base: int,
                   state: list, first: int = 0, last: int = -1,
                   stop: Optional[bytes] = None) -> Optional[bytes]:
    """One line per record ``first`` to ``last``, laid out by ``layout`` — literal bytes
    and the fields :data:`F_URL`, :data:`F_LINE`, :data:`F_OFFSET` — as one bytes object
    (no Match built). ``base`` is the input offset of ``buf[0]``; ``state`` is ``[offset
    counted to, line there]``, carried from call to call (lines are 1-based, offsets
    those of the raw spans). ``stop``: 256 octets, one per octet value; None when a URL
    holds an octet whose entry is not 0 (the sink writes that batch itself).

    >>> from urlsift import _scan_py
    >>> from urlsift.text.rules import TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH
    >>> buf = b"a\\nsee http://x.example/ ok"
    >>> arr = _scan_py.scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)
    >>> join_positions(arr, buf, TABLE, (b"f:", F_LINE, b":", F_OFFSET, b":", F_URL, b"\\n"),
    ...                0, [0, 1])
    b'f:2:6:http://x.example/\\n'
    """
    lines = check_layout(layout)
    if stop is not None and len(stop) != 256:
        raise ValueError("stop must have 256 entries")
    first, last = _clip(arr, first, last, "join_positions")
    urls = _urls(arr, buf, table, first, last)
    pos, line = (counted_to(state, base) if lines else 0), state[1]
    out = []
    for k, url in zip(range(first, last), urls):
        s = arr[RECORD_WIDTH * k + R_START]
        if lines and s > pos:
            line += count_newlines(buf, pos, s)
            pos = s
        if stop is not None and any(stop[c] for c in url):
            return None
        fields = (url, b"%d" % line, b"%d" % (base + s))
        out.append(b"".join(i if isinstance(i, bytes) else fields[i] for i in layout))
    if lines:
        state[0], state[1] = pos + base, line
    return b"".join(out)


def counted_to(state: list, base: int) -> int:
    """Where in the buffer (at ``base`` in the input) the line count ``state`` stands;
    ValueError when it stands before the buffer (its newlines are not there to count).

    >>> counted_to([120, 4], 100)
    20
    """
    pos = state[0] - base
    if pos < 0:
        raise ValueError(f"the line count stands at offset {state[0]}, before the buffer "
                         f"(at {base})")
    return pos


def url_column(arr: "array[int]", buf: Any, table: bytes, first: int = 0,
               last: int = -1) -> tuple[bytes, "array[int]"]:
    """The URLs of records ``first`` to ``last`` one after the other in UTF-8, and
    ``array('i')`` of where each starts and the last ends (an Arrow string column).

    >>> from urlsift import _scan_py
    >>> from urlsift.text.rules import TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH
    >>> buf = b"see http://x.example/ and <URL:ftp://y.example/>"
    >>> arr = _scan_py.scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)
    >>> url_column(arr, buf, TABLE)
    (b'http://x.example/ftp://y.example/', array('i', [0, 17, 33]))
    """
    first, last = _clip(arr, first, last, "url_column")
    urls = _urls(arr, buf, table, first, last)
    offsets = array("i", [0])
    o = 0
    for url in urls:
        o += len(url)
        offsets.append(o)
    return b"".join(urls), offsets


def line_numbers(arr: "array[int]", buf: Any, base: int, state: list, first: int = 0,
                 last: int = -1) -> "array[int]":
    """The 1-based line of the start of each record ``first`` to ``last`` as
    ``array('q')``; ``base`` and ``state`` as :func:`join_positions`'s.

    >>> from urlsift import _scan_py
    >>> from urlsift.text.rules import TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH
    >>> buf = b"http://a.example/\\n\\nsee http://b.example/"
    >>> arr = _scan_py.scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)
    >>> line_numbers(arr, buf, 0, [0, 1])
    array('q', [1, 3])
    """
    first, last = _clip(arr, first, last, "line_numbers")
    pos, line = counted_to(state, base), state[1]
    out = array("q")
    for k in range(first, last):
        s = arr[RECORD_WIDTH * k + R_START]
        if s > pos:
            line += count_newlines(buf, pos, s)
            pos = s
        out.append(line)
    state[0], state[1] = pos + base, line
    return out


def part_column(data: bytes, offsets: "array[int]", start_field: int,
                end_field: int) -> tuple[bytes, "array[int]", bytes]:
    """One part of each URL of a :func:`url_column` (``data``, ``offsets``), cut where
    the tokenizer says (``_layout.FIELDS``: from ``start_field``, -1 for the URL's start,
    to ``end_field``): the parts one after the other in UTF-8, ``array('i')`` of where
    each starts, and the Arrow validity bitmap (bit ``k`` set: URL ``k`` has the part).

    >>> from urlsift._layout import FIELDS
    >>> data, offsets = b"http://a.example/x" b"mailto:b@c", array("i", [0, 18, 28])
    >>> host = FIELDS.index("host_start"), FIELDS.index("host_end")
    >>> part_column(data, offsets, *host)
    (b'a.example', array('i', [0, 9, 9]), b'\\x01')
    >>> part_column(data, offsets, -1, FIELDS.index("scheme_end"))
    (b'httpmailto', array('i', [0, 4, 10]), b'\\x03')
    """
    from ._core_py import tokenize
    check_fields(start_field, end_field)
    n = len(offsets) - 1
    out, starts, bits = [], array("i", [0]), bytearray((n + 7) // 8)
    o = 0
    for k in range(n):
        url = data[offsets[k]:offsets[k + 1]].decode("utf-8", "surrogateescape")
        r = tokenize(url)
        a = 0 if start_field < 0 else r[start_field]
        b = r[end_field]
        if a >= 0 and b >= a:
            part = url[a:b].encode("utf-8", "surrogateescape")
            out.append(part)
            o += len(part)
            bits[k >> 3] |= 1 << (k & 7)
        starts.append(o)
    return b"".join(out), starts, bytes(bits)


def check_fields(start_field: int, end_field: int) -> None:
    from ._layout import NFIELDS
    if not (-1 <= start_field < NFIELDS and 0 <= end_field < NFIELDS):
        raise ValueError(f"fields {start_field}, {end_field}: not fields of a URL's tokens")


def field_column(arr: "array[int]", field: int, base: int = 0, first: int = 0,
                 last: int = -1) -> "array[int]":
    """The field ``field`` (``_layout.R_START``...) of records ``first`` to ``last`` as
    ``array('q')``, ``base`` added (an Arrow int64 column's values).

    >>> from ._layout import R_END
    >>> field_column(array("q", [4, 9, 0, 12, 20, 1]), R_END, 100)
    array('q', [109, 120])
    """
    first, last = _clip(arr, first, last, "field_column")
    if not 0 <= field < RECORD_WIDTH:
        raise ValueError(f"a record has fields 0 to {RECORD_WIDTH - 1}, not {field}")
    return array("q", [arr[RECORD_WIDTH * k + field] + base for k in range(first, last)])


def segment_column(arr: "array[int]", field: int, starts: "array[int]", shift: int = 0,
                   first: int = 0, last: int = -1) -> "array[int]":
    """For each record ``first`` to ``last``: the index of the last of ``starts`` (an
    ascending ``array('q')``) at or before its field ``field`` plus ``shift`` —
    ``bisect_right(starts, x) - 1``, -1 before the first — as ``array('q')``: the segment
    of the mail walker's text that holds it (``_layout.MAIL_SEGMENT``).

    >>> from ._layout import R_END
    >>> arr = array("q", [4, 9, 0, 12, 20, 1])
    >>> segment_column(arr, R_START, array("q", [0, 10, 20]))
    array('q', [0, 1])
    >>> segment_column(arr, R_END, array("q", [0, 10, 20]), -1)
    array('q', [0, 1])
    """
    first, last = _clip(arr, first, last, "segment_column")
    if not 0 <= field < RECORD_WIDTH:
        raise ValueError(f"a record has fields 0 to {RECORD_WIDTH - 1}, not {field}")
    if not isinstance(starts, array) or starts.typecode != "q":
        raise TypeError("segment_column needs starts as an array('q')")
    return array("q", [bisect_right(starts, arr[RECORD_WIDTH * k + field] + shift) - 1
                       for k in range(first, last)])


def without_same_urls(keep: "array[int]", checks: "array[int]", cuts: "array[int]", buf: Any,
                      spans: "array[int]", stride: int, field: int, table: bytes,
                      same: Callable[[bytes, bytes], bool]) -> tuple[Any, Any]:
    """``keep`` (records of a scan of ``buf``) without each record ``k`` of a pair
    ``(k, h)`` of ``checks`` whose URL is the text of span ``h`` of ``spans`` (its start
    and end at ``spans[h * stride + field]`` and the next): the same UTF-8 octets, or ``same``
    says so of the two; and ``cuts`` (pairs ``(x, kept records before it)``) with those
    counts moved down by the records dropped before them. The same arrays when none is.
    For the mail walk's lines and tables: the URL in an ``<a>``'s text that is its
    ``href`` counts once (the walker's segments: ``stride`` SEG, ``field`` SEG_START).

    >>> from urlsift.text.extraction import scan
    >>> from urlsift.text.rules import TABLE
    >>> buf = b"http://a.example/ http://b.example/"
    >>> kept, moved = without_same_urls(scan(buf), array("q", [1, 0]), array("q", [5, 2]),
    ...                                 buf, array("q", [18, 35]), 2, 0, TABLE, lambda u, h: False)
    >>> _urls(kept, buf, TABLE, 0, len(kept) // RECORD_WIDTH), list(moved)
    ([b'http://a.example/'], [5, 1])
    """
    total = len(keep) // RECORD_WIDTH
    index = checks[0::2]
    for i, (k, h) in enumerate(zip(index, checks[1::2])):
        if not (0 <= k < total and 0 <= h and 0 <= field and h * stride + field + 1 < len(spans)):
            raise ValueError(f"check {i}: record {k} or span {h} out of range")
    sub = array("q", [x for k in index for x in keep[RECORD_WIDTH * k:RECORD_WIDTH * (k + 1)]])
    drop = set()
    for k, url, h in zip(index, _urls(sub, buf, table, 0, len(index)), checks[1::2]):
        a, e = spans[h * stride + field], spans[h * stride + field + 1]
        if not 0 <= a <= e <= len(buf):
            raise ValueError(f"span {h}: {a}..{e} out of the text")
        text = bytes(buf[a:e])
        if url == text or same(url, text):
            drop.add(k)
    if not drop:
        return keep, cuts
    dropped = sorted(drop)
    kept = array("q")
    after = 0                      # the runs between the dropped ones, a slice each
    for k in dropped:
        kept.extend(keep[RECORD_WIDTH * after:RECORD_WIDTH * k])
        after = k + 1
    kept.extend(keep[RECORD_WIDTH * after:])
    moved = array("q", cuts)
    for i in range(1, len(moved), 2):
        moved[i] -= bisect_left(dropped, cuts[i])     # the dropped ones before the cut
    return kept, moved
