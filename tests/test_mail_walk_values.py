"""The walker's values room (``_mail_values.pxi`` / ``_mail_values_py.py``), both cores:
the URL attributes besides ``href``/``src`` are laid out by the walk, not left to the
``email`` path, and both paths agree (the oracle, ``test_mail_walk.both_agree_on``).

Expected values from HTML's attribute index (every attribute whose value is a URL),
HTML §4.8.4.3.10 "parse a srcset attribute" (a candidate's URL is a run of
non-whitespace; commas ending it are removed; its descriptors run to a comma outside
parentheses), the ``ping`` attribute (a set of space-separated tokens), CSS's ``url()``
and ``@import`` (CSS Syntax §4.3.6, CSS Cascade §2), and the URL Standard's clean-up
(§4.4), which, where it would change a value, sends the message to the ``email`` path.
"""
from __future__ import annotations

import pytest
from test_mail_walk import FROM_LINE, both_agree_on
from test_mail_walk_html5 import _falls_back, _message, check_case

from urlsift._mail_records import FALLBACK, MSG, MSG_FLAGS
from urlsift.mail import walk as mail_walk

T = "1 text/html"

# (page, expected (part, url) pairs, the walk reads it itself)
CASES = [
    # one URL each (HTML's attribute index)
    ('<blockquote cite="http://c.example/src">q</blockquote>', [(T + " cite", "http://c.example/src")],
     True),
    ('<img src="http://i.example/a.png" longdesc="http://l.example/d.html">',
     [(T + " src", "http://i.example/a.png"), (T + " longdesc", "http://l.example/d.html")], True),
    ('<video poster="http://v.example/p.jpg"></video>', [(T + " poster", "http://v.example/p.jpg")],
     True),
    ('<svg><a xlink:href="http://x.example/">x</a></svg>', [(T + " xlink:href", "http://x.example/")],
     True),
    ('<object data="http://o.example/movie.swf"></object>', [(T + " data", "http://o.example/movie.swf")],
     True),
    ('<div data="http://o.example/not-a-url-attribute">d</div>', [], True),     # data: of <object>
    ('<body background="HTTP://B.example/bg.gif">', [(T + " background", "HTTP://B.example/bg.gif")],
     True),
    ('<td background="images/bg.gif">', [], True),          # relative: nothing to resolve it by
    # srcset: a candidate's URL, its descriptors to a comma outside parentheses
    ('<img srcset="http://s.example/a.png,, http://s.example/b.png 2x">',
     [(T + " srcset", "http://s.example/a.png"), (T + " srcset", "http://s.example/b.png")], True),
    ('<img srcset="http://s.example/a.png (x, y) 1x, http://s.example/b.png">',
     [(T + " srcset", "http://s.example/a.png"), (T + " srcset", "http://s.example/b.png")], True),
    ('<img srcset="a.png 1x, http://s.example/b.png 2x">', [(T + " srcset", "http://s.example/b.png")],
     True),
    ('<img srcset="http://s.example/a.png?x=1&amp;y=2 1x">',
     [(T + " srcset", "http://s.example/a.png?x=1&y=2")], True),      # references undone first
    # ping: space-separated tokens
    ('<a href="http://a.example/" ping="http://p.example/1 http://p.example/2">go</a>',
     [(T + " href", "http://a.example/"), (T + " ping", "http://p.example/1"),
      (T + " ping", "http://p.example/2")], True),
    # CSS: url() (quoted or not) and @import strings, in a style attribute or <style>
    ("<style>@import \"http://i.example/i.css\"; p { background: url( http://st.example/x.png ) }"
     "</style>", [(T + " #style", "http://i.example/i.css"), (T + " #style", "http://st.example/x.png")],
     True),
    ('<p style="background:url(&quot;http://st.example/q.png&quot;); color: red">p</p>',
     [(T + " style", "http://st.example/q.png")], True),
    ("<style>@import url('http://i.example/u.css');</style>", [(T + " #style", "http://i.example/u.css")],
     True),
    ('<p style="color: red">http://text.example/</p>', [(T, "http://text.example/")], True),
    # a duplicate attribute is dropped (HTML §13.2.5.33): the first one stands
    ('<p style="background:url(http://a.example/)" style="background:url(http://b.example/)">',
     [(T + " style", "http://a.example/")], True),
    ('<a href href="http://a.example/">x</a>', [], True),          # the first, without a value
    # what the email path reads instead: the message falls back, the answers are the same
    ('<style>p::before { content: "\u00e9" } p { background: url(http://st.example/u.png) }</style>',
     [(T + " #style", "http://st.example/u.png")], False),           # non-ASCII CSS
    ('<a href="http://a.example/" ping="http://p.example/\u00e9">go</a>',
     [(T + " href", "http://a.example/"), (T + " ping", "http://p.example/\u00e9")], False),
    ('<img srcset="http:\\\\s.example\\a.png 1x">', [(T + " srcset", "http://s.example/a.png")],
     False),                                                          # cleaned: its edits
]


