"""The records core (Cython ``_records_c`` and pure ``_records_py``): the scanner's
records handed to the sinks as lines laid out, an Arrow string column's data and
offsets, and line numbers; the same on both cores, and what the matches say.
"""
from __future__ import annotations

from array import array

import pytest
from hypothesis import given, strategies as st

from urlsift import _select
from urlsift._layout import (FIELDS, F_LINE, F_OFFSET, F_URL, PREFIX, R_END, R_FLAGS, R_START,
                             WRAPPED)
from urlsift.text.rules import KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE, TEXT_OCTETS

from test_build_core import any_texts, buffers, scanned

TWINS = _select.twins("_records")

def scanned_forms(text):
    """Each form of ``text`` (:func:`buffers`) and its records, by the core in use."""
    for buf in buffers(text):
        yield buf, _select.cores.scan.scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH,
                                           TEXT_OCTETS)


# ---- --with-position lines made in the core: the same as the matches say -------------

@given(any_texts, st.integers(0, 3))
def test_join_positions_is_the_matches_with_their_lines(text, base):
    # every core: FILE:LINE:OFFSET:URL for each match, LINE counted as extract_file does
    import urlsift
    core = _select.cores.records
    for buf, arr in scanned_forms(text):
        state = [base, 7]
        got = core.join_positions(arr, buf, TABLE, POSITIONS, base, state)
        expected, line, pos = [], 7, 0
        for m in urlsift.extract(buf):
            line += (buf[pos:m.start].count("\n") if isinstance(buf, str)
                     else buf[pos:m.start].count(b"\n"))
            pos = m.start
            expected.append(b"f:%d:%d:%s\n" % (line, base + m.start, m.url.encode("utf-8")))
        assert got == b"".join(expected)
        assert state[1] == line


@pytest.mark.twins
@given(any_texts)
def test_twins_give_the_same_lines_and_columns(text):
    for buf in buffers(text):
        arr = scanned(buf)
        for layout, stop in ((POSITIONS, None), (JSONL, QUOTE), ((F_OFFSET, b" ", F_URL), None)):
            states = {k: [0, 1] for k in TWINS}
            got = {k: m.join_positions(arr, buf, TABLE, layout, 0, states[k], 0, -1, stop)
                   for k, m in TWINS.items()}
            assert got["cython"] == got["python"] and states["cython"] == states["python"]
        cols = {k: m.url_column(arr, buf, TABLE) for k, m in TWINS.items()}
        assert cols["cython"] == cols["python"]
        lines = {k: (m.line_numbers(arr, buf, 0, [0, 1])) for k, m in TWINS.items()}
        assert lines["cython"] == lines["python"]
        for field in (R_START, R_END, R_FLAGS):
            got = {k: m.field_column(arr, field, 5, 1) for k, m in TWINS.items()}
            assert got["cython"] == got["python"]
        for fields in ((-1, SCHEME_END), (HOST_START, HOST_END), (PATH_START, PATH_END)):
            parts = {k: m.part_column(*cols[k], *fields) for k, m in TWINS.items()}
            assert parts["cython"] == parts["python"]


#: ``f:LINE:OFFSET:URL`` and a JSON line: the command's two layouts.
POSITIONS = (b"f:", F_LINE, b":", F_OFFSET, b":", F_URL, b"\n")
JSONL = (b'{"url": "', F_URL, b'", "line": ', F_LINE, b"}\n")
#: ``stop``: the '"' alone.
QUOTE = bytes(c == 34 for c in range(256))


def test_a_layout_without_the_line_leaves_the_count_alone(core_kind):
    core = _select.cores.records
    buf = b"a\nb http://a.example/\n\nc <URL:ftp://b.example/>"
    arr = _select.cores.scan.scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)
    state = [0, 1]
    # offsets of the raw spans: 4, and 25 for the wrapper's "<" (plus the base, 10)
    assert core.join_positions(arr, buf, TABLE, (F_OFFSET, b"=", F_URL, b";"), 10, state) == \
        b"14=http://a.example/;35=ftp://b.example/;"
    assert state == [0, 1]


