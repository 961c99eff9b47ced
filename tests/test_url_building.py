"""Building and changing URLs as yarl and ``urllib.parse`` users expect: ``replace`` and
``with_*`` give a new URL of the same scheme, parsed again; ``build`` makes one from its
parts; ``search_pairs`` reads the search; URLs sort by their equivalence key; calling a
URL class says to use ``parse``. Both cores (the autouse fixture).

Expected texts are worked out from RFC 1738: §3.1 (``scheme://user:password@host:port/
url-path``; ":", "@" and "/" encoded in user and password), §2.2 (unsafe characters such
as space encoded), §5 (hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ]).
"""
from __future__ import annotations

import gc
import pickle

import pytest
from hypothesis import given, strategies as st

import urlsift
from urlsift import FtpURL, HttpURL, URLSyntaxError, parse


# ---- replace / with_* --------------------------------------------------------------

@pytest.mark.parametrize("change, expected", [
    (dict(host="other.example"), "http://other.example/a/b?q=1#f"),
    (dict(port=8080), "http://h.example:8080/a/b?q=1#f"),
    (dict(path="/new dir/x;y=1"), "http://h.example/new%20dir/x;y=1?q=1#f"),
    (dict(path="rel"), "http://h.example/rel?q=1#f"),             # §3.1: "/" before url-path
    (dict(search="a b=c"), "http://h.example/a/b?a%20b=c#f"),
    (dict(search=[("q", "a&b"), ("x", "=")]), "http://h.example/a/b?q=a%26b&x=%3D#f"),
    (dict(search=None), "http://h.example/a/b#f"),
    (dict(fragment=None, path=None, search=None), "http://h.example"),
    (dict(fragment="sec 2"), "http://h.example/a/b?q=1#sec%202"),
    (dict(path="/%7Ex", encoded=True), "http://h.example/%7Ex?q=1#f"),
])
def test_replace_http(change, expected):
    u = parse("http://h.example/a/b?q=1#f")
    got = u.replace(**change)
    assert str(got) == expected and type(got) is HttpURL
    assert str(u) == "http://h.example/a/b?q=1#f"                # the original unchanged


def test_replace_login_encodes_what_section_3_1_says():
    u = parse("ftp://h.example/pub/f.txt;type=i")
    got = u.replace(user="me@home", password="p:w/x")
    assert str(got) == "ftp://me%40home:p%3Aw%2Fx@h.example/pub/f.txt;type=i"
    assert (got.user, got.password, got.typecode) == ("me@home", "p:w/x", "i")
    assert str(got.replace(user=None, password=None)) == "ftp://h.example/pub/f.txt;type=i"
    # one at a time: without a user, a password still needs the login's ":" -- an empty user
    assert got.with_user(None).user == ""


def test_with_methods_are_replace():
    u = parse("http://h.example/a")
    assert u.with_host("x.example") == u.replace(host="x.example")
    assert str(u.with_port(81).with_path("/b").with_search([("k", "v")]).with_fragment("t")) == \
        "http://h.example:81/b?k=v#t"
    assert str(u.with_port(81).with_port(None)) == "http://h.example/a"


def test_a_bad_part_is_reported_with_its_position_and_code():
    u = parse("http://h.example/")
    with pytest.raises(URLSyntaxError) as exc:      # §3.3: a search follows a path's "/"
        parse("http://h.example/a?q=1").replace(path=None)
    assert exc.value.code == "search-without-path"
    with pytest.raises(URLSyntaxError) as exc:
        u.replace(host="a b.example")
    assert exc.value.code == "bad-host" and exc.value.position == 8
    with pytest.raises(URLSyntaxError) as exc:
        u.replace(port=70000)
    assert exc.value.code == "bad-port"
    with pytest.raises(TypeError, match="no part 'query'"):
        u.replace(query="x")                # RFC 1738 calls it the search


def test_replace_keeps_the_strictness_of_the_original():
    lenient = parse("http://h.example/~x", strict=False)       # "~" is unsafe (§2.2)
    assert str(lenient.with_port(81)) == "http://h.example:81/~x"
    with pytest.raises(URLSyntaxError):
        parse("http://h.example/").replace(path="/~x", encoded=True)


def test_an_opaque_url_has_only_its_fragment():
    n = parse("news:comp.lang.misc")
    assert str(n.replace(fragment="top")) == "news:comp.lang.misc#top"
    with pytest.raises(TypeError, match="NewsURL has no part 'host'"):
        n.replace(host="h.example")


