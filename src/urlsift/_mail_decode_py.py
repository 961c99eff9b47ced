"""Content-transfer-encodings undone (twin of ``_mail_decode.pxi``): quoted-printable
(RFC 2045 section 6.7) and base64 (RFC 2045 section 6.8), each exactly as ``email``
decodes a body (``binascii``), so that the walk and the standard library read the
same text.

>>> decode_qp(b"http://a.example/?x=3Dy=\\n&z\\n")
b'http://a.example/?x=y&z\\n'
"""
from __future__ import annotations

import binascii
import re
from typing import Optional

__all__ = ["decode_qp", "decode_base64"]

_BASE64 = re.compile(rb"[A-Za-z0-9+/]*={0,2}")


def decode_qp(body: bytes) -> bytes:
    """A quoted-printable body decoded (RFC 2045 section 6.7) as ``email`` decodes it:
    ``quopri.decodestring`` is ``binascii.a2b_qp``."""
    return binascii.a2b_qp(body)


def decode_base64(body: bytes) -> Optional[bytes]:
    """A base64 body (RFC 2045 section 6.8) decoded as ``email`` decodes a clean one
    (``email._encoded_words.decode_b``'s first try): the lines joined, padded with ``=``
    to a multiple of 4, then ``validate=True``; None when ``email`` would have to read
    it leniently (that message then falls back).

    >>> decode_base64(b"aHR0cDovL2Eu\\nZXhhbXBsZS8=\\n"), decode_base64(b"aHR0cD*=\\n")
    (b'http://a.example/', None)
    """
    data = body.replace(b"\r", b"").replace(b"\n", b"")
    if len(data) % 4:
        data += b"==="[:4 - len(data) % 4]
    if not _BASE64.fullmatch(data):
        return None
    try:
        return binascii.a2b_base64(data)
    except binascii.Error:
        return None
