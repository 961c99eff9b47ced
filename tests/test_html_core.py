"""The HTML tokenizer twins (``urlsift._html_py`` and ``_html_c``): the WHATWG HTML
standard's tokenization (§13.2.5) as far as links go — text runs and URL attribute
values, with character references decoded — on both twins.

The first part replays html5lib-tests' tokenizer cases (``tests/data/
html5lib_tokenizer.json``, made by ``tools/gen_html5lib_cases.py``; its commit is in
the file); the rest are cases worked out from the spec for each way issue 25's audit
hid a link (comment endings, raw text and RCDATA elements, URL attributes, references
outside the ASCII fast set in UTF-8 text).
"""
from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import given, strategies as st

from urlsift import _select

ROOT = Path(__file__).resolve().parent.parent
TWINS = _select.twins("_html")
CASES = json.loads((ROOT / "tests" / "data" / "html5lib_tokenizer.json").read_text("utf-8"))


@pytest.fixture
def runs(core_kind):
    """``html_runs`` of the core the test runs on (tests/conftest.py)."""
    return TWINS[core_kind].html_runs


def _records(runs, data: bytes, **kw) -> list[tuple[str, bytes]]:
    """(field name, what it means) of each record."""
    fields = TWINS["python"].FIELDS
    got, _ = runs(data, **kw)
    return [(fields[f], data[a:b] if d is None else d) for f, a, b, d in got]


def _texts(runs, data: bytes) -> list[bytes]:
    return [v for f, v in _records(runs, data) if f in ("#text", "#style")]


# -- html5lib-tests --------------------------------------------------------------

@pytest.mark.parametrize("case", CASES["cases"],
                         ids=[f"{c['file']}-{i}" for i, c in enumerate(CASES["cases"])])
def test_html5lib_tokenizer_cases(runs, case):
    data = case["input"].encode("utf-8")
    got = _records(runs, data, every_attribute=True, state=case.get("state", "data"),
                   last_start_tag=case.get("last_start_tag", "").encode())
    kinds = {"#text": "text", "#style": "text"}
    assert [[kinds.get(f, "attribute"), v.decode("utf-8")] for f, v in got] == case["expected"], \
        case["description"]


def test_the_html5lib_cases_name_their_source():
    assert len(CASES["commit"]) == 40 and CASES["commit"] in CASES["source"]
    assert len(CASES["cases"]) > 1000


# -- comments (§13.2.5.43-52): where a comment ends --------------------------------

@pytest.mark.parametrize("comment", [
    b"<!-->",               # abrupt-closing-of-empty-comment
    b"<!--->",              # the same, from the comment start dash state
    b"<!-- x --!>",         # incorrectly-closed-comment
    b"<!---->",
    b"<!-- a -- b -->",     # "--" inside goes on
    b"<!--<!-->",           # nested-comment: ends here all the same
    b"<!-- <!-- -->",
    b"<!--->-->",           # ends at the first ">" (then "-->" is text)
    b"<!>", b"<?php x>", b"</ x>", b"<![CDATA[ x ]]>", b"<!DOCTYPE html>",   # bogus: first ">"
])
def test_a_comment_ends_where_the_spec_ends_it(runs, comment):
    got = _texts(runs, comment + b"http://after.example/")
    assert got[-1].endswith(b"http://after.example/")
    assert b"http://after.example/" not in b"".join(got[:-1])


def test_what_a_comment_holds_is_no_text(runs):
    assert _texts(runs, b"a<!-- http://hidden.example/ -->b") == [b"a", b"b"]
    assert _texts(runs, b"a<!-- x --!- y -->b") == [b"a", b"b"]     # "--!" then not ">"


def test_a_comment_that_never_ends_is_a_problem(runs):
    assert runs(b"ab<!-- http://x.example/") == ([(0, 0, 2, None)], [(2, "eof-in-comment")])
    assert runs(b"<a href='x") == ([], [(0, "eof-in-tag")])


# -- RCDATA, RAWTEXT, script data, PLAINTEXT ----------------------------------------

@pytest.mark.parametrize("element", [b"title", b"textarea", b"xmp", b"iframe", b"noembed",
                                     b"noframes", b"style", b"script"])
def test_a_comment_opener_inside_raw_text_is_text(runs, element):
    html = b"<%s><!--</%s><a href=http://a.example/>x</a>-->" % (element, element)
    got = _records(runs, html)
    assert got[0][1] == b"<!--"
    assert ("href", b"http://a.example/") in got


