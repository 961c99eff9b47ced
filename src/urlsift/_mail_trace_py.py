"""From the matches of the walk's scan text back to messages (twin of
``_mail_trace.pxi``): :func:`trace` makes the match tuples, :func:`url_triples` keeps
the triples the command writes as lines, :func:`anchor_runs` gives each ``<a>`` its
text.

A match is traced to its segment (the last one starting at or before it), so to its
part and message (the records of ``_mail_records``); its offsets are given in the
decoded part, and for a part copied as it stands in the spool too. What is shown (a
Message-ID, a Date) and which links are the same are the mail layer's rules, handed
in as :class:`Tracing`.
"""
from __future__ import annotations

from array import array
from bisect import bisect_right
from typing import Any, Callable, NamedTuple, Optional

from ._build_py import edits_index, triple_strings
from ._mail_headers_py import iso_date
from ._mail_records import (FALLBACK, K_ACTION, K_BACKGROUND, K_CITE, K_DATA, K_FORMACTION,
                            K_HREF, K_HTML_TEXT, K_LONGDESC, K_PING, K_POSTER, K_SRC,
                            K_SRCSET, K_STYLE, K_STYLE_BLOCK, K_XLINK_HREF, MSG, MSG_DATE_END,
                            MSG_DATE_START, MSG_END, MSG_FLAGS, MSG_FROM_LINE, MSG_ID_END,
                            MSG_ID_START, MSG_START, SEG, SEG_ANCHOR, SEG_END, SEG_KIND,
                            SEG_LABEL_END, SEG_LABEL_START, SEG_MESSAGE, SEG_PART_OFFSET,
                            SEG_SRC, SEG_START)
from ._scan_py import HYPHEN_BREAK, WRAPPED

__all__ = ["Tracing", "trace", "anchor_runs", "url_triples", "heads",
           "head", "too_large", "PART_SUFFIX", "KEYS"]


class Tracing(NamedTuple):
    """What :func:`trace` is told besides the walk: the mail layer's rules."""

    cls: type                                    # the match tuple class (mail.MailMatch)
    limit: int                                   # a larger message goes to ``other``
    other: Callable[[int], Optional[list]]       # a message's matches read otherwise;
    #                                              None: the spool is no mbox, stop there
    id_of: Callable[[bytes], Optional[str]]      # a Message-ID value as shown
    date_of: Callable[[bytes], Optional[str]]    # a Date value not in the fixed form
    #                                              (``iso_date``), as shown
    same_link: Callable[[str, str], bool]        # the text URL of an <a> that is its href
    #                                              (an equivalence: a URL whose octets are
    #                                              its href's is not asked about)
    edits: tuple                                 # as ``_build.build`` takes them
    table: bytes


def too_large(msgs: Any, i: int, limit: int) -> bool:
    """The message whose record starts at ``msgs[i]`` (or its From line) is larger
    than ``limit``."""
    offset = msgs[i + MSG_FROM_LINE]
    return (msgs[i + MSG_END] - msgs[i + MSG_START] > limit
            or (offset >= 0 and msgs[i + MSG_START] - offset > limit))


def trace(triples: Any, walked: tuple, piece: Any, base: int, source: str, how: Tracing,
          texts: Optional[tuple] = None) -> list:
    """The ``how.cls`` tuples (``urlsift.mail.MailMatch``) of the scanner's ``triples``
    over the text of ``walked`` (what ``walk`` returned for ``piece``, at ``base`` in the
    spool called ``source``), in message order: each traced back to its segment, part
    and message, its URL and raw text cut as ``_build.build`` cuts them. A message
    marked ``FALLBACK``, or larger than ``how.limit``, is handed to ``how.other``. A URL
    in the text of an ``<a>`` that is its ``href`` is left out (``how.same_link``).
    ``texts``: ``(index, shown)``, the value of the last field (``text``) of a URL found
    in an ``href`` segment ``h``: ``shown[index[h]]`` (the text of its ``<a>``; an index
    for every segment, -1: None, as :func:`anchor_runs` gives them); None else."""
    return _Trace(triples, walked, piece, base, source, how, texts).run()


