"""JSON-escaped URLs in the pieces a text or a file is scanned in (:mod:`.files`).

Each piece ``[a, b)`` of a buffer is asked :func:`piece_matches` after its scan. A piece
without the start of a JSON-escaped run (:mod:`.jsonescapes`) keeps the scanner's
matches: one ``find`` of ``\\`` tells, so plain text costs a ``memchr``. The piece is
looked at as far as its last match reaches past ``b`` (a wrapper, or a URL of non-ASCII
letters, inside which a piece may be cut), and a run's start just after that, since a
run glued to a URL makes it longer (``http://a.example/é?u=https:\\/\\/b``).

A piece with a run start is read again: its text and the look-ahead its scan may read
past ``b`` are rewritten by :func:`~.jsonescapes.unescape_json`, scanned, and the
matches mapped back to the offsets of the text as it stands, ``raw`` being that text,
with the edit ``json-escapes`` on each whose span held an escape. A run that ``b`` cuts
belongs to the piece it starts in; matches that start before the end of the previous
piece's last match are dropped, as :func:`.files._kept` drops them.

>>> text = b'{"a":"https:\\\\/\\\\/shop.example.com\\\\/cart"} http://b.example/'
>>> ms, last_end = piece_matches(text, 0, len(text), 0, 0)
>>> [(m.url, m.start, m.end, m.edits) for m in ms], last_end
([('https://shop.example.com/cart', 6, 38, ('json-escapes',)), ('http://b.example/', 41, 58, ())], 58)
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import Any, Iterator, Optional

from .._select import cores
from .jsonescapes import (EDIT_JSON_ESCAPES, REACH, JsonMap, has_json_escapes, run_starts,
                          unescape_json)
from .match import Match
from .rules import EDITS, CHUNK, KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE, TEXT_OCTETS

__all__ = ["LOOKAHEAD", "piece_matches", "chunked", "url_lines"]

#: What a piece's scan may read past its end (as ``files.LOOKAHEAD``): a wrapper or a bare
#: URL opened before it; the rewritten look-ahead is cut here.
LOOKAHEAD = MAX_WRAPPER + MAX_LENGTH + 16
#: What a window that ends a line no URL crosses reads past it (see _lookahead).
_SHORT = 64
#: Windows pay where runs are sparse (a log with a JSON line now and then); where there
#: is a run per this many characters or more (a JSON log), one read of the whole piece
#: costs less than a read per line (figures: benchmarks/README.md).
_SPARSE = 8192


def piece_matches(buf: Any, a: int, b: int, base: int, last_end: int,
                  arr: Any = (), windows: bool = True) -> Optional[tuple[list[Match], int]]:
    """None when the piece ``buf[a:b]`` holds no JSON-escaped URL; else its matches read
    through the escapes (offsets ``base`` + index in ``buf``), without those starting
    before ``last_end``, and the end of its last match (``last_end`` when none).
    ``buf``: str, bytes, bytearray, mmap or memoryview of octets; ``arr``: the
    scanner's triples for the piece.

    Where runs are sparse, only the lines around them are read again (``windows``;
    False reads the whole piece again, the reference the tests hold the windows to):
    the scanner's own matches stand elsewhere, built by the core a range at a time.
    """
    n = len(buf)
    reach = max(b, arr[-2]) if len(arr) else b
    if not has_json_escapes(buf, a, min(n, reach + REACH)):
        return None
    runs = run_starts(buf, a, min(n, reach + REACH)) if windows else []
    if not windows or len(runs) * _SPARSE > b - a or not hasattr(buf, "rfind"):
        return _read_through(buf, a, b, base, last_end)
    out: list[Match] = []
    starts, ends = arr[0::3], arr[1::3]
    i = 0                       # the next of the scanner's matches
    for wa, wb in _windows(buf, a, b, runs, starts, ends):
        i, last_end = _as_scanned(out, arr, starts, buf, base, i, wa, last_end)
        found, last_end = _read_through(buf, wa, wb, base, last_end, _lookahead(buf, wa, wb))
        out += found
        i = bisect_left(starts, wb, i)
    _as_scanned(out, arr, starts, buf, base, i, b, last_end)
    return out, (out[-1][2] if out else last_end)


def _windows(buf: Any, a: int, b: int, runs: list[int], starts: Any,
             ends: Any) -> Iterator[tuple[int, int]]:
    """The stretches of ``[a, b)`` read again: the lines of the ``runs`` (their colons),
    grown until none of the scanner's matches (``starts``, ``ends``) crosses
    their edges (a wrapper or a QP-joined URL over lines), merged where they meet."""
    nl: Any = "\n" if isinstance(buf, str) else b"\n"
    wa = wb = -1
    for colon in runs:
        lo = buf.rfind(nl, a, colon) + 1 or a
        hi = b if (end := buf.find(nl, colon, b)) < 0 else end + 1
        while True:             # grown over the scanner's matches across an edge
            j = bisect_right(starts, lo) - 1
            k = bisect_left(starts, hi) - 1
            if j >= 0 and starts[j] < lo < ends[j]:
                lo = buf.rfind(nl, a, starts[j]) + 1 or a
            elif k >= 0 and ends[k] > hi and hi < b:
                hi = b if (end := buf.find(nl, ends[k] - 1, b)) < 0 else end + 1
            else:
                break
        if lo >= b:             # a run past the piece that no match of it reaches
            continue
        if lo > wb:
            if wb >= 0:
                yield wa, wb
            wa = lo
        wb = max(wb, hi)
    if wb >= 0:
        yield wa, wb


def _lookahead(buf: Any, wa: int, wb: int) -> int:
    """What the read of window ``[wa, wb)`` needs past ``wb``: a few characters when it
    ends a line that no URL of the window can cross (no ``<`` in it that may open a
    wrapper over lines, no ``=`` before the line break that may be a QP soft break),
    else LOOKAHEAD as for a piece."""
    text = isinstance(buf, str)
    if (buf[wb - 1:wb] == ("\n" if text else b"\n") and buf[wb - 2:wb - 1] != ("=" if text else b"=")
            and buf.find("<" if text else b"<", wa, wb) < 0):
        return _SHORT
    return LOOKAHEAD


def _as_scanned(out: list, arr: Any, starts: Any, buf: Any, base: int, i: int, stop: int,
                last_end: int) -> tuple[int, int]:
    """Append the scanner's matches ``i``... (``starts``: theirs, in order) that start
    before ``stop`` (not before ``last_end``): the index after them, and the end of the
    last one. Found by bisection: no Python step per match."""
    last = bisect_left(starts, stop, i)
    first = min(bisect_left(starts, last_end - base, i), last)
    if last > first:
        out += cores.build.build(arr, buf, base, Match, EDITS, TABLE, first, last)
        last_end = out[-1][2]
    return last, last_end


def _read_through(buf: Any, a: int, b: int, base: int, last_end: int,
                  lookahead: int = LOOKAHEAD) -> tuple[list[Match], int]:
    """The matches of ``buf[a:b]`` read through its JSON escapes (see piece_matches),
    the text rewritten as far as ``lookahead`` past ``b``. Octets are read by the core
    (``_json``: the rewrite, and the matches mapped back, no Python step per match);
    a ``str`` here, by :func:`.jsonescapes.unescape_json`."""
    if isinstance(buf, str):
        return _read_through_str(buf, a, b, base, last_end, lookahead)
    n = len(buf)
    c = min(n, b + lookahead)
    text = _octets(buf, a, c)
    new, runs, escapes = cores.json.unescape(text, TABLE)
    if c < n and runs and runs[-3] >= len(text) and runs[-4] < b - a + MAX_LENGTH:
        # a run cut by the end of the look-ahead (see _read_through_str)
        text = _octets(buf, a, min(n, b + 6 * LOOKAHEAD))
        new, runs, escapes = cores.json.unescape(text, TABLE)
    stop = _new_offset(runs, b - a)
    spans = cores.scan.scan(new, 0, stop, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH, TEXT_OCTETS)
    ms = cores.build.build(spans, new, 0, Match, EDITS, TABLE, 0, len(spans) // 3)
    out = cores.json.remap(ms, escapes, text, base + a, last_end, EDIT_JSON_ESCAPES)
    return out, (out[-1][2] if out else last_end)


def _octets(buf: Any, a: int, c: int) -> bytes:
    """``buf[a:c]`` of a bytes-like ``buf`` as bytes."""
    text = buf[a:c]
    return text if isinstance(text, bytes) else bytes(text)


def _new_offset(runs: Any, old: int) -> int:
    """:meth:`.jsonescapes.JsonMap.new_offset` over the core's ``runs`` quadruples
    ``(old_start, old_end, new_start, new_end)``: an offset inside a run maps to its end."""
    k = bisect_right(runs[0::4], old) - 1
    if k < 0:
        return old
    old_start, old_end, new_start, new_end = runs[4 * k:4 * k + 4]
    if old >= old_end:
        return new_end + old - old_end
    return new_start if old == old_start else new_end


def _read_through_str(buf: str, a: int, b: int, base: int, last_end: int,
                      lookahead: int) -> tuple[list[Match], int]:
    """:func:`_read_through` of a ``str``: rewritten by :func:`.jsonescapes.unescape_json`,
    the matches that touch a run mapped back one by one."""
    n = len(buf)
    c = min(n, b + lookahead)
    text, new, jmap = _rewritten(buf, a, c)
    if c < n and 0 <= jmap.open_at(len(text)) < b - a + MAX_LENGTH:
        # a run cut by the end of the look-ahead, which a URL of this piece may reach:
        # escapes take up to six times the characters they stand for (MAX_LENGTH counts
        # those), so read it whole
        text, new, jmap = _rewritten(buf, a, min(n, b + 6 * LOOKAHEAD))
    stop = jmap.new_offset(b - a)
    spans = cores.scan.scan(new, 0, stop, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH, TEXT_OCTETS)
    out: list[Match] = []
    shift = base + a
    # A match that touches no rewritten run stands in the text as it is, shifted by what
    # the runs before it changed the length by: such matches are built by the core a
    # stretch at a time (most of a JSON log); only those touching a run are mapped here.
    starts, ends = jmap._new_starts, jmap._new_ends
    k = 0                       # the next run that may touch a match
    delta = 0                   # what the runs before it changed the length by
    first = -1                  # the stretch of untouched matches being gathered
    last_delta = 0              # ... and the delta of its matches
    count = len(spans) // 3
    for i in range(count):
        ms, me = spans[3 * i], spans[3 * i + 1]
        while k < len(starts) and ends[k] <= ms:
            delta = ends[k] - jmap._old_ends[k]
            k += 1
            if first >= 0:      # a run between: the stretch ends before this match
                _stretch(out, spans, new, shift - last_delta, first, i, last_end)
                first = -1
        if k < len(starts) and starts[k] < me:
            if first >= 0:
                _stretch(out, spans, new, shift - last_delta, first, i, last_end)
                first = -1
            _mapped(out, spans, i, new, text, jmap, shift, last_end)
            continue
        if first < 0:
            first, last_delta = i, delta
    if first >= 0:
        _stretch(out, spans, new, shift - last_delta, first, count, last_end)
    return out, (out[-1][2] if out else last_end)


def _stretch(out: list, spans: Any, new: Any, offset: int, first: int, last: int,
             last_end: int) -> None:
    """The matches ``first`` to ``last`` of ``spans`` (touching no run), offsets shifted
    by ``offset``, those starting before ``last_end`` left out."""
    for m in cores.build.build(spans, new, offset, Match, EDITS, TABLE, first, last):
        if m[1] >= last_end:
            out.append(m)


def _mapped(out: list, spans: Any, i: int, new: Any, text: Any, jmap: JsonMap, shift: int,
            last_end: int) -> None:
    """Match ``i`` of ``spans``, which touches a rewritten run, mapped back to the text as
    it stands (``raw`` that text; the edit json-escapes when its span held an escape)."""
    m = cores.build.build(spans, new, 0, Match, EDITS, TABLE, i, i + 1)[0]
    s, e = jmap.start(m[1]), jmap.end(m[2])
    if s + shift < last_end:
        return
    raw = text[s:e]
    edits = m[6] + (EDIT_JSON_ESCAPES,) if jmap.escaped(s, e) else m[6]
    out.append(tuple.__new__(Match, (m[0], s + shift, e + shift,
                                     raw, m[4], m[5], edits, None)))


def _rewritten(buf: str, a: int, c: int) -> tuple[str, str, JsonMap]:
    """``buf[a:c]``, it with its JSON escapes read, and the map."""
    text = buf[a:c]
    new, jmap = unescape_json(text)
    return text, new, jmap


def chunked(ms: list[Match]) -> Iterator[list[Match]]:
    """``ms`` in lists of at most ``CHUNK``, as :func:`.files.match_lists` gives them."""
    for i in range(0, len(ms), CHUNK):
        yield ms[i:i + CHUNK]


def url_lines(ms: list[Match]) -> bytes:
    """The ``url`` of each match, one per line, as the command's plain output writes them."""
    return "".join([m[0] + "\n" for m in ms]).encode("utf-8")
