"""The two builders (Cython ``_build_c`` and pure ``_build_py``) make the same objects
from the scanner's triples, and neither trusts a triple it was handed. The texts hold
octets that are no UTF-8 (written %HH in the URL, RFC 1738 §2.2) and quoted-printable
soft line breaks (left out of a joined URL, RFC 2045 §6.7 rule 5), issue 21.
"""
from __future__ import annotations

from array import array

import pytest
from hypothesis import given, strategies as st

from urlsift import _scan_py, _select
from urlsift._layout import F_OFFSET, F_URL
from urlsift.text.match import Match
from urlsift.text.rules import EDITS, KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE, TEXT_OCTETS, WRAPPED

from test_scan_core import octet_texts, qp_texts, texts

#: A str, a bytes of octets, or lines of QP's width: what the twins are given.
any_texts = st.one_of(texts, octet_texts, qp_texts())


def buffers(text):
    """The forms a text is scanned in: a str as it is and as UTF-8 and Latin-1 octets."""
    if isinstance(text, bytes):
        return [text]
    return [text, text.encode("utf-8"), text.encode("latin-1", "replace")]


def scanned(buf, kind="python"):
    return SCAN[kind].scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH, TEXT_OCTETS)

SCAN = _select.twins("_scan")
TWINS = _select.twins("_build")
RECORDS = _select.twins("_records")
# compares the two twins directly: run once, not once per core (conftest)

@pytest.mark.twins
@given(any_texts)
def test_twins_build_the_same_matches(text):
    for buf in buffers(text):
        a = scanned(buf)
        got = {k: m.build(a, buf, 7, Match, EDITS, TABLE) for k, m in TWINS.items()}
        assert got["cython"] == got["python"]
        assert all(type(m) is Match for m in got["cython"])


def test_build_rejects_a_wrong_array_or_span(core_kind):
    core = TWINS[core_kind]
    with pytest.raises(TypeError):
        core.build(array("i", [0, 1, 0]), b"ab", 0, Match, EDITS, TABLE)
    with pytest.raises(ValueError):
        core.build(array("q", [0, 9, 0]), b"ab", 0, Match, EDITS, TABLE)


@pytest.mark.twins
@given(any_texts, st.integers(-2, 8), st.integers(-2, 8))
def test_twins_join_the_same_url_lines(text, first, last):
    # join_urls is the command's fast path: the url of each match and a newline,
    # exactly what build gives, without building the matches.
    for buf in buffers(text):
        arr = scanned(buf)
        got = {k: m.join_urls(arr, buf, TABLE, first, last) for k, m in TWINS.items()}
        assert got["cython"] == got["python"]
        total = len(arr) // 3
        lo = min(max(first, 0), total)
        hi = total if last < 0 or last > total else last
        urls = [m[0] for m in TWINS["python"].build(arr, buf, 0, Match, EDITS, TABLE)]
        assert got["python"] == "".join(u + "\n" for u in urls[lo:max(lo, hi)]).encode("utf-8")


# ---- triples from a caller, and an input that changes under the scan (both cores) -----

@pytest.mark.parametrize("triple", [
    [0, 1, _scan_py.WRAPPED],                    # "<" ... ">" needs two characters
    [0, 4, _scan_py.WRAPPED | _scan_py.PREFIX],  # "<URL:" ... ">" needs six
    [2, 1, 0],                                   # end before start
    [0, 65, 0],                                  # past the end of the input
    [-1, 3, 0],
    [0, 3, 4 << _scan_py.TRIM_SHIFT],            # trims more than the span holds
])
def test_a_triple_that_does_not_fit_is_refused(core_kind, triple):
    core = TWINS[core_kind]
    arr = array("q", triple)
    with pytest.raises(ValueError, match="does not fit"):
        core.join_urls(arr, b"x" * 64, TABLE)
    with pytest.raises(ValueError, match="does not fit"):
        core.build(arr, b"x" * 64, 0, Match, EDITS, TABLE)


def test_octets_that_the_scanner_never_reports_mean_the_input_changed(core_kind):
    # The scanner reports ASCII and whole UTF-8 letters in a bare span, ASCII only in a
    # wrapper; when a mapped file is rewritten between the scan and the build, build
    # says so instead of making a str that lies.
    core = TWINS[core_kind]
    bare, wrapper = array("q", [0, 16, 0]), array("q", [0, 18, WRAPPED])
    with pytest.raises(OSError, match="changed"):
        core.build(bare, b"http://a.ex\xe9m/ rest", 0, Match, EDITS, TABLE)   # no UTF-8
    with pytest.raises(OSError, match="changed"):
        core.build(wrapper, "<http://a.ex\u0129m/> rest".encode(), 0, Match, EDITS, TABLE)
    with pytest.raises(OSError, match="changed"):
        core.build(wrapper, "<http://a.ex\u0129m/> rest", 0, Match, EDITS, TABLE)
    # a bare span of UTF-8 letters is an IRI: the characters, offsets in octets
    [m] = core.build(array("q", [0, 15, 0]), "http://a.ex\u0129m/ rest".encode(), 0, Match,
                     EDITS, TABLE)
    assert (m.url, m.end, m.edits) == ("http://a.ex\u0129m/", 15, ("non-ascii",))


