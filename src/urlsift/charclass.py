"""The RFC 1738 character classes: one 256-entry table of bit flags.

This module is the single definition of the character classes. The pure-Python
core reads :data:`TABLE` directly; the Cython core copies it into a C array when
it is imported. Grammar sets for the parts of a URL (``hsegment``, ``fsegment``...)
are composed from these named classes with :func:`char_table`, so the grammar of
RFC 1738 §5 reads straight off the code.

>>> from urlsift import charclass
>>> charclass.is_unsafe("~")          # RFC 1738 §2.2: "~" is national, so unsafe
True
>>> charclass.names_of("$")
('safe',)
"""
from __future__ import annotations

import string
from typing import Union

__all__ = [
    "ALPHA", "DIGIT", "SAFE", "EXTRA", "NATIONAL", "PUNCTUATION", "RESERVED", "HEX",
    "ESCAPE", "SCHEME", "UNSAFE", "UNRESERVED", "UCHAR", "XCHAR", "CLASS_NAMES", "TABLE",
    "char_table", "classes", "names_of", "is_unsafe", "is_control",
]

# ---- the classes, each quoted from RFC 1738 §5 (BNF) --------------------------
# alpha = lowalpha | hialpha
ALPHA = 1 << 0
# digit = "0" | "1" | ... | "9"
DIGIT = 1 << 1
# safe = "$" | "-" | "_" | "." | "+"
SAFE = 1 << 2
# extra = "!" | "*" | "'" | "(" | ")" | ","
EXTRA = 1 << 3
# national = "{" | "}" | "|" | "\" | "^" | "~" | "[" | "]" | "`"
NATIONAL = 1 << 4
# punctuation = "<" | ">" | "#" | "%" | <">
PUNCTUATION = 1 << 5
# reserved = ";" | "/" | "?" | ":" | "@" | "&" | "="
RESERVED = 1 << 6
# hex = digit | "A" | "B" | "C" | "D" | "E" | "F" | "a" | ... | "f"
HEX = 1 << 7
# escape = "%" hex hex   (the bit marks the "%" that starts one)
ESCAPE = 1 << 8
# scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]
SCHEME = 1 << 9
# §2.2: "The characters <, >, ", #, %, {, }, |, \, ^, ~, [, ], ` and space are unsafe"
UNSAFE = 1 << 10

# ---- the unions the grammar uses (masks: a character is in the union when
# ``TABLE[c] & MASK`` is non-zero) ---------------------------------------------
# unreserved = alpha | digit | safe | extra
UNRESERVED = ALPHA | DIGIT | SAFE | EXTRA
# uchar = unreserved | escape
UCHAR = UNRESERVED | ESCAPE
# xchar = unreserved | reserved | escape
XCHAR = UNRESERVED | RESERVED | ESCAPE

_MEMBERS: dict[int, str] = {
    ALPHA: string.ascii_letters,
    DIGIT: string.digits,
    SAFE: "$-_.+",
    EXTRA: "!*'(),",
    NATIONAL: "{}|\\^~[]`",
    PUNCTUATION: '<>#%"',
    RESERVED: ";/?:@&=",
    HEX: string.digits + "ABCDEFabcdef",
    ESCAPE: "%",
    SCHEME: string.ascii_lowercase + string.digits + "+-.",
    UNSAFE: ' <>"#%{}|\\^~[]`',
}

#: Class name -> bit, in the spec's words. Unions are listed too.
CLASS_NAMES: dict[str, int] = {
    "alpha": ALPHA, "digit": DIGIT, "safe": SAFE, "extra": EXTRA,
    "national": NATIONAL, "punctuation": PUNCTUATION, "reserved": RESERVED,
    "hex": HEX, "escape": ESCAPE, "scheme": SCHEME, "unsafe": UNSAFE,
}
UNION_NAMES: dict[str, int] = {"unreserved": UNRESERVED, "uchar": UCHAR, "xchar": XCHAR}


def _build_table() -> tuple[int, ...]:
    table = [0] * 256
    for bit, members in _MEMBERS.items():
        for ch in members:
            table[ord(ch)] |= bit
    return tuple(table)


#: 256 entries of bit flags, indexed by octet (or by code point below 256).
#: Code points 0x80-0xFF have no class: RFC 1738 allows only US-ASCII graphics.
TABLE: tuple[int, ...] = _build_table()

Member = Union[int, str]


def char_table(*members: Member) -> bytes:
    """Compose a 256-entry membership table (1 = allowed) from classes and characters.

    Each member is a class mask (``UCHAR``) or a string of literal characters.
    ``char_table(UCHAR, ";:@&=")`` is RFC 1738's ``hsegment`` character set.

    >>> t = char_table(UCHAR, ";:@&=")
    >>> t[ord(";")], t[ord("/")], t[ord("%")]
    (1, 0, 1)
    """
    out = bytearray(256)
    for m in members:
        if isinstance(m, int):
            for c in range(256):
                if TABLE[c] & m:
                    out[c] = 1
        else:
            for ch in m:
                out[ord(ch)] = 1
    return bytes(out)


def _code(ch: str | int) -> int:
    c = ch if isinstance(ch, int) else ord(ch)
    if not 0 <= c:
        raise ValueError(f"not a character: {ch!r}")
    return c


def classes(ch: str | int) -> int:
    """The class bits of one character (0 for anything outside US-ASCII graphics).

    >>> classes("a") & ALPHA != 0
    True
    """
    c = _code(ch)
    return TABLE[c] if c < 256 else 0


def names_of(ch: str | int) -> tuple[str, ...]:
    """The names of the RFC 1738 classes a character belongs to (not the unions).

    >>> names_of("%")
    ('punctuation', 'escape', 'unsafe')
    """
    bits = classes(ch)
    return tuple(name for name, bit in CLASS_NAMES.items() if bits & bit)


def is_unsafe(ch: str | int) -> bool:
    """True when RFC 1738 §2.2 says the character must always be encoded.

    Non-ASCII characters and controls are not "unsafe" in the §2.2 sense; they
    have no graphic US-ASCII character at all (see :func:`is_control`).

    >>> is_unsafe("~"), is_unsafe("-")
    (True, False)
    """
    return bool(classes(ch) & UNSAFE)


def is_control(ch: str | int) -> bool:
    """True for C0 controls and DEL, which are never part of a URL (§2.2).

    >>> is_control("\\n"), is_control(" ")
    (True, False)
    """
    c = _code(ch)
    return c < 0x20 or c == 0x7F


def members(mask: int) -> str:
    """All characters whose class bits meet ``mask``, in code order.

    >>> members(RESERVED)
    '&/:;=?@'
    """
    return "".join(chr(c) for c in range(256) if TABLE[c] & mask)
