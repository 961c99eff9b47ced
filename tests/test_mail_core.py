"""The mail walker of the core (``urlsift._mail_c`` / ``urlsift._mail_py``).

Hand-worked cases run on both cores (autouse ``core_kind``); the twins are compared
on random spools with hypothesis (``twins``: once). That the walk finds what the
standard library's ``email`` finds is ``tests/test_mail_walk.py``'s subject.
"""
from __future__ import annotations

import email.utils
from array import array
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from urlsift import _select
from urlsift._mail_py import FALLBACK, K_HEADER, K_HREF, K_HTML_TEXT, K_TEXT, MSG, SEG
from urlsift.mail.html import decode_char_refs
from urlsift.mail.walk import CHARSETS, HEADERS


def walk(data: bytes, whole: bool = False):
    out, segs, msgs, names = _select.cores.mail.walk(data, 0, len(data), HEADERS, CHARSETS, 8,
                                                     decode_char_refs, whole)
    segments = []
    for r in range(0, len(segs), SEG):
        msg, a, e, src, kind, la, lb, part_offset, anchor = segs[r:r + SEG]
        segments.append((msg, bytes(out[a:e]), src, kind, names[la:lb].decode(), part_offset,
                         anchor))
    messages = [tuple(msgs[r:r + MSG]) for r in range(0, len(msgs), MSG)]
    return segments, messages


def texts(data: bytes, whole: bool = False) -> list[bytes]:
    return [s[1] for s in walk(data, whole)[0]]


# -- messages and headers (RFC 5322 section 2.2, mboxrd) ------------------------------

def test_messages_are_cut_at_from_lines_only():
    spool = (b"From a Mon Jan  1 00:00:00 2026\nSubject: x\n\nbody one\n>From here\n"
             b"From b\n\nbody two\n")
    segments, messages = walk(spool)
    second = spool.index(b"From b")
    assert [(m[0], m[1], m[2]) for m in messages] == [
        (0, spool.index(b"Subject"), second), (second, second + 7, len(spool))]
    assert [s[1] for s in segments] == [b"body one\n>From here\n", b"body two\n"]


@pytest.mark.parametrize("pad", range(40))
def test_from_lines_are_found_wherever_they_stand(pad):
    # RFC 4155: a message starts at each line that starts with "From "; the search
    # looks at many octets at a time, so the line is put at every place in such a block
    # (and in the last octets of the spool), after lines that only start like one.
    decoys = b"x" * pad + b"\nFrom:a\nFrom\nFro\nFrom\tb\nfrom c\n>From d\nF"
    spool = b"From a\n\n" + decoys + b"\nFrom b\n\nx\nFrom c\n"
    _, messages = walk(spool)
    second = spool.index(b"\nFrom b") + 1
    third = spool.index(b"\nFrom c") + 1
    assert [(m[0], m[2]) for m in messages] == [(0, second), (second, third),
                                                (third, len(spool))]


def test_a_url_header_with_an_octet_email_reads_as_a_header_object_falls_back():
    # email makes a value holding a control or an octet past ASCII a Header object
    # (RFC 5322 section 2.2: printable ASCII and blanks); tab is a blank, CR and LF end
    # lines and are left to the cut
    for octet in range(256):
        if octet in (0x0A, 0x0D):
            continue
        spool = b"List-Help: <http://h.example/" + bytes([octet]) + b">\n\nbody\n"
        _, messages = walk(spool, whole=True)
        bad = octet < 0x20 and octet != 0x09 or octet >= 0x7F
        assert (messages[0][7] == FALLBACK) == bad, octet


def test_text_before_the_first_from_line_is_a_message_without_offset():
    _, messages = walk(b"stray http://x.example/\nFrom a\n\nb\n")
    assert [m[0] for m in messages] == [-1, 24]


