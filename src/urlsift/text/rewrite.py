"""URLs of a text that is rewritten first: reply quotes removed, defanging undone.

The scan runs on the rewritten text; the offsets it reports are mapped back to the
text the caller gave (:class:`~urlsift.text.edits.EditMap`).

>>> [(m.url, a, b) for m, a, b, _ in extract_rewritten("> see <URL:http://x/a-\\n> b>", quoted=True)]
[('http://x/a-b', 6, 27)]
"""
from __future__ import annotations

from typing import Any, Iterable, Iterator, Optional

from .edits import EditMap, T, unquote_replies
from .extraction import extract
from .refang import refang as refang_text

__all__ = ["extract_rewritten"]


def extract_rewritten(text: T, *, quoted: bool = False, refang: bool = False,
                      schemes: Optional[Iterable[str]] = None,
                      valid: Optional[str] = None) -> Iterator[tuple[Any, int, int, bool]]:
    """``(match, start, end, refanged)`` for the URLs of ``text`` after removing reply
    quotes and/or refanging; ``start``/``end`` point into the original ``text``."""
    work, qmap = unquote_replies(text) if quoted else (text, EditMap())
    pre = work
    rmap = EditMap()
    if refang:
        work, rmap = refang_text(work)
    for m in extract(work, schemes=schemes, valid=valid):
        start, end = m.start, m.end
        refanged = False
        if rmap:
            s1, e1 = rmap.start(start), rmap.end(end)
            refanged = pre[s1:e1] != work[start:end]
            start, end = s1, e1
        if qmap:
            start, end = qmap.start(start), qmap.end(end)
        yield m, start, end, refanged
