"""URL-dense text read by windows of 64 octets (issue 27), against the walk alone.

After two ``//`` URLs in a row, each at most 2 octets after the last match, the
compiled walk reads on by windows of 64 octets: each window's colons, non-scheme and
non-plain octets as bit masks, the common ``//`` URL (a letter-led scheme with no "."
and no "<" before it, an end with nothing to trim or cut, ASCII, no quoted-printable
soft break) taken by bit scans; everything else is handed back to the walk at its
colon. ``_scan_c._set_window(False)`` (the walk alone), the SSE2 compares, the walk
octet by octet and the pure twin are the reference: every way must give the same
triples.
"""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from conftest import scan_three_ways
from urlsift import _select
from urlsift.text.rules import KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE

TWINS = _select.twins("_scan")
compiled = pytest.mark.skipif("cython" not in TWINS, reason="the Cython core is not built")

# three URLs in a row, a space apart: the windows from the second's end on
HEAD = b"http://a.example/1 http://b.example/2 http://c.example/3 "


def _triples(data: bytes, max_length: int = MAX_LENGTH) -> list[tuple[int, int, int]]:
    """The twin's triples, after checking that the compiled walk gives the same with
    and without the windows, with SSE2's compares and octet by octet."""
    args = (TABLE, KNOWN, MAX_WRAPPER, max_length)
    twin = list(TWINS["python"].scan(data, 0, -1, *args))
    if "cython" in TWINS:
        windows, compared, plain = scan_three_ways(data, KNOWN, TABLE, max_length)
        scan = TWINS["cython"]
        was = scan._set_window(False)
        try:
            alone = list(scan.scan(data, 0, -1, *args))
        finally:
            scan._set_window(was)
        assert windows == alone == compared == plain == twin, data
    return [tuple(twin[i:i + 3]) for i in range(0, len(twin), 3)]


def _spans(data: bytes, max_length: int = MAX_LENGTH) -> list[tuple[int, int]]:
    return [(s, e) for s, e, _ in _triples(data, max_length)]


def _list(urls: list[bytes], sep: bytes = b" ", lead: bytes = b"") -> tuple[bytes, list]:
    """The text of the URLs after ``lead``, ``sep`` between them, and their spans."""
    spans, pos = [], len(lead)
    for u in urls:
        spans.append((pos, pos + len(u)))
        pos += len(u) + len(sep)
    return lead + sep.join(urls), spans


@pytest.mark.twins
@pytest.mark.parametrize("lead", range(0, 70))
def test_urls_across_every_window_edge_end_where_the_walk_ends_them(lead):
    # URLs of 17 to 57 octets from every offset: schemes and ends on both sides of
    # every edge of a window, several URLs in one, one running over the next
    urls = [b"http://a.example/" + b"p" * (k % 41) for k in range(60)]
    data, spans = _list(urls, lead=b"x" * lead + b" ")
    assert _spans(data) == spans


@pytest.mark.twins
@pytest.mark.parametrize("sep", [b" ", b"\n", b"\r\n", b"\t", b"  ", b"\"",
                                 b"|", b"{", b"^", b"\x7f", b"\x00"])
def test_the_octet_after_a_url_ends_it_with_the_walks_flags(sep):
    urls = [b"https://h%d.example/x%d" % (k, k) for k in range(40)]
    data, spans = _list(urls, sep)
    assert _spans(data) == spans


@pytest.mark.twins
@pytest.mark.parametrize("tail", [b"", b" ", b"\n"])
@pytest.mark.parametrize("extra", range(0, 40))
def test_a_url_at_the_buffers_end(tail, extra):
    urls = [b"http://a.example/%d" % k for k in range(12)] + [b"http://z.example/" + b"q" * extra]
    data, spans = _list(urls)
    assert _spans(data + tail) == spans


ANY = "any"    # the walk decides it (every way must agree); the URLs around it are checked


