"""extract(): the rules of docs/design.md#extraction-from-text, RFC 1738's appendix
"Recommendations for URLs in Context" and draft-ietf-uri-url-03's "Wrappers for URIs
in plain text". Every test runs on both cores (conftest)."""
from __future__ import annotations

import importlib
import mmap
import pickle

import pytest
from hypothesis import example, given, strategies as st

from urlsift import Match, extract, scan

# the module, not the function the package root may re-export under the same name
ex = importlib.import_module("urlsift.text.extraction")
rules = importlib.import_module("urlsift.text.rules")


def urls(text, **kw):
    return [m.url for m in extract(text, **kw)]


# ---- the examples of the specification documents --------------------------------

# RFC 1738 appendix, the example paragraph with its URLs broken across lines as in
# the document (the text file has lost the layout; the breaks are where it has spaces).
RFC1738_EXAMPLE = (
    "Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;\n"
    "type=d> but you can probably pick it up from <URL:ftp://ds.in\n"
    "ternic.net/rfc>. Note the warning in <URL:http://ds.internic.\n"
    "net/instructions/overview.HTM#WARNING>.\n"
)


def test_rfc1738_appendix_example_gives_exactly_its_urls():
    # "The whitespace should be ignored when extracting the URL."
    ms = list(extract(RFC1738_EXAMPLE))
    assert [m.url for m in ms] == [
        "ftp://info.cern.ch/pub/www/doc;type=d",
        "ftp://ds.internic.net/rfc",
        "http://ds.internic.net/instructions/overview.HTM#WARNING",
    ]
    assert all(m.wrapped and not m.hyphen_break for m in ms)
    assert [RFC1738_EXAMPLE[m.start:m.end] for m in ms] == [m.raw for m in ms]
    assert ms[0].raw == "<URL:ftp://info.cern.ch/pub/www/doc;\ntype=d>"
    assert ms[0].edits == (rules.EDIT_WRAPPER, rules.EDIT_WHITESPACE)


def test_the_brief_wording_of_the_example_too():
    text = ("Yes, Jim, I found it under <URL:ftp://info.cern.ch/pub/www/doc;type=d>\n"
            "but you can probably pick it up from <URL:ftp://ds.internic.net/rfcs>.\n"
            "Note the warning in <URL:http://ds.internic.net/instructions/overview.html#WARNING>.")
    assert urls(text) == ["ftp://info.cern.ch/pub/www/doc;type=d", "ftp://ds.internic.net/rfcs",
                          "http://ds.internic.net/instructions/overview.html#WARNING"]


def test_draft03_plain_text_wrapper_example():
    # draft-ietf-uri-url-03 "Wrappers for URIs in plain text": angle brackets alone
    text = ("Yes, Jim, I found it under <ftp://ftp.w3.org/pub/www/doc> but\n"
            "    you can probably pick it up from <ftp://ds.internic.net/rfc>.\n")
    ms = list(extract(text))
    assert [m.url for m in ms] == ["ftp://ftp.w3.org/pub/www/doc", "ftp://ds.internic.net/rfc"]
    assert [m.edits for m in ms] == [(rules.EDIT_WRAPPER,), (rules.EDIT_WRAPPER,)]


def test_draft03_reference_with_spaces_inside_the_wrapper():
    # white space inside a wrapper is not part of the URL (RFC 1738 appendix)
    text = "See also <gopher://gopher.micro.umn.edu/00/Information About Gopher/About Gopher>"
    assert urls(text) == ["gopher://gopher.micro.umn.edu/00/InformationAboutGopher/AboutGopher"]


def test_rfc1738_reference_broken_before_a_slash():
    text = "July 1993. <URL:ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol\n /Gopher+/Gopher+.txt> [3]"
    assert urls(text) == ["ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt"]


