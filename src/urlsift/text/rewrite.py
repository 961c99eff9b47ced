"""URLs of a text that is rewritten first: reply quotes removed, defanging undone.

The scan runs on the rewritten text; the offsets it reports are mapped back to the
text the caller gave (:class:`~urlsift.text.edits.EditMap`).

>>> [(m.url, a, b) for m, a, b, _ in extract_rewritten("> see <URL:http://x/a-\\n> b>", quoted=True)]
[('http://x/a-b', 6, 27)]
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator, Optional

from .edits import EditMap, T, unquote_replies
from .extraction import extract_with
from .logescapes import EDIT_LOG_ESCAPES, escaped, unescape_log, unicode_host
from .match import Match
from .refang import refang as refang_text
from .rules import TEXT_OCTETS

__all__ = ["extract_rewritten"]


def extract_rewritten(text: T, *, quoted: bool = False, refang: bool = False,
                      schemes: Optional[Iterable[str]] = None,
                      valid: Optional[str] = None, log_escapes: bool = False,
                      decoded: bool = False) -> Iterator[tuple[Any, int, int, bool]]:
    """``(match, start, end, refanged)`` for the URLs of ``text`` after reading log
    escapes (``\\xHH``), removing reply quotes and/or refanging, in that order;
    ``start``/``end`` point into the original ``text``. A match whose original span held
    a log escape carries the edit ``log-escapes``. ``decoded``: ``text`` is a mail part,
    decoded by its charset and transfer encoding already, and scanned as the mail walk
    scans one (no octet read as Latin-1, no quoted-printable soft line break joined)."""
    original = text
    text, lmap = unescape_log(text) if log_escapes else (text, EditMap())
    work, qmap = unquote_replies(text) if quoted else (text, EditMap())
    pre = work
    rmap = EditMap()
    if refang:
        work, rmap = refang_text(work)
    for m in extract_with(work, schemes, valid, False, None if decoded else TEXT_OCTETS):
        start, end = m.start, m.end
        refanged = False
        if rmap:
            s1, e1 = rmap.start(start), rmap.end(end)
            refanged = pre[s1:e1] != work[start:end]
            start, end = s1, e1
        if qmap:
            start, end = qmap.start(start), qmap.end(end)
        if lmap:
            start, end = lmap.start(start), lmap.end(end)
            if escaped(original[start:end]):
                m = Match(unicode_host(m.url), m.start, m.end, m.raw, m.wrapped, m.hyphen_break,
                          m.edits + (EDIT_LOG_ESCAPES,), m.line)
        yield m, start, end, refanged
