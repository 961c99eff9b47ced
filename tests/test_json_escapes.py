"""URLs written with JSON string escapes (issue 21): ``"https:\\/\\/shop.example.com\\/cart"``
(PHP's json_encode, Monolog) and ``\\u002F`` are read where a ``:\\/\\/`` starts them, on
by default; offsets and ``raw`` are those of the text as it stands, ``url`` the URL the
escapes stand for, and the match carries the edit ``json-escapes``. Both cores.

The JSON line below is counted by hand (RFC 8259 §7: ``\\/`` is "/", ``\\uXXXX`` the
character of that code point)::

    {"ts":"2024-05-01T10:00:00Z","url":"   36 characters: 1 + 4 + 1 + 22 + 1 + 5 + 1 + 1
    https:\\/\\/shop.example.com\\/cart?id=7\\u0026q=caf\\u00e9
        6 + 4 + 16 + 2 + 9 + 6 + 5 + 6 = 54, so 36..90
    ","ref":"                             9 characters, so the second URL starts at 99
    http:\\u002F\\u002Fa.example\\u002Fx   5 + 12 + 9 + 6 + 1 = 33, so 99..132

``\\u0026`` is "&", kept (a bare URL holds it); ``\\u00e9`` is "é", not allowed in a URL
(RFC 1738 §2.2), so written as its UTF-8 octets ``%C3%A9``.
"""
from __future__ import annotations

import io
import json
from unittest import mock

import pytest
from hypothesis import given
from hypothesis import strategies as st

import urlsift
from urlsift.cli.main import main
from urlsift.text import files, jsonpieces
from urlsift.text.jsonescapes import has_json_escapes, unescape_json
from urlsift.text.streams import iter_stream_matches

LINE = (b'{"ts":"2024-05-01T10:00:00Z","url":"https:\\/\\/shop.example.com\\/cart?id=7\\u0026'
        b'q=caf\\u00e9","ref":"http:\\u002F\\u002Fa.example\\u002Fx"}\n')
SHOP = "https://shop.example.com/cart?id=7&q=caf%C3%A9"
EXPECTED = [(SHOP, 36, 90, ("json-escapes",)), ("http://a.example/x", 99, 132, ("json-escapes",))]


def found(text, **kwargs):
    return [(m.url, m.start, m.end, m.edits) for m in urlsift.extract(text, **kwargs)]


@pytest.mark.parametrize("as_str", [False, True])
def test_escaped_urls_are_read_with_offsets_as_the_text_stands(as_str):
    text = LINE.decode("ascii") if as_str else LINE
    assert found(text) == EXPECTED
    ms = list(urlsift.extract(text))
    assert ms[0].raw == LINE[36:90].decode("ascii")           # the text as it stands
    assert ms[1].raw == "http:\\u002F\\u002Fa.example\\u002Fx"
    assert all(urlsift.is_valid(m.url) for m in ms)          # RFC 1738 URLs now
    # the same through a bytearray and a memoryview (offsets in octets)
    if not as_str:
        assert found(bytearray(LINE)) == found(memoryview(LINE)) == EXPECTED


def test_text_without_escapes_is_unchanged():
    text = b'1.2.3.4 "GET / HTTP/1.1" "http://a.example/x" "UA \\"q\\" \\xe9"'
    assert not has_json_escapes(text)
    assert found(text) == [("http://a.example/x", 26, 44, ())]


def test_an_escaped_quote_ends_the_url_as_a_quote_would():
    # a JSON document quoted inside a string: \" is the end of the inner string, so no
    # cut-at-unsafe; the "." before it is trimmed as usual. `"{\"u\":\"` is 10 characters,
    # `https:\/\/a.example\/x.` 6 + 4 + 9 + 2 + 1 + 1 = 23: 10..33
    text = '"{\\"u\\":\\"https:\\/\\/a.example\\/x.\\"}"'
    assert found(text) == [("https://a.example/x", 10, 33, ("punctuation-trimmed", "json-escapes"))]


