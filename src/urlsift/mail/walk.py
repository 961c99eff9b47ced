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
from itertools import chain
from typing import IO, Any, Callable, Iterable, Iterator, Optional

from .._select import cores
from ..text.extraction import extract
from . import spool
from .html import _unescape as html_unescape
from .message import (MailMatch, _Options, clean, iso_date, iter_spool_urls, message_matches,
                      options, print_error)

__all__ = ["spool_urls", "spool_match_lists", "maildir_urls", "message_urls_fast", "iter_spool_urls", "MAX_DEPTH"]

#: How deep multiparts may nest before a message is left to the standard library.
MAX_DEPTH = 32
#: Maildir files read at once, and the threads that read them.
READ_BATCH = 256
READERS = 4

_M = cores.mail  # only for the constants, which both twins share
SEG, MSG = _M.SEG, _M.MSG
K_HEADER, K_TEXT, K_HTML_TEXT, K_HREF, K_SRC = (_M.K_HEADER, _M.K_TEXT, _M.K_HTML_TEXT,
                                                 _M.K_HREF, _M.K_SRC)
_SUFFIX = {K_HREF: " href", K_SRC: " src"}


def _walk(buf: bytes, whole: bool) -> tuple:
    return cores.mail.walk(buf, 0, len(buf), _M.HEADERS, _M.CHARSETS, MAX_DEPTH, html_unescape,
                           whole)


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
                      on_error: Optional[Callable[[str], None]] = None) -> Iterator[list[MailMatch]]:
    """:func:`spool_urls` in lists, a piece of the spool (about a MiB) each: what the
    command writes without a Python step per URL."""
    opts = options(schemes, valid, False)
    report = on_error or print_error
    limit = spool.MESSAGE_MAX
    for base, piece in spool.mbox_blocks(stream, limit):
        if isinstance(piece, Exception):
            yield message_matches(name, base, piece, opts, report)
            continue
        found, stop = _piece_urls(piece, base or 0, name, opts, report, limit, False)
        yield found
        if stop:
            return


def maildir_urls(name: str, *, schemes: Optional[Iterable[str]] = None,
                 valid: Optional[str] = None,
                 on_error: Optional[Callable[[str], None]] = None) -> Iterator[MailMatch]:
    """Every URL of the messages of the Maildir ``name``, in the order of
    :func:`urlsift.mail.spool.maildir_paths`, each file walked as one message. The
    files are read :data:`READ_BATCH` at a time on :data:`READERS` threads (a read
    waits on the disk without the GIL), so the walk does not wait for each open."""
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
                    yield from message_matches(source, None, data, opts, report)
                else:
                    yield from message_urls_fast(data, source, opts, report)


def message_urls_fast(data: bytes, source: str, opts: _Options,
                      report: Callable[[str], None]) -> list[MailMatch]:
    """The URLs of one message file (a Maildir's): the walk, or ``email`` for it."""
    if len(data) > spool.MESSAGE_MAX:
        return message_matches(source, None, spool.SpoolError(
            f"message larger than {spool._size(spool.MESSAGE_MAX)}"), opts, report)
    return _piece_urls(data, 0, source, opts, report, spool.MESSAGE_MAX, True)[0]


def _piece_urls(piece: bytes, base: int, name: str, opts: _Options,
                report: Callable[[str], None], limit: int,
                whole: bool) -> tuple[list[MailMatch], bool]:
    """The URLs of a piece of whole messages at ``base`` in the spool, and True when the
    spool turned out to be no mbox (a line too long): the rest must not be read."""
    try:
        out, segs, msgs, names = _walk(piece, whole)
    except (MemoryError, KeyboardInterrupt):
        raise
    except Exception:       # a fault of the walk must cost no message: email reads them
        messages = [(name, None, piece)] if whole else spool.mbox_messages(io.BytesIO(piece), name)
        result: list[MailMatch] = []
        for source, offset, data in messages:
            at = base + offset if offset is not None else None
            result.extend(message_matches(source, at, data, opts, report))
        return result, False
    found = list(extract(out, schemes=opts.schemes, valid=opts.valid)) if len(out) else []

    no_mbox = []

    def other(index: int) -> Optional[list[MailMatch]]:
        offset, a, e = msgs[index * MSG:index * MSG + 3]
        at = base + offset if offset >= 0 else None
        if e - a > limit or (offset >= 0 and a - offset > limit):
            line = _long_line(piece, offset if offset >= 0 else a, e, limit)
            if line >= 0:
                report(f"skipping message {_where(name, at)}: no line end within "
                       f"{spool._size(limit)} at offset {base + line}: not an mbox, the "
                       f"rest of it is not read")
                no_mbox.append(True)
                return None
            report(f"skipping message {_where(name, at)}: message larger than "
                   f"{spool._size(limit)}")
            return []
        return message_matches(name, at, piece[a:e], opts, report)

    return (cores.mail.trace(found, out, segs, msgs, names, piece, base, name, MailMatch, limit,
                             other, _same_link, _message_id, _date), bool(no_mbox))


def _message_id(raw: bytes) -> Optional[str]:
    return clean(raw.decode("ascii"))


def _date(raw: bytes) -> Optional[str]:
    return iso_date(raw.decode("ascii"))


def _where(name: str, at: Optional[int]) -> str:
    return f"at offset {at} in '{name}'" if at is not None else f"'{name}'"


def _same_link(url: str, href: str) -> bool:
    return url == href or url.rstrip("/") == href.rstrip("/")


def _long_line(piece: bytes, a: int, e: int, limit: int) -> int:
    """Where the first line longer than ``limit`` starts in ``piece[a:e]``, or -1."""
    while a < e:
        k = piece.find(b"\n", a, e)
        k = e if k < 0 else k + 1
        if k - a > limit:
            return a
        a = k
    return -1
