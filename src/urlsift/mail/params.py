"""Content-Type fields that ``email`` would read in quadratic time, repaired before it
reads them (the ``email`` path of :mod:`urlsift.mail.message`).

``email.message._parseparam`` ends a parameter at the first ``;`` before which the
quotes are balanced, counting them again from the parameter's start at every ``;``: a
quoted-string left open over n ``;`` costs n² (80 000 of them: seconds a message). A
field holding more than the walker's ``QUOTED_SEMICOLONS`` such ``;`` (the walker falls
back on it) has each of them written as a blank before ``email`` sees the message: the
parameters are cut where they were, only the value that held them differs (a
``boundary`` or ``charset`` holds no ``;``: RFC 2046 section 5.1.1, RFC 2978 section 2.3).

>>> repaired(b'Content-Type: text/plain; name="a' + b';' * 20 + b'\\n\\nbody\\n')[:40]
b'Content-Type: text/plain; name="a       '
"""
from __future__ import annotations

import re

from .._select import cores

__all__ = ["repaired", "quoted_semicolons"]

# a Content-Type field, folded lines and all, wherever a header block may hold one
_CONTENT_TYPE = re.compile(rb"^content-type:[^\n]*(?:\n[ \t][^\n]*)*", re.IGNORECASE | re.MULTILINE)


def quoted_semicolons(value: bytes) -> list[int]:
    """The offsets of the ``;`` of ``value`` that ``_parseparam`` passes over as inside
    quotes, found in one pass (the quotes before each counted once).

    >>> quoted_semicolons(b'text/plain; a="x;y"; b=1')
    [16]
    """
    found: list[int] = []
    n = len(value)
    start = 0                       # where the parameter starts
    while start <= n:
        quotes = 0
        i = start
        end = value.find(b";", start)
        while end > start:
            quotes += value.count(b'"', i, end) - value.count(b'\\"', i, end)
            i = end
            if quotes % 2 == 0:
                break
            found.append(end)
            end = value.find(b";", end + 1)
        if end < 0:
            break
        start = end + 1
    return found


def repaired(data: bytes) -> bytes:
    """``data`` with each Content-Type field that holds more than ``QUOTED_SEMICOLONS``
    quoted ``;`` written with blanks for them (the same length); ``data`` itself when
    none does."""
    limit = cores.mail.QUOTED_SEMICOLONS
    if data.count(b";") <= limit:
        return data
    out = None
    for m in _CONTENT_TYPE.finditer(data):
        a = m.start() + len(b"content-type:")
        skipped = quoted_semicolons(data[a:m.end()])
        if len(skipped) > limit:
            if out is None:
                out = bytearray(data)
            for k in skipped:
                out[a + k] = 0x20
    return data if out is None else bytes(out)