@pytest.mark.parametrize("cte", ["7bit", "base64"])
@pytest.mark.parametrize("page, expected, walked", CASES)
def test_a_url_attribute_on_a_whole_message(page, expected, walked, cte):
    check_case(page, expected, walked, cte)


def test_a_srcset_in_a_link_leaves_the_link_text_whole():
    # the <a>'s text is every text run inside it (HTML §4.5.1: its content), an image
    # between them included
    spool = _message('<a href="http://a.example/">see <img srcset="http://s.example/1.png 1x">'
                     ' this</a>', "7bit")
    found, _ = both_agree_on(spool)
    assert [(m.part, m.url, m.text) for m in found] == [
        (T + " href", "http://a.example/", "see this"),
        (T + " srcset", "http://s.example/1.png", None)]
    email = mail_walk.message_matches("box", 0, spool.split(b"\n", 1)[1],
                                      mail_walk.options(None, None, False), print)
    assert [m.text for m in email] == [m.text for m in found]
    assert not _falls_back(spool)


def test_a_value_url_stands_at_its_attribute_and_is_its_own_raw_text():
    # start and end are the value's offset in the part, as for an href; raw is the URL
    # as the walk laid it out (the email path gives the whole attribute: a documented
    # difference, docs/decisions-mail.md)
    page = '<img srcset="http://s.example/1.png 1x, http://s.example/2.png 2x">'
    found, _ = both_agree_on(_message(page, "7bit"))
    at = page.index("http://s.example/1.png")
    assert [(m.start, m.end, m.raw) for m in found] == [
        (at, at, "http://s.example/1.png"), (at, at, "http://s.example/2.png")]


def test_a_newsletter_spool_is_walked_not_read_by_email():
    # the common shapes of HTML mail: a background attribute, a style url(), a <style>
    # @import, a srcset; none sends its message to the slow path
    page = ('<style>@import url("http://fonts.example/css?family=A");</style>'
            '<table><tr><td background="http://img.example/bg.png" '
            'style="background-image:url(http://img.example/bg2.png)">'
            '<a href="http://shop.example/p?utm=1&amp;x=2">Buy</a>'
            '<img src="http://img.example/p.png" srcset="http://img.example/p2.png 2x">'
            '</td></tr></table>')
    spool = b"".join(_message(page, cte) for cte in ("7bit", "8bit", "base64"))
    found, errors = both_agree_on(spool)
    assert errors == []
    assert len(found) == 3 * 6
    walked = mail_walk._prepared(spool, False)[0]
    assert [walked[2][i + MSG_FLAGS] & FALLBACK for i in range(0, len(walked[2]), MSG)] == [0] * 3


def test_the_part_label_names_each_field():
    # the label keys stay apart for every kind of a part (a key per label and kind)
    page = "".join(f'<x {a}="http://{a.replace(":", "-")}.example/">' for a in
                   ("action", "formaction", "background", "cite", "longdesc", "poster",
                    "xlink:href", "srcset", "ping", "style"))
    page = page.replace('style="http://style.example/"', 'style="a:url(http://style.example/)"')
    found, _ = both_agree_on(FROM_LINE + b"Content-Type: text/html\n\n" + page.encode() + b"\n")
    assert [m.part.split()[-1] for m in found] == [
        "action", "formaction", "background", "cite", "longdesc", "poster", "xlink:href",
        "srcset", "ping", "style"]
