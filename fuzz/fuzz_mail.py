"""Fuzz target: the mail walker (``_mail_c`` / ``_mail_py``) and the walk as a whole.

Asserts:

- the core: ``walk`` of each twin gives the same scan text, segments, messages and part
  labels, as a spool and as one message (``whole``); each segment lies inside the
  scan text, in order, and each message inside the input;
- the walk (``urlsift.mail.walk.spool_urls``, which runs ``walk``, the scan and
  ``trace``) gives the same matches under both cores, every field included (offsets,
  raw, file offset), and the same error reports; the command's lines
  (``spool_url_lines``) are those matches' URLs;
- against the ``email``-based path (``iter_spool_urls``, the oracle of
  tests/test_mail_walk.py): the same URLs with the same part, Message-ID, date,
  message offset, wrapper and edits, and the same errors -- except on inputs of the
  differences that test file keeps as accepted (``KNOWN`` below), which are skipped.
  The spool is read in pieces of a fuzzer-chosen size too.

Input: one choice byte (piece size), then the spool.
"""
from __future__ import annotations

import functools
import io
import re
import sys
from unittest import mock

import _common
from _common import Input, on_both, on_twins, require

with _common.instrumented():
    from urlsift._mail_records import MSG, SEG
    from urlsift.mail.walk import CHARSETS
    from urlsift.mail import iter_spool_urls
    from urlsift.mail import spool as mail_spool
    from urlsift.mail import walk as mail_walk
    from urlsift.mail.html import decode_char_refs

#: Inputs of the accepted differences between the walk and the email path
#: (tests/test_mail_walk.py, ``_KNOWN`` and the "Differences found" section).
KNOWN = re.compile(rb'\xa4\xd4|^content-type:[ \t]*charset|boundary[ \t]*=[ \t]*"?<',
                   re.IGNORECASE | re.MULTILINE)
BLOCKS = [None, 16, 40, 64, 100, 200, 333]


def _walked(r: tuple) -> tuple:
    out, segs, msgs, names = r
    return bytes(out), list(segs), list(msgs), bytes(names)


def _walk_ok(data: bytes, walked: tuple) -> None:
    out, segs, msgs, names = walked
    require(len(segs) % SEG == 0 and len(msgs) % MSG == 0, "walk: ragged arrays", data)
    last = 0
    for r in range(0, len(segs), SEG):
        msg, a, e, src, kind, la, lb = segs[r:r + 7]
        require(0 <= msg < len(msgs) // MSG, "walk: segment of no message", data, segs[r:r + SEG])
        require(last <= a <= e <= len(out), "walk: segment outside the text or out of order",
                data, segs[r:r + SEG], len(out))
        require(0 <= la <= lb <= len(names), "walk: label outside the names", data, segs[r:r + SEG])
        require(src == -1 or 0 <= src <= len(data), "walk: source offset outside the input", data,
                segs[r:r + SEG])
        last = a
    for i in range(0, len(msgs), MSG):
        offset, a, e = msgs[i:i + 3]
        require(-1 <= offset <= a <= e <= len(data), "walk: message outside the input", data,
                msgs[i:i + MSG])


def _spool(data: bytes, block: "int | None", oracle: bool = False) -> tuple:
    errors: list[str] = []
    if oracle:
        found = iter_spool_urls(mail_spool.mbox_messages(io.BytesIO(data), "box"),
                                on_error=errors.append)
        return [_key(m) for m in found], errors
    blocks = (mock.patch.object(mail_spool, "mbox_blocks",
                                functools.partial(mail_spool.mbox_blocks, block=block))
              if block else mock.patch.object(mail_spool, "BLOCK", mail_spool.BLOCK))
    with blocks:
        found = list(mail_walk.spool_urls(io.BytesIO(data), "box", on_error=errors.append))
        lines = b"".join(mail_walk.spool_url_lines(io.BytesIO(data), "box",
                                                   on_error=lambda e: None))
    require(lines == mail_walk.url_lines(found), "spool_url_lines are not spool_urls' URLs",
            data, block, lines, [m[0] for m in found])
    return [tuple(m) for m in found], errors


def _key(m: tuple) -> tuple:
    """What the two paths must agree on (tests/test_mail_walk.py ``key``)."""
    return (m.url, m.part, m.message_id, m.date, m.source, m.offset, m.wrapped,
            m.hyphen_break, m.edits)


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris's name
    inp = Input(data)
    block = inp.pick(BLOCKS)
    data = inp.rest()
    for whole in (False, True):
        got = on_twins("_mail", "walk", data, 0, len(data), mail_walk.HEADERS, CHARSETS,
                       mail_walk.MAX_DEPTH, decode_char_refs, whole, shape=_walked)
        require(got[0] == "ok", "walk raised", data, whole, got[:3])
        _walk_ok(data, got[1])
    fast = on_both(_spool, data, block)
    require(fast[0] == "ok", "spool_urls raised", data, fast[:3])
    if KNOWN.search(data):
        return
    old = _spool(data, None, oracle=True)
    mine = ([_key(mail_walk.MailMatch(*m)) for m in fast[1][0]], fast[1][1])
    require(mine == old, "the walk and the email path differ", data, block, mine, old)


if __name__ == "__main__":
    _common.main(TestOneInput, sys.argv)
