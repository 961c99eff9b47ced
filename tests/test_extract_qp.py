"""Quoted-printable read as text (issue 21): a mail archive read in text mode holds
QP's soft line breaks, and ``http://www.linux-mips.org/m=`` came out with the ``=``.

RFC 2045 §6.7 rule 5 (Soft Line Breaks): "The Quoted-Printable encoding REQUIRES that
encoded lines be no more than 76 characters long. If longer lines are to be encoded
with the Quoted-Printable encoding, "soft" line breaks must be used. An equal sign as
the last character on a encoded line indicates such a non-significant ("soft") line
break in the encoded text." So an encoder fills a broken line to 73-76 characters with
its ``=`` (a ``=XX`` triplet is not split).

The rules (docs/decisions-extract.md, "Quoted-printable read as text"):

- a bare URL whose walk ends at a line break (LF or CR LF) right after ``=`` leaves
  that ``=`` out of ``url`` and says ``qp-soft-break`` (``raw`` keeps it);
- it goes on over the break instead, saying ``qp-lines-joined`` and leaving every
  ``=`` + line break out of ``url``, when the ``=`` ends a line of 73 to 76 characters
  (a line starts after LF or NUL, or at the start of the input) and the next line
  starts with a URL character that does not begin a ``scheme:`` of its own;
- in mail (``mbox=True``) neither join: parts are decoded by their transfer encoding
  already, and both mail paths trim alike.

Offsets are worked out by hand; ``WIDE`` is 76 characters.
"""
from __future__ import annotations

import json

import pytest

import urlsift
from urlsift.text import rules
from conftest import extract_output

SOFT = "qp-soft-break"
JOIN = "qp-lines-joined"
#: " http://www.linux-mips.org/m=" is 29 characters: a space, "http://" (7),
#: "www.linux-mips.org" (18), "/m=" (3).
TAIL = " http://www.linux-mips.org/m="


def line(width: int) -> str:
    """A line of ``width`` characters, the ``=`` of TAIL last."""
    return "x" * (width - len(TAIL)) + TAIL


WIDE = line(76)
#: The rest of the URL on the next line: 36 characters.
REST = "ail/linux-mips/2005-03/msg00123.html"
WHOLE = "http://www.linux-mips.org/mail/linux-mips/2005-03/msg00123.html"


def found(buf, **kw):
    return [(m.url, m.start, m.end, m.raw, m.edits) for m in urlsift.extract(buf, **kw)]


def test_the_issue_example_loses_its_equals_sign_and_says_so():
    # "see " (4), "http://www.linux-mips.org/m=" (28): the line is 32 characters, no QP
    # line of full width, so the next line is not joined
    for text in ("see http://www.linux-mips.org/m=\nail ok\n",
                 "see http://www.linux-mips.org/m=\r\nail ok\r\n"):
        for buf in (text, text.encode()):
            assert found(buf) == [("http://www.linux-mips.org/m", 4, 32,
                                   "http://www.linux-mips.org/m=", (SOFT,))]


def test_a_line_of_qp_width_goes_on_with_the_next():
    # the URL starts after 47 "x" and a space (48); the line break is at 76, REST follows
    for nl in ("\n", "\r\n"):
        text = WIDE + nl + REST + " ok\n"
        end = 76 + len(nl) + 36
        for buf in (text, text.encode()):
            assert found(buf) == [(WHOLE, 48, end, "http://www.linux-mips.org/m=" + nl + REST,
                                   (JOIN,))]


def test_a_bracket_before_a_soft_break_is_closed_after_it():
    # one walk over the URL's characters (issue 27): the "(" before the break is counted
    # with the ")" after it, so that ")" has its partner and stays (a ")" without one
    # is trimmed). " http://en.example/wiki/Foo_(b=" is 31 characters: the line is 76
    # with 45 "x", the URL starts at 46 and ends after "ar)" on the next line, at 80
    text = "x" * 45 + " http://en.example/wiki/Foo_(b=" + "\n" + "ar) ok"
    for buf in (text, text.encode()):
        assert found(buf) == [("http://en.example/wiki/Foo_(bar)", 46, 80,
                               "http://en.example/wiki/Foo_(b=\nar)", (JOIN,))]


@pytest.mark.parametrize("width, joined", [(72, False), (73, True), (74, True), (75, True),
                                           (76, True), (77, False)])