def test_an_in_place_part_gives_its_offset_in_the_spool():
    spool = b"From a\nMessage-ID: <1@x>\n\nsee http://a.example/\n"
    ((msg, text, src, kind, label, part_offset, _),), ((_, _, _, ida, ide, da, _, flags),) = walk(spool)
    assert (text, src, kind, label, part_offset) == (b"see http://a.example/\n", 26, K_TEXT,
                                                      "1 text/plain", 0)
    assert spool[ida:ide] == b"<1@x>" and da == -1 and flags == 0


def test_folded_url_headers_in_the_order_of_the_list_then_of_the_message():
    # RFC 2369 List-* headers: a folded value keeps its fold; List-Help is reported
    # before List-Post whatever their order in the message
    spool = (b"List-Post: <mailto:l@x.example>\nList-Help: <mailto:h@x.example>,\n"
             b"  <http://h.example/>\nList-Help: <http://h2.example/>\n\nbody\n")
    segments, _ = walk(spool, whole=True)
    assert [(s[3], s[4], s[1]) for s in segments[:3]] == [
        (K_HEADER, "header:List-Help", b"<mailto:h@x.example>,\n  <http://h.example/>"),
        (K_HEADER, "header:List-Help", b"<http://h2.example/>"),
        (K_HEADER, "header:List-Post", b"<mailto:l@x.example>")]
    assert segments[0][2] == spool.index(b"<mailto:h@")


def test_a_line_that_is_no_header_starts_the_body():
    assert texts(b"Subject: x\nno colon here http://b.example/\n", whole=True) == [
        b"no colon here http://b.example/\n"]


@pytest.mark.parametrize("spool", [
    b"Message-ID: <1@x>\r\n\r\nhttp://a.example/\rhttp://b.example/\r\n",       # a bare CR
    b"Message-ID: <\xe9@x>\n\nhttp://a.example/\n",                            # 8-bit header
    b" folded first\nSubject: x\n\nhttp://a.example/\n",                       # defect
    b"Content-Type: message/rfc822\n\nSubject: inner\n\nhttp://a.example/\n",
    b"Content-Type: text/plain; charset=utf-16\n\nh\x00t\x00",
    b"Content-Type: text/plain; charset*=us-ascii''utf-8\n\nhttp://a.example/\n",  # RFC 2231
    b"Content-Transfer-Encoding: x-uuencode\n\nbegin 644 x\n",
    b"Content-Transfer-Encoding: base64\n\nnot base64 at all!\n",
    b"Content-Type: multipart/mixed\n\nno boundary parameter\n",
    b"Content-Type: multipart/mixed; boundary=b\n\nthe boundary never comes\n",
    b"Content-Type: text/html\n\n<base href='http://b.example/'><a href=x>x</a>\n",
    b"Content-Type: text/html\n\n<a href='http://a.example/\n",               # tag not closed
    # a URL glued to a non-ASCII octet of a charset other than UTF-8: email decodes it
    # and the letter goes on with the URL (an IRI), the walk reads UTF-8 only
    b"Content-Type: text/plain; charset=iso-8859-1\n\nhttp://a.example/caf\xe9\n",
    b"Content-Type: text/plain; charset=koi8-r\nContent-Transfer-Encoding: quoted-printable"
    b"\n\nsee http://ru.example/=ED=CF\n",
    b"Content-Type: text/html; charset=us-ascii\n\nhttp&#58;//a.example/caf\xc3\xa9\n",  # &#58; is ":"
])
def test_what_email_reads_differently_falls_back(spool):
    segments, messages = walk(spool, whole=True)
    assert segments == [] and messages[0][7] == FALLBACK


@pytest.mark.parametrize("spool", [
    # non-ASCII octets of another charset where no URL can go on: the walk keeps them
    "Content-Type: text/plain; charset=iso-8859-1\n\ncafé http://a.example/ là\n".encode("latin-1"),
    "Content-Type: text/plain; charset=iso-8859-1\n\nà http://a.example/\n".encode("latin-1"),
    # UTF-8 (or no charset said): the walk reads the letters itself
    "Content-Type: text/plain; charset=utf-8\n\nhttp://例え.jp/パス\n".encode(),
    "Content-Type: text/plain\n\nhttp://例え.jp/パス\n".encode(),
])
def test_non_ascii_the_walk_reads_itself(spool):
    segments, messages = walk(spool, whole=True)
    assert segments != [] and messages[0][7] == 0


