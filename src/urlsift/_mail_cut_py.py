"""A spool cut into messages, and each message into its header block and body (twin of
``_mail_cut.pxi``): :func:`walk`, the walk's entry point.

Messages are cut at the lines that start with ``From `` (``_layout.MBOX_SEPARATOR``,
RFC 4155 section 2, as ``mailbox.mbox``); text before the first ``From`` line is a
message without one when it is not blank; with ``whole`` the stretch is one message
without a ``From`` line (a Maildir file). A message with a bare CR (email cuts lines
there, RFC 5322 section 2.1 wants CRLF) falls back. Its Message-ID and Date value
spans go to its record; its URL-bearing headers and its MIME entity to the rooms
that read them (``_mail_headers_py``, ``_mail_mime_py``).

>>> spool = b"From a\\nDate: x\\n\\nhi\\nFrom b\\n\\nho\\n"
>>> out, segs, msgs, names = walk(spool, 0, len(spool), b"", b"ascii\\0", 8, None)
>>> [msgs[i:i + 3].tolist() for i in range(0, len(msgs), MSG)]   # From line, data
[[0, 7, 19], [19, 26, 30]]
"""
from __future__ import annotations

import re
from array import array
from typing import Any, Callable, Optional

from ._layout import FROM_LINE, MBOX_SEPARATOR
from ._mail_headers_py import BAD_HEADER_OCTET, first, header_block, url_headers
from ._mail_mime_py import entity
from ._mail_records import FALLBACK, MSG, MSG_DATE_END, MSG_DATE_START, MSG_FLAGS, MSG_ID_START
from ._mail_walker_py import Fallback, Walker, line_end

__all__ = ["walk", "message"]

_LONE_CR = re.compile(rb"\r(?!\n)")


def _names(table: bytes) -> list[bytes]:
    return [n for n in table.split(b"\0") if n]


def walk(buf: Any, start: int, stop: int, headers: bytes, charsets: bytes, max_depth: int,
         unescape: Optional[Callable[[str], str]],
         whole: bool = False) -> tuple[bytearray, "array[int]", "array[int]", bytearray]:
    """Walk the messages in ``buf[start:stop]`` (see ``urlsift._mail_py``); with
    ``whole`` the stretch is one message without a ``From `` line (a Maildir file).
    ``headers``: the URL-bearing header names to report, NUL-terminated, in their order
    (the mail layer's ``URL_HEADERS``); ``charsets``: the charsets whose octets
    0x00-0x7F are ASCII, NUL-terminated, ``*`` ending a prefix (``mail.CHARSETS``)."""
    buf = bytes(buf[start:stop]) if start or stop != len(buf) else bytes(buf)
    w = Walker(buf, start, _names(headers), _names(charsets.lower()), max_depth, unescape)
    n = len(buf)
    p = 0
    first_one = True
    if whole:
        message(w, -1, 0, n)
        p = n
    while p < n:
        if buf.startswith(FROM_LINE, p):
            data = line_end(buf, p, n)
            offset = p
        else:                                  # text before the first From line
            data, offset = p, -1
        k = buf.find(MBOX_SEPARATOR, data - 1 if data > 0 else 0)
        end = n if k < 0 else k + 1
        if offset >= 0 or not first_one or buf[data:end].strip():
            message(w, offset, data, end)
        first_one = False
        p = end
    return w.out, w.segs, w.msgs, w.names


def message(w: Walker, offset: int, a: int, e: int) -> None:
    """The message ``buf[a:e]`` (its From line at ``offset``, -1 without one): its
    record, and its segments unless it falls back."""
    index = len(w.msgs) // MSG
    out_len, segs_len, names_len = len(w.out), len(w.segs), len(w.names)
    base = w.base
    record = [base + offset if offset >= 0 else -1, base + a, base + e, -1, -1, -1, -1, 0]
    try:
        if _LONE_CR.search(w.buf, a, e):
            raise Fallback
        fields, body = header_block(w.buf, a, e)
        for name, span in ((b"message-id", MSG_ID_START), (b"date", MSG_DATE_START)):
            value = first(fields, name)
            if value is not None:
                if BAD_HEADER_OCTET.search(w.buf, value[0], value[1]):
                    raise Fallback          # email makes it a Header object
                record[span], record[span + 1] = base + value[0], base + value[1]
        url_headers(w, index, fields)
        entity(w, index, fields, body, e, "", 0, False)
    except Fallback:
        w.undo(out_len, segs_len, names_len)
        record[MSG_ID_START:MSG_DATE_END + 1] = [-1, -1, -1, -1]
        record[MSG_FLAGS] |= FALLBACK
    w.msgs.extend(record)