def test_the_end_tag_must_be_the_elements_own(runs):
    # RCDATA: "</p>" and "</titlex" are text; "</TITLE " ends it (ASCII case-insensitive)
    assert _texts(runs, b"<title>a</p>b</titlex>c</TITLE >d") == [b"a</p>b</titlex>c", b"d"]
    assert _texts(runs, b"<textarea>&lt;b&gt;</textarea>") == [b"<b>"]       # references: yes
    assert _texts(runs, b"<xmp>&lt;b&gt;</xmp>") == [b"&lt;b&gt;"]            # RAWTEXT: no
    assert _texts(runs, b"<plaintext></plaintext>&amp;") == [b"</plaintext>&amp;"]


def test_style_blocks_are_their_own_field(runs):
    got = _records(runs, b"<style>a{background:url(http://s.example/x)}</style>t")
    assert got == [("#style", b"a{background:url(http://s.example/x)}"), ("#text", b"t")]


def test_null_is_replaced_where_the_spec_says(runs):
    assert _texts(runs, b"<title>a\x00b</title>") == ["a\ufffdb".encode()]
    assert _texts(runs, b"a\x00b") == [b"a\x00b"]         # data state: emitted as it is


# -- URL-bearing attributes (the HTML standard's attribute index) -----------------------

@pytest.mark.parametrize("tag, field", [
    (b"<a href=U>", "href"), (b"<area href=U>", "href"), (b"<img src=U>", "src"),
    (b"<form action=U>", "action"), (b"<button formaction=U>", "formaction"),
    (b"<td background=U>", "background"), (b"<blockquote cite=U>", "cite"),
    (b"<img longdesc=U>", "longdesc"), (b"<object data=U>", "data"),
    (b"<video poster=U>", "poster"), (b"<use xlink:href=U>", "xlink:href"),
    (b"<img srcset=U>", "srcset"), (b"<a ping=U>", "ping"), (b"<base href=U>", "base href"),
    (b"<p style=U>", "style"), (b"<A HREF=U>", "href"), (b"<input FormAction='U'>", "formaction"),
])
def test_each_url_attribute_is_a_record(runs, tag, field):
    assert _records(runs, tag.replace(b"U", b"http://u.example/")) == \
        [(field, b"http://u.example/")]


def test_attributes_that_hold_no_url_are_left(runs):
    assert _records(runs, b'<div data="http://x/" title="http://t/" id=x>') == []
    assert _records(runs, b'</a href="http://end.example/">') == []        # end tags: none


@pytest.mark.parametrize("html", [
    b'<a title="x&quot;>y\' z" href=U>', b"<a title='a\"b' data-x=\"&amp;>\" href=\"U\">",
    b"<a alt=x&gt;y\x00 href=U>", b'<a TITLE="&#x22;" Href=U>', b"<a class=x\tid='>'\nhref='U'>",
])
def test_values_of_no_record_end_where_the_spec_ends_them(runs, html):
    # the value of an attribute no record is made of is passed over, not read for
    # references: a reference never holds what ends a value, so the next one is the same
    want = [("href", b"http://u.example/")]
    html = html.replace(b"U", b"http://u.example/")
    assert _records(runs, html) == want
    assert _records(runs, html, every_attribute=True)[-1] == want[0]   # read, the same end


def test_the_end_inside_a_value_of_no_record_is_a_problem(runs):
    assert runs(b'x<a title="http://t.example/') == ([(0, 0, 1, None)], [(1, "eof-in-tag")])


def test_meta_refresh_content_whichever_comes_first(runs):
    want = [("refresh content", b"0; url=http://r.example/")]
    assert _records(runs, b'<meta http-equiv="Refresh" content="0; url=http://r.example/">') == want
    assert _records(runs, b'<meta content="0; url=http://r.example/" http-equiv=REFRESH>') == want
    assert _records(runs, b'<meta name=x content="0; url=http://r.example/">') == []


def test_a_duplicate_attribute_is_dropped(runs):
    assert _records(runs, b"<a href=http://1.example/ HREF=http://2.example/>") == \
        [("href", b"http://1.example/")]


