"""Octets that are no UTF-8 inside a URL (issue 21): a Latin-1 log's
``http://caf\\xe9.example/x`` was cut at the octet, ``http://caf``, and passed as valid.

The rule (docs/decisions-extract.md, "Octets that are no UTF-8"): in bytes input, an
octet over 0x7F that starts no valid UTF-8 sequence (RFC 3629) goes on with a bare URL
when it is a Latin-1 letter — 0xC0-0xFF but 0xD7 (×) and 0xF7 (÷), and 0xAA (ª), 0xB5
(µ), 0xBA (º), which Unicode calls letters — and the URL writes it ``%HH``: RFC 1738
§2.2, "Octets must be encoded if they have no corresponding graphic character within
the US-ASCII coded character set", "as a character triplet, consisting of the percent
character "%" followed by the two hexadecimal digits". The match says
``octets-encoded``; ``raw`` shows each such octet as its ISO-8859-1 character (it is
the text as it stands); offsets are octets. Every other octet over 0x7F that is no
UTF-8 letter (cp1252's quotes and dashes 0x80-0x9F, the no-break space 0xA0, « », ²,
×) ends the URL as before, with ``cut-at-non-ascii``. A str is characters, not octets:
unchanged. Mail parts are read in their declared charset (the mail walk passes no
octets table), so a Latin-1 part gives the letter itself.

Expected values are worked out by hand: ``http://caf`` is 10 octets, ``\\xe9`` one.
"""
from __future__ import annotations

import csv
import io
import json
from array import array

import pytest

import urlsift
from urlsift import _scan_py
from urlsift.text import rules
from urlsift.text.rules import TRIM_MASK, TRIM_SHIFT
from conftest import extract_output

ENC = "octets-encoded"
CUT = "cut-at-non-ascii"
NA = "non-ascii"
#: The issue's example: "see " (4), then http://caf (10) \xe9 (1) .example/x (10).
ISSUE = b"see http://caf\xe9.example/x now"


def found(buf, **kw):
    return [(m.url, m.start, m.end, m.raw, m.edits) for m in urlsift.extract(buf, **kw)]


def test_the_issue_example_is_found_whole_and_percent_encoded():
    assert found(ISSUE) == [("http://caf%E9.example/x", 4, 25, "http://café.example/x", (ENC,))]
    # the octets of the span as they stand: raw is their reading, not a copy in UTF-8
    assert ISSUE[4:25] == b"http://caf\xe9.example/x"


def test_an_encoded_octet_in_the_host_is_never_a_valid_url():
    # RFC 1738 §3.1 / §5: a host is alphadigits, "-" and "."; "%E9" is none of them
    url = found(ISSUE)[0][0]
    assert not urlsift.is_valid(url)
    assert "bad-host" in [p.code for p in urlsift.check(url)]
    assert found(ISSUE, valid="strict") == []
    assert found(ISSUE, valid="lenient") == []      # bad-host is refused leniently too


def test_an_encoded_octet_in_the_path_is_a_valid_url():
    # §2.2: an octet written %HH is what a path may hold; "get " (4), "http://a.example/caf"
    # (20), "\xe9", ".html" (5)
    buf = b"get http://a.example/caf\xe9.html ok"
    assert found(buf) == [("http://a.example/caf%E9.html", 4, 30, "http://a.example/café.html",
                           (ENC,))]
    assert found(buf, valid="strict")[0][0] == "http://a.example/caf%E9.html"


LETTERS = sorted(rules.LETTER_OCTETS)


def test_the_letters_are_those_of_iso_8859_1():
    assert LETTERS == [0xAA, 0xB5, 0xBA] + [c for c in range(0xC0, 0x100) if c not in (0xD7, 0xF7)]


@pytest.mark.parametrize("octet", LETTERS, ids=hex)
def test_every_latin1_letter_goes_on_encoded(octet):
    # "y" after it: no continuation octet, so no UTF-8 sequence starts at it
    buf = b"http://a.example/x" + bytes([octet]) + b"y z"
    assert found(buf) == [(f"http://a.example/x%{octet:02X}y", 0, 20,
                           "http://a.example/x" + chr(octet) + "y", (ENC,))]


