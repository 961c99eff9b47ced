"""The UTF-8 byte-order mark: octets EF BB BF (U+FEFF) at the start of a file.

Notepad and other editors write it in front of a text saved as UTF-8. It is no part of
the text (RFC 3629 §6: "it is not part of the text"), so whatever reads a file, a
stream or a text of URLs one a line passes over it — at the start only: U+FEFF
anywhere else is a zero-width no-break space, a character of the text like any other.
Offsets stay those of the input as it stands: the first URL after a BOM starts at
octet 3 of the file (at index 1 of a ``str``).

The scanner needs no help (U+FEFF is no URL character, so no URL takes it in, and a
reply quote matters only on a line that continues a wrapper, never the first); the
readers that take a line, or the start of a stream, as one thing do: ``urlsift
validate`` and ``parse -`` (a line is a URL), ``urlsift.validate_many`` (its first
string), mbox sniffing and splitting (a spool starts with ``From ``), a Maildir
message file (it starts with a header).

>>> bom_length(b"\\xef\\xbb\\xbfhttp://a.example/"), bom_length(b"http://a.example/")
(3, 0)
>>> without_bom("\\ufeffhttp://a.example/")
'http://a.example/'
"""
from __future__ import annotations

from typing import overload

__all__ = ["BOM", "BOM_CHAR", "bom_length", "without_bom"]

#: The UTF-8 byte-order mark, as octets.
BOM = b"\xef\xbb\xbf"
#: The byte-order mark as a character (U+FEFF ZERO WIDTH NO-BREAK SPACE).
BOM_CHAR = "\ufeff"


def bom_length(head: bytes | bytearray | memoryview) -> int:
    """3 when ``head`` (the first octets of an input) starts with a UTF-8 BOM, else 0."""
    return len(BOM) if bytes(head[:3]) == BOM else 0


@overload
def without_bom(text: str) -> str: ...
@overload
def without_bom(text: bytes) -> bytes: ...


def without_bom(text: str | bytes) -> str | bytes:
    """``text`` without a byte-order mark at its start (U+FEFF for ``str``, EF BB BF
    for ``bytes``); anywhere else the character is left where it is."""
    if isinstance(text, str):
        return text[1:] if text.startswith(BOM_CHAR) else text
    return text[len(BOM):] if text.startswith(BOM) else text