def test_changed_urls_are_untracked_like_parsed_ones(core_kind):
    u = parse("http://h.example/a").with_port(81)
    if core_kind == "cython":
        assert not gc.is_tracked(u)
    assert pickle.loads(pickle.dumps(u)) == u


# ---- build -------------------------------------------------------------------------

def test_build_http_and_https():
    assert str(HttpURL.build(host="h.example")) == "http://h.example"
    u = HttpURL.build(scheme="https", host="h.example", port=8443, path="/a b",
                      search=[("q", "x y")])
    assert str(u) == "https://h.example:8443/a%20b?q=x%20y"
    assert (u.scheme, u.port, u.segments, u.search_pairs()) == (
        "https", 8443, ("a b",), [("q", "x y")])


def test_build_ftp_from_section_3_2():
    u = FtpURL.build(host="ftp.example", user="anonymous", password="guest@",
                     path="/pub/file.txt;type=a")
    assert str(u) == "ftp://anonymous:guest%40@ftp.example/pub/file.txt;type=a"
    assert (u.cwd, u.name, u.typecode) == (("pub",), "file.txt", "a")


def test_build_refuses_what_the_class_cannot_be():
    with pytest.raises(TypeError, match="makes a FtpURL, not a HttpURL"):
        HttpURL.build(scheme="ftp", host="h.example")
    with pytest.raises(URLSyntaxError):
        HttpURL.build(host="h.example", user="u")            # no login in http (§3.3)
    assert HttpURL.build(host="h.example", user="u", strict=False).user == "u"


# ---- search_pairs ------------------------------------------------------------------

@pytest.mark.parametrize("url, form, pairs", [
    ("http://h/s?q=a+b%26c&n=2", False, [("q", "a+b&c"), ("n", "2")]),
    ("http://h/s?q=a+b%26c&n=2", True, [("q", "a b&c"), ("n", "2")]),
    ("http://h/s?flag&&x=%C3%A9=", False, [("flag", ""), ("x", "é=")]),
    ("http://h/s", False, []),
    ("http://h/s?", False, []),
])
def test_search_pairs(url, form, pairs):
    assert parse(url).search_pairs(form=form) == pairs


# ---- order, and the classes themselves ---------------------------------------------

def test_sorted_urls_follow_the_equivalence_key():
    urls = [parse(t, strict=False) for t in
            ("http://b.example/", "HTTP://A.EXAMPLE:80/", "ftp://z.example/", "http://a.example/")]
    got = sorted(urls)
    assert [u.normalized() for u in got] == [
        "ftp://z.example/", "http://a.example/", "http://a.example/", "http://b.example/"]
    assert not got[1] < got[2] and got[1] <= got[2] and got[1] >= got[2]   # equal: ==
    with pytest.raises(TypeError):
        parse("http://a.example/") < "http://b.example/"


@pytest.mark.parametrize("cls", [urlsift.URL, HttpURL, urlsift.NewsURL])
def test_calling_a_url_class_says_to_parse(cls):
    with pytest.raises(TypeError, match=r"use urlsift\.parse\(text\)"):
        cls("http://h.example/")


# ---- round trip ---------------------------------------------------------------------

hosts = st.from_regex(r"[a-z][a-z0-9]{0,8}(\.[a-z][a-z0-9]{0,8}){0,2}", fullmatch=True)
segments = st.lists(st.text(st.characters(min_codepoint=32, max_codepoint=0x2FF,
                                          exclude_categories=("Cs",)), max_size=6), max_size=3)


@given(hosts, st.none() | st.integers(0, 65535), segments,
       st.none() | st.lists(st.tuples(st.text(max_size=4), st.text(max_size=4)), max_size=3))
def test_build_then_read_back(host, port, segs, pairs):
    path = "/" + "/".join(s.replace("/", "_") for s in segs) if segs else None
    if pairs is not None and path is None:
        path = "/"                          # §3.3: no search without the path's "/"
    u = HttpURL.build(host=host, port=port, path=path, search=pairs)
    assert (u.host, u.port) == (host, port)
    if segs:
        assert u.segments == tuple(s.replace("/", "_") for s in segs)
    if pairs is not None:
        assert u.search_pairs() == pairs    # each pair is written "k=v", even ("", "")
    # and its written parts make it again
    again = HttpURL.build(encoded=True, **{p: u.written(p) for p in
                                           ("host", "port", "path", "search")})
    assert again == u and str(again) == str(u)
