"""Content-transfer-encodings undone (twin of ``_mail_decode.pxi``): quoted-printable
(RFC 2045 section 6.7) and base64 (RFC 2045 section 6.8) as mail clients read them,
where ``email`` does not: a soft break with blanks after its ``=`` is a soft break (rule
3: the blanks were added in transport), and base64 goes on past a padded quantum. The
``email`` path of :mod:`urlsift.mail.message` decodes with these too.

>>> decode_qp(b"http://a.example/?x=3Dy=\\n&z\\n")
b'http://a.example/?x=y&z\\n'
"""
from __future__ import annotations

import binascii
import re
from typing import Optional

__all__ = ["decode_qp", "decode_base64"]

_BASE64 = re.compile(rb"[A-Za-z0-9+/=]*")
# "=", blanks, then a line end or the end: rule 3 deletes the blanks, a soft break is
# left; "==" (one "=" to binascii) is taken first so that its second "=" starts nothing
_SOFT_BREAK_BLANKS = re.compile(rb"==|=[ \t]+(?=[\r\n]|\Z)")


def decode_qp(body: bytes) -> bytes:
    """A quoted-printable body decoded (RFC 2045 section 6.7): ``binascii.a2b_qp``
    (``=XX`` an octet, ``=`` at a line end a soft break) once the blanks between a
    line's last ``=`` and its end are deleted (rule 3).

    >>> decode_qp(b"http://a.example/= \\npath=3D1")
    b'http://a.example/path=1'
    """
    if b"= " in body or b"=\t" in body:
        body = _SOFT_BREAK_BLANKS.sub(_soft_break, body)
    return binascii.a2b_qp(body)


def _soft_break(m: "re.Match[bytes]") -> bytes:
    return m[0] if m[0] == b"==" else b"="


def decode_base64(body: bytes) -> Optional[bytes]:
    """A base64 body (RFC 2045 section 6.8) decoded as mail clients decode it: the lines
    joined; each ``=`` ends the quantum it is in (the octets it completed are kept) and
    decoding goes on after it, as a body whose lines were encoded one by one has it; a
    quantum of one sextet at the end makes no octet. None when an octet is outside the
    alphabet (the message falls back; the ``email`` path then leaves such octets out,
    as section 6.8 says).

    >>> decode_base64(b"aHR0cA==\\nOi8vYS8=\\n"), decode_base64(b"aHR0cD*=\\n")
    (b'http://a/', None)
    """
    data = body.replace(b"\r", b"").replace(b"\n", b"")
    if not _BASE64.fullmatch(data):
        return None
    out = bytearray()
    for quanta in data.split(b"="):
        if len(quanta) % 4 == 1:
            quanta = quanta[:-1]                  # six bits: no octet
        out += binascii.a2b_base64(quanta + b"=" * (-len(quanta) % 4))
    return bytes(out)
