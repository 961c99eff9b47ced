"""Non-ASCII URLs (IRIs, RFC 3987) in running text (issue 12): ``http://例え.jp/パス`` and
raw UTF-8 paths are found whole, and the Match says ``non-ascii``; RFC 1738 §2.2 would
have those characters %-encoded, so ``valid="strict"`` drops them and lenient parsing
keeps them (docs/decisions.md: non-ASCII is a lenient, character-level departure).

The rule (docs/decisions-extract.md): a character over U+007F goes on with a bare URL
when it is a letter, digit or mark, unless it is of a script written without spaces
(kana, CJK, Hangul, Thai...) and glued to an ASCII letter or digit — there it is the
sentence going on (``見てhttp://example.com谢谢``). Anything else still ends the URL with
the edit ``cut-at-non-ascii``. Bytes are read as UTF-8; a str's characters as they are.
(An octet that starts no UTF-8 sequence and is a Latin-1 letter goes on since issue 21,
written %HH: tests/test_extract_octets.py.)

Offsets are worked out by hand: characters for str, octets for bytes (``例``, ``え``,
``パ``, ``ス`` are three octets each in UTF-8, ``é`` two).
"""
from __future__ import annotations

import json
from array import array

import pytest
from hypothesis import given, strategies as st

import urlsift
from urlsift import _select
from urlsift.cli.main import main
from urlsift.text.match import Match
from urlsift.text.rules import EDITS, KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE

NA = "non-ascii"
CUT = "cut-at-non-ascii"


def found(buf, **kw):
    return [(m.url, m.start, m.end, m.edits) for m in urlsift.extract(buf, **kw)]


def test_a_bracket_before_a_letter_over_ascii_is_closed_after_it():
    # the walk goes on at the first non-ASCII letter with the brackets it has counted
    # (issue 27: each character read once): "(" before "é" is the partner of ")" after
    # it, which stays; a ")" with no "(" in the URL is trimmed
    text = "see http://a.example/(\u00e9) and http://a.example/\u00e9) ok"
    for buf in (text, text.encode()):
        got = [(m.url, m.start) for m in urlsift.extract(buf)]
        second = 29 if isinstance(buf, str) else 30        # "é" is 2 octets in UTF-8
        assert got == [("http://a.example/(\u00e9)", 4), ("http://a.example/\u00e9", second)]


def test_the_issue_example_whole_in_str_and_bytes():
    text = "see http://例え.jp/パス x"
    # "see " is 4; the URL is 15 characters: "http://" 7 + "例え" 2 + ".jp/" 4 + "パス" 2
    assert found(text) == [("http://例え.jp/パス", 4, 19, (NA,))]
    # in octets: 4 + 7 + 6 + 4 + 6 = 27
    assert found(text.encode()) == [("http://例え.jp/パス", 4, 27, (NA,))]


@pytest.mark.parametrize("text, url, edits", [
    ("https://de.wikipedia.org/wiki/Straße.", "https://de.wikipedia.org/wiki/Straße",
     ("punctuation-trimmed", NA)),
    ("(http://a.example/café)", "http://a.example/café", ("punctuation-trimmed", NA)),
    ("http://ru.example/Москва, ok", "http://ru.example/Москва", ("punctuation-trimmed", NA)),
    ("http://a.example/x²", "http://a.example/x²", (NA,)),                 # No: a digit
    # marks: a combining acute (NFD "é"), Devanagari vowel signs and virama
    ("http://a.example/cafe\u0301 ", "http://a.example/cafe\u0301", (NA,)),
    ("https://hi.wikipedia.org/wiki/हिन्दी। ok", "https://hi.wikipedia.org/wiki/हिन्दी", (CUT, NA)),
    # CJK after "/" or "." is the URL's; glued to an ASCII letter it is the sentence's
    ("https://ja.wikipedia.org/wiki/東京", "https://ja.wikipedia.org/wiki/東京", (NA,)),
    ("見てhttp://example.com谢谢", "http://example.com", (CUT,)),
    ("点击http://t.cn/abc查看", "http://t.cn/abc", (CUT,)),
    ("http://example.com에서 보세요", "http://example.com", (CUT,)),          # Korean particle
    ("ดูที่http://example.comครับ", "http://example.com", (CUT,)),           # Thai
    ("http://例え.jp/パスです", "http://例え.jp/パスです", (NA,)),        # (no telling here)
])
def test_letters_go_on_and_are_said(text, url, edits):
    for buf in (text, text.encode()):
        [(got, _, _, how)] = found(buf)
        assert (got, how) == (url, edits)


