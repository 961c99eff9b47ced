"""The ``email`` path's HTML reader over the WHATWG tokenizer (issue 25, step 4 item 2:
``urlsift.mail.html.whatwg_links``), on both cores (tests/conftest.py switches
``cores.html``).

Expected values come from the WHATWG HTML standard (§13.2.5 tokenization: comment
ends, RCDATA/RAWTEXT elements; the attribute index's URL attributes; srcset parsing;
the shared declarative refresh steps) and the URL Standard's basic URL parser (§4.4:
the clean-up of a value), worked out by hand, not printed by the code.
"""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from urlsift.mail.html import whatwg_links
from urlsift.mail.message import _scan, options

OPTS = options(None, None, False)
STRIP, TABS, BACKSLASH, SLASHES = ("c0-or-space-stripped", "tab-or-newline-removed",
                                   "invalid-reverse-solidus",
                                   "special-scheme-missing-following-solidus")


def links(page: str, problems: list | None = None) -> list[tuple[str, str]]:
    """(URL, how it was found) of each hit, in document order."""
    told = None if problems is None else (lambda at, what: problems.append((at, what)))
    return [(hit[0].url, how) for hit, how, _ in
            whatwg_links(page, lambda t: _scan(t, OPTS, quoted=False), told)]


def hits(page: str) -> list[tuple]:
    return list(whatwg_links(page, lambda t: _scan(t, OPTS, quoted=False)))


AFTER = "http://after.example/"


# -- HTML5 comments and raw-text elements (issue 25, first bullet) -------------------

@pytest.mark.parametrize("comment", [
    "<!-->",                 # abrupt-closing-of-empty-comment
    "<!--->",                # the same from the comment start dash state
    "<!-- x --!>",           # incorrectly-closed-comment
    "<!---->",
    "<!--<!-->",             # nested-comment: ends all the same
    "<!>", "<?x>", "</ x>",  # bogus comments: the first ">"
])
def test_the_link_after_an_html5_comment_end_is_found(comment):
    assert links(f"{comment}<a href='{AFTER}'>go</a> {AFTER}x") == [
        (AFTER, "href"), (AFTER + "x", "text")]


def test_what_a_comment_holds_is_not_found():
    assert links("<!-- http://in.example/ -- still --> http://out.example/") == [
        ("http://out.example/", "text")]


@pytest.mark.parametrize("element", ["title", "textarea", "xmp", "iframe", "noembed"])
def test_a_comment_opener_inside_raw_text_is_text(element):
    page = f"<{element}><!--</{element}><a href='{AFTER}'>x</a><!-- -->"
    assert links(page) == [(AFTER, "href")]


def test_rcdata_text_is_shown_with_its_references_raw_text_as_written():
    assert links("<title>http://t.example/?a=1&amp;b=2</title>"
                 "<xmp>http://x.example/?a=1&amp;b=2</xmp>") == [
        ("http://t.example/?a=1&b=2", "text"), ("http://x.example/?a=1&amp;b=2", "text")]


# -- href values as a browser reads them (third bullet) --------------------------------

@pytest.mark.parametrize("value, url, edits", [
    (" \x01http://a.example/ ", "http://a.example/", (STRIP,)),
    ("ht\ttp://a.exa\nmple/", "http://a.example/", (TABS,)),
    ("http:\\\\a.example\\x", "http://a.example/x", (BACKSLASH,)),
    ("http:a.example/x", "http://a.example/x", (SLASHES,)),
    ("https:/a.example/", "https://a.example/", (SLASHES,)),
])
def test_an_href_is_the_url_the_browser_goes_to_with_its_edits_and_raw(value, url, edits):
    (m, start, end, raw, _), how, _ = hits(f'<p>x</p><a href="{value}">go</a>')[0]
    assert (m.url, how, raw) == (url, "href", value)
    assert m.edits[:len(edits)] == edits


def test_a_reference_in_an_href_is_decoded_before_the_clean_up():
    assert links('<a href="&#x20;http://a.example/?x=1&amp;y=2&NewLine;">x</a>') == [
        ("http://a.example/?x=1&y=2", "href")]


