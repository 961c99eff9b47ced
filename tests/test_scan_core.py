"""The two text scanners (Cython ``_scan_c`` and pure ``_scan_py``) agree on every input.

Random texts are built from the pieces that steer the walk (schemes, colons, wrappers,
line breaks, trimmed punctuation, enders, non-ASCII), so that most examples hold URLs,
broken wrappers and near misses rather than noise; octets that are no UTF-8 (Latin-1
letters and cp1252 punctuation, issue 21) and lines of quoted-printable's width ending
in ``=`` (RFC 2045 §6.7 rule 5) among them.
"""
from __future__ import annotations

import mmap

import pytest
from hypothesis import given, strategies as st

from urlsift import _select
from urlsift import _scan_py
from urlsift._letters import is_mark
from urlsift.text.rules import KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE, TEXT_OCTETS

TWINS = _select.twins("_scan")
# compares the two twins directly: run once, not once per core (conftest)
PIECES = [
    "http", "HTTP", "ftp", "mailto", "news", "urn", "file", "gopher", "x-y.z+w", "URL", "url",
    ":", "://", "//", "/", "<", ">", "<URL:", "URL:", "<http://", "a", "Z", "9", "-", "+", ".",
    ",", ";", "!", "?", "'", '"', "(", ")", "[", "]", "{", "|", "\\", "^", "`", "~", "#",
    "%41", " ", "\t", "\n", "\r\n", "\r", "\n\n", "-\n ", "\x00", "\x7f", "é", "日", "\U0001f600",
    "example.com", "@", "=", "&",
    # Latin-1 letters, cp1252 quotes, a no-break space, "ª", "×", "²" (issue 21); QP breaks
    "\xe9", "\xc3", "\xff", "\x93", "\x94", "\xa0", "\xaa", "\xd7", "\xb2", "=\n", "=\r\n",
]
texts = st.lists(st.sampled_from(PIECES) | st.text(max_size=3), max_size=40).map("".join)
ascii_texts = st.lists(st.sampled_from([p for p in PIECES if p.isascii()]), max_size=40).map("".join)
small = st.integers(min_value=1, max_value=40)
#: Octets as they come in a file: ASCII pieces, UTF-8 letters and others, Latin-1
#: octets, sequences cut short or overlong, surrogates.
BYTE_PIECES = [p.encode("ascii") for p in PIECES if p.isascii()] + [
    b"\xe9", b"\xc3\xa9", b"\xc3", b"\xc3(", b"\xc0\xaf", b"\xe2\x80\xa6", b"\xed\xa0\x80",
    b"\xf0\x9f\x98\x80", b"\xf4\x90\x80\x80", b"\x93", b"\xa0", b"\xaa", b"\xb5", b"\xd7", b"\xf7",
    b"\xe6\x97\xa5", b"caf\xe9", b"stra\xdfe", b"http://a.example/", b"http://caf\xe9.example/x",
]
#: ... and a URL with letters, Latin-1 or UTF-8, right after it (most examples)
URL_OCTETS = [b"http://a.example/", b"ftp://h/", b"\xe9", b"\xc3", b"\xff", b"\xaa", b"a", b"/",
              b"\xc3\xa9", b"\x93", b".", b")"]
octet_texts = st.lists(st.sampled_from(BYTE_PIECES) | st.sampled_from(URL_OCTETS)
                       | st.binary(max_size=3), max_size=40).map(b"".join)


@st.composite
def qp_texts(draw):
    """Lines of quoted-printable's width around its limits (71-78 characters), a URL in
    each, most ending in ``=`` (a soft line break, RFC 2045 §6.7 rule 5), joined by LF
    or CR LF, random text after: joined, trimmed and refused breaks."""
    lines = []
    for _ in range(draw(st.integers(1, 4))):
        width = draw(st.integers(71, 78))
        head = draw(st.sampled_from(["", "see ", "x" * 40 + " ", "\x00", "> ", "<URL:"]))
        url = draw(st.sampled_from(["http://www.linux-mips.org/", "ftp://a.example/p(",
                                    "mailto:a@b.example", "news:", "http://caf\xe9.example/"]))
        tail = draw(texts | st.text(alphabet="ab/._-~()=%\xe9\u00df", max_size=30))
        body = (head + url + tail + "p" * 80)[:width - 1]
        lines.append(body + draw(st.sampled_from(["=", "=", "=", ".", "p"])))
    first = draw(st.sampled_from(["", "http://next.example/", " ", "=", ")"]))
    return draw(st.sampled_from(["\n", "\r\n"])).join(lines) + first + draw(texts)


def run(kind, buf, start=0, stop=-1, max_wrapper=MAX_WRAPPER, max_length=MAX_LENGTH,
        octets=TEXT_OCTETS):
    return list(TWINS[kind].scan(buf, start, stop, TABLE, KNOWN, max_wrapper, max_length,
                                 octets))


def both(buf, *args):
    return {kind: run(kind, buf, *args) for kind in TWINS}


@pytest.mark.twins
@given(texts)
def test_twins_agree_on_str(text):
    # full Unicode: the Cython core walks 1-, 2- and 4-byte str data in place
    r = both(text)
    assert r["cython"] == r["python"]


@pytest.mark.twins
@given(texts.map(lambda s: s.encode("latin-1", "replace")))
def test_twins_agree_on_latin1_bytes(data):
    r = both(data)
    assert r["cython"] == r["python"]


@pytest.mark.twins
@given(texts.map(lambda s: s.encode("utf-8")))
def test_twins_agree_on_utf8_bytes(data):
    r = both(data)
    assert r["cython"] == r["python"]