def test_attribute_value_forms(runs):
    assert _records(runs, b'<a href="x y">') == [("href", b"x y")]
    assert _records(runs, b"<a href='x\"y'>") == [("href", b'x"y')]
    assert _records(runs, b"<a href=x'y>") == [("href", b"x'y")]
    assert _records(runs, b"<a href = x/>") == [("href", b"x/")]        # unquoted: "/" is in it
    assert _records(runs, b"<a/href=x>") == [("href", b"x")]            # "/" between: a gap
    assert _records(runs, b"<a href>") == [("href", b"")]


# -- character references (§13.2.5.72-80) ----------------------------------------------

def test_references_outside_the_ascii_fast_set_in_utf8_text(runs):
    text = "é http://bü.example/&nbsp;&eacute;&copy; ü".encode("utf-8")
    assert _texts(runs, text) == ["é http://bü.example/\u00a0é© ü".encode("utf-8")]
    value = '<a href="http://é.example/?q=&eacute;">'.encode("utf-8")
    assert _records(runs, value) == [("href", "http://é.example/?q=é".encode("utf-8"))]


def test_a_latin1_part_keeps_its_octets(runs):
    # not UTF-8: the octets around a reference are copied, never re-encoded
    assert _texts(runs, b"\xe9&amp;\xe9") == [b"\xe9&\xe9"]


@pytest.mark.parametrize("ref, means", [
    ("&#65;", "A"), ("&#x41;", "A"), ("&#X41", "A"), ("&#0;", "\ufffd"),
    ("&#xD800;", "\ufffd"), ("&#x110000;", "\ufffd"), ("&#128;", "\u20ac"),
    ("&#x9F;", "\u0178"), ("&#x81;", "\x81"), ("&#xFFFF;", "\uffff"),
    ("&#" + "9" * 5000 + ";", "\ufffd"),       # no int of 5000 digits is made
    ("&#;", "&#;"), ("&#x;", "&#x;"), ("&#xg", "&#xg"),
    ("&amp;", "&"), ("&AMP", "&"), ("&notin;", "\u2209"), ("&notit;", "\u00acit;"),
    ("&ThickSpace;", "\u205f\u200a"), ("&bogus;", "&bogus;"), ("& x", "& x"),
    ("&CounterClockwiseContourIntegral;", "\u2233"),
])
def test_references_in_text(runs, ref, means):
    assert _texts(runs, ref.encode()) == [means.encode("utf-8")]


@pytest.mark.parametrize("value, means", [
    ("?a=1&copy=2", "?a=1&copy=2"),       # legacy name then "=": as written
    ("?a=1&copyx", "?a=1&copyx"),         # then an alphanumeric: as written
    ("?a=1&copy;=2", "?a=1\u00a9=2"),
    ("?a=1&copy-2", "?a=1\u00a9-2"),
    ("?a&amp;b", "?a&b"), ("&#x2F;&#47;", "//"),
])
def test_references_in_attribute_values(runs, value, means):
    got = _records(runs, f'<a href="{value}">'.encode())
    assert got == [("href", means.encode("utf-8"))]


def test_markup_inside_a_run_is_left_out_of_what_it_means(runs):
    got, _ = runs(b"a</>b")
    assert got == [(0, 0, 5, b"ab")]


# -- anchors: where an <a> opens and closes (the walker's link texts) ----------------

A_START, A_END = 18, 19


def test_the_anchor_fields_are_named():
    fields = TWINS["python"].FIELDS
    assert (fields[A_START], fields[A_END]) == ("<a>", "</a>")


def test_an_anchor_is_its_tags_spans_around_its_text(runs):
    start = b'<a href="http://x.example/">'
    data = b"see " + start + b"it</a> now"
    got, problems = runs(data, anchors=True)
    a = data.index(b"<a")
    close = data.index(b"</a>")
    href = data.index(b"http")
    assert got == [(0, 0, 4, None), (A_START, a, a + len(start), None),
                   (1, href, href + len(b"http://x.example/"), None),
                   (0, a + len(start), close, None), (A_END, close, close + 4, None),
                   (0, close + 4, len(data), None)]
    assert problems == []


def test_without_anchors_there_are_no_anchor_records(runs):
    got, _ = runs(b'<a href="http://x.example/">it</a>')
    assert [f for f, *_ in got] == [1, 0]


