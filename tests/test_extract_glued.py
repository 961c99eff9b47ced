"""A word glued to a scheme in running text (issue 12): Google Groups' quoting writes
``wrote in messagenews:...`` and ``Newsbeitragnews:...``, chat text ``can...http://`` and
``site.http://``. When the run of scheme characters is no known scheme but ends in one
(the registry and the IANA list, ``urlsift/text/iana_schemes.txt``), the URL starts at
that scheme; a run that is itself a known scheme stays whole (``tftp`` is not ``ftp``).
Both cores (the autouse fixture); the twins compared directly at the end.

Expected offsets are counted by hand: ``wrote in message`` is 16 characters, so the
``news:`` glued to it starts at 16.
"""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

import urlsift
from urlsift import _select
from urlsift.text.rules import KNOWN, KNOWN_SCHEMES, MAX_LENGTH, MAX_WRAPPER, TABLE


@pytest.mark.parametrize("text, url, start", [
    ("wrote in messagenews:eqv3sc$c6l$1@reader2.panix.com...",
     "news:eqv3sc$c6l$1@reader2.panix.com", 16),
    ("Newsbeitragnews:abc@x.example wrote", "news:abc@x.example", 11),
    ("...an entire house can...http://bit.ly/8yEdeb", "http://bit.ly/8yEdeb", 25),
    ("see site.http://example.com", "http://example.com", 9),
    ("go to myhttps://h.example/", "https://h.example/", 8),        # the longest suffix
    ("abc+ftp://f.example/", "ftp://f.example/", 4),               # after "+"
    ("x-mailto:a@b.example", "mailto:a@b.example", 2),             # after "-"
    ("HeadHTTP://H.EXAMPLE/", "HTTP://H.EXAMPLE/", 4),             # case-insensitive
])
def test_a_glued_word_is_left_out(text, url, start):
    for data in (text, text.encode()):
        got = [(m.url, m.start) for m in urlsift.extract(data)]
        assert got == [(url, start)]


@pytest.mark.parametrize("text, url", [
    ("tftp://h.example/x", "tftp://h.example/x"),     # itself known: not "ftp"
    ("shttp://h.example/", "shttp://h.example/"),     # itself known (IANA): not "http"
    ("foo://h.example/", "foo://h.example/"),         # unknown, ends in nothing known
    ("xws://h.example/", "xws://h.example/"),         # "ws" is too short to be taken
    ("x2http://h.example/", "x2http://h.example/"),   # after a digit: not a glued word
    ("+http://h.example/", "http://h.example/"),      # a scheme starts at a letter anyway
])
def test_what_stays_as_it_is(text, url):
    assert [m.url for m in urlsift.extract(text)] == [url]


def test_a_glued_scheme_without_slashes_is_found_at_all():
    # "messagenews:" was no scheme found without "//", so the URL was lost entirely
    assert [m.scheme for m in urlsift.extract("messagenews:x@y.example")] == ["news"]


def test_the_known_list_holds_the_registry_and_iana():
    for name in ("http", "https", "ftp", "news", "tn3270", "tftp", "xmpp", "z39.50r"):
        assert name in KNOWN_SCHEMES
    assert KNOWN_SCHEMES[:2] == ("http", "https")   # compared first in the compiled walk


words = st.text(alphabet="abhnpstwxe.+-:/@2 ", max_size=40)


@pytest.mark.twins
@given(st.lists(st.sampled_from(["news", "http", "ftp", "message", "x.", "tftp", "://",
                                 ":", "a@b ", " ", "site.", "ws", "Z"]), max_size=12), words)
def test_the_twins_agree_on_glued_words(pieces, noise):
    text = "".join(pieces) + noise
    twins = _select.twins("_scan")
    if len(twins) < 2:
        pytest.skip("the compiled core is not built")
    for data in (text, text.encode()):
        got = [list(m.scan(data, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH))
               for m in twins.values()]
        assert got[0] == got[1]