# -- MIME (RFC 2045, RFC 2046) ---------------------------------------------------------

MULTI = (b"Content-Type: multipart/mixed; boundary=\"outer b\"\n\npreamble http://pre.example/\n"
         b"--outer b\nContent-Type: text/plain\n\none http://one.example/\n"
         b"--outer b  \n"
         b"Content-Type: multipart/alternative; boundary=inner\n\n"
         b"--inner\nContent-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n\n"
         b"two http://two.example/a=\n=3Db\n"
         b"--inner\nContent-Type: text/html\n\n<a href=\"http://three.example/?a=1&amp;b=2\">"
         b"http://three.example/?a=1&amp;b=2</a>\n--inner--\n"
         b"--outer b\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\niVBORw0K\n"
         b"--outer b--\nepilogue http://epi.example/\n")


def test_nested_multiparts_give_imap_section_labels_and_skip_what_is_not_text():
    segments, messages = walk(MULTI, whole=True)
    assert messages[0][7] == 0
    got = [(s[4], s[3], s[1]) for s in segments]
    # the line end before a boundary belongs to the boundary (RFC 2046 section 5.1.1);
    # the quoted-printable soft break is undone (RFC 2045 section 6.7, rule 5)
    assert got == [
        ("1 text/plain", K_TEXT, b"one http://one.example/"),
        ("2.1 text/plain", K_TEXT, b"two http://two.example/a=b"),
        ("2.2 text/html", K_HREF, b"http://three.example/?a=1&b=2"),
        ("2.2 text/html", K_HTML_TEXT, b"http://three.example/?a=1&b=2"),
    ]
    href = next(i for i, s in enumerate(segments) if s[3] == K_HREF)
    assert segments[href + 1][6] == href          # the link text knows its <a href>


def test_a_missing_close_boundary_ends_the_last_part_at_the_message_end():
    spool = (b"Content-Type: multipart/mixed; boundary=b\n\n--b\n\nfirst\n--b\n\n"
             b"last http://last.example/\n")
    assert texts(spool, whole=True) == [b"first", b"last http://last.example/"]


def test_crlf_line_ends():
    spool = (b"Content-Type: multipart/mixed; boundary=b\r\n\r\n--b\r\n"
             b"Content-Type: text/plain\r\n\r\nhttp://a.example/\r\n--b--\r\n")
    assert texts(spool, whole=True) == [b"http://a.example/"]


def test_base64_lines_are_joined_and_decoded():
    body = b"aHR0cDovL2IuZXhhbXBs\nZS8gb2s=\n"           # "http://b.example/ ok"
    spool = b"Content-Transfer-Encoding: base64\n\n" + body
    (seg,), _ = walk(spool, whole=True)
    assert seg[1] == b"http://b.example/ ok" and seg[2] == -1   # decoded: no spool offset


# -- reply quotes (RFC 1738 appendix: <URL:...> may be broken over lines) --------------

def test_quote_prefixes_go_only_where_a_wrapper_is_open_at_the_line_end():
    spool = (b"\n> plain quoted http://q.example/\n> see <URL:http://a.example/very-\n"
             b">> long/path> ok\n> after\n")
    segments, _ = walk(spool, whole=True)
    whole_text = b"".join(s[1] for s in segments)
    assert whole_text == (b"> plain quoted http://q.example/\n> see <URL:http://a.example/very-\n"
                          b"long/path> ok\n> after\n")
    # two segments: the prefix left out starts the second, at its place in the part
    assert [(s[2], s[5]) for s in segments] == [(1, 0), (spool.index(b"long/"), spool.index(b"long/") - 1)]


# -- HTML -------------------------------------------------------------------------------