# -- attributes other than href/src (fourth bullet) ------------------------------------

@pytest.mark.parametrize("html, found", [
    ('<form action="http://a.example/f">', [("http://a.example/f", "action")]),
    ('<button formaction="http://a.example/b">', [("http://a.example/b", "formaction")]),
    ('<img srcset="http://a.example/1.png 1x, http://a.example/2.png 2x">',
     [("http://a.example/1.png", "srcset"), ("http://a.example/2.png", "srcset")]),
    ('<td background="http://a.example/bg.gif">', [("http://a.example/bg.gif", "background")]),
    ('<area href="http://a.example/area">', [("http://a.example/area", "href")]),
    ('<meta http-equiv="Refresh" content="0; url=http://a.example/r">',
     [("http://a.example/r", "refresh content")]),
    ('<meta content="0;URL=\'http://a.example/r\'" http-equiv=refresh>',
     [("http://a.example/r", "refresh content")]),
    ('<meta name="x" content="0; url=http://a.example/r">', []),   # no refresh: no URL
    ('<div style="background:url( \'http://a.example/s.png\' )">',
     [("http://a.example/s.png", "style")]),
    ('<style>p{background:url(http://a.example/b.png)}</style>',
     [("http://a.example/b.png", "#style")]),
    ('<svg><a xlink:href="http://a.example/svg">x</a></svg>', [("http://a.example/svg",
                                                               "xlink:href")]),
    ('<video poster="http://a.example/p.jpg">', [("http://a.example/p.jpg", "poster")]),
    ('<blockquote cite="http://a.example/c">', [("http://a.example/c", "cite")]),
    ('<img longdesc="http://a.example/l">', [("http://a.example/l", "longdesc")]),
    ('<object data="http://a.example/o.swf">', [("http://a.example/o.swf", "data")]),
    ('<div data="http://a.example/o">', []),                        # data: of <object> only
    ('<a ping="http://a.example/p1 http://a.example/p2">',
     [("http://a.example/p1", "ping"), ("http://a.example/p2", "ping")]),
])
def test_each_url_attribute_of_the_attribute_index(html, found):
    assert links(html) == found


def test_base_href_resolves_relative_links():
    page = '<base href="http://base.example/dir/"><a href="page?q=1">x</a><img src="/i.png">'
    assert links(page) == [("http://base.example/dir/page?q=1", "href"),
                           ("http://base.example/i.png", "src")]


def test_the_first_base_wins_and_a_relative_link_without_one_is_dropped():
    assert links('<a href="rel">x</a><base href="http://b1.example/"><base href='
                 '"http://b2.example/"><img src="i">') == [("http://b1.example/i", "src")]


# -- a link's text: counted once, shown text -------------------------------------------

def test_a_link_text_that_is_its_own_url_counts_once():
    assert links(f'<a href="{AFTER}">{AFTER}</a> {AFTER}') == [(AFTER, "href"), (AFTER, "text")]


def test_the_shown_text_of_a_link_is_its_anchors_text():
    got = hits('<a href="http://evil.example/">https://bank.example/ &amp; <b>more</b></a>'
               ' <area href="http://area.example/">')
    assert [(h[0].url, how, shown) for h, how, shown in got] == [
        ("http://evil.example/", "href", "https://bank.example/ & more"),
        ("https://bank.example/", "text", None), ("http://area.example/", "href", None)]


def test_an_anchor_ends_at_its_end_tag_or_the_next_anchor():
    got = hits(f'<a href="{AFTER}">x<a href="http://b.example/">y</a>{AFTER}')
    assert [(h[0].url, how, shown) for h, how, shown in got] == [
        (AFTER, "href", "x"), ("http://b.example/", "href", "y"), (AFTER, "text", None)]


