"""``%hex`` encoding and decoding (RFC 1738 §2.2), on the selected core.

>>> unquote("a%20b")
'a b'
>>> unquote_to_bytes("%FF")
b'\\xff'
>>> quote("a b/c~")            # "~" is national, so unsafe: it is encoded
'a%20b%2Fc%7E'
>>> unquote("100%", strict=False)
'100%'
"""
from __future__ import annotations

from typing import Union

from ._select import cores

Text = Union[str, bytes, bytearray, memoryview]

__all__ = ["unquote", "unquote_to_bytes", "quote"]


def unquote_to_bytes(s: Text, *, strict: bool = True) -> bytes:
    """Decode every ``%hex`` escape of ``s`` into its octet.

    ``str`` input is taken as UTF-8 (``surrogateescape``, so text decoded that way
    comes back byte for byte). A malformed escape (``%``, ``%4``, ``%zz``) raises
    :class:`~urlsift.URLSyntaxError` with code ``bad-escape`` and its position;
    with ``strict=False`` it is kept literally.

    >>> unquote_to_bytes("caf%C3%A9")
    b'caf\\xc3\\xa9'
    >>> unquote_to_bytes("50%zz", strict=False)
    b'50%zz'
    """
    return cores.core.unquote_to_bytes(s, strict)


def unquote(s: Text, encoding: str = "utf-8", errors: str = "strict", *, strict: bool = True) -> str:
    """Decode ``%hex`` escapes; the octets are read as ``encoding`` text.

    ``errors`` is about that text decoding only, as in :meth:`bytes.decode`;
    ``strict`` is about malformed escapes, as in :func:`unquote_to_bytes`.
    Unlike :func:`urllib.parse.unquote` the default is ``errors="strict"``: bad
    octets are reported, not replaced.

    >>> unquote("marie%2Dclaude")
    'marie-claude'
    >>> unquote("%E9t%E9", encoding="latin-1")
    'été'
    """
    return cores.core.unquote(s, encoding, errors, strict)


def quote(s: Text, safe: str = "") -> str:
    """Encode every octet except the unreserved ones and those in ``safe``.

    Unreserved is RFC 1738's ``alpha | digit | safe | extra``: letters, digits and
    ``$-_.+!*'(),``. Everything else, reserved characters included unless listed in
    ``safe``, becomes ``%XX`` with upper-case hex. ``str`` is encoded as UTF-8.
    (``urllib.parse.quote`` differs: it keeps ``~`` and ``/`` and encodes ``$+!*'(),``.)

    >>> quote("/pub/a b", safe="/")
    '/pub/a%20b'
    >>> quote("é")
    '%C3%A9'
    """
    return cores.core.quote(s, safe)
