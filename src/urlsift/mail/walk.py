"""URLs of a spool at the speed of the scanner: the walk on the bytes.

An mbox is read in pieces of whole messages (:func:`~urlsift.mail.spool.mbox_blocks`);
the core's mail walker (``cores.mail.walk``: Cython, with a pure-Python twin) cuts each
piece into messages, reads their headers and MIME structure on the bytes, decodes
quoted-printable and base64 as :mod:`email` does, and lays every text part, HTML link
and URL-bearing header end to end into one text; the scanner then takes that text in
one call, and each URL is traced back to its message and part. No
``email.message.Message`` is built on this path.

A message the walker does not read exactly as the standard library would (see
``urlsift._mail_py``) is marked, and that message alone goes through
:func:`urlsift.mail.message.message_matches` (``email``): the URLs, parts, Message-IDs
and dates are the same either way (``tests/test_mail_walk.py`` holds the two paths
side by side).

>>> import io
>>> spool = io.BytesIO(b"From a\\nMessage-ID: <1@x>\\n\\nsee http://a.example/\\n")
>>> [(m.url, m.part, m.message_id, m.file_offset) for m in spool_urls(spool, "box")]  # 7 + 19 + 4
[('http://a.example/', '1 text/plain', '<1@x>', 30)]
"""
from __future__ import annotations

import io
from array import array
from bisect import bisect_right
from collections import deque
from itertools import chain
from typing import IO, Any, Callable, Iterable, Iterator, Optional

from .._mail_records import (FALLBACK, MSG, MSG_END, MSG_FLAGS, MSG_FROM_LINE, MSG_START, SEG,
                             SEG_END, SEG_MESSAGE, SEG_START)
from .._select import cores
from ..text.bom import bom_length
from ..text.extraction import filter_matches, url_lines_of
from ..text.jsonescapes import has_json_escapes, run_starts
from ..text.rules import EDITS, KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE
from . import spool
from .anchors import anchor_text, same_link
from .html import decode_char_refs as html_unescape
from .message import (URL_HEADERS, MailMatch, ScanOptions, clean, iso_date, message_matches,
                      options, print_error, where_of)

__all__ = ["spool_urls", "spool_match_lists", "spool_url_lines", "maildir_urls",
           "message_urls_fast", "numbered", "url_lines", "MAX_DEPTH", "HEADERS", "CHARSETS",
           "tracing"]

#: How deep multiparts may nest before a message is left to the standard library.
MAX_DEPTH = 32
#: Maildir files read at once, and the threads that read them.
READ_BATCH = 256
READERS = 4

#: :data:`urlsift.mail.message.URL_HEADERS` as the walker takes them (NUL-terminated).
HEADERS = b"".join(name.encode("ascii") + b"\0" for name in URL_HEADERS)

#: The charsets whose octets 0x00-0x7F are ASCII and never part of a wider character, so
#: URLs are found in a part without decoding it (NUL-terminated, ``*`` ends a prefix); a
#: part in another (UTF-16...) is read by ``email``. As the walker takes them.
CHARSETS = (b"us-ascii\0ascii\0utf-8\0utf8\0iso-8859-*\0iso8859-*\0iso_8859-*\0latin*\0"
            b"l1\0windows-125*\0cp125*\0cp437\0cp850\0koi8-*\0euc-jp\0euc-kr\0gb2312\0"
            b"tis-620\0x-unknown\0unknown-8bit\0")

#: The size of the pieces whose matches are made as objects (:func:`spool_match_lists`):
#: small enough that a piece, the walk's buffers and the matches traced from it stay in
#: the core's cache between the walk, the trace and the caller, who reads the matches of
#: a piece as one list, freed together. Larger pieces cost more per URL there, not less;
#: the lines of the command and the table's rows keep ``spool.BLOCK``.
MATCH_PIECE = 128 << 10


def spool_urls(stream: IO[bytes], name: str, *, schemes: Optional[Iterable[str]] = None,
               valid: Optional[str] = None,
               on_error: Optional[Callable[[str], None]] = None) -> Iterator[MailMatch]:
    """Every URL of the mbox read from ``stream`` (named ``name``), in file order; what
    cannot be read is reported through ``on_error`` (as
    :func:`urlsift.mail.iter_spool_urls` does) and the walk goes on."""
    return chain.from_iterable(spool_match_lists(stream, name, schemes=schemes, valid=valid,
                                                 on_error=on_error))