def test_hyphen_at_a_line_break_is_flagged():
    # RFC 1738 appendix: "the hyphen may or may not actually be part of the URL"
    (m,) = extract("<URL:http://www.example.com/long-\n    name.html>")
    assert m.url == "http://www.example.com/long-name.html"
    assert m.hyphen_break
    (m,) = extract("<URL:http://www.example.com/long\n    -name.html>")
    assert not m.hyphen_break


def test_nothing_inside_a_wrapper_is_trimmed():
    assert urls("<http://x.example/a.>") == ["http://x.example/a."]
    assert urls("<URL:http://x.example/f(1)).>") == ["http://x.example/f(1))."]


def test_wrapper_and_prefix_accept_any_scheme_inside():
    # "<URL:" says it is a URL (RFC 1738 appendix), so no known-scheme rule applies
    assert urls("<URL:foo:bar> and URL:x-y:z.") == ["foo:bar", "x-y:z"]
    (m,) = extract("see URL:http://a.example/x")
    assert (m.url, m.raw, m.start, m.edits) == ("http://a.example/x", "URL:http://a.example/x", 4,
                                                (rules.EDIT_PREFIX,))
    assert urls("<mailto:joe@example.com>") == ["mailto:joe@example.com"]


def test_a_wrapper_is_not_joined_across_a_blank_line():
    # a blank line ends the paragraph: the wrapper is not one, the bare URL stands
    assert urls("<http://a.example/x\n\nmore text>") == ["http://a.example/x"]


def test_not_wrappers():
    assert urls("<xsl:template match='x'> <a:b> <URL:> <URL:http://> <http://>") == []
    assert urls("<Note: this>") == []


# ---- bare URLs ------------------------------------------------------------------------

COMBINED_LOG = (
    '203.0.113.9 - - [10/Oct/2000:13:55:36 -0700] "GET /apache_pb.gif HTTP/1.0" 200 2326 '
    '"http://www.example.com/start.html" "Mozilla/4.08 [en] (Win98; I ;Nav)"\n'
    '66.249.66.1 - - [10/Oct/2000:13:56:01 -0700] "GET /robots.txt HTTP/1.1" 404 0 "-" '
    '"Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)"\n'
)


def test_combined_log_format():
    ms = list(extract(COMBINED_LOG))
    assert [m.url for m in ms] == ["http://www.example.com/start.html", "http://www.google.com/bot.html"]
    # "+http://" in the user agent: the scheme starts at a letter; ")" has no partner
    assert ms[1].raw == "http://www.google.com/bot.html)"
    assert ms[1].edits == (rules.EDIT_TRIMMED,)
    assert COMBINED_LOG[ms[1].start - 1] == "+"


def test_prose_colons_are_not_urls():
    text = ("Note: see below. At 10:23:45 we copied C:\\path\\file to D:/x; ratio 3:1.\n"
            "Re: meeting, Subject: hi, ISBN:123, http: alone, http:// alone, mailto: alone.")
    assert urls(text) == []


def test_known_schemes_without_slashes_and_others_not():
    text = ("mailto:joe@example.com news:comp.infosystems.www mid:960830.1639@xyz.com "
            "cid:foo4*foo1@bar.net urn:isbn:096139210x file:/etc/passwd gopher:x telnet:y ftp:z")
    assert urls(text) == ["mailto:joe@example.com", "news:comp.infosystems.www",
                          "mid:960830.1639@xyz.com", "cid:foo4*foo1@bar.net", "urn:isbn:096139210x",
                          "file:/etc/passwd"]


def test_any_scheme_with_slashes_and_case_insensitive():
    assert urls("x-foo://bar and HTTP://WWW.EXAMPLE.COM/A MailTo:a@b") == [
        "x-foo://bar", "HTTP://WWW.EXAMPLE.COM/A", "MailTo:a@b"]
    assert urls("+http://a.example 1http://b.example") == ["http://a.example", "http://b.example"]