def test_a_crlf_page_reads_as_its_lf_twin():
    # mail is CR LF; the spec reads each CR as LF (§13.2.3.5): the anchor is an anchor
    # and an unquoted value ends before the CR (no tab-or-newline edit)
    page = "<a\nhref=http://x.example/\nclass=x>http://x.example/</a>\n<img\nsrc=U\n>"
    expected = hits(page.replace("U", "http://y.example/i.png"))
    got = hits(page.replace("U", "http://y.example/i.png").replace("\n", "\r\n"))
    assert [(h[0].url, how, shown, h[0].edits) for h, how, shown in got] == [
        (h[0].url, how, shown, h[0].edits) for h, how, shown in expected] == [
        ("http://x.example/", "href", "http://x.example/", ()),
        ("http://y.example/i.png", "src", None, ())]


# -- problems and offsets ---------------------------------------------------------------

def test_the_end_inside_a_tag_or_comment_is_a_problem_with_its_offset():
    problems: list = []
    assert links("ok http://a.example/ <a href='http://open.example/", problems) == [
        ("http://a.example/", "text")]
    assert problems == [(21, "tag not closed before the end of the part (eof-in-tag)")]
    problems.clear()
    links("é<!-- http://hidden.example/", problems)
    assert problems == [(1, "comment not closed before the end of the part (eof-in-comment)")]


def test_offsets_are_characters_of_the_text():
    (m, a, b, raw, _), _, _ = hits("é&amp; http://a.example/")[0]
    assert (a, b, raw) == (7, 24, "http://a.example/")     # mapped past the reference
    (m, a, b, raw, _), _, _ = hits("éé<a href='http://a.example/'>x</a>")[0]
    assert (a, b) == (11, 11)                               # the value's first character


# -- generated: any hiding form before a link in any URL attribute ----------------------

HIDING = ["<!-->", "<!--->", "<!-- x --!>", "<!---->", "<!--<!-->", "<!x>", "<?x>",
          "<!-- http://hidden.example/ -->", "<!-- a --!> b -->"] + [
          f"<{e}><!--</{e}>" for e in ("title", "textarea", "xmp", "iframe", "noembed")]
#: (start tag, attribute, how it is reported, the value around the URL U)
CARRIERS = [("a", "href", "href", "U"), ("area", "href", "href", "U"),
            ("form", "action", "action", "U"), ("button", "formaction", "formaction", "U"),
            ("td", "background", "background", "U"), ("img", "srcset", "srcset", "U 2x"),
            ("blockquote", "cite", "cite", "U"), ("img", "longdesc", "longdesc", "U"),
            ("object", "data", "data", "U"), ("video", "poster", "poster", "U"),
            ("a", "ping", "ping", "U"), ("a", "xlink:href", "xlink:href", "U"),
            ("div", "style", "style", "background:url(U)"), ("img", "src", "src", "U")]


@st.composite
def hidden_links(draw):
    """A page: hiding forms, then a link in a URL attribute written in a legal way; the
    link's URL, and how it is to be reported."""
    url = f"http://l{draw(st.integers(0, 99))}.example/p"
    tag, attr, how, around = draw(st.sampled_from(CARRIERS))
    written = url.replace(":", draw(st.sampled_from([":", "&#58;", "&colon;", "&#x3A;"])))
    written = written.replace("/", draw(st.sampled_from(["/", "&#x2F;", "&sol;"])))
    if how == "href":
        written = draw(st.sampled_from(["", " ", "\t", "\n "])) + written
    value = around.replace("U", written)
    quote = draw(st.sampled_from(['"', "'"] + ([""] if " " not in value and "\n" not in value
                                                and "\t" not in value else [])))
    case = draw(st.sampled_from([str.lower, str.upper]))
    hide = "".join(draw(st.lists(st.sampled_from(HIDING), min_size=1, max_size=3)))
    return f"{hide}<{case(tag)} {case(attr)}={quote}{value}{quote}>x", url, how


@given(hidden_links())
def test_a_link_after_any_hiding_form_in_any_url_attribute_is_found(case):
    page, url, how = case
    assert links(page) == [(url, how)]