@pytest.mark.parametrize("ender", ["\u203e", "\u2026", "\u3002", "\u00a0", "\u00bb", "\u2019",
                                   "\u20ac", "\U0001f600", "\ufffd"])
def test_what_is_no_letter_still_cuts_and_says_so(ender):
    # overline (an archive's "~"), ellipsis, ideographic full stop, no-break space, »,
    # right quote, euro sign, an emoji, the replacement character
    for buf in (f"http://a.example/x{ender}y", f"http://a.example/x{ender}y".encode()):
        assert [(m.url, m.edits) for m in urlsift.extract(buf)] == [("http://a.example/x", (CUT,))]


@pytest.mark.parametrize("octets", [
    b"\x80",                    # a continuation octet alone
    b"\x93",                    # cp1252's left double quote: punctuation
    b"\xa0",                    # Latin-1's no-break space
    b"\xab",                    # "«"
    b"\xd7",                    # "×": no letter
    b"\xb2",                    # "²": no letter (a digit to str.isalnum, not to isalpha)
    b"\xe2\x80\xa6",            # UTF-8 "…": a sequence, and no letter
])
def test_octets_that_are_no_letter_cut(octets):
    # Neither a UTF-8 letter nor a Latin-1 letter (issue 21 took those on, %-encoded:
    # tests/test_extract_octets.py): the URL ends there, and says so
    buf = b"at http://a.example/x" + octets
    assert [(m.url, m.end, m.edits) for m in urlsift.extract(buf)] == [
        ("http://a.example/x", 21, (CUT,))]


@pytest.mark.parametrize("octets, url, end, edits", [
    # octets that are no UTF-8 but Latin-1 letters go on, written %HH (issue 21)
    (b"\xe9", "http://a.example/x%E9", 22, ("octets-encoded",)),
    (b"\xc3", "http://a.example/x%C3", 22, ("octets-encoded",)),      # a lead octet at the end
    (b"\xc3(", "http://a.example/x%C3(", 23, ("octets-encoded",)),    # ... without its continuation
    # an overlong "/": "À" goes on, "¯" (no letter) ends it
    (b"\xc0\xaf", "http://a.example/x%C0", 22, (CUT, "octets-encoded")),
    # an encoded surrogate, a code point over U+10FFFF: their first octet is a letter
    (b"\xed\xa0\x80", "http://a.example/x%ED", 22, (CUT, "octets-encoded")),
    (b"\xf4\x90\x80\x80", "http://a.example/x%F4", 22, (CUT, "octets-encoded")),
])
def test_octets_that_are_no_utf8_but_latin1_letters_go_on_encoded(octets, url, end, edits):
    buf = b"at http://a.example/x" + octets
    assert [(m.url, m.end, m.edits) for m in urlsift.extract(buf)] == [(url, end, edits)]


def test_strict_drops_an_iri_lenient_keeps_it():
    text = "a http://例え.jp/パス b http://plain.example/ c"
    assert [m.url for m in urlsift.extract(text, valid="strict")] == ["http://plain.example/"]
    assert [m.url for m in urlsift.extract(text, valid="lenient")] == [
        "http://例え.jp/パス", "http://plain.example/"]
    u = urlsift.parse("http://例え.jp/パス", strict=False)
    assert (u.host, u.segments) == ("例え.jp", ("パス",))
    assert {p.code for p in u.problems} == {"non-ascii"}


def test_extract_file_and_its_threads_find_the_same(tmp_path):
    body = "x http://例え.jp/パス y https://de.wikipedia.org/wiki/Straße\n" * 5000
    path = tmp_path / "iri.txt"
    path.write_bytes(body.encode())
    want = found(body.encode())
    assert len(want) == 10000
    for jobs in (1, 2):
        got = [(m.url, m.start, m.end, m.edits) for m in urlsift.extract_file(path, jobs=jobs)]
        assert got == want


def _cli(tmp_path, *args):
    src = tmp_path / "in.txt"
    src.write_bytes("see http://例え.jp/パス and http://a.example/x‾y\n".encode())
    out = tmp_path / "out"
    status = main(["extract", *args, "-o", str(out), str(src)])
    return status, out.read_bytes()