# non-ASCII: what is no letter, digit or mark (an IRI's letters go on: test_extract_iri)
@pytest.mark.parametrize("ender", [" ", "\t", "\n", "\x00", "\x7f", "\u203e", "\u2026", "\u3002",
                                   "\u00a0", "<", ">", '"', "{", "}", "|", "\\", "^", "`"])
def test_what_ends_a_bare_url(ender):
    assert urls(f"http://a.example/x{ender}y") == ["http://a.example/x"]


@pytest.mark.parametrize("kept", ["~", "[", "]", "#", "%", "'", "(", ")", "*", "$", "@", "="])
def test_what_does_not_end_a_bare_url(kept):
    assert urls(f"http://a.example/x{kept}y") == [f"http://a.example/x{kept}y"]


@pytest.mark.parametrize("punct", list(".,;:!?'"))
def test_trailing_punctuation_is_trimmed(punct):
    (m,) = extract(f"at http://a.example/x{punct}{punct} next")
    assert m.url == "http://a.example/x"
    assert m.raw == f"http://a.example/x{punct}{punct}"
    assert m.edits == (rules.EDIT_TRIMMED,)


def test_parentheses_inside_and_around():
    text = ("(see http://en.wikipedia.org/wiki/Foo_(bar)) and [http://a.example/b] "
            "(http://a.example/c). f(http://a.example/d(e)f)")
    assert urls(text) == ["http://en.wikipedia.org/wiki/Foo_(bar)", "http://a.example/b",
                          "http://a.example/c", "http://a.example/d(e)f"]


def test_no_joining_across_a_line_break_outside_a_wrapper():
    assert urls("http://a.example/long-\npath") == ["http://a.example/long-"]


def test_offsets_are_characters_for_str_and_octets_for_bytes():
    text = "é日 http://a.example/ü"
    (s,) = extract(text)
    (b,) = extract(text.encode("utf-8"))
    assert (s.start, s.end, s.url) == (3, 21, "http://a.example/ü")
    assert (b.start, b.end, b.url) == (6, 25, "http://a.example/ü")     # ü: 2 octets
    assert isinstance(b.url, str) and isinstance(b.raw, str)