def test_html_attributes_and_text_runs():
    spool = (b"Content-Type: text/html\n\n<!DOCTYPE html><!-- http://comment.example/ -->"
             b"<img SRC=http://img.example/a.png><a href='rel.html'>x</a>"
             b"<script>var u = 'http://js.example/&amp;';</script>t&#104;ere")
    segments, messages = walk(spool, whole=True)
    assert messages[0][7] == 0
    assert [(s[3], s[1]) for s in segments] == [
        (_select.cores.mail.K_SRC, b"http://img.example/a.png"),
        (K_HTML_TEXT, b"x"),
        (K_HTML_TEXT, b"var u = 'http://js.example/&amp;';"),   # raw text: as written
        (K_HTML_TEXT, b"there"),
    ]


def test_character_references_past_the_fast_ones_go_through_html_unescape():
    spool = b"Content-Type: text/html\n\n<a href='http://a.example/?x=&copy;1'>z&eacute;</a>"
    segments, _ = walk(spool, whole=True)
    assert segments[0][1] == "http://a.example/?x=\u00a91".encode("utf-8")
    assert segments[1][1] == "z\u00e9".encode("utf-8")


# -- dates (RFC 5322 section 3.3) -------------------------------------------------------

@pytest.mark.parametrize("raw, iso", [
    (b"Mon, 12 Oct 2026 10:15:00 +0200", "2026-10-12T10:15:00+02:00"),
    (b"1 Jan 2000 00:00:30 -0530", "2000-01-01T00:00:30-05:30"),
    (b"Tue, 29 Feb 2000 23:59:59 -0000", "2000-02-29T23:59:59"),       # -0000: no offset
    (b"Thu, 29 Feb 2001 00:00:00 +0000", None),                         # no such day
    (b"Mon, 12 Oct 26 10:15:00 +0200", None),                           # 2-digit year
    (b"Mon, 12 Oct 2026 10:15 +0200", None),                            # no seconds
    (b"Mon, 12 Oct 2026 10:15:00 GMT", None),
])
def test_iso_date_fast_form(raw, iso):
    assert _select.cores.mail.iso_date(raw) == iso
    if iso is not None:
        assert email.utils.parsedate_to_datetime(raw.decode()).isoformat() == iso


# -- the twins agree ----------------------------------------------------------------------

TWINS = _select.twins("_mail")
twins_only = pytest.mark.skipif("cython" not in TWINS, reason="the Cython core is not built")

HEADER_LINES = st.sampled_from([
    b"Message-ID: <1@x.example>\n", b"Date: Mon, 12 Oct 2026 10:15:00 +0200\n",
    b"Date: 12 Oct 26 10:15 GMT\n", b"List-Post: <mailto:l@x.example>\n",
    b"List-Help: <http://h.example/>,\n <mailto:h@x>\n", b"Subject: =?utf-8?q?x?=\n",
    b"Content-Type: text/plain; charset=utf-8\n", b"Content-Type: text/html\n",
    b"Content-Type: text/plain; charset=\"utf-16\"\n", b"Content-Type: image/png\n",
    b"Content-Transfer-Encoding: quoted-printable\n", b"Content-Transfer-Encoding: base64\n",
    b"Content-Type: multipart/alternative; boundary=\"b\"\n", b"X-\xe9: 8bit\n", b" folded\n",
])
BODY_PIECES = st.sampled_from([
    b"see http://a.example/x-\n", b"> <URL:http://q.example/a-\n", b">> b> ok\n", b"=\n",
    b"=3D", b"aHR0cDovL2IuZXhhbXBsZS8=\n", b"<a href=\"http://h.example/?a&amp;b\">", b"</a>",
    b"&#104;ttp://e.example/ ", b"&copy;", b"<!-- c -->", b"<script>x</script>", b"<base href=x>",
    b"--b\n", b"--b--\n", b"\n", b"\r\n", b"\r", b"From x\n", b">From y\n", b"\xe9\xff",
    b"Content-Type: text/html\n\n", b"<img src='ftp://f.example/p'", b">",
])
MESSAGES = st.builds(lambda h, b: b"".join(h) + b"\n" + b"".join(b),
                     st.lists(HEADER_LINES, max_size=6), st.lists(BODY_PIECES, max_size=25))