def test_only_a_line_of_73_to_76_characters_is_joined(width, joined):
    text = line(width) + "\n" + REST + " ok"
    start = width - 28
    if joined:
        assert found(text) == [(WHOLE, start, width + 1 + 36,
                                "http://www.linux-mips.org/m=\n" + REST, (JOIN,))]
    else:
        assert found(text) == [("http://www.linux-mips.org/m", start, width,
                                "http://www.linux-mips.org/m=", (SOFT,))]


def test_the_line_is_counted_from_the_line_break_or_a_nul():
    # the first line of the input, and one after a NUL (a mail walk's part boundary)
    assert [m.url for m in urlsift.extract(WIDE + "\n" + REST)] == [WHOLE]
    assert [m.url for m in urlsift.extract("a\n" + WIDE + "\n" + REST)] == [WHOLE]
    assert [m.url for m in urlsift.extract("abc\x00" + WIDE + "\n" + REST)] == [WHOLE]
    # a longer line (its start before the 76 characters) is no QP line
    assert [m.url for m in urlsift.extract("abc" + WIDE + "\n" + REST)] == [
        "http://www.linux-mips.org/m"]


def test_a_url_over_three_lines_and_a_last_break_trimmed():
    second = "a" * 75 + "="                              # 76 characters
    text = WIDE + "\n" + second + "\n" + "end.html here"
    assert found(text) == [("http://www.linux-mips.org/m" + "a" * 75 + "end.html", 48,
                            76 + 1 + 76 + 1 + 8,
                            "http://www.linux-mips.org/m=\n" + second + "\nend.html", (JOIN,))]
    # the second line short: joined to it, then its "=" is a break the URL ends at
    text = WIDE + "\nail/x=\nmore"
    assert found(text) == [("http://www.linux-mips.org/mail/x", 48, 76 + 1 + 6,
                            "http://www.linux-mips.org/m=\nail/x=", (JOIN, SOFT))]


@pytest.mark.parametrize("after", [
    "http://next.example/",         # a list of URLs, one ending in "=": never one URL
    "mailto:a@b.example",           # any "scheme:" at the start of the next line
    " indented text",               # no URL character
    "\n",                           # a blank line
    "",                             # the end of the input
    "<http://x/>",                  # "<" is no URL character
])
def test_no_join_where_the_next_line_is_no_continuation(after):
    ms = list(urlsift.extract(WIDE + "\n" + after))
    assert (ms[0].url, ms[0].end, ms[0].edits) == ("http://www.linux-mips.org/m", 76, (SOFT,))


def test_the_trim_and_what_is_no_soft_break():
    # any "=" right before a line break is taken for one: a query's empty value loses it
    # (the edit says so; raw keeps it), and of "==" one goes
    assert found(b"http://a.example/?q=\n") == [
        ("http://a.example/?q", 0, 20, "http://a.example/?q=", (SOFT,))]
    assert found(b"http://a/?t=YQ==\r\n") == [("http://a/?t=YQ=", 0, 16, "http://a/?t=YQ==", (SOFT,))]
    # punctuation before it is trimmed as at any other end (RFC 1738 appendix)
    assert found(b"see http://a/x.=\n") == [
        ("http://a/x", 4, 16, "http://a/x.=", (SOFT, "punctuation-trimmed"))]
    # "=" then a blank, or a lone CR: no soft break (the URL ends at the blank)
    assert found(b"http://a/x= \n") == [("http://a/x=", 0, 11, "http://a/x=", ())]
    assert found(b"http://a/x=\ry") == [("http://a/x=", 0, 11, "http://a/x=", ())]
    # nothing left after the scheme: no URL
    assert found(b"http://=\n") == []


def test_scan_flags_and_counts():
    [s, e, f] = urlsift.scan(b"see http://www.linux-mips.org/m=\n")
    assert (s, e, f & 0xFF) == (4, 32, 0)
    assert f & rules.SOFT_BREAK and (f >> rules.TRIM_SHIFT) & rules.TRIM_MASK == 1
    [s, e, f] = urlsift.scan((WIDE + "\n" + REST).encode())
    assert (s, e) == (48, 113) and f & rules.JOINED and not f & rules.SOFT_BREAK