def spool_match_lists(stream: IO[bytes], name: str, *, schemes: Optional[Iterable[str]] = None,
                      valid: Optional[str] = None,
                      on_error: Optional[Callable[[str], None]] = None,
                      jobs: int = 1, offset: int = 0,
                      line_numbers: bool = False) -> Iterator[list[Any]]:
    """:func:`spool_urls` in lists, a piece of the spool (about 128 KiB) each: what the
    command writes without a Python step per URL. ``line_numbers``: lists of
    ``(match, line)`` instead (:func:`numbered`; the line unknown, None, after a
    message too large to hold, whose lines are not counted).

    With ``jobs`` > 1 the pieces are walked and scanned on ``jobs`` threads (both run
    without the GIL) while this thread builds the matches of the pieces already done,
    in file order; at most ``2 * jobs`` pieces are held at once. ``offset``: where the
    stream starts in the spool (a Dask partition), added to the offsets.
    """
    opts = options(schemes, valid, False)
    report = on_error or print_error
    limit = spool.MESSAGE_MAX
    line: Optional[int] = 1 if line_numbers and not offset else None
    pieces = spool.mbox_blocks(stream, limit, block=MATCH_PIECE)
    for base, piece, prepared in _walked_in_order(pieces, jobs):
        if isinstance(piece, Exception):
            found = message_matches(name, None if base is None else base + offset, piece, opts,
                                    report)
            if line_numbers:          # the lines of what was passed over are not counted
                line = None
                yield [(m, None) for m in found]
            else:
                yield found
            continue
        found, stop = _traced(piece, (base or 0) + offset, name, opts, report, limit, prepared)
        if line_numbers:
            yield numbered(found, piece, (base or 0) + offset, line)
            line = None if line is None else line + piece.count(b"\n")
        else:
            yield found
        if stop:
            return


def numbered(found: list[MailMatch], data: bytes, base: int,
             line: Optional[int]) -> list[tuple[MailMatch, Optional[int]]]:
    """``(match, line)`` for each of ``found``: the 1-based line of the file where its
    text stands as written (``file_offset``), or where its message starts (``offset``;
    a Maildir file: ``base``) for a URL of a decoded part — ``data`` starting at offset
    ``base`` of the file, on line ``line`` (None: unknown). Lines are counted from one
    match to the next (they come mostly in file order).

    >>> m = MailMatch("http://a.example/", "", 0, 0, None, None, "1 text/plain", False,
    ...               "box", 0, file_offset=13)    # 7 + 5 + 1
    >>> [n for _, n in numbered([m, m._replace(file_offset=None)],
    ...                         b"From a\\nX: y\\n\\nhttp://a.example/\\n", 0, 1)]
    [4, 1]
    """
    out: list[tuple[MailMatch, Optional[int]]] = []
    at = count = 0                 # newlines in data[:at]
    for m in found:
        where = m.file_offset if m.file_offset is not None else (
            m.offset if m.offset is not None else base)
        rel = where - base
        if line is None or not 0 <= rel <= len(data):
            out.append((m, None))
            continue
        if rel < at:
            at = count = 0
        count += data.count(b"\n", at, rel)
        at = rel
        out.append((m, line + count))
    return out


def maildir_urls(name: str, *, schemes: Optional[Iterable[str]] = None,
                 valid: Optional[str] = None,
                 on_error: Optional[Callable[[str], None]] = None,
                 line_numbers: bool = False) -> Iterator[Any]:
    """Every URL of the messages of the Maildir ``name``, in the order of
    :func:`urlsift.mail.spool.maildir_paths`, each file walked as one message. The
    files are read :data:`READ_BATCH` at a time on :data:`READERS` threads (a read
    waits on the disk without the GIL), so the walk does not wait for each open.
    ``line_numbers``: ``(match, line)`` pairs instead (:func:`numbered`)."""
    from concurrent.futures import ThreadPoolExecutor

    opts = options(schemes, valid, False)
    report = on_error or print_error
    paths = spool.maildir_paths(name)
    with ThreadPoolExecutor(max_workers=READERS, thread_name_prefix="urlsift-maildir") as pool:
        ahead = None
        for i in range(0, len(paths), READ_BATCH):
            batch = paths[i:i + READ_BATCH]
            got = ahead if ahead is not None else pool.map(spool.read_message_file, batch)
            nxt = paths[i + READ_BATCH:i + 2 * READ_BATCH]
            ahead = pool.map(spool.read_message_file, nxt) if nxt else None   # read ahead
            for source, data in zip(batch, got):
                if isinstance(data, Exception):
                    found = message_matches(source, None, data, opts, report)
                    yield from ((m, None) for m in found) if line_numbers else found
                elif line_numbers:
                    yield from numbered(message_urls_fast(data, source, opts, report), data, 0, 1)
                else:
                    yield from message_urls_fast(data, source, opts, report)