def test_buffer_types(tmp_path):
    data = COMBINED_LOG.encode("ascii")
    expected = list(extract(data))
    assert list(extract(bytearray(data))) == expected
    assert list(extract(memoryview(data))) == expected
    p = tmp_path / "log"
    p.write_bytes(data)
    with open(p, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        assert list(extract(mm)) == expected
    with pytest.raises(TypeError):
        list(extract(42))


def test_scan_gives_raw_triples():
    arr = scan(b"<URL:http://a/\n b> http://c/d.")
    assert arr.typecode == "q"
    assert list(arr) == [0, 18, rules.WRAPPED | rules.PREFIX | rules.WHITESPACE,
                         19, 30, 1 << rules.TRIM_SHIFT]


def test_long_url_is_cut_and_flagged(monkeypatch):
    monkeypatch.setattr(ex, "MAX_LENGTH", 10)
    (m,) = extract("http://abcdefghijklmnop x")
    assert m.url == "http://abcdefgh"         # "//abcdefgh": 10 characters after the colon
    assert rules.EDIT_TRUNCATED in m.edits


def test_schemes_option():
    text = "http://a ftp://b HTTP://c mailto:d@e"
    assert urls(text, schemes=["http"]) == ["http://a", "HTTP://c"]
    assert urls(text, schemes="FTP") == ["ftp://b"]


def test_valid_option_checks_its_argument():
    with pytest.raises(ValueError, match="valid"):
        extract("http://a", valid="yes")


def test_valid_option_keeps_only_valid_urls():
    pytest.importorskip("urlsift.model.parsing")
    text = "http://www.example.com/ok http://999.999.999.999:99999/ x-y://a%zz"
    assert urls(text) == ["http://www.example.com/ok", "http://999.999.999.999:99999/", "x-y://a%zz"]
    # RFC 1738 §5 and the lenient list of docs/design.md#strict-and-lenient
    assert urls(text, valid="strict") == ["http://www.example.com/ok"]
    lenient = urls(text, valid="lenient")
    assert "x-y://a%zz" in lenient            # malformed escapes kept literally
    assert "http://999.999.999.999:99999/" not in lenient


def test_match_parse_is_lenient():
    parsing = pytest.importorskip("urlsift.model.parsing")
    (m,) = extract("see HTTP://Example.COM/a")
    assert m.parse() == parsing.parse("HTTP://Example.COM/a", strict=False)


# ---- Match --------------------------------------------------------------------------

def test_match_is_immutable_hashable_and_picklable():
    (m,) = extract("go to http://a.example/x.")
    with pytest.raises(AttributeError):
        m.url = "x"
    assert not hasattr(m, "__dict__")
    assert pickle.loads(pickle.dumps(m)) == m
    assert hash(m) == hash(pickle.loads(pickle.dumps(m)))
    assert m.scheme == "http" and m.line is None
    assert repr(m).startswith("Match(url='http://a.example/x'")


# ---- properties -----------------------------------------------------------------------

PIECES = ["http://", "HTTP://", "mailto:", "<URL:", "<", ">", "URL:", "a", "b.c", "/", ":", " ",
          "\n", "-\n", ".", ")", "(", "]", "'", '"', "é", "\x00", "x@y", "#f", "%20"]
texts = st.lists(st.sampled_from(PIECES), max_size=30).map("".join)


@given(texts)
def test_raw_is_the_span_and_url_is_clean(text):
    prev_end = 0
    for m in extract(text):
        assert text[m.start:m.end] == m.raw
        assert m.start >= prev_end                    # in order, never overlapping
        prev_end = m.end
        assert m.url.isprintable()
        assert m.url.isascii() == ("non-ascii" not in m.edits)   # IRI letters are said
        assert not any(c.isspace() for c in m.url)
        assert ":" in m.url
        if not m.wrapped:
            assert m.url in m.raw
    assert list(extract(text.encode("utf-8"))) == [
        Match(m.url, len(text[:m.start].encode()), len(text[:m.end].encode()), m.raw, m.wrapped,
              m.hyphen_break, m.edits) for m in extract(text)]


# ---- extract() scans in pieces (urlsift.text.files.scan_buffer): the pieces change nothing -----

_PIECES = ["http://", "mailto:", "<URL:", "<", ">", "URL:", "a", "b.c", "/", ":", " ", "\n",
           "-\n ", ".", ")", "(", "x@y", "\x00", "é", "日", '"', "\n\n"]
_texts = st.lists(st.sampled_from(_PIECES), max_size=60).map("".join)


@given(_texts, st.integers(1, 40))
@example("<URL:http://a.example/\n http://b.example/> x", 1)   # a URL-like inside a wrapper
@example("<http://a.example/x-\n\n http://b.example/> y", 3)  # not a wrapper: two bare URLs
def test_pieces_give_the_one_pass_matches(text, block):
    # RFC 1738 appendix: a URL is found whole wherever the buffer is cut (split points are
    # line ends and URL enders, never inside a URL or a wrapper's scheme)
    from urlsift.text.files import scan_buffer
    for buf in (text, text.encode("utf-8")):
        n = len(buf)
        one_pass = list(ex.scan(buf))
        got = [x for ms in scan_buffer(buf, n, block) for m in ms for x in (m.start, m.end)]
        assert got == [v for i, v in enumerate(one_pass) if i % 3 != 2]


def test_extract_beyond_one_piece_is_the_one_pass_result():
    # a buffer of several pieces (PIECE_SIZE each): wrappers broken across lines,
    # bare URLs with trimmed punctuation, every match once, in order
    from urlsift.text.files import PIECE_SIZE
    line = "x <URL:http://h.example/a-\n b> and http://e.example/p. ok\n"
    text = line * (3 * PIECE_SIZE // len(line))
    ms = list(extract(text))
    assert len(ms) == 2 * text.count(line)
    assert {m.url for m in ms} == {"http://h.example/a-b", "http://e.example/p"}
    assert [m.start for m in ms] == sorted(m.start for m in ms)
    assert all(text[m.start:m.end] == m.raw for m in ms)


# ---- silent cuts: a bare URL ended by a character glued to it says so ------------------

@pytest.mark.parametrize("text, url, edits", [
    # an archive turned "~" into U+203E OVERLINE: the URL goes on, but not for us
    ("see http://www.missouri.edu/\u203ec592073 now", "http://www.missouri.edu/",
     ("cut-at-non-ascii",)),
    ("http://a.example/x{y} ", "http://a.example/x", ("cut-at-unsafe",)),
    ("http://a.example/x|y", "http://a.example/x", ("cut-at-unsafe",)),
    ('"http://a.example/x" ', "http://a.example/x", ()),        # a quote delimits
    ("http://a.example/x y", "http://a.example/x", ()),          # white space delimits
    ("http://a.example/x.\u2026", "http://a.example/x", ("punctuation-trimmed",)),  # not glued
    ("<http://a.example/x>", "http://a.example/x", ("wrapper-removed",)),
])
def test_a_glued_character_that_ends_a_url_is_reported(text, url, edits):
    for buf in (text, text.encode("utf-8")):
        (m,) = list(extract(buf))
        assert (m.url, m.edits) == (url, edits)


def test_extract_says_what_it_takes():
    with pytest.raises(TypeError, match="str or a bytes-like object.*not NoneType"):
        list(extract(None))
    assert [m.url for m in extract(bytearray(b"at http://a.example/"))] == ["http://a.example/"]


def test_dir_shows_no_typing_helpers():
    import urlsift
    assert not {"TYPE_CHECKING", "annotations"} & set(dir(urlsift))


@pytest.mark.parametrize("text, urls", [
    # Markdown's [text](target): a "](" that closes no "[" of the URL ends it
    ("[http://a.example/](http://a.example/)", ["http://a.example/", "http://a.example/"]),
    ("see [http://a.example/x](https://b.example/y).",
     ["http://a.example/x", "https://b.example/y"]),
    ("[docs](http://a.example/wiki/Foo_(bar))", ["http://a.example/wiki/Foo_(bar)"]),
    # a "[" of the URL's own is closed by its "]": IPv6 literals, PHP's a[]=1
    ("http://[2001:db8::1]:80/x", ["http://[2001:db8::1]:80/x"]),
    ("http://a.example/?a[](b)", ["http://a.example/?a[](b)"]),
])
def test_markdown_link_text_and_target_are_two_urls(text, urls):
    for data in (text, text.encode()):
        got = list(extract(data))
        assert [m.url for m in got] == urls
        assert all("cut-at-unsafe" not in m.edits for m in got)


@pytest.mark.parametrize("text, url", [
    # a URL in HTML-escaped text: the ";" that closes a character reference is the URL's
    ("see http://google.com/search?q=&lt;html&gt; here", "http://google.com/search?q=&lt;html&gt;"),
    ("http://a.example/x?a=1&amp;b=2&amp;.", "http://a.example/x?a=1&amp;b=2&amp;"),
    ("http://a.example/&#62;", "http://a.example/&#62;"),
    # any other trailing ";" is a sentence's (RFC 1738 appendix: punctuation trimmed)
    ("call http://a.example/b?x=1&y=2; then", "http://a.example/b?x=1&y=2"),
    ("http://a.example/x;", "http://a.example/x"),
    ("http://a.example/&x;", "http://a.example/&x"),     # one letter: no reference
])
def test_the_semicolon_of_a_character_reference_is_kept(text, url):
    for data in (text, text.encode()):
        assert [m.url for m in extract(data)] == [url]
