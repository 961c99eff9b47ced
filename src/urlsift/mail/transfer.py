"""A part's body with its Content-Transfer-Encoding undone (RFC 2045 section 6) as mail
clients read it, for the ``email`` path (:mod:`urlsift.mail.message`).

``email``'s ``get_payload(decode=True)`` compares the field's text to ``base64`` or
``quoted-printable`` as it stands (``base64 `` with a blank after it, ``base64 (by X)``
or a folded value are read as no encoding) and its base64 stops at the first pad, so a
part a mail client shows, link and all, was read as its encoded text. Here the
mechanism is the one token of the value, comments and folds taken out (section 6.1),
quoted-printable soft breaks keep working with transport blanks after the ``=`` (section
6.7, rule 3) and base64 goes on past a padded quantum: the walker's own decoders
(``cores.mail``), so that both paths read a part alike, defined once.

>>> import email
>>> part = email.message_from_bytes(b"Content-Transfer-Encoding: Base64 (x)\\n\\n"
...                                 b"aHR0cA==\\nOi8vYS8=\\n")
>>> transfer_decoded(part)
b'http://a/'
"""
from __future__ import annotations

import copy
import re
from email.message import Message
from typing import Optional

from .._select import cores

__all__ = ["transfer_decoded"]

# RFC 2045 section 6.8: "Any characters outside of the base64 alphabet are to be ignored"
_NOT_BASE64 = re.compile(rb"[^A-Za-z0-9+/=]")


def transfer_decoded(part: Message) -> Optional[bytes]:
    """The octets of a leaf ``part``'s body, its Content-Transfer-Encoding undone; None
    for a multipart (it has no body of its own)."""
    payload = part.get_payload()
    if not isinstance(payload, str):
        return payload if isinstance(payload, bytes) else None
    value = part.get("content-transfer-encoding")
    cte = (cores.mail.mechanism(str(value).encode("utf-8", "surrogateescape"))
           if value is not None else b"")
    if cte not in (b"quoted-printable", b"base64"):
        return _octets(part)                   # as it stands, or uuencode as email reads it
    # the octets as they stand: get_payload(decode=True) decodes only what the field
    # names, so a copy without it (get_payload() would write 8-bit octets as U+FFFD)
    bare = copy.copy(part)
    del bare["content-transfer-encoding"]
    raw = _octets(bare)
    if cte == b"quoted-printable":
        return cores.mail.decode_qp(raw)
    decoded = cores.mail.decode_base64(raw)
    return decoded if decoded is not None else cores.mail.decode_base64(_NOT_BASE64.sub(b"", raw))


def _octets(part: Message) -> bytes:
    """``get_payload(decode=True)`` of a leaf part (bytes: its type says more)."""
    got = part.get_payload(decode=True)
    return got if isinstance(got, bytes) else b""
