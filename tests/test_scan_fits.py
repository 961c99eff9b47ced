"""Whether the text after a glued scheme's colon has the scheme's shape (issue 27).

A name that may be glued to a word (``news``, ``mailto``) is taken from inside one only
where what follows its colon has the scheme's shape: a news group (RFC 1738 section
3.6: a letter, then letters, digits, ``+ - . _``; or ``*``) or an article or address
(an ``@`` neither first nor last). The compiled walk asks it of the 16 octets after the
colon at once (``fits16``, where the table's scheme characters are RFC 1738's and 16
octets are left); the walk without the prefilter asks it octet by octet, as the twin
does: every way must give the same spans.
"""
from __future__ import annotations

import pytest

from conftest import scan_three_ways
from urlsift import _select
from urlsift.text.rules import KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE

TWINS = _select.twins("_scan")


def _every_way(data: bytes) -> list[tuple[int, int]]:
    """The twin's spans, after checking that the compiled walk gives the same triples
    with SSSE3's look-ups, SSE2's compares and octet by octet (no prefilter)."""
    twin = list(TWINS["python"].scan(data, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH))
    if "cython" in TWINS:
        looked, compared, plain = scan_three_ways(data, KNOWN)
        assert looked == compared == plain == twin, data
    return [(twin[i], twin[i + 1]) for i in range(0, len(twin), 3)]


@pytest.mark.twins
@pytest.mark.parametrize("data, expected", [
    (b"hotnews:ok", [(3, 10)]),                         # a group of letters
    (b"hotnews:comp.lang.python x", [(3, 24)]),         # with dots
    (b"hotnews:alt_binaries x", [(3, 20)]),             # "_" is a group's too
    (b"hotnews:a+b-c9 x", [(3, 14)]),
    (b"hotnews:* x", [(3, 9)]),                         # every group
    (b"hotnews:a@b x", [(3, 11)]),                      # an article's id
    (b"hotnews:/var/run/app.pid", []),                  # a path: no group
    (b"hotnews:9live x", []),                           # a group starts with a letter
    (b"hotnews:@ab x", []),                             # "@" first: no id
    (b"hotnews:a*b x", []),                             # "*" alone only
    (b"hotnews:a%20b x", []),
    (b"xmailto:a@b.example x", [(1, 19)]),              # an address
    (b"xmailto:ab.example x", []),                      # no "@": no address
    (b"xmailto:@b.example x", []),
])
def test_a_glued_name_only_where_its_shape_follows(data: bytes,
                                                    expected: list[tuple[int, int]]) -> None:
    assert _every_way(data) == expected


@pytest.mark.twins
@pytest.mark.parametrize("length", range(1, 21))
def test_groups_of_every_length_around_sixteen(length: int) -> None:
    # the 16 octets read at once hold the value and what follows it, or only part of it
    value = bytes(97 + k % 26 for k in range(length))
    for tail in (b" x" + b"." * 20, b"", b"\n"):
        data = b"hotnews:" + value + tail
        assert _every_way(data) == [(3, 8 + length)], data


def _values(length: int) -> list[bytes]:
    """Values of ``length`` octets with one of "@", "_", "*", "/", ".", "9", "A" at each
    place: in a group, first, last, or making it none."""
    base = bytes(97 + k % 26 for k in range(length))
    out = [base]
    for c in b"@_*/.9A":
        out += [base[:k] + bytes([c]) + base[k + 1:] for k in range(length)]
    return out


@pytest.mark.twins
@pytest.mark.parametrize("word", [b"hotnews:", b"news:", b"xmailto:", b"mailto:"])
def test_every_value_every_place_at_every_lane(word: bytes) -> None:
    # glued and whole, at the buffer's start, after a space, at its end and not, the
    # colon at every lane of a block of 32 (the values' 16 octets across its edges)
    for length in (1, 2, 3, 15, 16, 17):
        for value in _values(length):
            for lead in (0, 1, 7, 15, 16, 31):
                for tail in (b"", b" ", b" " + b"y" * 20):
                    _every_way(b"z" * lead + b" " * (lead > 0) + word + value + tail)