def test_an_escaped_backslash_ends_the_url_where_the_value_goes_on():
    # "\\" is a backslash in the value: the URL is cut there, and says so
    text = '"https:\\/\\/b.example\\/y\\\\z"'       # 1 + 6 + 4 + 9 + 2 + 1 = 23
    assert found(text) == [("https://b.example/y", 1, 23, ("cut-at-unsafe", "json-escapes"))]


@pytest.mark.parametrize("escape, written", [
    ("\\u002f", "/"), ("\\u002F", "/"), ("\\u0026", "&"), ("\\u003d", "="), ("\\u007e", "~"),
    ("\\u0025", "%"), ("\\u0020", "%20"), ("\\u0022", "%22"), ("\\u003C", "%3C"),
    ("\\u005c", "%5C"), ("\\u0000", "%00"), ("\\u00e9", "%C3%A9"), ("\\u4e2d", "%E4%B8%AD"),
    ("\\ud83d\\ude00", "%F0%9F%98%80"),                 # a surrogate pair: U+1F600
])
def test_u_escapes_are_the_character_percent_encoded_when_a_url_cannot_hold_it(escape, written):
    for text in ('"https:\\/\\/a.example\\/p' + escape + 'q"',
                 ('"https:\\/\\/a.example\\/p' + escape + 'q"').encode("ascii")):
        ((url, start, end, edits),) = found(text)
        # '"https:\/\/a.example\/p' is 23 characters, then the escape, "q" and '"'
        assert (url, start, end) == ("https://a.example/p" + written + "q", 1, 24 + len(escape))


@pytest.mark.parametrize("lone", ["\\ud800", "\\udc00", "\\ude00\\ud83d"])
def test_a_lone_surrogate_ends_the_url_before_it(lone):
    text = '"https:\\/\\/a.example\\/p' + lone + 'q"'          # 1 + 6 + 4 + 9 + 2 + 1 = 23
    assert found(text) == [("https://a.example/p", 1, 23, ("cut-at-unsafe", "json-escapes"))]


def test_only_a_colon_and_two_escaped_slashes_start_a_run():
    # one escaped slash, a relative path, a URL without escapes followed by "\/": left as
    # they are (a "\" ends a bare URL, as before)
    text = 'a:\\/b "\\/cart" http://c.example/d\\/e'       # "http" at 15, "\" at 33
    assert found(text) == [("http://c.example/d", 15, 33, ("cut-at-unsafe",))]
    assert unescape_json(text)[0] == text


def test_escapes_inside_a_run_after_the_start_and_two_urls_in_one_value():
    # a URL in the query of another is part of it (matches never overlap)
    text = '"https:\\/\\/a.example\\/?next=https:\\/\\/b.example\\/"'    # 1 + 21 + 6 + 21
    assert found(text) == [("https://a.example/?next=https://b.example/", 1, 49, ("json-escapes",))]


def test_many_urls_inside_one_run():
    # a run goes on over non-ASCII characters; "…" ends each URL inside it (hostile input:
    # each end is mapped from the run's escapes by bisection, not by walking the run).
    # "https:\/\/a.example" is 19 octets, "…" 3, "mailto:m@d.example" 18
    data = ("https:\\/\\/a.example" + "\u2026mailto:m@d.example" * 5000).encode()
    ms = list(urlsift.extract(data))
    assert len(ms) == 5001
    assert (ms[0].url, ms[0].start, ms[0].end, ms[0].edits) == (
        "https://a.example", 0, 19, ("cut-at-non-ascii", "json-escapes"))
    assert [(m.start, m.end, m.edits) for m in ms[1:3]] == [
        (22, 40, ("cut-at-non-ascii",)), (43, 61, ("cut-at-non-ascii",))]
    assert ms[-1][1:3] == (19 + 21 * 4999 + 3, 19 + 21 * 5000)