def message_urls_fast(data: bytes, source: str, opts: ScanOptions,
                      report: Callable[[str], None]) -> list[MailMatch]:
    """The URLs of one message file (a Maildir's): the walk, or ``email`` for it. A UTF-8
    byte-order mark before its headers is passed over (``file_offset`` counts it)."""
    if len(data) > spool.MESSAGE_MAX:
        return message_matches(source, None, spool.SpoolError(
            f"message larger than {spool._size(spool.MESSAGE_MAX)}"), opts, report)
    skip = bom_length(data)      # a BOM before the headers: passed over, offsets count it
    return _piece_urls(data[skip:] if skip else data, skip, source, opts, report,
                       spool.MESSAGE_MAX, True)[0]


def _piece_urls(piece: bytes, base: int, name: str, opts: ScanOptions,
                report: Callable[[str], None], limit: int,
                whole: bool) -> tuple[list[MailMatch], bool]:
    """The URLs of a piece of whole messages at ``base`` in the spool, and True when the
    spool turned out to be no mbox (a line too long): the rest must not be read."""
    return _traced(piece, base, name, opts, report, limit, _prepared(piece, whole), whole)


def _prepared(piece: bytes, whole: bool = False) -> Any:
    """The walk of a piece, the scan of its text and the runs of its links' texts
    (``anchor_runs``): what runs without the GIL (on a worker thread with ``jobs``); the
    exception instead when the walk failed."""
    try:
        walked = cores.mail.walk(piece, 0, len(piece), HEADERS, CHARSETS, MAX_DEPTH,
                                 html_unescape, whole)
    except (MemoryError, KeyboardInterrupt):
        raise
    except Exception as exc:
        return exc
    return walked, _scan_text(walked[0]), cores.mail.anchor_runs(walked[1], walked[0])


def _scan_text(text: Any) -> "array[int]":
    """The scan of a walk's text, as the compiled MailPipeline scans it: without the
    octets table of plain text (its parts are decoded by their charset and transfer
    encoding; ``urlsift._scan_py``), as the ``email`` path scans (``decoded=True``)."""
    return cores.scan.scan(text, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)


def _traced(piece: bytes, base: int, name: str, opts: ScanOptions,
            report: Callable[[str], None], limit: int, prepared: Any,
            whole: bool = False) -> tuple[list[MailMatch], bool]:
    """The matches of a prepared piece, traced back to messages (needs the GIL)."""
    if isinstance(prepared, Exception):   # a fault of the walk must cost no message
        messages = [(name, None, piece)] if whole else spool.mbox_messages(io.BytesIO(piece), name)
        result: list[MailMatch] = []
        for source, offset, data in messages:
            at = base + offset if offset is not None else None
            result.extend(message_matches(source, at, data, opts, report))
        return result, False
    _json_to_email(prepared)
    texts = _anchor_texts(prepared)
    (out, segs, msgs, names), triples, _ = prepared
    no_mbox: list[bool] = []

    def other(index: int) -> Optional[list[MailMatch]]:
        got = _other(piece, base, name, msgs, index, opts, report, limit)
        if got is None:
            no_mbox.append(True)
        return got

    found = cores.mail.trace(triples, (out, segs, msgs, names), piece, base, name,
                             tracing(limit, other), texts)
    if opts.schemes is not None or opts.valid is not None:
        found = list(filter_matches([found], opts.schemes, opts.valid))   # idempotent on "other"'s
    return found, bool(no_mbox)


def _other(piece: bytes, base: int, name: str, msgs: Any, index: int, opts: ScanOptions,
           report: Callable[[str], None], limit: int) -> Optional[list[MailMatch]]:
    """The matches of a message the walk left (read with ``email``), [] for one too
    large (reported), None when a line too long shows the spool is no mbox (reported:
    the rest must not be read)."""
    i = index * MSG
    offset, a, e = msgs[i + MSG_FROM_LINE], msgs[i + MSG_START], msgs[i + MSG_END]
    at = base + offset if offset >= 0 else None
    if e - a > limit or (offset >= 0 and a - offset > limit):
        line = _long_line(piece, offset if offset >= 0 else a, e, limit)
        if line >= 0:
            if line - a > limit:     # too large before the long line: both, in that order
                report(f"skipping message {where_of(name, at)}: message larger than "
                       f"{spool._size(limit)}")
            report(f"skipping message {where_of(name, at)}: no line end within "
                   f"{spool._size(limit)} at offset {base + line}: not an mbox, the rest "
                   f"of it is not read")
            return None
        report(f"skipping message {where_of(name, at)}: message larger than {spool._size(limit)}")
        return []
    return message_matches(name, at, piece[a:e], opts, report)


