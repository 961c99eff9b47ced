"""Reply quotes inside a wrapper, joined without ``--quoted`` (issue 12).

The March 1994 mail to the URI working group (spec/003_b77cd442327a0195.txt, lines
2114-2134: a diff whose "> " lines quote the new draft) wraps two URLs over quoted
lines; before, the quote's ">" ended the wrapper and ``ftp://info.cer`` came out. A
``>`` first on a line inside an open wrapper is a quote prefix when that line goes on
to the wrapper's own ``>`` (docs/decisions-extract.md). Both cores.
"""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

import urlsift
from urlsift import _select
from urlsift.text.rules import KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE

SPEC_MAIL = (
    b">                 Yes, Jim, I found it under <ftp://info.cern.ch/pub> bu\n"
    b"> t\n"
    b">                 you can probably pick it up from <ftp://ds.internic.ne\n"
    b"> t/rfc>.\n"
    b"---\n"
    b">                          December 1991, \n"
    b">                          <ftp://info.cer\n"
    b">                          n.ch/pub/www/doc/http-spec.txt> \n"
)


@pytest.mark.parametrize("as_str", [False, True])
def test_the_spec_mail(as_str):
    data = SPEC_MAIL.decode() if as_str else SPEC_MAIL
    got = [(m.url, m.edits) for m in urlsift.extract(data)]
    joined = ("wrapper-removed", "whitespace-removed", "quote-prefixes-removed")
    assert got == [("ftp://info.cern.ch/pub", ("wrapper-removed",)),
                   ("ftp://ds.internic.net/rfc", joined),
                   ("ftp://info.cern.ch/pub/www/doc/http-spec.txt", joined)]


def test_the_raw_span_keeps_the_prefix_and_the_hyphen_break_is_seen():
    m, = urlsift.extract("<URL:http://x.example/very-\n>> long> b")
    assert m.raw == "<URL:http://x.example/very-\n>> long>"
    assert m.url == "http://x.example/very-long" and m.hyphen_break


@pytest.mark.parametrize("text, url", [
    ("<http://a.example/x\n> more text here", "http://a.example/x"),   # no ">" on that line
    ("<http://a.example/x\n>\n> y>", "http://a.example/x"),            # an empty quote line
    ("<http://a.example/x\n> \n> y>", "http://a.example/x"),           # a blank one
    ("<http://a.example/x> next\n> y>", "http://a.example/x"),         # closed already
])
def test_what_is_not_joined(text, url):
    assert [m.url for m in urlsift.extract(text)] == [url]


@pytest.mark.twins
@given(st.lists(st.sampled_from(["<", ">", "> ", ">>", "\n", " ", "http://a.example/",
                                 "<URL:", "x", "-", "\n> "]), max_size=20))
def test_the_twins_agree(pieces):
    twins = _select.twins("_scan")
    if len(twins) < 2:
        pytest.skip("the compiled core is not built")
    text = "".join(pieces)
    for data in (text, text.encode()):
        got = [list(m.scan(data, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH))
               for m in twins.values()]
        assert got[0] == got[1]
