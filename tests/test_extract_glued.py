"""Schemes and the words around them in running text (issues 12 and 21).

RFC 1738 §2.1 and §5 make ``+ - .`` scheme characters, so the run of scheme characters
before a colon is the scheme whole: ``git+https://``, ``svn+ssh://``, ``x-coredata://``
stay as written, a scheme that is not registered is never cut into a registered one.
Two exceptions, each for what real text does: prose's ellipsis (``can...http://``: no
scheme has ``..``), and Google Groups' quoting, which glues a word to ``news:``
(``wrote in messagenews:<id>``) — kept only where what follows the colon is a news URL
by §5's ``grouppart``. No other scheme is taken from inside a word: ``Makefile:123``,
``pidfile:/run/x.pid``, ``profile:default`` are no ``file:`` URLs (§3.10: file wants a
path). Both cores (the autouse fixture); the twins compared directly at the end.

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
     "news:eqv3sc$c6l$1@reader2.panix.com", 16),              # §5 article: ... "@" host
    ("Newsbeitragnews:abc@x.example wrote", "news:abc@x.example", 11),
    ("in messagenews:comp.lang.c, Jim", "news:comp.lang.c", 10),    # §5 group
    ("see messagenews:* for all", "news:*", 11),                     # §5 grouppart "*"
    ("Contactmailto:jim@x.example", "mailto:jim@x.example", 7),      # an RFC 822 address
    ("...an entire house can...http://bit.ly/8yEdeb", "http://bit.ly/8yEdeb", 25),
])
def test_a_glued_word_is_left_out(text, url, start):
    for data in (text, text.encode()):
        got = [(m.url, m.start) for m in urlsift.extract(data)]
        assert got == [(url, start)]


@pytest.mark.parametrize("text, url", [
    ("git+https://github.com/a/b", "git+https://github.com/a/b"),   # §5: + is a scheme char
    ("svn+ssh://svn.example/repo", "svn+ssh://svn.example/repo"),
    ("bzr+ssh://b.example/x", "bzr+ssh://b.example/x"),
    ("x-coredata://1F3A/Entity/p1", "x-coredata://1F3A/Entity/p1"),  # not "data://"
    ("see site.http://example.com", "site.http://example.com"),     # "." is one too
    ("abc+ftp://f.example/", "abc+ftp://f.example/"),
    ("go to myhttps://h.example/", "myhttps://h.example/"),          # letters: one word
    ("HeadHTTP://H.EXAMPLE/", "HeadHTTP://H.EXAMPLE/"),
    ("tftp://h.example/x", "tftp://h.example/x"),     # itself known: not "ftp"
    ("shttp://h.example/", "shttp://h.example/"),     # itself known (IANA): not "http"
    ("foo://h.example/", "foo://h.example/"),         # unknown, ends in nothing known
    ("x2http://h.example/", "x2http://h.example/"),
    ("+http://h.example/", "http://h.example/"),      # a scheme starts at a letter anyway
    ("3com://h.example/", "com://h.example/"),
])
def test_a_run_of_scheme_characters_is_never_split(text, url):
    for data in (text, text.encode()):
        assert [m.url for m in urlsift.extract(data)] == [url]


@pytest.mark.parametrize("text", [
    "make: *** [Makefile:123: all] Error 2",        # not file:123
    "pidfile:/run/sshd.pid",                        # not file:/run/sshd.pid
    "profile:default",                              # not file:default
    "CCFile::captureLog(std::string)",              # not File::captureLog
    "File::Spec->catfile",                          # Perl: file wants a path
    "jar:file:/D:/x.jar!/a",                        # jar is no URL scheme we find bare
    "x-mailto:a@b.example",                         # "-" binds: the scheme is x-mailto
    "snews:comp.lang.c",                            # itself known (IANA): not news
    "hackernews:12345",                             # §5: a group starts with a letter
    "Technews:",                                    # nothing after the colon
    "xmailto:bob",                                  # no address
    "humid:80% return:0 turn:left",                 # mid, urn, cid are never glued
    "Work mailto:ada\u00b7\u00b7.@ge\u00b7\u00b7m.com",  # an archive's obfuscation: no
    "mailto:webmaster for help",                    # address with its "@" (§3.5, RFC 822)
])
def test_no_url_is_made_of_a_word_that_ends_in_a_scheme(text):
    for data in (text, text.encode()):
        assert [m.url for m in urlsift.extract(data)] == []


@pytest.mark.parametrize("text, url", [
    ("file:///etc/motd", "file:///etc/motd"),        # §3.10
    ("file:/etc/motd", "file:/etc/motd"),            # RFC 8089's short form, kept
    ("news:comp.infosystems.www", "news:comp.infosystems.www"),
    ("Email:mailto:bob@x.example", "mailto:bob@x.example"),   # "email" is no scheme
    ("mailto:?to=a@b.example&subject=x", "mailto:?to=a@b.example&subject=x"),
    ("<mailto:webmaster>", "mailto:webmaster"),     # a wrapper says where it is: kept
])
def test_slashless_schemes_standing_alone_are_found(text, url):
    assert [m.url for m in urlsift.extract(text)] == [url]


@pytest.mark.parametrize("text, spans", [
    # the walk back from the colon stops at a letter: the run is no name ("pidfile"),
    # and with no glued scheme (news, mailto) read, nothing is found (issue 27's shortcut)
    ("pidfile:/run/x.pid Dockerfile:1 logfile:none", []),
    ("a.file:/etc/motd", []),                       # §5: "." binds, the scheme is a.file
    # where it stops at no letter, the run is read whole as before
    ("1file:/etc/motd", [(1, 15)]),                 # a scheme starts at a letter: file
    ("x 9news:comp.lang.c", [(3, 19)]),
    # a glued scheme read: the word is looked at (news glued to "hot")
    ("hotnews:comp.lang.c", [(3, 19)]),
])
def test_a_word_ending_in_a_scheme_is_decided_where_the_walk_back_stops(text, spans):
    for data in (text, text.encode()):
        assert [(m.start, m.end) for m in urlsift.extract(data)] == spans


def test_a_walk_back_stopped_by_the_last_match_reads_the_name_whole(core_kind):
    # URLs cut at 5 characters after the colon (TRUNCATED): "http://abc" ends at 10,
    # right before "file:"; the letter "c" before "file" belongs to that match, so the
    # run after it is "file", whole, and a URL of its own (§3.10, a path): "file:/etc/"
    from urlsift._layout import TRUNCATED
    text = b"http://abcfile:/etc/motd"
    got = list(_select.cores.scan.scan(text, 0, -1, TABLE, KNOWN, MAX_WRAPPER, 5))
    assert got == [0, 10, TRUNCATED, 10, 20, TRUNCATED]


def test_a_glued_scheme_without_slashes_is_found_at_all():
    # "messagenews:" was no scheme found without "//", so the URL was lost entirely
    assert [m.scheme for m in urlsift.extract("messagenews:x@y.example")] == ["news"]


def test_the_known_list_holds_the_registry_and_iana():
    for name in ("http", "https", "ftp", "news", "tn3270", "tftp", "xmpp", "z39.50r"):
        assert name in KNOWN_SCHEMES
    assert KNOWN_SCHEMES[:2] == ("http", "https")   # compared first in the compiled walk


words = st.text(alphabet="abhnpstwxe.+-:/@2*_<> ", max_size=40)


@pytest.mark.twins
@given(st.lists(st.sampled_from(["news", "http", "ftp", "message", "x.", "tftp", "://",
                                 ":", "a@b ", " ", "site.", "ws", "Z", "file", "Make",
                                 "mailto", "jar", "..", "/", "url", "<", "snews"]),
                max_size=12), words)
def test_the_twins_agree_on_glued_words(pieces, noise):
    text = "".join(pieces) + noise
    twins = _select.twins("_scan")
    if len(twins) < 2:
        pytest.skip("the compiled core is not built")
    for data in (text, text.encode()):
        got = [list(m.scan(data, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH))
               for m in twins.values()]
        assert got[0] == got[1]