def spool_url_lines(stream: IO[bytes], name: str, *,
                    on_error: Optional[Callable[[str], None]] = None,
                    jobs: int = 1) -> Iterator[bytes]:
    """The URLs of the mbox read from ``stream``, one per line (``url`` of
    :func:`spool_urls`, same order), as bytes a piece at a time, without a Python object
    per URL: the walk, the scan and the lines are made for each piece on ``jobs``
    threads; only the messages the walk leaves to ``email`` are read here."""
    opts = options(None, None, False)
    report = on_error or print_error
    limit = spool.MESSAGE_MAX


    for base, piece, prepared in _walked_in_order(spool.mbox_blocks(stream, limit), jobs, False):
        if isinstance(piece, Exception):
            yield url_lines(message_matches(name, base, piece, opts, report))
            continue
        if isinstance(prepared, Exception):   # a fault of the walk: email reads the piece
            found, _ = _traced(piece, base or 0, name, opts, report, limit, prepared)
            yield url_lines(found)
            continue
        chunks, msgs = _lines_of(prepared)
        for chunk in chunks:
            if isinstance(chunk, int):        # a message the walk left: read here
                got = _other(piece, base or 0, name, msgs, chunk, opts, report, limit)
                if got is None:
                    return
                chunk = url_lines(got)
            if chunk:
                yield chunk


def url_lines(found: Iterable[MailMatch]) -> bytes:
    """The ``url`` of each match, one per line, as the command writes them."""
    return "".join(m.url + "\n" for m in found).encode("utf-8", "surrogateescape")


