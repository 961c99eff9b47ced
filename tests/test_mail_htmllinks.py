"""Links of an HTML part as a mail client shows and follows them (issue 25):
``urlsift.mail.hrefs.clean_href`` (the WHATWG URL Standard's clean-up of a value before
it is parsed) and ``urlsift.mail.htmllinks.html_links`` (the entry point over the HTML
tokenizer core, run on both cores by tests/conftest.py).

Expected values are the URL Standard's basic URL parser (§4.4) and the HTML standard's
rules (attribute index, srcset parsing, the shared declarative refresh steps), worked
out by hand.
"""
from __future__ import annotations

import pytest

from urlsift.mail.hrefs import EDITS, clean_href
from urlsift.mail.htmllinks import html_links, refresh_url, srcset_urls, style_urls

STRIP, TABS, BACKSLASH, SLASHES, RELATIVE = (
    "c0-or-space-stripped", "tab-or-newline-removed", "invalid-reverse-solidus",
    "special-scheme-missing-following-solidus", "relative-with-scheme")


# -- the URL Standard's clean-up ---------------------------------------------------

@pytest.mark.parametrize("value, url, edits", [
    ("http://a.example/", "http://a.example/", ()),
    ("\x00\x1f http://a.example/ \x01", "http://a.example/", (STRIP,)),
    ("http://a.example/a b", "http://a.example/a b", ()),           # inner spaces stay
    ("ht\ttp://a.exa\nmple/p\ra", "http://a.example/pa", (TABS,)),
    (" \tht\ntp://a.example/\n", "http://a.example/", (STRIP, TABS)),
    ("https:\\\\a.example\\b\\c?d\\e#f\\g", "https://a.example/b/c?d\\e#f\\g", (BACKSLASH,)),
    ("https://a.example/p#f\\g?h\\", "https://a.example/p#f\\g?h\\", ()),  # "#" first: as is
    ("foo:\\\\a\\b", "foo:\\\\a\\b", ()),                          # not special: as is
    ("mailto:a\\b@c.example", "mailto:a\\b@c.example", ()),
    ("http:a.example/x", "http://a.example/x", (SLASHES,)),
    ("http:/a.example", "http://a.example", (SLASHES,)),
    ("http:///a.example", "http://a.example", (SLASHES,)),
    ("HTTP:\\/a.example", "HTTP://a.example", (BACKSLASH,)),
    ("wss:a.example", "wss://a.example", (SLASHES,)),
    ("ftp:\\a.example", "ftp://a.example", (BACKSLASH, SLASHES)),
    ("file:\\\\server\\share", "file://server/share", (BACKSLASH,)),
    ("file:/x", "file:/x", ()),                                     # file: no authority added
    ("1http:a", "1http:a", ()),                                     # not a scheme
    ("\\\\evil.example\\x", "\\\\evil.example\\x", ()),             # relative, no base
])
def test_clean_href_as_the_url_standard_reads_it(value, url, edits):
    assert clean_href(value) == (url, edits)
    assert set(edits) <= set(EDITS)


@pytest.mark.parametrize("value, base_scheme, url, edits", [
    ("\\\\evil.example\\x", "https", "//evil.example/x", (BACKSLASH,)),
    ("\\\\evil.example\\x", "mailto", "\\\\evil.example\\x", ()),
    ("http:foo", "http", "foo", (RELATIVE,)),          # special relative or authority state
    ("http:/foo", "HTTP", "/foo", (RELATIVE,)),
    ("http://foo/", "http", "http://foo/", ()),
    ("http:foo", "https", "http://foo", (SLASHES,)),
])
def test_clean_href_against_a_base(value, base_scheme, url, edits):
    assert clean_href(value, base_scheme) == (url, edits)


# -- HTML's own micro-syntaxes ------------------------------------------------------

@pytest.mark.parametrize("value, urls", [
    ("a.png", ["a.png"]),
    ("a.png 1x, b.png 2x", ["a.png", "b.png"]),
    ("a.png,b.png", ["a.png,b.png"]),                  # no space: one URL with a comma
    ("a.png, b.png,", ["a.png", "b.png"]),
    ("a.png (1, 2) 1x, b.png 200w", ["a.png", "b.png"]),
    (" ,, a.png 1x", ["a.png"]),
    ("", []),
])
def test_srcset_candidates(value, urls):
    assert srcset_urls(value) == urls