def test_a_span_of_octets_is_read_once_into_both_strings(core_kind):
    # ENCODED (issue 21): raw shows an octet that starts no UTF-8 sequence as its
    # ISO-8859-1 character, url writes it %HH (RFC 1738 §2.2); a UTF-8 letter stays one
    core = TWINS[core_kind]
    buf = b"x http://a.example/caf\xc3\xa9/na\xefve. y"
    arr = array("q", [2, 31, _scan_py.ENCODED | 1 << _scan_py.TRIM_SHIFT])
    [m] = core.build(arr, buf, 0, Match, EDITS, TABLE)
    assert (m.url, m.raw, m.end) == ("http://a.example/café/na%EFve",
                                    "http://a.example/café/naïve.", 31)
    assert m.edits == ("punctuation-trimmed", "octets-encoded", "non-ascii")
    assert core.join_urls(arr, buf, TABLE) == "http://a.example/café/na%EFve\n".encode()
    assert RECORDS[core_kind].join_positions(arr, buf, TABLE, (F_OFFSET, b" ", F_URL, b"\n"),
                                             0, [0, 1]) == "2 http://a.example/café/na%EFve\n".encode()
    # on a str the flag changes nothing: a str has characters, not octets
    [m] = core.build(arr, buf.decode("latin-1"), 0, Match, EDITS, TABLE)
    assert m.url == "http://a.example/cafÃ©/naïve"


def test_soft_line_breaks_are_left_out_of_a_joined_url(core_kind):
    # JOINED: each "=" + LF or CR LF inside the URL goes (RFC 2045 §6.7 rule 5), read from
    # the left ("==\n" keeps one "="); the trimmed end and raw keep theirs
    core = TWINS[core_kind]
    for buf in (b"http://a/b=\nc==\r\nd=\n", "http://a/b=\nc==\r\nd=\n"):
        arr = array("q", [0, 19, _scan_py.JOINED | _scan_py.SOFT_BREAK | 1 << _scan_py.TRIM_SHIFT])
        [m] = core.build(arr, buf, 0, Match, EDITS, TABLE)
        assert (m.url, m.raw) == ("http://a/bc=d", "http://a/b=\nc==\r\nd=")
        assert m.edits == ("qp-lines-joined", "qp-soft-break")
        if isinstance(buf, bytes):
            assert core.join_urls(arr, buf, TABLE) == b"http://a/bc=d\n"


def test_squeezed_wrappers_come_out_whole_and_alone(core_kind):
    # the output is sized from the spans (an upper bound): white space squeezed out of a
    # wrapper must shorten it exactly, with nothing left over at the end
    core = TWINS[core_kind]
    buf = b"<URL:http://a.example/x-\n   y> and <http://b.example/>"
    arr = SCAN[core_kind].scan(buf, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)
    assert core.join_urls(arr, buf, TABLE) == b"http://a.example/x-y\nhttp://b.example/\n"


def _edits_index(low: int, high: int = 0, trimmed: bool = False, non_ascii: bool = False) -> int:
    """Where ``edits_index`` looks: flags' low byte, the high flags from bit 8, trimmed."""
    from urlsift.text.rules import EDITS_NON_ASCII, HIGH_SHIFT
    bits = low | high >> (HIGH_SHIFT - 8)
    return (bits * 2 + trimmed) + (EDITS_NON_ASCII if non_ascii else 0)


@pytest.mark.twins
def test_edits_table_entries():
    # the table start-up builds from two halves is the definition's (rules._edits_for),
    # entry by entry, and its entries read in the order docs/codes.md lists the edits
    from urlsift.text import rules as r
    assert len(EDITS) == r.N_EDITS
    for i, got in enumerate(EDITS):
        assert got == r._edits_for(i % r.EDITS_NON_ASCII // 2, bool(i % 2),
                                   i >= r.EDITS_NON_ASCII), i
    assert EDITS[0] == ()
    assert EDITS[_edits_index(r.WRAPPED | r.WHITESPACE, trimmed=True)] == (
        "wrapper-removed", "whitespace-removed", "quote-prefixes-removed")
    assert EDITS[_edits_index(r.PREFIX | r.CUT_UNSAFE | r.HYPHEN_BREAK, trimmed=True,
                              non_ascii=True)] == (
        "prefix-removed", "punctuation-trimmed", "cut-at-unsafe", "non-ascii")
    assert EDITS[_edits_index(r.ANGLE, r.JOINED | r.SOFT_BREAK | r.ENCODED)] == (
        "qp-lines-joined", "qp-soft-break", "angle-brackets-removed", "octets-encoded")
    assert len({id(e) for e in EDITS}) == len(set(EDITS))     # equal entries shared
