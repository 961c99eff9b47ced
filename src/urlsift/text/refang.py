"""Defanged URLs: ``hxxp://evil[.]example[.]com/x`` given back as ``http://evil.example.com/x``.

Threat reports "defang" URLs so nobody clicks them: ``hxxp``/``hxxps`` for
``http``/``https``, ``fxp`` for ``ftp``, ``[.]``, ``(.)``, ``{.}``, ``[dot]`` for ``.``,
``[:]`` for ``:``, ``[://]`` for ``://``, ``[/]`` for ``/``, ``[@]``/``[at]`` for ``@``.
:func:`refang` undoes these in a text and keeps a map back to the original offsets;
:func:`extract_refanged` scans the refanged text and reports every URL with offsets
into the ORIGINAL text and a ``refanged`` flag saying whether its span was rewritten.

>>> [(r.url, r.start, r.end, r.refanged) for r in extract_refanged("see hxxp://evil[.]example/x")]
[('http://evil.example/x', 4, 27, True)]
"""
from __future__ import annotations

import re
from typing import AnyStr, Iterable, Iterator, NamedTuple, Optional, Union, overload

from ..model.parsing import parse
from .edits import Edit, EditMap, apply_edits
from .extraction import Validity, extract

__all__ = ["Refanged", "extract_refanged", "refang"]

# One pattern for str and bytes. The scheme forms only count before a colon (plain or
# defanged), so an ordinary word "fxp" is left alone; "s" of hxxps stays as written.
_PATTERN = (
    r"(?P<scheme>(?<![A-Za-z0-9+.\-])(?:h(?:xx|\*\*)p|fxp)"
    r"(?=s?(?:\[:\]|\(:\)|\{:\}|\[://\]|:)))"
    r"|(?P<dot>\[\.\]|\(\.\)|\{\.\}|\[dot\]|\(dot\)|\{dot\})"
    r"|(?P<sep>\[://\])"
    r"|(?P<colon>\[:\]|\(:\)|\{:\})"
    r"|(?P<slash>\[/\])"
    r"|(?P<at>\[@\]|\[at\])"
)
_RX_S = re.compile(_PATTERN, re.IGNORECASE)
_RX_B = re.compile(_PATTERN.encode("ascii"), re.IGNORECASE)
_REPL = {"dot": ".", "sep": "://", "colon": ":", "slash": "/", "at": "@"}
_REPL_B = {k: v.encode("ascii") for k, v in _REPL.items()}

Text = Union[str, bytes]


@overload
def refang(text: str) -> tuple[str, EditMap]: ...
@overload
def refang(text: bytes) -> tuple[bytes, EditMap]: ...


def refang(text: Text) -> tuple[Text, EditMap]:
    """Undo the usual defanging in ``text``; return the new text and its offset map.

    >>> refang("hxxps[:]//a[.]example[dot]org")[0]
    'https://a.example.org'
    >>> refang(b"fxp://files[.]example/")[0]
    b'ftp://files.example/'
    """
    if isinstance(text, str):
        return apply_edits(text, _edits(_RX_S, text, _REPL, "http", "ftp"))
    if not isinstance(text, bytes):
        text = bytes(text)  # bytearray, memoryview, mmap
    return apply_edits(text, _edits(_RX_B, text, _REPL_B, b"http", b"ftp"))


def _edits(rx: re.Pattern[AnyStr], text: AnyStr, repl: dict[str, AnyStr],
           http: AnyStr, ftp: AnyStr) -> list[Edit[AnyStr]]:
    """The ``(start, end, replacement)`` edits undoing what ``rx`` finds in ``text``."""
    edits: list[Edit[AnyStr]] = []
    for m in rx.finditer(text):
        kind = m.lastgroup
        if kind == "scheme":
            new = http if m.group()[:1].lower() == http[:1] else ftp
            edits.append((m.start(), m.end(), new))
        else:
            assert kind is not None  # every alternative of _PATTERN is a named group
            edits.append((m.start(), m.end(), repl[kind]))
    return edits


class Refanged(NamedTuple):
    """A URL found by :func:`extract_refanged`; ``start``/``end``/``raw`` are in the original text."""

    url: str
    raw: Text
    start: int
    end: int
    refanged: bool
    match: object  # the urlsift.Match found in the refanged text

    def parse(self, *, strict: bool = False):
        """The URL object of ``url`` (lenient by default), as ``Match.parse`` gives."""
        return parse(self.url, strict=strict)


def extract_refanged(text: Text, *, schemes: Optional[Iterable[str]] = None,
                     valid: Optional[Validity] = None) -> Iterator[Refanged]:
    """Find URLs in ``text``, defanged ones included, refanged and flagged.

    Offsets are those of the original text (bytes for bytes, characters for str).

    >>> [r.url for r in extract_refanged("x http[:]//a[.]b/ and http://c.example/")]
    ['http://a.b/', 'http://c.example/']
    """
    if not isinstance(text, (str, bytes)):
        text = bytes(text)
    new, emap = refang(text)
    for m in extract(new, schemes=schemes, valid=valid):
        if not emap:
            yield Refanged(m.url, m.raw, m.start, m.end, False, m)
            continue
        start, end = emap.start(m.start), emap.end(m.end)
        raw = text[start:end]
        yield Refanged(m.url, raw, start, end, raw != new[m.start:m.end], m)