def test_a_url_holding_a_stop_octet_hands_the_batch_back(core_kind):
    # a '"' inside <...> is kept by the scanner; a JSON string cannot hold it as it is,
    # so the core hands the batch back (None) for the sink to escape
    core = _select.cores.records
    for buf in (b'x <http://a.example/"q"> y', b"http://a.example/"):
        arr = _select.cores.scan.scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)
        got = core.join_positions(arr, buf, TABLE, JSONL, 0, [0, 1], 0, -1, QUOTE)
        if b'"' in buf:
            assert got is None
        else:
            assert got == b'{"url": "http://a.example/", "line": 1}\n'


@pytest.mark.parametrize("layout", [(b"x", 3), (b"x", True), (b"x", "url"), (F_URL,) * 17])
def test_a_bad_layout_is_refused(core_kind, layout):
    buf = b"http://a.example/"
    arr = _select.cores.scan.scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)
    with pytest.raises(ValueError, match="layout"):
        _select.cores.records.join_positions(arr, buf, TABLE, layout, 0, [0, 1])


def test_a_stop_table_of_the_wrong_size_is_refused(core_kind):
    buf = b"http://a.example/"
    arr = _select.cores.scan.scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)
    with pytest.raises(ValueError, match="256"):
        _select.cores.records.join_positions(arr, buf, TABLE, JSONL, 0, [0, 1], 0, -1, b"x")


# ---- the url column and the line numbers of an Arrow batch ---------------------------

@given(any_texts)
def test_url_column_is_the_urls_with_their_offsets(text):
    # every core: the URLs one after the other in UTF-8, offsets n + 1 from 0
    import urlsift
    core = _select.cores.records
    for buf, arr in scanned_forms(text):
        data, offsets = core.url_column(arr, buf, TABLE)
        urls = [m.url.encode("utf-8") for m in urlsift.extract(buf)]
        assert offsets.typecode == "i" and offsets[0] == 0 and len(offsets) == len(urls) + 1
        assert [data[offsets[k]:offsets[k + 1]] for k in range(len(urls))] == urls
        assert len(data) == offsets[-1]


def test_url_column_of_a_slice_of_records(core_kind):
    # first/last as every records function takes them: the second URL alone
    buf = b"http://a.example/ <URL:ftp://b.example/x-\n y> http://c.example/"
    arr = _select.cores.scan.scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)
    assert _select.cores.records.url_column(arr, buf, TABLE, 1, 2) == \
        (b"ftp://b.example/x-y", array("i", [0, 19]))


@given(any_texts)
def test_line_numbers_are_the_lines_extract_file_counts(text):
    import urlsift
    core = _select.cores.records
    for buf, arr in scanned_forms(text):
        nl = "\n" if isinstance(buf, str) else b"\n"
        expected = [buf[:m.start].count(nl) + 1 for m in urlsift.extract(buf)]
        state = [0, 1]
        assert list(core.line_numbers(arr, buf, 0, state)) == expected
        assert state[1] == (expected[-1] if expected else 1)


def test_line_numbers_go_on_from_the_state(core_kind):
    # a second piece at input offset 100, counted from offset 100 on line 9
    buf = b"x\n\nhttp://a.example/\nhttp://b.example/"
    arr = _select.cores.scan.scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)
    state = [100, 9]
    assert list(_select.cores.records.line_numbers(arr, buf, 100, state)) == [11, 12]
    assert state == [100 + 21, 12]


SCHEME_END, HOST_START, HOST_END, PATH_START, PATH_END = (
    FIELDS.index(f) for f in ("scheme_end", "host_start", "host_end", "path_start", "path_end"))