SPOOLS = st.lists(MESSAGES, max_size=4).map(lambda ms: b"".join(b"From s\n" + m for m in ms))


def _outcome(fn, *args):
    try:
        return ("ok", [bytes(x) if isinstance(x, bytearray) else list(x) for x in fn(*args)])
    except Exception as exc:  # noqa: BLE001 - comparing how each twin fails
        return ("raised", type(exc).__name__, str(exc))


@twins_only
@pytest.mark.twins
@settings(max_examples=400, deadline=None)
@given(SPOOLS, st.booleans())
def test_twins_walk_alike(spool, whole):
    args = (spool, 0, len(spool), HEADERS, CHARSETS, 3, decode_char_refs, whole)
    assert _outcome(TWINS["cython"].walk, *args) == _outcome(TWINS["python"].walk, *args)


@twins_only
@pytest.mark.twins
@settings(max_examples=300, deadline=None)
@given(SPOOLS)
def test_twins_trace_alike(spool):
    from urlsift.mail.walk import tracing
    from urlsift.text.extraction import scan

    walked = TWINS["python"].walk(spool, 0, len(spool), HEADERS, CHARSETS, 3, decode_char_refs)
    triples = scan(walked[0])
    how = tracing(200, lambda i: [("other", i)])
    results = [twin.trace(triples, walked, spool, 7, "s", how)
               for twin in (TWINS["cython"], TWINS["python"])]
    assert results[0] == results[1]


@twins_only
@pytest.mark.twins
@given(st.text("ab/.", max_size=6),
       st.one_of(st.text("ab/.", max_size=6).map(str.encode), st.sampled_from([b"\xe9", b"a\xff/"])))
def test_the_core_keeps_same_link_rule(url, href):
    # both traces ask the mail layer's rule, urlsift.mail.anchors.same_link (both
    # the link text and the href are "http://h/" and a tail: equal ones are common)
    spool = (b"From a\nContent-Type: text/html\n\n<a href=\"http://h/" + href
             + b"\">http://h/" + url.encode("ascii") + b"</a>\n")
    from urlsift.mail.walk import tracing
    from urlsift.text.extraction import scan

    walked = TWINS["python"].walk(spool, 0, len(spool), HEADERS, CHARSETS, 3, decode_char_refs)
    results = [twin.trace(scan(walked[0]), walked, spool, 0, "s", tracing(1 << 20, lambda i: []))
               for twin in (TWINS["cython"], TWINS["python"])]
    assert results[0] == results[1]


def test_same_link_is_the_href_a_trailing_slash_aside():
    from urlsift.mail.anchors import same_link
    assert same_link("http://a.example/x", "http://a.example/x")
    assert same_link("http://a.example", "http://a.example/")
    assert same_link("http://a.example/x//", "http://a.example/x")
    assert not same_link("http://a.example/x", "http://a.example/y")
    assert not same_link("http://a.example/x", "http://a.example/x?")


_DATES = st.builds(
    lambda dow, d, mon, y, h, mi, s, sign, tz: (dow + d + b" " + mon + b" " + y + b" " + h + b":"
                                                + mi + b":" + s + b" " + sign + tz),
    st.sampled_from([b"", b"Mon, ", b"Sun, ", b"Xyz, "]),
    st.sampled_from([b"1", b"01", b"29", b"30", b"31", b"00", b"7x"]),
    st.sampled_from([b"Jan", b"Feb", b"Apr", b"Dec", b"jan", b"Foo"]),
    st.sampled_from([b"2000", b"1900", b"2024", b"0999", b"99"]),
    st.sampled_from([b"00", b"23", b"24"]), st.sampled_from([b"00", b"59", b"60"]),
    st.sampled_from([b"00", b"59", b"60"]), st.sampled_from([b"+", b"-", b"*"]),
    st.sampled_from([b"0000", b"0530", b"2359", b"2400", b"0060"]))