def test_joined_urls_across_piece_boundaries_are_found_once(tmp_path):
    # pieces are cut just after a line break, inside the joined URLs: each is found once
    # and whole, on one thread, two, and streamed
    body = ("".join(f"{i:5d} " + WIDE[6:] + "\n" + REST + f"?n={i} and more text\n"
                    for i in range(400))).encode()
    path = tmp_path / "qp.txt"
    path.write_bytes(body)
    want = found(body)
    assert len(want) == 400 and want[0] == (WHOLE + "?n=0", 48, 117,
                                            "http://www.linux-mips.org/m=\n" + REST + "?n=0", (JOIN,))
    for jobs in (1, 2):
        for block in (None, 100, 1000):
            got = [(m.url, m.start, m.end, m.raw, m.edits)
                   for m in urlsift.extract_file(path, jobs=jobs, block_size=block)]
            assert got == want, (jobs, block)
    with open(path, "rb") as f:
        assert [(m.url, m.start, m.end, m.raw, m.edits)
                for m in urlsift.extract_file(f, block_size=500)] == want


# -- mail: the parts are decoded; both paths agree ---------------------------------------

def test_mail_does_not_join_and_both_paths_trim_alike(tmp_path):
    from test_mail_walk import assert_spool_agrees
    qp = WIDE + "\n" + REST + " today.\n"
    spool = (
        b"From a@example.org Mon Jan  3 10:00:00 1994\n"
        b"Message-ID: <m1@example.org>\n"
        b"Content-Transfer-Encoding: quoted-printable\n\n" + qp.encode() + b"\n"
        b"From a@example.org Mon Jan  3 10:00:00 1994\n"
        b"Message-ID: <m2@example.org>\n\n" + qp.encode() + b"\n"
        b"From a@example.org Mon Jan  3 10:00:00 1994\n"
        b"Message-ID: <m3@example.org>\n\n> " + qp.replace("\n", "\n> ").encode() + b"\n"
    )
    assert_spool_agrees(spool)
    path = tmp_path / "spool.mbox"
    path.write_bytes(spool)
    got = [(m.url, m.edits, m.message_id) for m in urlsift.extract_file(path, mbox=True)]
    assert got == [
        # declared quoted-printable: decoded (RFC 2045 §6.7), the URL is whole
        (WHOLE, (), "<m1@example.org>"),
        # not declared: the text as it is, the "=" left out, no join
        ("http://www.linux-mips.org/m", (SOFT,), "<m2@example.org>"),
        # quoted in a reply: the same, whichever path reads the message
        ("http://www.linux-mips.org/m", (SOFT,), "<m3@example.org>"),
    ]
    # the spool read as text: the undeclared ones join (the quoted one does not: "> ")
    assert [(m.url, m.edits) for m in urlsift.extract_file(path, mbox=False)] == [
        (WHOLE, (JOIN,)), (WHOLE, (JOIN,)), ("http://www.linux-mips.org/m", (SOFT,))]


# -- the command ---------------------------------------------------------------------------

_run = extract_output       # urlsift extract ARGS -o FILE: what it wrote (conftest)


@pytest.fixture
def qp_file(tmp_path):
    path = tmp_path / "qp.txt"
    # line 1 (76) and line 2 (REST, " ok"): one joined URL at 48; line 3 at 117: "see "
    # and a trimmed one at 121
    path.write_bytes((WIDE + "\n" + REST + " ok\nsee http://a.example/p=\n").encode())
    return path


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_command_text_positions_and_jsonl(tmp_path, qp_file, jobs):
    assert _run(tmp_path, "-j", jobs, qp_file).decode().splitlines() == [
        WHOLE, "http://a.example/p"]
    assert _run(tmp_path, "-j", jobs, "-n", "-b", qp_file).decode().splitlines() == [
        f"1:48:{WHOLE}", "3:121:http://a.example/p"]
    got = [json.loads(x) for x in
           _run(tmp_path, "-j", jobs, "-f", "jsonl", "-b", qp_file).splitlines()]
    assert got == [{"url": WHOLE, "offset": 48}, {"url": "http://a.example/p", "offset": 121}]


def test_command_details_and_csv(tmp_path, qp_file):
    got = [json.loads(x) for x in _run(tmp_path, "-f", "jsonl", "--details", qp_file).splitlines()]
    assert [(d["url"], d["valid_strict"], d["edits"]) for d in got] == [
        (WHOLE, True, [JOIN]), ("http://a.example/p", True, [SOFT])]
    assert _run(tmp_path, "-f", "csv", "--details", qp_file).decode().splitlines() == [
        "url,valid_strict,problems,wrapped,hyphen_break,edits",
        f"{WHOLE},true,,false,false,{JOIN}",
        f"http://a.example/p,true,,false,false,{SOFT}"]
