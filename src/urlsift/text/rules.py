"""What a URL in running text is: the policy the ``_scan`` core walks by.

RFC 1738's appendix "Recommendations for URLs in Context" and draft-ietf-uri-url-03's
"Wrappers for URIs in plain text" say how a URL is delimited in text; this module
turns that into the scanner's 256-entry table (composed from :mod:`urlsift.charclass`,
the one definition of the character classes), the schemes found without ``//``, the
limits that bound every look-ahead, and the names of the edits a match records.

>>> len(TABLE), SCHEME_ATTRIBUTES["news"] & K_SLASHLESS != 0
(256, True)
"""
from __future__ import annotations

import pkgutil

from .. import charclass as cc
from .._scan_py import (ANGLE, CUT_NON_ASCII, CUT_UNSAFE, EDITS_NON_ASCII, ENCODED,
                        HIGH_SHIFT, HYPHEN_BREAK, JOINED, K_ANGLE, K_GLUE, K_KNOWN,
                        K_SHAPE_ALWAYS, K_SLASHLESS, K_URL, N_EDITS, PREFIX, SHAPE_ADDRESS,
                        SHAPE_GROUP, SHAPE_PATH, SOFT_BREAK, T_ALPHA, T_BARE, T_PLAIN,
                        T_SCHEME, T_SPACE, T_SPLIT, T_TRIM, T_WRAP, TRIM_MASK, TRIM_SHIFT,
                        TRUNCATED, WHITESPACE, WRAPPED, known_blob)
from ..model.registry import registered

__all__ = [
    "EDITS",
    "KNOWN_WITHOUT_SLASHES", "TRIMMED", "WHITE_SPACE", "MAX_WRAPPER", "MAX_LENGTH", "TABLE",
    "KNOWN", "KNOWN_SCHEMES", "CHUNK", "EDIT_WRAPPER", "EDIT_PREFIX", "EDIT_WHITESPACE", "EDIT_TRIMMED",
    "EDIT_TRUNCATED", "EDIT_CUT_NON_ASCII", "EDIT_CUT_UNSAFE", "EDIT_ANGLE", "EDIT_QUOTES", "EDIT_NON_ASCII",
    "EDIT_OCTETS", "EDIT_SOFT_BREAK", "EDIT_JOINED", "LETTER_OCTETS", "TEXT_OCTETS",
    "ANGLE_ID_SCHEMES", "GLUED_SCHEMES", "SCHEME_ATTRIBUTES",
    # the flags of a scanned span (the core's, named here for users of scan())
    "WRAPPED", "PREFIX", "WHITESPACE", "HYPHEN_BREAK", "TRUNCATED", "CUT_NON_ASCII",
    "CUT_UNSAFE", "ANGLE", "TRIM_SHIFT", "TRIM_MASK", "ENCODED", "SOFT_BREAK", "JOINED",
]