@twins_only
@pytest.mark.twins
@given(st.one_of(_DATES, st.binary(max_size=40)))
def test_twins_iso_date_alike_and_as_email_reads_it(raw):
    got = TWINS["cython"].iso_date(raw)
    assert got == TWINS["python"].iso_date(raw)
    if got is not None:
        assert email.utils.parsedate_to_datetime(raw.decode()).isoformat() == got


@twins_only
@pytest.mark.twins
@given(st.one_of(st.binary(max_size=60),
                 st.lists(st.sampled_from([b"=", b"=\n", b"=\r\n", b"=\r", b"=3D", b"=3d", b"=G1",
                                           b"==", b"a", b" ", b"\n", b"\r", b"\xe9", b"=4"]),
                          max_size=30).map(b"".join)))
def test_twins_decode_quoted_printable_as_binascii(body):
    import binascii
    got = TWINS["cython"].decode_qp(body)
    assert got == TWINS["python"].decode_qp(body)
    if not re.search(rb"=[ \t]+(?:[\r\n]|$)", body):
        # binascii's reading, but for a soft break with blanks after its "=" (RFC 2045
        # section 6.7 rule 3 deletes them; binascii keeps "= " as it stands)
        assert got == binascii.a2b_qp(body)


@twins_only
@pytest.mark.twins
@given(st.one_of(st.binary(max_size=60),
                 st.lists(st.sampled_from([b"QUJD", b"QQ", b"QR", b"=", b"==", b"\n", b"\r\n", b"+/",
                                           b"*", b" ", b"Q"]), max_size=20).map(b"".join)))
def test_twins_decode_base64_alike(body):
    assert TWINS["cython"].decode_base64(body) == TWINS["python"].decode_base64(body)


# -- MailPipeline: the walk and the scan of pieces, ahead on worker threads -------------

def _pipeline(twin, workers: int = 2):
    from urlsift.text.rules import KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE
    return twin.MailPipeline(HEADERS, CHARSETS, 3, decode_char_refs, TABLE, KNOWN, MAX_WRAPPER,
                             MAX_LENGTH, workers)


@pytest.mark.twins
@settings(max_examples=60, deadline=None)
@given(st.lists(SPOOLS.filter(bool), min_size=1, max_size=9), st.integers(0, 3))
def test_pipeline_gives_each_piece_its_walk_and_scan_in_order(pieces, workers):
    from urlsift.text.rules import KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE

    def scan(text):
        # the text scan without its octets table (LETTER_OCTETS): a mail part is read in
        # its declared charset, and an octet that is no UTF-8 in a UTF-8 part ends a URL
        # as email's decoding (U+FFFD) ends it
        return _select.cores.scan.scan(text, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)

    for twin in TWINS.values():
        pipe = _pipeline(twin, workers)
        got = []
        try:
            for piece in pieces:
                while not pipe.put(piece):              # the ring holds workers + 2
                    got.append(pipe.take())
            while len(got) < len(pieces):
                got.append(pipe.take())
        finally:
            pipe.close()
        for piece, (walked, triples, anchors) in zip(pieces, got):
            want = twin.walk(piece, 0, len(piece), HEADERS, CHARSETS, 3, decode_char_refs)
            assert walked == want
            assert triples == scan(want[0])
            assert anchors == twin.anchor_runs(want[1], want[0])


@pytest.mark.twins
def test_pipeline_ring_is_full_at_workers_plus_two_and_take_needs_a_piece():
    for twin in TWINS.values():
        with pytest.raises(ValueError, match="negative"):
            _pipeline(twin, -1)
        pipe = _pipeline(twin, 1)
        try:
            with pytest.raises(ValueError, match="no piece"):
                pipe.take()
            assert [pipe.put(b"From a\n\nx\n") for _ in range(4)] == [True, True, True, False]
            pipe.take()
            assert pipe.put(b"From a\n\nx\n")
        finally:
            pipe.close()
        pipe.close()                                     # idempotent