@pytest.mark.parametrize("octet", [c for c in range(0x80, 0x100) if c not in LETTERS], ids=hex)
def test_every_other_octet_still_cuts(octet):
    # cp1252 punctuation (0x93 and 0x94 its quotes, 0x96 its dash), 0xA0 no-break space,
    # « » ² ½ × ÷...: no letter, so the URL ends there, as before, and says so
    buf = b"http://a.example/x" + bytes([octet]) + b"y"
    assert found(buf) == [("http://a.example/x", 0, 18, "http://a.example/x", (CUT,))]


@pytest.mark.parametrize("octets", [b"\xc2\xa0", b"\xe2\x80\xa6", b"\xe2\x80\x9d"])
def test_a_utf8_sequence_that_is_no_letter_cuts_though_its_lead_is_a_latin1_letter(octets):
    # "Â" and "â" are Latin-1 letters, but here they start a valid sequence (a no-break
    # space, "…", a right quote): read as UTF-8, which is no letter
    buf = b"http://a.example/x" + octets + b"y"
    assert found(buf) == [("http://a.example/x", 0, 18, "http://a.example/x", (CUT,))]


def test_utf8_letters_are_read_as_utf8_first():
    # "\xc3\xa9" is "é" in UTF-8 and "Ã©" in Latin-1: a valid sequence is UTF-8 (an IRI
    # letter, unchanged); only an octet that starts none is read as Latin-1
    assert found(b"http://a.example/caf\xc3\xa9 x") == [
        ("http://a.example/café", 0, 22, "http://a.example/café", (NA,))]
    # both in one URL: "http://a.example/caf" (20) é (2) "/na" (3) ï (1) "ve" (2)
    assert found(b"http://a.example/caf\xc3\xa9/na\xefve") == [
        ("http://a.example/café/na%EFve", 0, 28, "http://a.example/café/naïve", (ENC, NA))]


def test_trimming_prefix_and_cuts_combine_with_it():
    # "(see " (5), "http://a.example/caf" (20), \xe9, ")." trimmed (RFC 1738 appendix)
    assert found(b"(see http://a.example/caf\xe9).") == [
        ("http://a.example/caf%E9", 5, 28, "http://a.example/café).",
         ("punctuation-trimmed", ENC))]
    # cp1252 quotes around it: the closing one (0x94) is glued to the URL
    assert found(b"\x93http://a.example/caf\xe9\x94 ok") == [
        ("http://a.example/caf%E9", 1, 22, "http://a.example/café", (CUT, ENC))]
    # a wrapper holding non-ASCII is none (decisions-extract.md): "URL:" + a bare URL
    assert found(b"<URL:http://a/caf\xe9>") == [
        ("http://a/caf%E9", 1, 18, "URL:http://a/café", ("prefix-removed", ENC))]


def test_a_str_is_characters_and_unchanged():
    assert found("see http://café.example/x now") == [
        ("http://café.example/x", 4, 25, "http://café.example/x", (NA,))]
    # an undecodable octet kept as a lone surrogate is no letter (a str, not octets)
    text = ISSUE.decode("utf-8", "surrogateescape")
    assert found(text) == [("http://caf", 4, 14, "http://caf", (CUT,))]


def test_scan_flags_say_it_above_the_trim_count():
    assert list(urlsift.scan(ISSUE)) == [4, 25, rules.ENCODED]
    # "x " (2), "http://a/caf" (12), \xe9, "." trimmed: the count is still read by its mask
    [s, e, f] = urlsift.scan(b"x http://a/caf\xe9. y")
    assert (s, e) == (2, 16)
    assert f & 0xFF == 0 and f & rules.ENCODED
    assert (f >> TRIM_SHIFT) & TRIM_MASK == _scan_py.trim_count(f) == 1
    # an existing triple keeps its value: no new bit below the count
    assert list(urlsift.scan(b"at http://a.example/x. ok")) == [3, 22, 1 << TRIM_SHIFT]