def test_schemes_and_valid_filters_apply_to_the_url_read():
    assert [u for u, *_ in found(LINE, schemes=["http"])] == ["http://a.example/x"]
    assert [u for u, *_ in found(LINE, valid="strict")] == [SHOP, "http://a.example/x"]


def test_with_log_escapes_too():
    # an Apache log line whose request carries JSON: both kinds of escape, both edits.
    # `"GET /?d={\"u\":\"` is 18 characters, `https:\/\/a.example\/\xe9` 6 + 4 + 9 + 2 + 4
    text = b'"GET /?d={\\"u\\":\\"https:\\/\\/a.example\\/\\xe9\\"} HTTP/1.1"'
    assert found(text, log_escapes=True) == [
        ("https://a.example/%E9", 18, 43, ("json-escapes", "log-escapes"))]


# ---- pieces: files cut anywhere give what one pass gives ----------------------------------

def _one_pass(data: bytes):
    return [(m.url, m.start, m.end, m.raw, m.edits) for m in urlsift.extract(data)]


def _from_file(path, **kwargs):
    return [(m.url, m.start, m.end, m.raw, m.edits)
            for m in urlsift.extract_file(path, **kwargs)]


# no line break anywhere: a piece is cut at one when it can (tests/test_extract_file.py)
LONG_LINE = b" ".join([b'{"u":"https:\\/\\/h%d.example\\/a\\/b\\u00e9?x=%d"}' % (i, i)
                       for i in range(60)] + [b'<URL:http://w.example/ y>'])


@pytest.mark.parametrize("jobs", [1, 2])
def test_mapped_pieces_cut_inside_escapes_give_the_one_pass_result(tmp_path, jobs):
    # one long line: the pieces are cut after any character that ends a bare URL, "\"
    # among them, so inside a run (block 1 cuts "https:\" | "/\/h0..." and "example\" |
    # "/a..."); block sizes 1..97 put the cut everywhere
    path = tmp_path / "one-line.json"
    path.write_bytes(LONG_LINE)
    whole = _one_pass(LONG_LINE)
    assert len(whole) == 61 and whole[0][4] == ("json-escapes",)
    for block in range(1, 98, 3):
        assert _from_file(path, jobs=jobs, block_size=block) == whole, block


def test_streamed_blocks_give_the_one_pass_result():
    whole = _one_pass(LONG_LINE)
    for block in (1, 7, 64, 300):
        got = [(m.url, m.start, m.end, m.raw, m.edits)
               for m in urlsift.extract_file(io.BytesIO(LONG_LINE), block_size=block)]
        assert got == whole, block


def test_a_run_glued_to_a_url_across_a_cut(tmp_path):
    # "http://c.example/" 17 + "é" 2 + "http:" 5 + "\u002F\u002F" 12 + "b.example" 9 = 45.
    # A piece may end after "é" (a non-ASCII octet ends no IRI, but may end a piece): the
    # piece looks past its end as far as its last URL reaches, so the run read there
    # still makes that URL longer, as in one pass
    data = b"http://c.example/\xc3\xa9http:\\u002F\\u002Fb.example"
    want = [("http://c.example/\u00e9http://b.example", 0, 45, ("non-ascii", "json-escapes"))]
    assert found(data) == want
    path = tmp_path / "glued.log"
    path.write_bytes(data)
    for block in range(1, 30):
        assert [(m.url, m.start, m.end, m.edits)
                for m in urlsift.extract_file(path, block_size=block)] == want, block