def head(piece: Any, msgs: Any, i: int, id_of: Callable[[bytes], Optional[str]],
         date_of: Callable[[bytes], Optional[str]]) -> tuple[Optional[str], Optional[str]]:
    """``(message_id, date)`` of the message whose record starts at ``msgs[i]``, as the
    matches show them: its Message-ID by ``id_of``, its Date in the one fixed form read
    here (``iso_date``), any other by ``date_of``; None for a header it lacks."""
    ida, ide = msgs[i + MSG_ID_START], msgs[i + MSG_ID_END]
    da, de = msgs[i + MSG_DATE_START], msgs[i + MSG_DATE_END]
    message_id = id_of(bytes(piece[ida:ide])) if ida >= 0 else None
    date = None
    if da >= 0:
        raw_date = bytes(piece[da:de])
        date = iso_date(raw_date) or date_of(raw_date)
    return message_id, date


def heads(piece: Any, msgs: Any, id_of: Callable[[bytes], Optional[str]],
          date_of: Callable[[bytes], Optional[str]]) -> list:
    """The :func:`head` of each message of ``msgs`` (records of ``walk`` over ``piece``),
    None for one marked ``FALLBACK`` (``email`` reads it): for the rows of a table.

    >>> from urlsift._mail_cut_py import walk
    >>> spool = (b"From a\\nMessage-ID: <1@x>\\nDate: Thu, 26 Nov 2026 10:00:00 +0000\\n\\nhi\\n"
    ...          b"From b\\n\\nho\\n")
    >>> out, segs, msgs, names = walk(spool, 0, len(spool), b"\\0", b"ascii\\0", 8, None)
    >>> heads(spool, msgs, lambda raw: raw.decode(), lambda raw: None)
    [('<1@x>', '2026-11-26T10:00:00+00:00'), (None, None)]
    """
    out: list = []
    for i in range(0, len(msgs), MSG):
        if msgs[i + MSG_FLAGS] & FALLBACK:
            out.append(None)
            continue
        if not all(a < 0 or 0 <= a <= e <= len(piece)
                   for a, e in ((msgs[i + MSG_ID_START], msgs[i + MSG_ID_END]),
                                (msgs[i + MSG_DATE_START], msgs[i + MSG_DATE_END]))):
            raise ValueError(f"message {i // MSG}: its Message-ID or Date past the piece")
        out.append(head(piece, msgs, i, id_of, date_of))
    return out