@pytest.mark.twins
@given(octet_texts)
def test_twins_agree_on_octets_that_are_no_utf8(data):
    # the text table (Latin-1 letters %-encoded) and none (the mail walk's): alike
    for octets in (TEXT_OCTETS, None):
        r = {kind: run(kind, data, octets=octets) for kind in TWINS}
        assert r["cython"] == r["python"]


@pytest.mark.twins
@given(qp_texts(), st.sampled_from(["str", "latin-1", "utf-8"]), st.booleans())
def test_twins_agree_on_quoted_printable_lines(text, form, table):
    buf = text if form == "str" else text.encode(form, "replace")
    octets = TEXT_OCTETS if table else None
    r = {kind: run(kind, buf, octets=octets) for kind in TWINS}
    assert r["cython"] == r["python"]


@pytest.mark.twins
@given(texts, st.integers(-2, 60), st.integers(-2, 60), small, small)
def test_twins_agree_on_ranges_and_limits(text, start, stop, max_wrapper, max_length):
    r = {k: run(k, text, start, stop, max_wrapper, max_length) for k in TWINS}
    assert r["cython"] == r["python"]


@pytest.mark.twins
@given(texts, st.integers(-1, 50), st.integers(-1, 50))
def test_twins_count_newlines_and_find_split_points(text, a, b):
    for buf in (text, text.encode("utf-8")):
        counts = {k: m.count_newlines(buf, a, b) for k, m in TWINS.items()}
        bounds = {k: m.next_boundary(buf, a, b, TABLE) for k, m in TWINS.items()}
        assert counts["cython"] == counts["python"]
        assert bounds["cython"] == bounds["python"]


@given(ascii_texts)
def test_every_buffer_type_gives_the_same_spans(text):
    kind = _select.cores.scan.__name__.endswith("_c") and "cython" or "python"
    data = text.encode("ascii")
    expected = run(kind, data)
    assert run(kind, bytearray(data)) == expected
    assert run(kind, memoryview(data)) == expected
    assert run(kind, text) == expected          # ASCII: characters are octets


def test_mmap_gives_the_same_spans(core_kind, tmp_path):
    data = b"x <URL:http://a.example/\n b> y\nhttp://c.example/d.\n"
    p = tmp_path / "f.txt"
    p.write_bytes(data)
    with open(p, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        assert run(core_kind, mm) == run(core_kind, data)
        assert run(core_kind, data) == [2, 28, _scan_py.WRAPPED | _scan_py.PREFIX | _scan_py.WHITESPACE,
                                        31, 50, 1 << _scan_py.TRIM_SHIFT]


#: CJK text's punctuation (、。〈〉「」【】！（）：？＠ and their neighbours), which the
#: compiled core's letter_at tells from letters without asking Python's tables
CJK_PUNCTUATION = [chr(c) for a, b in ((0x3000, 0x3004), (0x3008, 0x3011), (0xFF01, 0xFF0F),
                                       (0xFF1A, 0xFF20)) for c in range(a, b + 1)]


def test_cjk_punctuation_is_neither_letter_digit_nor_mark():
    # what letter_at's ranges stand for: true while Unicode says so (a new Python's
    # tables would show here first)
    for c in CJK_PUNCTUATION:
        assert not c.isalnum() and not is_mark(ord(c)), hex(ord(c))


@pytest.mark.parametrize("form", ["str", "utf-8"])
@pytest.mark.parametrize("before", ["/348", "/パス"])
def test_a_url_ends_at_cjk_punctuation(core_kind, form, before):
    # an IRI (RFC 3987: its host and path in CJK letters) ends where the sentence's
    # punctuation starts, after an ASCII digit or a CJK letter; nothing is trimmed,
    # and the character that ended it is not ASCII (CUT_NON_ASCII)
    for c in CJK_PUNCTUATION:
        url = "https://例え.jp/パス" + before
        text = "資料は共有フォルダにあります。 " + url + c + "資料"
        buf = text.encode() if form == "utf-8" else text
        start = text.index("https")
        if form == "utf-8":
            start = len(text[:start].encode())
        end = start + len(url.encode() if form == "utf-8" else url)
        assert run(core_kind, buf) == [start, end, _scan_py.CUT_NON_ASCII], hex(ord(c))


def test_spans_stay_inside_the_input(core_kind):
    # the walk may read past stop (a wrapper opened before it) but never past the end
    text = "<URL:http://a.example/"
    # unclosed wrapper: what is left is a bare URL with its "URL:" prefix (RFC 1738 appendix)
    assert run(core_kind, text) == [1, 22, _scan_py.PREFIX]


def test_scan_rejects_what_is_not_text(core_kind):
    with pytest.raises(TypeError):
        run(core_kind, 12345)

@pytest.mark.twins
def test_cython_scan_checks_the_table_size():
    with pytest.raises(ValueError, match="256"):
        TWINS["cython"].scan(b"x", 0, -1, b"short", KNOWN, MAX_WRAPPER, MAX_LENGTH)


@pytest.mark.parametrize("octets", [b"short", bytearray(256), "x" * 256, 1])
def test_scan_checks_the_octets_table(core_kind, octets):
    with pytest.raises(ValueError, match="octets table"):
        TWINS[core_kind].scan(b"x", 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH, octets)


def test_the_pure_twin_encodes_a_str_once_for_all_its_pieces():
    # extract() scans a str piece by piece; each piece used to encode the whole str
    # again (16 MB: 7 s instead of 0.9 s). One view serves every piece of the same str.
    text = "see http://a.example/ " * 1000
    first = _scan_py._view(text)[0]
    assert _scan_py._view(text)[0] is first
    assert list(first[:3]) == [ord("s"), ord("e"), ord("e")]
    other = "x" + text
    assert _scan_py._view(other)[0] is not first