@pytest.mark.twins
@pytest.mark.parametrize("odd, expected", [
    # a wrapper: "<" before the scheme
    (b"<http://w.example/>", ANY),
    # a "." in the run: after an ellipsis the scheme starts after it; else it is the
    # scheme's (RFC 1738 section 2.1: "." is a scheme character)
    (b"...http://e.example/", (3, 20)),
    (b"x.http://e.example/", (0, 19)),
    # a scheme led by a digit: the URL starts at its first letter
    (b"1http://d.example/", (1, 18)),
    # trimmed, bracketed (the span is the walk's: the trim is in the flags)
    (b"http://t.example/end.", ANY),
    (b"http://t.example/a_(b)", (0, 22)),
    (b"(http://t.example/p)", ANY),
    (b"http://t.example/[x]", (0, 20)),
    # an IRI letter, a QP soft line break
    (b"http://i.example/\xc3\xa9t\xc3\xa9", (0, 22)),
    (b"http://q.example/a=\nb", ANY),
    # colons without "//": a port inside, names found without them, none
    (b"http://p.example:8080/x", (0, 23)),
    (b"news:comp.lang.c", (0, 16)),
    (b"mailto:a@m.example", (0, 18)),
    (b"time:12:00", None),
    (b"http://", None),
    (b"://x.example/", None),
])
@pytest.mark.parametrize("at", [3, 5, 8])
def test_every_uncommon_case_is_handed_back_to_the_walk(odd, expected, at):
    urls = [b"http://a%d.example/x" % k for k in range(10)]
    lead = b" ".join(urls[:at]) + b" "
    data = lead + odd + b" " + b" ".join(urls[at:])
    got = _spans(data)
    before = _list(urls[:at])[1]
    after = _list(urls[at:], lead=b"x" * (len(lead) + len(odd) + 1))[1]
    assert got[:at] == before and got[len(got) - len(after):] == after
    if expected is not ANY:
        middle = [(len(lead) + expected[0], len(lead) + expected[1])] if expected else []
        assert got[at:len(got) - len(after)] == middle


@pytest.mark.twins
@pytest.mark.parametrize("max_length", [1, 2, 3, 5, 10, 16, 17, 18, 30, 63, 64, 65, 100])
def test_max_length_ends_a_url_as_the_walk_does(max_length):
    urls = [b"http://a.example/" + b"m" * (k % 50) for k in range(40)]
    data, spans = _list(urls)
    # the walk stops max_length octets after the colon (s + 4); nothing after "//"
    # (s + 7): no URL
    want = [(s, min(e, s + 5 + max_length)) for s, e in spans]
    assert _spans(data, max_length) == [(s, e) for s, e in want if e > s + 7]


FRAGMENTS = [b"http://a.example/x", b"https://b.example/path/to/a/file.html?q=1&r=2",
             b"http://c.example/" + b"l" * 70, b"ftp://f.example/", b"<http://w.example/>",
             b"...http://e.example/", b"x.http://e.example/", b"1http://d.example/",
             b"http://t.example/end.", b"http://t.example/a_(b)", b"(http://t.example/)",
             b"http://i.example/\xc3\xa9", b"http://q.example/a=\nb", b"news:a.b",
             b"http://p.example:80/", b"time:12:00", b"http://", b"a:b", b"://x",
             b"mailto:a@b.example", b"HTTP://U.EXAMPLE/", b"http://x/&amp;"]


@pytest.mark.twins
@settings(max_examples=300, deadline=None)
@given(st.lists(st.tuples(st.sampled_from(FRAGMENTS),
                          st.sampled_from([b" ", b"\n", b"", b"  ", b"\t", b",", b"\""])),
                min_size=1, max_size=40),
       st.integers(0, 70), st.sampled_from([MAX_LENGTH, 20, 64]))
def test_any_mix_of_common_and_uncommon_urls_reads_as_the_walk_alone(pieces, lead, max_length):
    data = b"y" * lead + b" " + HEAD + b"".join(f + s for f, s in pieces)
    _triples(data, max_length)


@compiled
def test_set_window_says_what_it_was():
    scan = TWINS["cython"]
    was = scan._set_window(False)
    try:
        assert scan._set_window(True) is False
        assert scan._set_window(True) is True
    finally:
        scan._set_window(was)