#: Schemes found without ``//`` after the colon (docs/design.md#bare-urls):
#: RFC 1738 §3.5 mailto, §3.6 news, §3.10 file; draft-www-uri-00 mid, cid, urn.
KNOWN_WITHOUT_SLASHES: tuple[str, ...] = ("mailto", "news", "mid", "cid", "urn", "file")
#: Schemes whose id is found in angle brackets in running text, which are not the URL's:
#: ``wrote in message news:<id@host>`` gives ``news:id@host`` (RFC 1738 §3.6 article,
#: draft-www-uri-00: "mid:" is the msg-id "with the constant <> wrapper removed").
ANGLE_ID_SCHEMES: tuple[str, ...] = ("news", "mid", "cid")
assert set(ANGLE_ID_SCHEMES) <= set(KNOWN_WITHOUT_SLASHES)   # the walk looks among those
#: Slashless schemes taken where a word is glued to them (Google Groups' quoting writes
#: ``wrote in messagenews:id@host``), with the shape the text after the colon must have
#: to be a URL of that scheme: RFC 1738 §5 ``grouppart`` ("*", a group, an article with
#: its "@") for news, an RFC 822 address (with "@") for mailto. No other scheme is
#: taken from inside a word: ``pidfile:``, ``profile:``, ``Makefile:12`` are no file
#: URLs, ``humid:``, ``return:`` no mid or urn.
GLUED_SCHEMES: dict[str, int] = {"news": SHAPE_GROUP, "mailto": SHAPE_ADDRESS}
#: Slashless schemes whose shape is checked when they stand whole too: ``file:`` needs a
#: path (RFC 1738 §3.10 ``file://host/path``; the ``file:/path`` of RFC 8089 allowed),
#: so ``File::captureLog`` or ``file:default`` is no URL; ``mailto:`` an address with
#: its "@" (RFC 1738 §3.5, RFC 822 addr-spec), so an archive's obfuscated
#: ``mailto:ada··.@ge··m.com`` gives nothing rather than ``mailto:ada``.
SHAPED_SCHEMES: dict[str, int] = {"file": SHAPE_PATH, "mailto": SHAPE_ADDRESS}
#: Trimmed from the end of a bare URL: sentence punctuation and quotes.
TRIMMED = ".,;:!?'\""
#: White space removed inside a wrapper (RFC 1738 appendix: "spaces, linebreaks, tabs").
WHITE_SPACE = " \t\n\r\f\v"
#: A wrapper longer than this (from ``<`` to ``>``) is not a wrapper: bounds the look-ahead.
MAX_WRAPPER = 8192
#: A bare URL longer than this after its colon is cut there (flag TRUNCATED).
MAX_LENGTH = 65536

EDIT_WRAPPER = "wrapper-removed"
EDIT_PREFIX = "prefix-removed"
EDIT_WHITESPACE = "whitespace-removed"
EDIT_TRIMMED = "punctuation-trimmed"
EDIT_TRUNCATED = "truncated"
#: Not an edit of ``raw`` but a warning on it: the bare URL ended at a non-ASCII or an
#: unsafe character glued to it (``http://www.missouri.edu/‾c592073``: an archive's
#: U+203E for "~"), so the URL may go on past what was found.
EDIT_CUT_NON_ASCII = "cut-at-non-ascii"
EDIT_CUT_UNSAFE = "cut-at-unsafe"
EDIT_ANGLE = "angle-brackets-removed"
EDIT_QUOTES = "quote-prefixes-removed"
#: Not an edit either: the URL holds non-ASCII letters, as written (an IRI, RFC 3987;
#: RFC 1738 §2.2 would have them %-encoded, so ``valid="strict"`` drops it).
EDIT_NON_ASCII = "non-ascii"
#: Octets of the input that are no UTF-8 (a Latin-1 log's ``caf\xe9``) went on with the
#: URL and are written ``%HH`` in ``url`` (RFC 1738 §2.2: "Octets must be encoded if
#: they have no corresponding graphic character within the US-ASCII coded character
#: set"); ``raw`` shows each as its ISO-8859-1 character. Bytes input only.
EDIT_OCTETS = "octets-encoded"
#: The URL's walk ended at ``=`` + line break, a quoted-printable soft line break (RFC
#: 2045 §6.7 rule 5): the ``=`` is left out of ``url``, which may go on on the next line.
EDIT_SOFT_BREAK = "qp-soft-break"
#: The URL went on over quoted-printable soft line breaks (a line of QP's width ending
#: in ``=``); each ``=`` and line break is left out of ``url``.
EDIT_JOINED = "qp-lines-joined"