def test_a_long_escaped_url_across_a_cut_is_read_whole():
    # 15 000 "\/seg": 75 000 octets as written, 60 000 characters read (under MAX_LENGTH),
    # on a line with no line break: pieces of 1000 are cut inside the run, and the run is
    # longer than the look-ahead a piece reads past its end, so it is read again whole
    url = "https://a.example" + "/seg" * 15000
    data = b"x https:\\/\\/a.example" + b"\\/seg" * 15000 + b" end"
    want = [(url, 2, len(data) - 4, ("json-escapes",))]
    assert found(data) == want
    pieces = list(files._pieces(data, len(data), 1000))
    assert len(pieces) > 70 and data[pieces[0][1] - 1:pieces[0][1]] == b"\\"
    assert [(m.url, m.start, m.end, m.edits)
            for ms in files.scan_buffer(data, len(data), 1000) for m in ms] == want


def test_line_numbers(tmp_path):
    path = tmp_path / "app.log"
    path.write_bytes(b"plain http://a.example/\n" + LINE + LINE)
    got = [(m.url, m.start, m.line) for m in urlsift.extract_file(path, line_numbers=True)]
    n = 24                                                # len("plain http://a.example/\n")
    assert got == [("http://a.example/", 6, 1), (SHOP, n + 36, 2), ("http://a.example/x", n + 99, 2),
                   (SHOP, n + 135 + 36, 3), ("http://a.example/x", n + 135 + 99, 3)]


fragments = st.sampled_from([
    b"https:\\/\\/a.example\\/x", b"http:\\u002F\\u002Fb.example", b"\\/", b"\\u00e9", b"\\u0020",
    b"\\ud83d\\ude00", b"\\ud800", b'\\"', b"\\\\", b'"', b" ", b"\n", b"<URL:", b">", b"x",
    b"http://c.example/", b".", b"?q=", b"\xc3\xa9", b"\xe2\x80\xa6", b"mailto:m@d.example",
    b":", b"\\u002f", b"\\u0041", b"<", b"\xe6\x97\xa5", b")", b"\t",
])


@given(st.lists(fragments, max_size=40).map(b"".join), st.integers(1, 40))
def test_pieces_anywhere_give_the_one_pass_result(data, block):
    # a piece may be cut after any octet that ends a bare URL, non-ASCII ones among them,
    # so inside a URL of non-ASCII letters too: b"http://c.example/\xc3\xa9http:\u002F..."
    # cut after "\xa9" gives one URL, the run glued to the first, as one pass does
    whole = _one_pass(data)
    lists = files.scan_buffer(data, len(data), block)        # extract(), in pieces of block
    assert [(m.url, m.start, m.end, m.raw, m.edits) for ms in lists for m in ms] == whole
    streamed = [(m.url, m.start, m.end, m.raw, m.edits)
                for m in urlsift.extract_file(io.BytesIO(data), block_size=block)]
    assert streamed == whole


windowed_fragments = st.one_of(fragments, st.sampled_from([b"=\n", b"=", b"\n\n", b"<URL:http://d.example/"]))


@given(st.lists(windowed_fragments, max_size=60).map(b"".join), st.integers(1, 60))
def test_windows_around_sparse_runs_give_the_one_pass_result(data, block):
    # issue 21: where runs are sparse only the lines around them are read again; forced
    # on here (_SPARSE 0) for every piece, lines that a wrapper or a QP soft break
    # (RFC 2045 §6.7) carries a URL over included
    whole = _one_pass(data)
    with mock.patch.object(jsonpieces, "_SPARSE", 0):
        lists = files.scan_buffer(data, len(data), block)
        assert [(m.url, m.start, m.end, m.raw, m.edits) for ms in lists for m in ms] == whole


def test_a_json_line_in_a_plain_log_is_read_alone():
    # one escaped line among many plain ones: the plain lines' matches are the scanner's
    plain = b"".join(b'1.2.3.%d - - "GET / HTTP/1.1" 200 9 "http://a.example/%d"\n' % (i, i)
                     for i in range(400))
    data = plain + LINE + plain
    got = [(m.url, m.start, m.edits) for m in urlsift.extract(data)]
    assert len(got) == 802 and got[400] == (SHOP, len(plain) + 36, ("json-escapes",))
    assert got[:400] == [(f"http://a.example/{i}", m.start, ()) for i, m in
                         enumerate(urlsift.extract(plain))]