@pytest.mark.parametrize("content, url", [
    ("0; url=http://r.example/", "http://r.example/"),
    ("0;URL = 'http://r.example/x' y", "http://r.example/x"),
    ('5, "http://r.example/"', "http://r.example/"),
    ("0 http://r.example/", "http://r.example/"),
    ("1.5; url=http://r.example/", "http://r.example/"),
    ("0; urn:x", "urn:x"),                      # "u" then not "rl": the rest as it is
    ("0", None), ("0;", None), ("x; url=http://r.example/", None), ("0x", None),
])
def test_refresh_url(content, url):
    assert refresh_url(content) == url


def test_style_urls():
    css = "a{background:url(http://a.example/1)} b{x:URL( \"http://a.example/2\" )}" \
          " @import 'http://a.example/3'; c{x:url(url(}"
    assert style_urls(css) == ["http://a.example/1", "http://a.example/2", "http://a.example/3",
                               "url"]


# -- the entry point, on both cores ---------------------------------------------------

def _links(html: bytes) -> list[tuple[str, bytes]]:
    return [(x.field, x.value) for x in html_links(html) if x.field != "#text"]


@pytest.mark.parametrize("html, field", [
    (b'<form action="U">', "action"), (b"<button formaction=U>", "formaction"),
    (b"<td background='U'>", "background"), (b'<area href="U">', "href"),
    (b"<svg><a xlink:href='U'>", "xlink:href"), (b'<video poster="U">', "poster"),
    (b'<q cite="U">', "cite"), (b'<img longdesc="U">', "longdesc"),
    (b'<object data="U">', "data"), (b'<p style="background: url(U)">', "style"),
    (b"<style>p{background:url('U')}</style>", "#style"),
    (b'<meta http-equiv="refresh" content="0; url=U">', "refresh content"),
    (b'<base href="U">', "base href"),
])
def test_every_url_attribute_gives_its_url(html, field):
    assert _links(html.replace(b"U", b"http://u.example/x")) == \
        [(field, b"http://u.example/x")]


def test_srcset_and_ping_give_every_url():
    got = _links(b'<img srcset="http://a.example/1 1x, http://a.example/2 2x">'
                 b'<a ping="http://p.example/1 http://p.example/2">')
    assert got == [("srcset", b"http://a.example/1"), ("srcset", b"http://a.example/2"),
                   ("ping", b"http://p.example/1"), ("ping", b"http://p.example/2")]


@pytest.mark.parametrize("hide", [b"<!-->", b"<!--->", b"<!-- x --!>", b"<title><!--</title>",
                                  b"<textarea><!--</textarea>", b"<xmp><!--</xmp>",
                                  b"<iframe><!--</iframe>", b"<noembed><!--</noembed>"])
def test_the_link_after_an_html5_comment_end_is_found(hide):
    assert ("href", b"http://after.example/") in _links(
        hide + b'<a href="http://after.example/">x</a>-->')


def test_an_href_is_read_as_the_browser_reads_it_and_keeps_its_raw_value():
    (link,) = html_links(b'<a href="&#9; http:\\\\evil.example\\a\r\nb ">')
    assert link.value == b"http://evil.example/ab"
    assert link.raw == b"&#9; http:\\\\evil.example\\a\r\nb "
    assert link.edits == (STRIP, TABS, BACKSLASH)


def test_references_outside_the_fast_set_are_not_mojibake():
    page = "<p>http://bü.example/é&nbsp;&eacute;&copy;</p>".encode("utf-8")
    (text,) = [x.value for x in html_links(page) if x.field == "#text"]
    assert text == "http://bü.example/é\u00a0é©".encode("utf-8")
    assert "Ã".encode("utf-8") not in text


def test_a_value_of_the_bases_own_scheme_is_relative_to_it():
    got = html_links(b'<a href="https:x"></a><base href="https://b.example/d/">')
    assert [(x.field, x.value, x.edits) for x in got] == [
        ("href", b"x", (RELATIVE,)), ("base href", b"https://b.example/d/", ())]


def test_not_utf8_octets_go_through_unchanged():
    (link,) = html_links(b'<a href="http://a.example/\xe9">')
    assert link.value == b"http://a.example/\xe9"