@pytest.mark.twins
def test_pipeline_hands_back_the_exception_of_a_walk_and_goes_on():
    # an HTML reference past the few the walk knows goes to ``unescape``: here it fails
    def unescape(text):
        raise RuntimeError("unescape failed")
    from urlsift.text.rules import KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE
    bad = b'From a\nContent-Type: text/html\n\n<a href="http://a.example/&eacute;">x</a>\n'
    good = b"From b\n\nsee http://b.example/\n"
    for twin, workers in [(t, w) for t in TWINS.values() for w in (0, 1)]:
        pipe = twin.MailPipeline(HEADERS, CHARSETS, 3, unescape, TABLE, KNOWN, MAX_WRAPPER,
                                 MAX_LENGTH, workers)
        try:
            assert pipe.put(bad) and pipe.put(good)
            failed = pipe.take()
            assert isinstance(failed, RuntimeError) and str(failed) == "unescape failed"
            (out, _, _, _), triples, anchors = pipe.take()
            assert bytes(out) == b"see http://b.example/\n\0" and list(triples) == [4, 21, 0]
            assert anchors == (array("q", [-1]), [], set())   # one text segment, no <a>
        finally:
            pipe.close()


@pytest.mark.twins
def test_pipeline_closes_with_pieces_not_taken():
    for twin in TWINS.values():
        pipe = _pipeline(twin, 2)
        for _ in range(4):
            assert pipe.put(b"From a\n\nhttp://a.example/\n" * 1000)
        pipe.close()                                     # the workers stop, none hangs


@pytest.mark.twins
def test_the_compiled_walker_cuts_at_the_one_mbox_separator():
    # The mbox separator is defined once in Python (urlsift._layout.MBOX_SEPARATOR, RFC
    # 4155: a line starting "From "); _mail_cut.pxi writes it as C literals, each given
    # with its length. Every such literal must be those octets, with the right length.
    import re
    from pathlib import Path
    from urlsift._layout import FROM_LINE, MBOX_SEPARATOR
    assert MBOX_SEPARATOR == b"\nFrom " and FROM_LINE == b"From "
    pyx = (Path(__file__).resolve().parent.parent / "ext" / "urlsift" / "_mail_cut.pxi")
    code = pyx.read_text(encoding="utf-8")
    literals = re.findall(r'"((?:\\\\n)?From )",\s*(\d+)\)', code)
    assert len(literals) >= 2                       # the two "From " tests
    for text, size in literals:
        octets = text.replace("\\\\n", "\n").encode()
        assert octets in (MBOX_SEPARATOR, FROM_LINE) and len(octets) == int(size), text
    # the line at a time (without SSE2, and the last octets): a newline, then FROM_LINE
    # over the next 5 octets
    assert f'memcmp(k + 1, "{FROM_LINE.decode()}", {len(FROM_LINE)})' in code
    # 16 places at a time: a newline, the next octet, then the 4 after it
    first = re.findall(r"_mm_set1_epi8\('(\\\\n|.)'\)", code)
    rest = re.findall(r'memcmp\(b \+ at \+ 2, "([^"]*)", (\d+)\)', code)
    assert first == ["\\\\n", "F"] and len(rest) == 1
    assert (b"\n" + first[1].encode() + rest[0][0].encode() == MBOX_SEPARATOR
            and len(rest[0][0]) == int(rest[0][1]))


# -- the records' names: generated from one definition -----------------------------------

def _gen_mail_records():
    import importlib.util
    from pathlib import Path
    tool = Path(__file__).resolve().parent.parent / "tools" / "gen_mail_records.py"
    spec = importlib.util.spec_from_file_location("gen_mail_records", tool)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    return gen


@pytest.mark.twins
def test_the_generated_record_names_are_current():
    # _mail_records.py and _mail_records.pxi are written by tools/gen_mail_records.py from
    # urlsift._layout: both must be what it writes now (run it after changing _layout)
    from urlsift import _layout
    gen = _gen_mail_records()
    assert gen.PY_TARGET.read_text(encoding="utf-8") == gen.render_py(_layout)
    assert gen.PXI_TARGET.read_text(encoding="utf-8") == gen.render_pxi(_layout)