@pytest.mark.parametrize("data, spans", [
    (b"<A HREF=x>t</A>", [(A_START, 0, 10), (A_END, 11, 15)]),       # names in any case
    (b"<a/>t", [(A_START, 0, 4)]),                   # self-closing: a start tag all the same
    (b"<a\tx='>'>t</a\n foo=bar>", [(A_START, 0, 9), (A_END, 10, 23)]),  # ">" in a value
    (b"<abbr>t</abbr><area href=x>", []),             # other elements whose names begin with a
    (b"<!-- <a href=x> -->t</a>", [(A_END, 20, 24)]),  # inside a comment: no tag
    (b"<title><a>t</a></title>", []),                 # RCDATA: "<a>" is text there
    (b"<xmp></a></xmp><a>", [(A_START, 15, 18)]),     # RAWTEXT likewise
    (b"</a>", [(A_END, 0, 4)]),                       # an end tag with no start: still one
    (b"<a href='x", []),                              # never closed: no tag (eof-in-tag)
])
def test_anchor_tags_as_the_tokenizer_reads_them(runs, data, spans):
    got, _ = runs(data, anchors=True)
    assert [(f, a, b) for f, a, b, _ in got if f in (A_START, A_END)] == spans


def test_anchor_records_come_before_their_tags_attributes(runs):
    got, _ = runs(b"<a ping=p href=h>", anchors=True)
    assert [f for f, *_ in got] == [A_START, 12, 1]


# -- CR: the LF the input stream's preprocessing makes of it (§13.2.3.5) ------------

def test_a_cr_lf_between_a_tag_name_and_an_attribute_is_whitespace(runs):
    data = b'<a\r\nhref="http://x.example/">t</a\r\n>'
    got, _ = runs(data, anchors=True)
    assert got == [(A_START, 0, 29, None), (1, 10, 27, None), (0, 29, 30, None),
                   (A_END, 30, 36, None)]


@pytest.mark.parametrize("data, value", [
    (b'<a href\r\n="http://x.example/">', b"http://x.example/"),   # after the name
    (b'<a href=\r"http://x.example/">', b"http://x.example/"),      # before the value
    (b"<img src=http://x.example/i.png\r\nalt=x>", b"http://x.example/i.png"),  # unquoted
    (b"<img\rsrc=http://x.example/i.png>", b"http://x.example/i.png"),  # a lone CR
])
def test_a_cr_is_whitespace_around_attributes(runs, data, value):
    assert [v for f, v in _records(runs, data) if f != "#text"] == [value]


def test_a_cr_lf_ends_a_raw_text_elements_name(runs):
    assert _texts(runs, b"<title\r\n><!--</title\r\n>http://y.example/") == [
        b"<!--", b"http://y.example/"]


# -- the twins agree, and the table is the spec's ----------------------------------------

HTMLISH = st.lists(st.sampled_from([
    b"<", b">", b"/", b"!", b"-", b"--", b"&", b";", b"#", b"x", b"=", b"\"", b"'", b" ",
    b"a", b"href", b"style", b"title", b"script", b"xmp", b"meta", b"http-equiv",
    b"refresh", b"content", b"amp", b"copy", b"notin", b"\x00", b"\xc3\xa9", b"9", b"F",
    b"[CDATA[", b"DOCTYPE", b"?", b"\t", b"<a", b"</a", b"A", b"\r", b"\r\n",
]), max_size=60).map(b"".join)


@pytest.mark.twins
@given(HTMLISH | st.binary(max_size=200), st.booleans(),
       st.sampled_from(["data", "RCDATA", "RAWTEXT", "script data", "PLAINTEXT"]),
       st.sampled_from([b"", b"title", b"style", b"xmp", b"script"]), st.booleans())
def test_twins_agree(data, every, state, last, anchors):
    results = {k: m.html_runs(data, every_attribute=every, state=state, last_start_tag=last,
                              anchors=anchors)
               for k, m in TWINS.items()}
    assert len({repr(r) for r in results.values()}) == 1, results


@pytest.mark.twins
@given(HTMLISH)
def test_records_are_spans_in_order(data):
    got, _ = TWINS["python"].html_runs(data, every_attribute=True)
    for _, a, b, _ in got:
        assert 0 <= a <= b <= len(data)


@pytest.mark.twins
def test_the_entity_table_is_generated_from_the_spec():
    done = subprocess.run([sys.executable, str(ROOT / "tools" / "gen_entities.py"), "--check"],
                          capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_bad_arguments_say_what(runs):
    with pytest.raises(TypeError, match="HTML is bytes"):
        runs("<a>")
    with pytest.raises(ValueError, match="no such initial state"):
        runs(b"", state="comment")