def test_part_column_cuts_where_the_tokenizer_says(core_kind):
    # RFC 1738 §3.1: //<user>:<password>@<host>:<port>/<url-path>; mailto has no host,
    # a news URL none either (§3.6); the bitmap's bit k says URL k has the part
    core = _select.cores.records
    urls = [b"http://u:p@h.example:80/x", b"mailto:a@b.example", b"ftp://f.example",
            b"news:comp.lang"]
    offsets = array("i", [0])
    for u in urls:
        offsets.append(offsets[-1] + len(u))
    data = b"".join(urls)
    assert core.part_column(data, offsets, HOST_START, HOST_END) == \
        (b"h.examplef.example", array("i", [0, 9, 9, 18, 18]), bytes([0b0101]))
    assert core.part_column(data, offsets, -1, SCHEME_END) == \
        (b"httpmailtoftpnews", array("i", [0, 4, 10, 13, 17]), bytes([0b1111]))
    with pytest.raises(ValueError, match="fields"):
        core.part_column(data, offsets, 40, 41)


def test_field_column_is_a_field_of_each_record(core_kind):
    # the raw spans of "http://a.example/" (4-21) and "<URL:ftp://b.example/>" (26-48),
    # 100 added; the second's flags say WRAPPED and PREFIX
    buf = b"see http://a.example/ and <URL:ftp://b.example/>"
    arr = _select.cores.scan.scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)
    core = _select.cores.records
    assert core.field_column(arr, R_START, 100) == array("q", [104, 126])
    assert core.field_column(arr, R_END, 100) == array("q", [121, 148])
    assert core.field_column(arr, R_FLAGS, 0, 1) == array("q", [WRAPPED | PREFIX])
    with pytest.raises(ValueError, match="fields 0 to 2"):
        core.field_column(arr, 3)


def test_records_refuse_what_is_no_record_array(core_kind):
    core = _select.cores.records
    with pytest.raises(TypeError, match="array"):
        core.url_column(array("i", [0, 1, 0]), b"x", TABLE)
    with pytest.raises(TypeError, match="array"):
        core.line_numbers([0, 1, 0], b"x", 0, [0, 1])


def test_segment_column_is_the_segment_holding_each_field(core_kind):
    # segments start at 0, 10, 10 (an empty one), 20: a record at 4-9 is in segment 0,
    # one at 10-20 starts in segment 2 (the last one starting at or before 10) and its
    # last octet (19) is there too; one at 25-30 is in segment 3
    core = _select.cores.records
    arr = array("q", [4, 9, 0, 10, 20, 0, 25, 30, 0])
    starts = array("q", [0, 10, 10, 20])
    assert core.segment_column(arr, R_START, starts) == array("q", [0, 2, 3])
    assert core.segment_column(arr, R_END, starts, -1) == array("q", [0, 2, 3])
    assert core.segment_column(arr, R_START, starts, 0, 1, 2) == array("q", [2])
    assert core.segment_column(arr, R_START, array("q", [5])) == array("q", [-1, 0, 0])
    assert core.segment_column(arr, R_START, array("q")) == array("q", [-1, -1, -1])
    with pytest.raises(ValueError, match="fields 0 to 2"):
        core.segment_column(arr, 3, starts)
    with pytest.raises(TypeError, match="array"):
        core.segment_column(arr, R_START, array("i", [0]))


@pytest.mark.twins
@given(st.lists(st.integers(0, 200), max_size=30), st.lists(st.integers(0, 200), max_size=12),
       st.integers(-2, 2))
def test_twins_give_the_same_segments(points, starts, shift):
    arr = array("q", [x for p in sorted(points) for x in (p, p + 3, 0)])
    starts = array("q", sorted(starts))
    got = [core.segment_column(arr, field, starts, shift) for core in TWINS.values()
           for field in (R_START, R_END)]
    assert got[:2] == got[2:]


def test_a_line_count_standing_before_the_buffer_is_refused(core_kind):
    # the count says offset 0 while the buffer starts at 100 of the input: the newlines
    # between are not there to count (a read before the buffer, not a wrong line)
    core = _select.cores.records
    buf = b"a\nhttp://a.example/\n"
    arr = _select.cores.scan.scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)
    with pytest.raises(ValueError, match="before the buffer"):
        core.line_numbers(arr, buf, 100, [0, 1])
    with pytest.raises(ValueError, match="before the buffer"):
        core.join_positions(arr, buf, TABLE, (F_LINE, b"\n"), 100, [0, 1])
    assert core.line_numbers(arr, buf, 100, [100, 1]) == array("q", [2])