def test_the_lookahead_is_the_files_one():
    assert jsonpieces.LOOKAHEAD == files.LOOKAHEAD


# ---- the command: every output reads them, the fast ones too ------------------------------

def test_the_command_reads_them_in_every_output(tmp_path, capsys):
    import gzip

    plain = tmp_path / "app.log"
    plain.write_bytes(LINE)
    packed = tmp_path / "app.log.gz"
    packed.write_bytes(gzip.compress(LINE))
    urls = f"{SHOP}\nhttp://a.example/x\n"
    for path in (plain, packed):
        assert main(["extract", str(path)]) == 0                  # the lines made in the core
        assert capsys.readouterr().out == urls
        assert main(["extract", "-n", "-b", str(path)]) == 0
        assert capsys.readouterr().out == f"1:36:{SHOP}\n1:99:http://a.example/x\n"
    assert main(["extract", "-f", "jsonl", "-b", str(plain)]) == 0
    assert [json.loads(x) for x in capsys.readouterr().out.splitlines()] == [
        {"url": SHOP, "offset": 36}, {"url": "http://a.example/x", "offset": 99}]
    assert main(["extract", "-f", "csv", str(plain)]) == 0
    assert capsys.readouterr().out.splitlines() == ["url", SHOP, "http://a.example/x"]
    assert main(["extract", "--details", "-f", "jsonl", str(plain)]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["edits"] == ["json-escapes"] and first["url"] == SHOP
    assert main(["extract", "-c", str(plain)]) == 0
    assert capsys.readouterr().out == "2\n"
    assert main(["stats", "--json", str(plain)]) == 0
    assert json.loads(capsys.readouterr().out)["urls"] == 2


def test_the_command_reads_them_in_mail(tmp_path, capsys):
    # a message whose text holds a JSON-escaped URL is read by email (as the messages the
    # walk leaves are), whose scan reads the escapes; the next message is walked as before
    spool = (b"From a\nMessage-ID: <1@x>\n\n" + LINE +
             b"\nFrom b\nMessage-ID: <2@x>\n\nsee http://b.example/\n")
    path = tmp_path / "box.mbox"
    path.write_bytes(spool)
    assert main(["extract", "--mbox", str(path)]) == 0
    assert capsys.readouterr().out == f"{SHOP}\nhttp://a.example/x\nhttp://b.example/\n"
    got = [(m.url, m.message_id, m.edits) for m in urlsift.extract_file(path, mbox=True)]
    assert got == [(SHOP, "<1@x>", ("json-escapes",)), ("http://a.example/x", "<1@x>", ("json-escapes",)),
                   ("http://b.example/", "<2@x>", ())]


def test_the_stream_with_rewrites(tmp_path):
    # --refang, --quoted and --log-escapes scan through extract_rewritten: the same reading
    data = b"> " + LINE
    got = [(f.url, f.start, f.end, f.match.edits)
           for f in iter_stream_matches(io.BytesIO(data), quoted=True, refang=True)]
    assert got == [(SHOP, 38, 92, ("json-escapes",)), ("http://a.example/x", 101, 134, ("json-escapes",))]


ascii_fragments = fragments.filter(lambda f: f.isascii())


@given(st.lists(ascii_fragments, max_size=40).map(b"".join))
def test_octets_read_by_the_core_as_the_str_reference_reads_them(data):
    # bytes go through the _json core (unescape + remap); a str through the reference,
    # jsonescapes.unescape_json and one mapping per match: on ASCII text (offsets alike)
    # the two give the same matches, raw and edits included
    assert _one_pass(data) == [(m.url, m.start, m.end, m.raw, m.edits)
                               for m in urlsift.extract(data.decode("ascii"))]