# -- files: mapped on threads, streamed; the same matches -------------------------------

LATIN1_LOG = b"".join(
    b'192.0.2.%d - - "GET /caf\xe9 HTTP/1.0" 200 1 "http://www.example.org/caf\xe9/%d" '
    b'"Mozilla" \x93http://stra\xdfe.example/\x94\n' % (i % 250, i) for i in range(3000))


def test_extract_file_finds_the_same_on_one_thread_two_threads_and_a_stream(tmp_path):
    path = tmp_path / "latin1.log"
    path.write_bytes(LATIN1_LOG)
    want = found(LATIN1_LOG)
    assert len(want) == 6000
    # line 0: '192.0.2.0 - - ' (14) '"GET /caf\xe9' (10) ' HTTP/1.0"' (10) ' 200 1 "' (8),
    # then "http://www.example.org/" (23) "caf" \xe9 "/0": 29 octets
    assert want[0] == ("http://www.example.org/caf%E9/0", 42, 71,
                       "http://www.example.org/café/0", (ENC,))
    # after it '" "Mozilla" \x93' (13); "http://stra" \xdf "e.example/" (22), then 0x94
    # glued to it: said as a cut
    assert want[1] == ("http://stra%DFe.example/", 84, 106, "http://straße.example/", (CUT, ENC))
    for jobs in (1, 2):
        for block in (None, 4096, 300):
            got = [(m.url, m.start, m.end, m.raw, m.edits)
                   for m in urlsift.extract_file(path, jobs=jobs, block_size=block)]
            assert got == want, (jobs, block)
    with open(path, "rb") as f:                     # an open file: streamed in blocks
        assert [(m.url, m.start, m.end, m.raw, m.edits)
                for m in urlsift.extract_file(f, block_size=1000)] == want


# -- mail: each part read in its declared charset ---------------------------------------

def test_mail_parts_are_read_in_their_charset_by_both_mail_paths(tmp_path):
    from test_mail_walk import assert_spool_agrees
    spool = (
        b"From a@example.org Mon Jan  3 10:00:00 1994\n"
        b"Message-ID: <m1@example.org>\n"
        b"Content-Type: text/plain; charset=iso-8859-1\n"
        b"Content-Transfer-Encoding: 8bit\n\n" + ISSUE + b"\n\n"
        b"From a@example.org Mon Jan  3 10:00:00 1994\n"
        b"Message-ID: <m2@example.org>\n\n" + ISSUE + b"\n"
    )
    assert_spool_agrees(spool)
    path = tmp_path / "spool.mbox"
    path.write_bytes(spool)
    got = [(m.url, m.edits, m.message_id) for m in urlsift.extract_file(path, mbox=True)]
    assert got == [
        # a Latin-1 part is decoded: its "é" is a letter, the URL an IRI
        ("http://café.example/x", (NA,), "<m1@example.org>"),
        # no charset (UTF-8 to email): an octet that is no UTF-8 is U+FFFD there, which
        # ends the URL; the walk on the octets says the same
        ("http://caf", (CUT,), "<m2@example.org>"),
    ]
    # the same spool read as text (mbox=False; the default detects the mail): octets,
    # so the rule of this module
    assert [(m.url, m.edits) for m in urlsift.extract_file(path, mbox=False)] == [
        ("http://caf%E9.example/x", (ENC,)), ("http://caf%E9.example/x", (ENC,))]


# -- the command: its lines made in the core, and the records ---------------------------

_run = extract_output       # urlsift extract ARGS -o FILE: what it wrote (conftest)


@pytest.fixture
def latin1_file(tmp_path):
    path = tmp_path / "l.log"
    # line 1: "a " (2), the URL (21 octets), " z\n" (3); line 2 at 26: "b " then the
    # path URL (25 octets and a trimmed ".")
    path.write_bytes(b"a " + ISSUE[4:25] + b" z\nb http://a.example/caf\xe9.html.\n")
    return path


