"""A URL's walk 16 octets at a time (issue 27), against the walk octet by octet.

After its scheme, the compiled walk reads a URL's run of plain octets (the table's
T_PLAIN: what may go on in a URL and needs no count, brackets being counted) 16 at a
time: by two SSSE3 look-ups of each octet's halves where the CPU has SSSE3, by SSE2
compares where the table's plain octets are "!" to "~" less at most 16 (the compares
with ``_scan_c._set_ssse3(False)``), and octet by octet with ``_set_prefilter(False)``
(the reference). All of them, and the pure twin, must end every URL at the same octet.
"""
from __future__ import annotations

import pytest

from urlsift import _select
from urlsift._scan_py import TRIM_MASK, TRIM_SHIFT
from urlsift._layout import T_BARE, T_PLAIN
from urlsift.text.rules import KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE

TWINS = _select.twins("_scan")


def _table_without(table: bytes, octets: set[int], bits: int) -> bytes:
    return bytes(b & ~bits if i in octets else b for i, b in enumerate(table))


def _table_with(table: bytes, octets: set[int], bits: int) -> bytes:
    return bytes(b | bits if i in octets else b for i, b in enumerate(table))


# tables whose PLAIN octets are a subset of the policy's (the rest still BARE: the
# twin, which reads no T_PLAIN, ends URLs at the same octets): the policy's; one octet
# out (one compare more); 17 out (too many for the compares: the look-ups or octet by
# octet); and every octet of "!".."~" but the letters out (the look-ups' groups all
# full)
TABLES = {
    "policy": TABLE,
    "x out": _table_without(TABLE, {ord("x")}, T_PLAIN),
    "a-q out": _table_without(TABLE, set(range(ord("a"), ord("r"))), T_PLAIN),
    "letters only": _table_without(
        TABLE, set(range(33, 127)) - set(range(65, 91)) - set(range(97, 123)), T_PLAIN),
}


def _ways(data: bytes, table: bytes, max_length: int = MAX_LENGTH) -> list[list[int]]:
    # the triples of the look-ups (where the CPU has them), of the compares, and of
    # the walk octet by octet
    scan = TWINS["cython"]
    was, was_ssse3 = scan._set_prefilter(True), scan._set_ssse3(True)
    out = []
    try:
        out.append(list(scan.scan(data, 0, -1, table, KNOWN, MAX_WRAPPER, max_length)))
        scan._set_ssse3(False)
        out.append(list(scan.scan(data, 0, -1, table, KNOWN, MAX_WRAPPER, max_length)))
        scan._set_prefilter(False)
        out.append(list(scan.scan(data, 0, -1, table, KNOWN, MAX_WRAPPER, max_length)))
    finally:
        scan._set_prefilter(was)
        scan._set_ssse3(was_ssse3)
    return out


def _twin(data: bytes, table: bytes, max_length: int = MAX_LENGTH) -> list[int]:
    return list(TWINS["python"].scan(data, 0, -1, table, KNOWN, MAX_WRAPPER, max_length))


def _url_end(triples: list[int]) -> int:
    # the first match's end once its trailing punctuation is trimmed (the triple holds
    # where the walk stopped, and the count trimmed in its flags)
    return triples[1] - ((triples[2] >> TRIM_SHIFT) & TRIM_MASK)


BODY = b"abcdefghijklmnopqrstuvwxyz0123456789-~%/ABCDEFGHIJ" * 2


@pytest.mark.twins
@pytest.mark.parametrize("name", list(TABLES))
def test_every_octet_at_every_place_of_two_blocks_ends_the_url_where_octet_by_octet(name):
    # each of the 256 octet values at each of the 50 places of the URL's first three
    # blocks (the walk's blocks start after the colon: one, then two at a time), more
    # URL after it
    table = TABLES[name]
    for at in range(50):
        for value in range(256):
            data = b"see http:" + (b"//" + BODY)[:at] + bytes([value]) + BODY[:20] + b" x"
            looked, compared, plain = _ways(data, table)
            assert looked == compared == plain, (name, at, value)
            assert looked == _twin(data, table), (name, at, value)


@pytest.mark.twins
@pytest.mark.parametrize("name", list(TABLES))
def test_a_url_that_runs_to_the_end_of_the_buffer_or_of_its_length_ends_there(name):
    # no octet ends the walk: the buffer's end (1 to 80 octets after "//", so the
    # last block, or pair of blocks, is short by every count), and MAX_LENGTH falling
    # inside a block
    table = TABLES[name]
    for length in range(1, 81):
        data = b"see http://" + BODY[:length]
        ways = _ways(data, table)
        assert ways[0] == ways[1] == ways[2] == _twin(data, table), (name, length)
        assert ways[0][:2] == [4, len(data)]
        for max_length in range(1, 80, 3):
            data = b"http://" + BODY[:length] + b" more"
            ways = _ways(data, table, max_length)
            assert ways[0] == ways[1] == ways[2] == _twin(data, table, max_length), \
                (name, length, max_length)


@pytest.mark.twins
def test_a_quote_ends_a_url_wherever_it_falls_in_a_block():
    # RFC 1738 appendix: '"' delimits a URL in text; at each offset of three blocks
    for at in range(1, 80):
        data = b"<p>http://a.example/" + BODY[:at] + b'"> next'
        for triples in (*_ways(data, TABLE), _twin(data, TABLE)):
            assert triples[:2] == [3, 20 + at]


@pytest.mark.twins
def test_brackets_inside_blocks_are_counted_and_a_closing_one_without_partner_trimmed():
    # a ")" with no "(" before it is the sentence's, not the URL's (the trim); a "("
    # before it in the same block or an earlier one keeps it
    for at in range(0, 40):
        head = b"(see http://a.example/" + BODY[:at]
        ways = _ways(head + b") x", TABLE)
        assert ways[0] == ways[1] == ways[2] == _twin(head + b") x", TABLE)
        assert _url_end(ways[0]) == len(head)           # the ")" trimmed
        kept = b"see http://a.example/(" + BODY[:at] + b") x"
        ways = _ways(kept, TABLE)
        assert ways[0] == ways[1] == ways[2] == _twin(kept, TABLE)
        assert _url_end(ways[0]) == len(kept) - 2       # the ")" kept


@pytest.mark.twins
def test_a_table_with_plain_octets_over_0x7f_is_walked_as_octet_by_octet():
    # octets over 0x7F and controls made PLAIN (and BARE): more groups of high halves
    # than the look-ups hold (9), and no range for the compares: octet by octet, the
    # same spans (the twin reads no octet over 0x7F as plain: not compared here)
    extra = {0x01, 0x12, 0x85, 0x96, 0xA7, 0xB8, 0xC9, 0xDA, 0xEB}
    table = _table_with(TABLE, extra, T_PLAIN | T_BARE)
    for at in range(34):
        for value in sorted(extra) + [0x20, 0xFF]:
            data = b"see http:" + (b"//" + BODY)[:at] + bytes([value]) + BODY[:20] + b" x"
            looked, compared, plain = _ways(data, table)
            assert looked == compared == plain, (at, value)
            if value in extra and at >= 2:              # walked over: the URL goes on
                assert plain[:2] == [4, len(data) - 2]