def test_the_command_writes_utf8_and_valid_json(tmp_path):
    assert _cli(tmp_path) == (0, "http://例え.jp/パス\nhttp://a.example/x\n".encode())
    assert _cli(tmp_path, "-n")[1] == "1:http://例え.jp/パス\n1:http://a.example/x\n".encode()
    status, data = _cli(tmp_path, "-f", "jsonl", "--details")
    recs = [json.loads(line) for line in data.decode("utf-8").splitlines()]
    assert [(r["url"], r["valid_strict"], r["edits"]) for r in recs] == [
        ("http://例え.jp/パス", False, [NA]), ("http://a.example/x", True, [CUT])]
    status, data = _cli(tmp_path, "-f", "jsonl", "--with-position")
    assert [json.loads(x)["url"] for x in data.splitlines()] == ["http://例え.jp/パス",
                                                                "http://a.example/x"]
    # the same octets whichever path made the line (the core's JSON lines, the
    # writer's): the UTF-8 of the letters as it is, not \u escapes
    for args in (("-f", "jsonl"), ("-f", "jsonl", "-n"), ("-f", "jsonl", "--details")):
        assert '{"url": "http://例え.jp/パス"'.encode() in _cli(tmp_path, *args)[1]


PIECES = ["http://", "a", "例え", "パス", ".", "/", " ", "é", "e\u0301", "‾", "。", "x",
          "\xe9", "(", ")", "<", ">", "Москва", "हि", "谢", "\U0001f600", "\udce9"]


@pytest.mark.twins
@given(st.lists(st.sampled_from(PIECES), max_size=16), st.binary(max_size=8))
def test_the_twins_agree_on_non_ascii(pieces, noise):
    text = "".join(pieces)
    twins = _select.twins("_scan")
    if len(twins) < 2:
        pytest.skip("the compiled core is not built")
    for data in (text, text.encode("utf-8", "surrogateescape") + noise,
                 text.encode("utf-8", "surrogatepass")):
        got = [list(m.scan(data, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH))
               for m in twins.values()]
        assert got[0] == got[1]
        arr = array("q", got[0])
        assert _built("cython", arr, data) == _built("python", arr, data)


def _built(kind, arr, data):
    try:
        return list(_select.twins("_build")[kind].build(arr, data, 0, Match, EDITS, TABLE))
    except OSError:      # a lone surrogate's octets: never in a scanner's span
        return "OSError"


def test_the_marks_table_is_this_pythons_unicode():
    # urlsift/_marks.py is generated (tools/gen_marks.py); on the Unicode version it was
    # made with, it is exactly the category-M ranges
    import importlib.util
    import unicodedata
    from pathlib import Path

    from urlsift import _marks, _scan_py
    if unicodedata.unidata_version != _marks.UNICODE_VERSION:
        pytest.skip(f"marks made for Unicode {_marks.UNICODE_VERSION}, this Python has "
                    f"{unicodedata.unidata_version}")
    tool = Path(__file__).resolve().parent.parent / "tools" / "gen_marks.py"
    spec = importlib.util.spec_from_file_location("gen_marks", tool)
    gen = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(gen)
    assert gen.render() == Path(_marks.__file__).read_text()
    for c in (0x0301, 0x093F, 0x094D, 0x0E31, 0x3099, 0xFE20, 0xE0100):
        assert _scan_py.is_mark(c) and unicodedata.category(chr(c))[0] == "M"
    for c in (0x0300 - 1, 0x0370, ord("a"), 0x4F8B):
        assert not _scan_py.is_mark(c)


def test_stats_keep_their_columns_with_wide_host_names(tmp_path, capsys):
    # 例え.jp is 7 characters but 9 terminal columns (例, え are East Asian wide):
    # padded by columns, its count stands under every other count
    src = tmp_path / "in.txt"
    src.write_bytes("http://例え.jp/パス http://de.wikipedia.org/wiki/x\n".encode())
    assert main(["stats", str(src)]) == 0
    lines = capsys.readouterr().out.splitlines()
    hosts = [line for line in lines if line.startswith(("例え.jp", "de.wikipedia.org"))]
    import unicodedata

    def columns(text):
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)
    assert len(hosts) == 2 and {columns(line) for line in hosts} == {columns(lines[0])}
