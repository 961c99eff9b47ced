"""The URLs of a spool as the walk's records, no :class:`~urlsift.mail.MailMatch` per URL:
what ``urlsift.extract_table`` makes its mail rows of (``urlsift.inputs.mailtable``).

Each piece of the spool is walked and scanned as :func:`urlsift.mail.walk.spool_url_lines`
walks it (``jobs`` threads); the scan's records of the URLs kept (``_layout.RECORD`` over
the walk's text, those of an ``<a>``'s text that is its href left out) are handed out
as :class:`WalkedRows` with the walk's segment records (``_layout.MAIL_SEGMENT``, read by
name) and each message's Message-ID and Date as the trace shows them. A message the walk
leaves to ``email`` (``FALLBACK``, too large, a JSON-escaped URL, an anchor text that is
not ASCII) comes as the list of its matches, in its place: the rows are those of
:func:`~urlsift.mail.walk.spool_match_lists`, in the same order.
"""
from __future__ import annotations

from array import array
from typing import IO, Any, Callable, Iterator, NamedTuple, Optional, Union

from .._mail_records import SEG, SEG_KIND, SEG_LABEL_END, SEG_LABEL_START, SEG_START
from .._select import cores
from . import spool
from .message import MailMatch, message_matches, options, print_error
from .walk import (_anchor_texts, _date, _json_to_email, _message_id, _other, _traced,
                   _walked_in_order, _without_repeated_links)

__all__ = ["WalkedRows", "spool_rows"]

class WalkedRows(NamedTuple):
    """The records ``first`` to ``last`` of ``keep`` (URLs found in the walk's text
    ``out``), the walk's ``segs`` and ``names``, and ``heads``: ``(message_id, date)`` of
    each message by its index (None for one the walk left)."""

    out: Any
    keep: "array[int]"
    first: int
    last: int
    segs: "array[int]"
    names: Any
    heads: list[Optional[tuple[Optional[str], Optional[str]]]]

    def part(self, r: int) -> str:
        """The ``part`` of a match in segment ``r`` (its index): the part's label, then
        `` href`` or `` src`` for a value's."""
        i = r * SEG
        text = bytes(self.names[self.segs[i + SEG_LABEL_START]:self.segs[i + SEG_LABEL_END]])
        return text.decode("latin-1") + cores.mail.PART_SUFFIX.get(self.segs[i + SEG_KIND], "")

    def starts(self) -> "array[int]":
        """The segments' starts in the walk's text (ascending)."""
        return self.segs[SEG_START::SEG]


def spool_rows(stream: IO[bytes], name: str, *,
               on_error: Optional[Callable[[str], None]] = None,
               jobs: int = 1) -> Iterator[Union[WalkedRows, list[MailMatch]]]:
    """The URLs of the mbox read from ``stream`` (named ``name``) in file order: a
    :class:`WalkedRows` for each run of messages the walk read, the list of matches of
    each message read otherwise (reported through ``on_error`` and skipped as
    :func:`urlsift.mail.walk.spool_urls` does)."""
    opts = options(None, None, False)
    report = on_error or print_error
    limit = spool.MESSAGE_MAX
    for base, piece, prepared in _walked_in_order(spool.mbox_blocks(stream, limit), jobs):
        if isinstance(piece, Exception):
            yield message_matches(name, base, piece, opts, report)
            continue
        if isinstance(prepared, Exception):   # a fault of the walk: email reads the piece
            yield _traced(piece, base or 0, name, opts, report, limit, prepared)[0]
            continue
        _json_to_email(prepared)
        _anchor_texts(prepared)          # as the trace: a non-ASCII anchor text to email
        (out, segs, msgs, names), triples, _ = prepared
        keep, checks, cuts = cores.mail.url_triples(triples, segs, msgs, limit)
        if checks:
            keep, cuts = _without_repeated_links(keep, checks, cuts, out, segs)
        heads = cores.mail.heads(piece, msgs, _message_id, _date)
        first = 0
        for i in range(0, len(cuts), 2):
            if cuts[i + 1] > first:
                yield WalkedRows(out, keep, first, cuts[i + 1], segs, names, heads)
            got = _other(piece, base or 0, name, msgs, cuts[i], opts, report, limit)
            if got is None:              # no mbox after all: the rest is not read
                return
            yield got
            first = cuts[i + 1]
        if len(keep) // 3 > first:
            yield WalkedRows(out, keep, first, len(keep) // 3, segs, names, heads)