class _Trace:
    def __init__(self, triples: Any, walked: tuple, piece: Any, base: int, source: str,
                 how: Tracing, texts: Optional[tuple]) -> None:
        self.triples = triples
        self.out, self.segs, self.msgs, self.names = walked
        self.piece = piece
        self.base = base
        self.source = source
        self.how = how
        self.shown_at, self.shown = texts if texts is not None else (None, [])
        if self.shown_at is not None:       # as the compiled twin checks them
            if len(self.shown_at) != len(self.segs) // SEG:
                raise ValueError("texts: an index for each segment")
            for i, at in enumerate(self.shown_at):
                if at >= len(self.shown):
                    raise ValueError(f"texts: index {at} of segment {i} past the texts")
        self.starts = self.segs[SEG_START::SEG]
        self.labels: dict[int, str] = {}
        self.total = len(triples) // 3

    def segment_of(self, at: int) -> int:
        """The record offset of the segment that holds ``out[at]``."""
        return (bisect_right(self.starts, at) - 1) * SEG

    def message_of(self, k: int) -> int:
        return self.segs[self.segment_of(self.triples[3 * k]) + SEG_MESSAGE]

    def run(self) -> list:
        result: list = []
        msgs, how = self.msgs, self.how
        k = 0
        for index in range(len(msgs) // MSG):
            i = index * MSG
            if msgs[i + MSG_FLAGS] & FALLBACK or too_large(msgs, i, how.limit):
                while k < self.total and self.message_of(k) == index:
                    k += 1         # a message too large may still have been walked
                got = how.other(index)
                if got is None:
                    return result  # the spool turned out to be no mbox: nothing after
                result.extend(got)
            elif k < self.total and self.message_of(k) == index:
                k = self.message(index, k, result)
        return result

    def message(self, index: int, k: int, result: list) -> int:
        """The matches of message ``index``, from triple ``k`` on; the next triple."""
        msgs, piece, how = self.msgs, self.piece, self.how
        i = index * MSG
        message_id, date = head(piece, msgs, i, how.id_of, how.date_of)
        offset = msgs[i + MSG_FROM_LINE]
        shown = (message_id, date, self.base + offset if offset >= 0 else None)
        triples, segs, starts, total = self.triples, self.segs, self.starts, self.total
        match = self.match
        while k < total:
            r = (bisect_right(starts, triples[3 * k]) - 1) * SEG
            if segs[r + SEG_MESSAGE] != index:
                break
            found = match(r, triples[3 * k:3 * k + 3], shown)
            if found is not None:
                result.append(found)
            k += 1
        return k

    def match(self, r: int, triple: Any, head: tuple) -> Any:
        """The match of ``triple`` in segment record ``r``; None for a link's text that
        is its href."""
        segs, out, how = self.segs, self.out, self.how
        ms, me, mf = triple
        url, raw = triple_strings(out, len(out), ms, me, mf, how.table)
        kind, seg_start = segs[r + SEG_KIND], segs[r + SEG_START]
        if kind == K_HTML_TEXT and segs[r + SEG_ANCHOR] >= 0:
            h = segs[r + SEG_ANCHOR] * SEG
            href = bytes(out[segs[h + SEG_START]:segs[h + SEG_END]]).decode("utf-8", "replace")
            if url == href or how.same_link(url, href):
                return None         # <a href="U">U</a>: the href has said it already
        where = None
        shown = None
        part = self.label(r, kind)
        if kind >= K_HREF:                  # a value: the URLs of an attribute (or CSS)
            if self.shown_at is not None and self.shown_at[r // SEG] >= 0:
                shown = self.shown[self.shown_at[r // SEG]]
            start = end = segs[r + SEG_PART_OFFSET]
            raw = bytes(out[seg_start:segs[r + SEG_END]]).decode("utf-8", "replace")
        else:
            start = segs[r + SEG_PART_OFFSET] + ms - seg_start
            if me <= segs[r + SEG_END]:
                end = segs[r + SEG_PART_OFFSET] + me - seg_start
            else:                           # a wrapper over lines split at "> "
                t = self.segment_of(me - 1)
                end = segs[t + SEG_PART_OFFSET] + me - segs[t + SEG_START]
                if segs[r + SEG_SRC] >= 0:  # as it stands, prefixes included
                    raw = bytes(self.piece[segs[r + SEG_SRC] + ms - seg_start:
                                           segs[t + SEG_SRC] + me - segs[t + SEG_START]]
                                ).decode("latin-1")
            if segs[r + SEG_SRC] >= 0:
                where = self.base + segs[r + SEG_SRC] + ms - seg_start
        message_id, date, at = head
        low = mf & 0xFF
        return tuple.__new__(how.cls, (
            url, raw, start, end, message_id, date, part, False, self.source, at,
            bool(low & WRAPPED), bool(low & HYPHEN_BREAK),
            how.edits[edits_index(url, mf)], where, shown))

    def label(self, r: int, kind: int) -> str:
        """The part of segment record ``r`` as a match names it (its label, `` href``,
        `` srcset``... after a value's: :data:`PART_SUFFIX`), each made once: a label's
        offset in the names is its own (they are only appended to)."""
        key = self.segs[r + SEG_LABEL_START] * KEYS + kind
        part = self.labels.get(key)
        if part is None:
            text = bytes(self.names[self.segs[r + SEG_LABEL_START]:self.segs[r + SEG_LABEL_END]])
            part = text.decode("latin-1") + PART_SUFFIX.get(kind, "")
            self.labels[key] = part
        return part


#: what a value's part is called after its label (a match's ``part``: "text/html href"):
#: the field of the email path's reader (``urlsift._html_py.FIELDS``) it came from
PART_SUFFIX = {K_HREF: " href", K_SRC: " src", K_ACTION: " action",
               K_FORMACTION: " formaction", K_BACKGROUND: " background", K_CITE: " cite",
               K_LONGDESC: " longdesc", K_DATA: " data", K_POSTER: " poster",
               K_XLINK_HREF: " xlink:href", K_SRCSET: " srcset", K_PING: " ping",
               K_STYLE: " style", K_STYLE_BLOCK: " #style"}
#: a label's key is its offset times this, plus the kind (every kind is below it)
KEYS = 32
assert max(PART_SUFFIX) < KEYS


def anchor_runs(segs: Any, out: Any) -> tuple["array[int]", list[bytes], set[int]]:
    """The text of each ``<a href>`` as the walk laid it out, each distinct text once
    (a mailing's links repeat theirs message after message): ``(index, runs, marked)``,
    ``index[h]`` for each segment ``h`` the place in ``runs`` of the octets of its
    ``<a>``'s text runs joined when ``h`` is the href of an ``<a>`` with a text, else
    -1; ``marked``: the messages where those octets are not all ASCII (-1 there). The
    runs of an ``<a>`` follow its href segment (an ``<img src>``, ``<area href>``
    between them), each :data:`K_HTML_TEXT` with that segment as its anchor.

    >>> from urlsift._mail_cut_py import walk
    >>> spool = (b"From a\\nContent-Type: text/html\\n\\n"
    ...          b'<a href="http://a.example/">see <b>this</b></a> x\\n'
    ...          b'<a href="http://b.example/">see this</a>\\n')
    >>> out, segs, msgs, names = walk(spool, 0, len(spool), b"", b"ascii\\0", 8, None)
    >>> index, runs, marked = anchor_runs(segs, out)   # 0 and 4 the hrefs, 1-2, 5 their runs
    >>> list(index), runs, marked
    ([0, -1, -1, -1, 0, -1, -1], [b'see this'], set())
    """
    index = array("q", [-1]) * (len(segs) // SEG)
    runs: list[bytes] = []
    seen: dict[bytes, int] = {}
    marked: set[int] = set()
    end = len(segs)
    for h in range(len(segs) // SEG):
        if segs[h * SEG + SEG_KIND] != K_HREF:
            continue
        message = segs[h * SEG + SEG_MESSAGE]
        parts = []
        r = h * SEG + SEG
        while r < end and segs[r + SEG_MESSAGE] == message:
            kind = segs[r + SEG_KIND]
            if kind == K_HTML_TEXT:
                if segs[r + SEG_ANCHOR] != h:
                    break
                parts.append(bytes(out[segs[r + SEG_START]:segs[r + SEG_END]]))
            elif kind < K_HREF:         # a value (an <img src> in the <a>) does not end it
                break
            r += SEG
        joined = b"".join(parts)
        if not joined:
            continue
        if not joined.isascii():
            marked.add(message)
            continue
        if joined not in seen:
            seen[joined] = len(runs)
            runs.append(joined)
        index[h] = seen[joined]
    return index, runs, marked


def url_triples(triples: Any, segs: Any, msgs: Any,
                limit: int) -> tuple["array[int]", "array[int]", "array[int]"]:
    """For the command's lines without a Match per URL: the scan's ``triples`` (of the
    text of ``walk``) kept, without those of messages larger than ``limit`` or marked
    ``FALLBACK`` (after the walk: ``urlsift.mail.walk._to_email``); the
    ``(index in the kept ones, segment of the href)`` of each found in the text of an
    ``<a href>`` (the caller drops it when it is the href itself); and ``(message,
    kept triples before it)`` of each message to be read otherwise (``FALLBACK``, or
    too large), where its lines go.

    >>> from urlsift._mail_cut_py import walk
    >>> spool = b"From a\\nList-Post: <mailto:l@x>\\n\\nsee http://a.example/\\n"
    >>> out, segs, msgs, names = walk(spool, 0, len(spool), b"List-Post\\0", b"ascii\\0", 8, None)
    >>> from urlsift.text.extraction import scan
    >>> keep, checks, cuts = url_triples(scan(out), segs, msgs, 1 << 20)
    >>> len(keep) // 3, list(checks), list(cuts)
    (2, [], [])
    """
    keep, checks, cuts = array("q"), array("q"), array("q")
    starts = segs[SEG_START::SEG]
    other = [bool(msgs[i + MSG_FLAGS] & FALLBACK) or too_large(msgs, i, limit)
             for i in range(0, len(msgs), MSG)]
    t = 0
    for index in range(len(other)):
        if other[index]:
            cuts.extend((index, len(keep) // 3))
        while t < len(triples):
            r = (bisect_right(starts, triples[t]) - 1) * SEG
            if segs[r + SEG_MESSAGE] != index:
                break
            if not other[index]:
                if segs[r + SEG_KIND] == K_HTML_TEXT and segs[r + SEG_ANCHOR] >= 0:
                    checks.extend((len(keep) // 3, segs[r + SEG_ANCHOR]))
                keep.extend(triples[t:t + 3])
            t += 3
    return keep, checks, cuts
