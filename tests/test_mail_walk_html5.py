"""Issue 25's HTML hiding forms on whole messages, both cores: the walk and the
``email`` path agree (the oracle, ``test_mail_walk.both_agree_on``) and find the link.
Expected values from the WHATWG HTML tokenizer (§13.2.5) and the URL Standard (§4.4):
what a mail client shows and follows. The forms the walk reads itself (HTML5 comment
ends, RCDATA/RAWTEXT elements) are also checked not to fall back to ``email``."""
from __future__ import annotations

import base64

import pytest
from test_mail_walk import FROM_LINE, both_agree_on

from urlsift._mail_records import FALLBACK, MSG_FLAGS
from urlsift.mail import walk as mail_walk

T = "1 text/html"

# (page, expected (part, url) pairs, the walk reads it itself)
CASES = [
    ("<!-->http://a.example/", [(T, "http://a.example/")], True),
    ("<!--->http://a.example/", [(T, "http://a.example/")], True),
    ("<!-- x --!>http://a.example/ -->", [(T, "http://a.example/")], True),
    ("<!---->http://a.example/", [(T, "http://a.example/")], True),
    ("<title><!--</title><a href=http://t.example/>x</a>-->",
     [(T + " href", "http://t.example/")], True),
    ("<TEXTAREA><!--</textarea >http://a.example/", [(T, "http://a.example/")], True),
    ("<xmp><!--</xmp><a href='http://x.example/'>x</a>", [(T + " href", "http://x.example/")],
     True),
    ("<iframe><!--</iframe>http://i.example/", [(T, "http://i.example/")], True),
    ("<noembed><!--</noembed>http://n.example/", [(T, "http://n.example/")], True),
    ("<plaintext><!-- http://p.example/", [(T, "http://p.example/")], True),
    ("<p>a</p><style>p { color: red }</style>http://a.example/", [(T, "http://a.example/")],
     True),
    ('<form action="http://f.example/post"><button formaction=http://g.example/>',
     [(T + " action", "http://f.example/post"), (T + " formaction", "http://g.example/")],
     True),
    ('<img srcset="http://s.example/1.png 1x, http://s.example/2.png 2x">',
     [(T + " srcset", "http://s.example/1.png"), (T + " srcset", "http://s.example/2.png")],
     True),
    ('<table><td background="http://b.example/bg.gif">', [(T + " background",
                                                          "http://b.example/bg.gif")], True),
    ('<meta http-equiv="Refresh" content="0; url=http://r.example/">',
     [(T + " refresh content", "http://r.example/")], False),
    ('<meta http-equiv="&#82;efresh" content="0; url=http://r.example/">',
     [(T + " refresh content", "http://r.example/")], False),        # a reference in it
    ('<meta http-equiv="Content-Type" content="text/html; charset=utf-8">http://a.example/',
     [(T, "http://a.example/")], True),
    ("<div style=\"background:url('http://st.example/b.png')\">",
     [(T + " style", "http://st.example/b.png")], True),
    ("<style>p{background:URL(http://st.example/c.png)}</style>",
     [(T + " #style", "http://st.example/c.png")], True),
    ('<base href="http://b.example/d/"><a href="p">x</a>', [(T + " href", "http://b.example/d/p")],
     False),
    ('<a href="http://a.example/?a=1&copy=2">x</a>',      # "&copy" followed by "=": as written
     [(T + " href", "http://a.example/?a=1&copy=2")], False),
    ('<a href="http://a.example/" href="http://b.example/">x</a>',
     [(T + " href", "http://a.example/")], True),                   # a duplicate is dropped
    ('<a href="http:/h.example/">x</a>', [(T + " href", "http://h.example/")], False),
    # text runs with references (§13.2.5.72) at their start, between runs of every
    # length and at their end; one the walk does not know itself (&eacute;) after them
    ("&amp;x http://a.example/?a=1&amp;b=2&amp;&amp;c &lt;http://l.example/&gt;&amp;",
     [(T, "http://a.example/?a=1&b=2&&c"), (T, "http://l.example/")], True),
    ("&lt;&gt; http://a.example/?a=1&amp;b=2 &eacute; http://e.example/p &hellip;",
     [(T, "http://a.example/?a=1&b=2"), (T, "http://e.example/p")], True),
]


def _message(page: str, cte: str) -> bytes:
    body = page.encode() + b"\n"
    if cte == "base64":
        body = base64.encodebytes(body)
    return (FROM_LINE + b"Message-ID: <h5@x>\nContent-Type: text/html; charset=utf-8\n"
            + f"Content-Transfer-Encoding: {cte}\n\n".encode() + body)


def _falls_back(spool: bytes) -> bool:
    walked = mail_walk._prepared(spool, False)[0]
    return bool(walked[2][MSG_FLAGS] & FALLBACK)


def check_case(page: str, expected: list, walked: bool, cte: str) -> None:
    """``page`` in a whole message: both paths agree and find ``expected`` ((part, url)
    pairs), without errors, and the walk reads it itself (``walked``) or falls back."""
    spool = _message(page, cte)
    found, errors = both_agree_on(spool)
    assert [(m.part, m.url) for m in found] == expected
    assert errors == []
    assert _falls_back(spool) is not walked


@pytest.mark.parametrize("cte", ["7bit", "base64"])
@pytest.mark.parametrize("page, expected, walked", CASES)
def test_a_hiding_form_on_a_whole_message(page, expected, walked, cte):
    check_case(page, expected, walked, cte)


def test_an_href_cleaned_as_the_url_standard_does_carries_its_edits():
    spool = _message('<a href=" http:\\\\e.example\\x\t">e</a>', "7bit")
    found, errors = both_agree_on(spool)
    (m,) = found
    assert (m.part, m.url, m.raw) == (T + " href", "http://e.example/x",
                                      ' http:\\\\e.example\\x\t')
    assert {"c0-or-space-stripped", "invalid-reverse-solidus"} <= set(m.edits)


def test_a_crlf_message_reads_its_tags_across_line_ends():
    # mail is CR LF on the wire: "<a\r\nhref=...>" is an <a> (HTML §13.2.3.5)
    spool = _message("<a\r\nhref=http://c.example/\r\n>http://c.example/</a>", "7bit")
    found, _ = both_agree_on(spool)
    assert [(m.part, m.url) for m in found] == [(T + " href", "http://c.example/")]
