"""The known schemes of the text scanner (both twins, ``_scan_py`` and ``_scan_c``): a
trie over their names read backwards from the colon, as :func:`known_blob` lays it out
(``urlsift.text.rules.KNOWN`` is one), each name with its attributes (K_*): known at
all, found without ``//``, with an angle id (``news:<id@host>``), taken when glued to a
word, and the shape what follows the colon must have. The walk that reads it is
``_scan_py`` (``_suffixes``); this module builds and checks the blob.
"""
from __future__ import annotations

import sys
from array import array
from typing import Any

__all__ = ["GLUE_REACH", "GLUE_MIN", "K_KNOWN", "K_SLASHLESS", "K_ANGLE", "K_GLUE", "K_URL",
           "K_SHAPE_ALWAYS", "SHAPE_MASK", "SHAPE_GROUP", "SHAPE_ADDRESS", "SHAPE_PATH",
           "SCHEME_SYMBOLS", "N_SYMBOLS", "MAX_PAIRS", "NO_PREFILTER", "NOT_A_TRIE",
           "known_blob", "check_known"]

#: No known scheme name is longer than GLUE_REACH (the walk back from a colon reads at
#: most that much); a glued scheme is at least GLUE_MIN letters ("ws", "go" are not taken).
GLUE_REACH = 32
GLUE_MIN = 3

#: Attribute bits of a trie node: what the name ending there is (rules.py says which
#: name has which; the walk only reads them).
K_KNOWN = 1          # a known scheme (the registry's and IANA's)
K_SLASHLESS = 2      # found without "//" after its colon (mailto:, news:)
K_ANGLE = 4          # its id may stand in angle brackets (news:<id@host>)
K_GLUE = 8           # taken where a word is glued to it (messagenews:x@y)
K_URL = 16           # "URL", the prefix of draft-ietf-uri-url-03 (URL:http://...)
K_SHAPE_ALWAYS = 128  # its shape is checked when found whole too, not only glued
#: The shape the text after a slashless scheme's colon must have (bits 5-6): RFC 1738
#: §5 ``grouppart`` (news), an RFC 822 address with its "@" (mailto), a path (file).
SHAPE_MASK, SHAPE_GROUP, SHAPE_ADDRESS, SHAPE_PATH = 96, 32, 64, 96
#: The trie's alphabet: RFC 1738 §5 scheme characters, either case; 0 = none.
SCHEME_SYMBOLS = "abcdefghijklmnopqrstuvwxyz0123456789+-."
N_SYMBOLS = len(SCHEME_SYMBOLS) + 1
#: The prefilter holds at most MAX_PAIRS pairs; NO_PREFILTER: the count of none.
MAX_PAIRS, NO_PREFILTER = 16, 255
_MAGIC = b"USK1"
_HEAD = len(_MAGIC) + 4 + 256


def known_blob(names: "dict[str, int]") -> bytes:
    """The ``known`` argument of :func:`scan`: a trie of the scheme names read from
    their last character, each name's node carrying its K_* attributes.

    Layout: ``USK1``, the node count (4 octets, little-endian), 256 octets mapping a
    character to its symbol (A-Z as a-z; 0 for none), one attribute octet per node,
    then for each node N_SYMBOLS children of 2 octets little-endian (0: none; node 0 is
    the root). A name is at most GLUE_REACH characters long. Last, the prefilter's
    pairs: their count, then the last and the last but one character (lower case) of
    each name that may stand without ``//`` (K_SLASHLESS, K_URL), so that a colon not
    after one of them, nor before a ``/``, is skipped unread (the compiled twin's
    next_candidate); a count of NO_PREFILTER when such a name is shorter than 2 or the
    pairs are more than MAX_PAIRS.

    >>> blob = known_blob({"news": K_KNOWN | K_SLASHLESS})
    >>> list(_trie(blob)[1])        # root, then s, w, e, n read back from the colon
    [0, 0, 0, 0, 3]
    """
    sym = bytearray(256)
    for i, ch in enumerate(SCHEME_SYMBOLS, 1):
        sym[ord(ch)] = i
        if ch.isalpha():
            sym[ord(ch.upper())] = i
    symbols = set(SCHEME_SYMBOLS)
    edges: list[dict[int, int]] = [{}]            # the children of each node, by symbol
    attrs = bytearray(1)
    for name, bits in names.items():
        if not name or len(name) > GLUE_REACH or not symbols.issuperset(name):
            raise ValueError(f"not a scheme name the trie can hold: {name!r}")
        node = 0
        for ch in reversed(name):
            x = sym[ord(ch)]
            child = edges[node].get(x)
            if child is None:
                child = edges[node][x] = len(attrs)
                edges.append({})
                attrs.append(0)
            node = child
        attrs[node] |= bits
    if len(attrs) >= 1 << 16:
        raise ValueError("too many scheme names for the trie")
    kids = array("H", bytes(2 * N_SYMBOLS * len(attrs)))
    for node, children in enumerate(edges):
        for x, child in children.items():
            kids[node * N_SYMBOLS + x] = child
    if sys.byteorder == "big":
        kids.byteswap()
    table = kids.tobytes()
    ends = [name for name, bits in names.items() if bits & (K_SLASHLESS | K_URL)]
    pairs = sorted({(name[-1] + name[-2]).lower().encode("ascii") for name in ends
                    if len(name) >= 2})
    if any(len(name) < 2 for name in ends) or len(pairs) > MAX_PAIRS:
        pairs, count = [], NO_PREFILTER
    else:
        count = len(pairs)
    table += bytes([count]) + b"".join(pairs)
    return _MAGIC + len(attrs).to_bytes(4, "little") + bytes(sym) + bytes(attrs) + table


NOT_A_TRIE = "'known' is not a trie of scheme names (urlsift.text.rules.KNOWN)"


def check_known(known: bytes) -> None:
    """Raise ValueError unless ``known`` is a trie made by :func:`known_blob`."""
    if not isinstance(known, bytes) or _trie(known) is None:
        raise ValueError(NOT_A_TRIE)


_tries: dict[bytes, Any] = {}


def _trie(known: bytes) -> Any:
    """(symbols, attributes, children) of a ``known`` blob, or None when it is none
    (then no scheme is known, as in the compiled twin's trie_open)."""
    if known in _tries:
        return _tries[known]
    got = None
    if len(known) >= _HEAD and known[:4] == _MAGIC:
        nodes = int.from_bytes(known[4:8], "little")
        end = _HEAD + nodes * (1 + 2 * N_SYMBOLS)
        count = known[end] if 0 < nodes < 1 << 16 and len(known) > end else -1
        if count == NO_PREFILTER and len(known) == end + 1 or \
                0 <= count <= MAX_PAIRS and len(known) == end + 1 + 2 * count:
            sym = known[8:_HEAD]
            kids = array("H", known[_HEAD + nodes:end])
            if sys.byteorder == "big":
                kids.byteswap()
            if max(sym) < N_SYMBOLS and max(kids) < nodes:
                got = (sym, known[_HEAD:_HEAD + nodes], kids)
    if len(_tries) > 16:
        _tries.clear()
    _tries[known] = got
    return got