def _lines_of(prepared: Any) -> Any:
    """The lines of a walked and scanned piece: bytes chunks, and between them the
    index of each message the walk left (its lines go there); with the messages'
    records. All but the few URLs found in the text of an ``<a href>`` is made without
    a Python object per URL."""
    _json_to_email(prepared)
    (out, segs, msgs, names), triples, _ = prepared
    keep, checks, cuts = cores.mail.url_triples(triples, segs, msgs, spool.MESSAGE_MAX)
    if checks:
        keep, cuts = _without_repeated_links(keep, checks, cuts, out, segs)
    chunks: list[Any] = []
    first = 0
    for i in range(0, len(cuts), 2):
        chunks.append(url_lines_of(out, keep, first, cuts[i + 1]))
        chunks.append(cuts[i])
        first = cuts[i + 1]
    chunks.append(url_lines_of(out, keep, first, len(keep) // 3))
    return chunks, msgs


def _json_to_email(prepared: Any) -> None:
    """Mark ``FALLBACK`` each message whose walked text holds a JSON-escaped URL
    (``https:\\/\\/...``, :mod:`urlsift.text.jsonescapes`) (its triples passed over):
    ``email`` reads that message, and its scan reads the escapes (``extract`` does); the
    walk's trace does not. A piece without a backslash costs one ``memchr``."""
    (out, segs, msgs, _), triples, _ = prepared
    if not has_json_escapes(out):
        return
    starts = segs[SEG_START::SEG]

    def message(at: int) -> int:
        return segs[(bisect_right(starts, at) - 1) * SEG + SEG_MESSAGE]

    _to_email(prepared, {message(at) for at in run_starts(out)})


def _to_email(prepared: Any, marked: set[int]) -> None:
    """Mark ``FALLBACK`` the messages ``marked`` (their indexes): ``trace`` and
    ``url_triples`` pass over their triples and hand them to ``email``."""
    msgs = prepared[0][2]
    for index in marked:
        msgs[index * MSG + MSG_FLAGS] |= FALLBACK


def _anchor_texts(prepared: Any) -> tuple["array[int]", list[Optional[str]]]:
    """The text a reader sees on each ``<a>`` whose ``href`` the walk laid out
    (``MailMatch.text``, :func:`urlsift.mail.anchors.anchor_text` of the text runs the
    walk gave that ``<a>``), as ``trace`` takes them: ``(index, texts)``, the text of
    the href in segment ``h`` ``texts[index[h]]`` (-1: none), each distinct text made
    once. The walk keeps a part's octets in its charset, which it does not hand out: a
    message whose anchor text holds a non-ASCII octet is marked ``FALLBACK``, and
    ``email`` decodes it (the same text either way)."""
    index, runs, marked = prepared[2]
    _to_email(prepared, marked)
    if len(_SHOWN) > _SHOWN_MAX:
        _SHOWN.clear()
    return index, list(map(_SHOWN.__getitem__, runs))


class _Shown(dict[bytes, Optional[str]]):
    """The texts of anchors' runs: a run not seen yet is read (``__missing__``) and
    kept, so that a hit is one lookup made from C (``map``), no Python step per run."""

    def __missing__(self, run: bytes) -> Optional[str]:
        """:func:`urlsift.mail.anchors.anchor_text` of an anchor's ASCII text runs."""
        text = self[run] = anchor_text(run.decode("ascii"))
        return text


# The texts of links kept from piece to piece (a mailing's links repeat their texts
# message after message), at most about this many. A dict: a hit is one lookup, where
# lru_cache makes a tuple key and moves its list of recent keys on each.
_SHOWN_MAX = 4096
_SHOWN: dict[bytes, Optional[str]] = _Shown()


# without_same_urls reads a span's end right after its start
if SEG_END != SEG_START + 1:
    raise ImportError("urlsift.mail.walk: a segment's end no longer follows its start "
                      "(_layout.MAIL_SEGMENT): without_same_urls needs it")


def _without_repeated_links(keep: Any, checks: Any, cuts: Any, out: Any, segs: Any) -> tuple:
    """``keep`` without the URLs of ``<a href="U">U</a>`` texts (the href has said them;
    :func:`same_link`), ``cuts`` moved to match (the ``_records`` core's
    ``without_same_urls``, over the segments' starts and ends)."""
    return cores.records.without_same_urls(keep, checks, cuts, out, segs, SEG, SEG_START, TABLE,
                                           same_link)


def _walked_in_order(pieces: Iterator[tuple[Optional[int], Any]], jobs: int,
                     anchors: bool = True) -> Iterator[tuple[Optional[int], Any, Any]]:
    """``(base, piece, _prepared(piece))`` in order, on the core's :class:`MailPipeline`:
    with ``jobs`` > 1 the pieces are walked and scanned ahead on ``jobs - 1`` threads
    (this one, tracing the matches, is the other), which hold the GIL only to start and
    to end, so they never wait for this thread to let it go; with one job they are
    walked here, the walker's buffers kept from piece to piece. ``anchors``: the runs of
    the links' texts are read too (False: None in their place, for the lines of URLs)."""
    pipe = cores.mail.MailPipeline(HEADERS, CHARSETS, MAX_DEPTH, html_unescape, TABLE, KNOWN,
                                   MAX_WRAPPER, MAX_LENGTH, max(jobs, 1) - 1, anchors)
    pending: deque = deque()     # (base, piece), errors of the blocks in their place
    done: deque = deque()
    try:
        for base, piece in pieces:
            if not isinstance(piece, Exception):
                while not pipe.put(piece):        # the ring is full: take the oldest
                    done.append(_taken(pending.popleft(), pipe))
            pending.append((base, piece))
            while done:            # given out once the next piece is in the workers' hands
                yield done.popleft()
        while pending:
            yield _taken(pending.popleft(), pipe)
    finally:
        pipe.close()


def _taken(item: tuple[Optional[int], Any], pipe: Any) -> tuple[Optional[int], Any, Any]:
    base, piece = item
    if isinstance(piece, Exception):
        return base, piece, None
    got = pipe.take()
    if isinstance(got, MemoryError):   # no email fallback can do better: the run ends
        raise got
    return base, piece, got


def tracing(limit: int, other: Callable[[int], Optional[list]]) -> Any:
    """The rules the core's ``trace`` follows (``urlsift._mail_trace_py.Tracing``): the
    matches made as :class:`MailMatch`, a message larger than ``limit`` or left by the
    walk handed to ``other``, Message-IDs and Dates as ``email``'s path shows them, an
    ``<a>``'s text left out when it is its href (:func:`same_link`)."""
    return cores.mail.Tracing(MailMatch, limit, other, _message_id, _date, same_link, EDITS, TABLE)


def _message_id(raw: bytes) -> Optional[str]:
    return clean(raw.decode("ascii"))


def _date(raw: bytes) -> Optional[str]:
    return iso_date(raw.decode("ascii"))


def _long_line(piece: bytes, a: int, e: int, limit: int) -> int:
    """Where the first line longer than ``limit`` starts in ``piece[a:e]``, or -1."""
    while a < e:
        k = piece.find(b"\n", a, e)
        k = e if k < 0 else k + 1
        if k - a > limit:
            return a
        a = k
    return -1