#: Octets over 0x7F that go on with a bare URL in bytes input where they start no UTF-8
#: sequence, written ``%HH`` in the URL (the scanner's ``octets`` table): the letters
#: of ISO-8859-1, i.e. 0xC0-0xFF but 0xD7 (×) and 0xF7 (÷), and 0xAA (ª), 0xB5 (µ),
#: 0xBA (º), which Unicode calls letters too (as the IRI rule does for their UTF-8
#: forms). cp1252's punctuation (0x80-0x9F: quotes, dashes), the no-break space 0xA0,
#: « », ², ½ and every other non-letter end the URL as before (``cut-at-non-ascii``).
LETTER_OCTETS: frozenset[int] = frozenset(c for c in range(0x80, 0x100) if chr(c).isalpha())
#: The scanner's ``octets`` table for plain text (``_scan_py.scan``): LETTER_OCTETS, and
#: ``=``: a line of quoted-printable's width ending in ``=`` (a soft line break, RFC
#: 2045 §6.7 rule 5) may go on with the next (``qp-lines-joined``). The mail walk
#: passes none: its parts are decoded already, and its ``email`` path takes reply-quote
#: prefixes off every line before the scan, which would change a line's width.
TEXT_OCTETS: bytes = bytes(int(c in LETTER_OCTETS or c == ord("=")) for c in range(256))


def _policy_table() -> bytes:
    # A bare URL runs over xchar plus "#" (fragment), "~" "[" "]" (common in practice);
    # it ends at white space, controls, non-ASCII and < > " { } | \ ^ `.
    bare = cc.char_table(cc.XCHAR, "#~[]")
    trim = cc.char_table(TRIMMED)
    scheme = cc.char_table(cc.SCHEME, cc.ALPHA)    # scheme chars, matched case-insensitively
    space = cc.char_table(WHITE_SPACE)
    graphic = cc.char_table(cc.XCHAR, cc.NATIONAL, cc.PUNCTUATION)
    alpha = cc.char_table(cc.ALPHA)
    out = bytearray(256)
    for c in range(256):
        bits = 0
        if bare[c]:
            bits |= T_BARE
        if trim[c]:
            bits |= T_TRIM
        if scheme[c]:
            bits |= T_SCHEME
        if space[c]:
            bits |= T_SPACE
        if graphic[c] and chr(c) not in "<>":
            bits |= T_WRAP
        # a buffer may be cut after any character that ends a bare URL, except "<"
        # (it may open a wrapper whose scheme lies on the other side)
        if not bare[c] and c != ord("<"):
            bits |= T_SPLIT
        if alpha[c]:
            bits |= T_ALPHA
        if bare[c] and chr(c) not in "()[]":
            bits |= T_PLAIN
        out[c] = bits
    return bytes(out)


TABLE: bytes = _policy_table()


def _iana_schemes() -> tuple[str, ...]:
    """The names of ``iana_schemes.txt`` (the IANA registry; its header says which)."""
    # pkgutil, not importlib.resources: the same loader, without the import of
    # importlib.resources (zipfile, pathlib, tempfile) on every start-up
    text = (pkgutil.get_data(__package__, "iana_schemes.txt") or b"").decode("ascii")
    return tuple(line.split()[0] for line in text.splitlines()
                 if line.strip() and not line.startswith("#"))


#: Every scheme urlsift knows in running text: the registry's (at import) and IANA's.
#: A run of scheme characters that is one of them is never cut to a shorter one
#: (``tftp`` is not ``ftp``, ``snews:`` not ``news:``).
KNOWN_SCHEMES: tuple[str, ...] = tuple(dict.fromkeys(
    ("http", "https", *registered(), *sorted(_iana_schemes()))))


def _scheme_attributes() -> dict[str, int]:
    """What the scanner's trie says of each name (the ``K_*`` bits of ``_scan_py``)."""
    out = {name: K_KNOWN for name in KNOWN_SCHEMES}
    for name in KNOWN_WITHOUT_SLASHES:
        out[name] = out.get(name, 0) | K_KNOWN | K_SLASHLESS
    for name in ANGLE_ID_SCHEMES:
        out[name] |= K_ANGLE
    for name, shape in GLUED_SCHEMES.items():
        out[name] |= K_GLUE | shape
    for name, shape in SHAPED_SCHEMES.items():
        out[name] |= K_SHAPE_ALWAYS | shape
    out["url"] = out.get("url", 0) | K_URL   # draft-ietf-uri-url-03's "URL:" prefix
    return out