URLS = ["http://caf%E9.example/x", "http://a.example/caf%E9.html"]


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_command_text_and_positions(tmp_path, latin1_file, jobs):
    assert _run(tmp_path, "-j", jobs, latin1_file).decode().splitlines() == URLS
    assert _run(tmp_path, "-j", jobs, "-n", "-b", latin1_file).decode().splitlines() == [
        f"1:2:{URLS[0]}", f"2:28:{URLS[1]}"]


def test_command_jsonl_csv_and_details(tmp_path, latin1_file):
    got = [json.loads(x) for x in _run(tmp_path, "-f", "jsonl", "-n", latin1_file).splitlines()]
    assert got == [{"url": URLS[0], "line": 1}, {"url": URLS[1], "line": 2}]
    rows = list(csv.reader(io.StringIO(_run(tmp_path, "-f", "csv", latin1_file).decode())))
    assert rows == [["url"], [URLS[0]], [URLS[1]]]
    got = [json.loads(x) for x in
           _run(tmp_path, "-f", "jsonl", "--details", latin1_file).splitlines()]
    assert [(d["url"], d["valid_strict"], d["problems"], d["edits"]) for d in got] == [
        (URLS[0], False, ["bad-host"], [ENC]),
        (URLS[1], True, [], ["punctuation-trimmed", ENC])]
    assert _run(tmp_path, "--details", latin1_file).decode().splitlines() == [
        f"{URLS[0]}\tvalid_strict=false\tproblems=bad-host\twrapped=false\thyphen_break=false"
        f"\tedits={ENC}",
        f"{URLS[1]}\tvalid_strict=true\tproblems=\twrapped=false\thyphen_break=false"
        f"\tedits=punctuation-trimmed {ENC}"]
    assert _run(tmp_path, "-f", "csv", "--details", latin1_file).decode().splitlines() == [
        "url,valid_strict,problems,wrapped,hyphen_break,edits",
        f"{URLS[0]},false,bad-host,false,false,{ENC}",
        f"{URLS[1]},true,,false,false,punctuation-trimmed {ENC}"]


def test_command_strict_drops_the_bad_host(tmp_path, latin1_file):
    assert _run(tmp_path, "--strict", latin1_file).decode().splitlines() == [URLS[1]]


# -- the core: both twins, and triples handed in ----------------------------------------

def test_the_mail_walk_scan_reads_no_octet_as_latin1(core_kind):
    # the scanner without an octets table (what the mail walk passes): as before
    from urlsift._select import cores
    arr = cores.scan.scan(ISSUE, 0, -1, rules.TABLE, rules.KNOWN, rules.MAX_WRAPPER,
                          rules.MAX_LENGTH)
    assert list(arr) == [4, 14, rules.CUT_NON_ASCII]


def test_join_urls_sizes_an_encoded_span_for_its_triplets(core_kind):
    # every octet of the span written %HH: three times its length, nothing lost
    from urlsift._select import cores
    buf = b"http://a/" + bytes(LETTERS) * 20
    arr = array("q", [0, len(buf), rules.ENCODED])
    want = "http://a/" + "".join(f"%{c:02X}" for c in LETTERS) * 20
    assert cores.build.join_urls(arr, buf, rules.TABLE) == (want + "\n").encode()
    assert [m.url for m in urlsift.extract(buf)] == [want]


def test_log_escapes_keep_raw_as_it_stands():
    # --log-escapes maps a match back to the text as it stands: raw is read as the
    # builders read a span (it was ASCII with U+FFFD for every non-ASCII octet)
    buf = b'"GET / HTTP/1.0" 200 1 "http://a.example/caf\xe9/\\x41\xc3\xa9" "UA"'
    [m] = urlsift.extract(buf, log_escapes=True)
    # '"GET / HTTP/1.0" 200 1 "' (24); "http://a.example/caf" (20) \xe9 "/" \x41 (4) é (2)
    assert (m.url, m.start, m.end, m.raw) == (
        "http://a.example/caf%E9/%41é", 24, 52, "http://a.example/café/\\x41é")
    assert m.edits == (ENC, NA, "log-escapes")
