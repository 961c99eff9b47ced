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

from typing import Any, Iterator, Optional

from .._select import cores
from .jsonescapes import EDIT_JSON_ESCAPES, REACH, JsonMap, has_json_escapes, unescape_json
from .match import Match
from .rules import _EDITS, CHUNK, KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE, TEXT_OCTETS

__all__ = ["LOOKAHEAD", "piece_matches", "chunked", "url_lines"]

#: What a piece's scan may read past its end (as ``files.LOOKAHEAD``): a wrapper or a bare
#: URL opened before it; the rewritten look-ahead is cut here.
LOOKAHEAD = MAX_WRAPPER + MAX_LENGTH + 16


def piece_matches(buf: Any, a: int, b: int, base: int, last_end: int,
                  arr: Any = ()) -> Optional[tuple[list[Match], int]]:
    """None when the piece ``buf[a:b]`` holds no JSON-escaped URL; else its matches read
    through the escapes (offsets ``base`` + index in ``buf``), without those starting
    before ``last_end``, and the end of its last match (``last_end`` when none).
    ``buf``: str, bytes, bytearray, mmap or memoryview of octets; ``arr``: the
    scanner's triples for the piece."""
    n = len(buf)
    reach = max(b, arr[-2]) if len(arr) else b
    if not has_json_escapes(buf, a, min(n, reach + REACH)):
        return None
    c = min(n, b + LOOKAHEAD)
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
    for m in cores.build.build(spans, new, offset, Match, _EDITS, TABLE, first, last):
        if m[1] >= last_end:
            out.append(m)


def _mapped(out: list, spans: Any, i: int, new: Any, text: Any, jmap: JsonMap, shift: int,
            last_end: int) -> None:
    """Match ``i`` of ``spans``, which touches a rewritten run, mapped back to the text as
    it stands (``raw`` that text; the edit json-escapes when its span held an escape)."""
    m = cores.build.build(spans, new, 0, Match, _EDITS, TABLE, i, i + 1)[0]
    s, e = jmap.start(m[1]), jmap.end(m[2])
    if s + shift < last_end:
        return
    raw = text[s:e]
    edits = m[6] + (EDIT_JSON_ESCAPES,) if jmap.escaped(s, e) else m[6]
    out.append(tuple.__new__(Match, (m[0], s + shift, e + shift,
                                     raw if isinstance(text, str)
                                     else bytes(raw).decode("utf-8", "replace"),
                                     m[4], m[5], edits, None)))


def _rewritten(buf: Any, a: int, c: int) -> tuple[Any, Any, JsonMap]:
    """``buf[a:c]`` (bytes for a memoryview), it with its JSON escapes read, and the map."""
    text = buf[a:c]
    if isinstance(text, memoryview):
        text = text.tobytes()
    new, jmap = unescape_json(text)
    return text, new, jmap


def chunked(ms: list[Match]) -> Iterator[list[Match]]:
    """``ms`` in lists of at most ``CHUNK``, as :func:`.files.match_lists` gives them."""
    for i in range(0, len(ms), CHUNK):
        yield ms[i:i + CHUNK]


def url_lines(ms: list[Match]) -> bytes:
    """The ``url`` of each match, one per line, as the command's plain output writes them."""
    return "".join([m[0] + "\n" for m in ms]).encode("utf-8")