#: The attributes of every name the scanner knows (see :func:`_scheme_attributes`).
SCHEME_ATTRIBUTES: dict[str, int] = _scheme_attributes()
#: The scanner's ``known``: those names as a trie read from the colon backwards.
KNOWN: bytes = known_blob(SCHEME_ATTRIBUTES)


def _edits_for(bits: int, trimmed: bool, non_ascii: bool) -> tuple[str, ...]:
    """The edits of a match whose flags, the trim count aside, are ``bits`` (the low
    byte, and the flags from HIGH_SHIFT on shifted down to bit 8)."""
    high = bits << (HIGH_SHIFT - 8)
    out = []
    if bits & WRAPPED:
        out.append(EDIT_WRAPPER)
    elif bits & PREFIX:
        out.append(EDIT_PREFIX)
    if bits & WHITESPACE:
        out.append(EDIT_WHITESPACE)
    if high & JOINED:
        out.append(EDIT_JOINED)
    if high & SOFT_BREAK:
        out.append(EDIT_SOFT_BREAK)
    if trimmed:      # a wrapper's count field counts reply-quote prefixes, not trims
        out.append(EDIT_QUOTES if bits & WRAPPED else EDIT_TRIMMED)
    if bits & TRUNCATED:
        out.append(EDIT_TRUNCATED)
    if bits & CUT_NON_ASCII:
        out.append(EDIT_CUT_NON_ASCII)
    if bits & CUT_UNSAFE:
        out.append(EDIT_CUT_UNSAFE)
    if bits & ANGLE:
        out.append(EDIT_ANGLE)
    if high & ENCODED:
        out.append(EDIT_OCTETS)
    if non_ascii:
        out.append(EDIT_NON_ASCII)
    return tuple(out)


def _edits_table() -> tuple[tuple[str, ...], ...]:
    """The edits by ``_build_py.edits_index``: ``(bits * 2 + trimmed)``, with
    EDITS_NON_ASCII added for a URL with non-ASCII letters (bits: the low byte of the
    flags and, from bit 8, those from HIGH_SHIFT on); equal tuples shared.

    Each entry is :func:`_edits_for`'s, put together from two halves that depend on
    few bits each (what ends before the trim and what follows it), so that start-up
    makes 8 192 tuples by concatenation rather than 8 192 calls (tests check the two
    ways agree entry by entry).
    """
    head_low, tail_low = WRAPPED | PREFIX | WHITESPACE, TRUNCATED | CUT_NON_ASCII | CUT_UNSAFE | ANGLE
    shift = HIGH_SHIFT - 8          # the high flags as they stand in bits 8.. of ``bits``
    head_high, tail_high = (JOINED | SOFT_BREAK) >> shift, ENCODED >> shift
    heads = [_edits_for(low | high, bool(t), False)
             for low in range(8) for high in range(0, 8 << 8, 1 << 8) for t in (0, 1)]
    tails = [_edits_for(low << 4 | high, False, bool(na))
             for low in range(16) for high in range(0, 8 << 8, 1 << 8) for na in (0, 1)]
    seen: dict[tuple[str, ...], tuple[str, ...]] = {}
    share = seen.setdefault
    return tuple(share(e, e) for e in (
        heads[((low & head_low) * 8 + ((high & head_high) >> 8)) * 2 + t]
        + tails[(((low & tail_low) >> 4) * 8 + ((high & tail_high) >> 8)) * 2 + na]
        for na in (0, 1) for high in range(0, 8 << 8, 1 << 8) for low in range(256)
        for t in (0, 1)))


#: The edits of a match by ``_build_py.edits_index`` (flags, trimmed, non-ASCII), handed
#: to the core's ``build``.
EDITS = _edits_table()


#: Matches built per core call: bounds the memory of a huge input's match list.
CHUNK = 4096