@pytest.mark.twins
def test_the_record_names_say_the_layout():
    # worked out from _layout's definition: a segment is 9 fields, "message" first and
    # "anchor" last; a message 8, its flags last; the kinds in their order; the octets
    # are the characters they are named for
    from urlsift import _mail_records as R
    assert (R.SEG, R.SEG_MESSAGE, R.SEG_START, R.SEG_KIND, R.SEG_ANCHOR) == (9, 0, 1, 4, 8)
    assert (R.MSG, R.MSG_FROM_LINE, R.MSG_ID_START, R.MSG_DATE_START, R.MSG_FLAGS) == (
        8, 0, 3, 5, 7)
    assert (R.K_HEADER, R.K_TEXT, R.K_HTML_TEXT, R.K_HREF, R.K_SRC, R.FALLBACK) == (
        0, 1, 2, 3, 4, 1)
    assert (R.LT, R.GT, R.SLASH, R.EQUALS, R.LF, R.CR) == tuple(b"<>/=\n\r")
    gen = _gen_mail_records()
    pxi = gen.PXI_TARGET.read_text(encoding="utf-8")
    assert "    NSEG = 9  #" in pxi and "    C_K_HREF = 3  #" in pxi and "    LT = 60  #" in pxi


def test_a_walk_record_reads_by_name():
    # the message of the module docstring of _mail_py, read through the names: its
    # Message-ID value "<1@x>" and its one text segment "see http://a.example/\n"
    from urlsift import _mail_records as R
    spool = b"From a\nMessage-ID: <1@x>\n\nsee http://a.example/\n"
    out, segs, msgs, names = _select.cores.mail.walk(spool, 0, len(spool), HEADERS, CHARSETS, 8,
                                                     None)
    assert spool[msgs[R.MSG_ID_START]:msgs[R.MSG_ID_END]] == b"<1@x>"
    assert msgs[R.MSG_DATE_START] == -1 and msgs[R.MSG_FLAGS] == 0
    assert out[segs[R.SEG_START]:segs[R.SEG_END]] == b"see http://a.example/\n"
    assert spool[segs[R.SEG_SRC]:].startswith(b"see ") and segs[R.SEG_KIND] == R.K_TEXT
    assert names[segs[R.SEG_LABEL_START]:segs[R.SEG_LABEL_END]] == b"1 text/plain"


def test_trace_asks_the_mail_layers_rule_for_a_link_text_that_differs():
    # which links are the same is the mail layer's rule (Tracing.same_link), asked for a
    # URL in an <a>'s text whose octets are not its href's; one whose octets are (the
    # rule is an equivalence) is left out without asking
    from urlsift.mail.walk import tracing
    from urlsift.text.extraction import scan
    spool = (b"From a\nContent-Type: text/html\n\n"
             b'<a href="http://h.example/x/">http://h.example/x</a>\n'
             b'<a href="http://h.example/y">http://h.example/y</a>\n')
    walked = _select.cores.mail.walk(spool, 0, len(spool), HEADERS, CHARSETS, 8, None)
    asked = []

    def never(url, href):
        asked.append((url, href))
        return False

    how = tracing(1 << 20, lambda i: [])._replace(same_link=never)
    found = _select.cores.mail.trace(scan(walked[0]), walked, spool, 0, "s", how)
    assert [(m.url, m.part) for m in found] == [
        ("http://h.example/x/", "1 text/html href"), ("http://h.example/x", "1 text/html"),
        ("http://h.example/y", "1 text/html href")]
    assert asked == [("http://h.example/x", "http://h.example/x/")]
    # the mail layer's own rule: a trailing "/" aside, the same link: the text goes
    found = _select.cores.mail.trace(scan(walked[0]), walked, spool, 0, "s",
                                     tracing(1 << 20, lambda i: []))
    assert [m.url for m in found] == ["http://h.example/x/", "http://h.example/y"]
