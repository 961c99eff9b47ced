"""URL objects: immutability, hashing, pickling, repr, raw/str, registry, ports, warnings."""
from __future__ import annotations

import copy
import pickle

import pytest

import urlsift
from urlsift.model import registry
from urlsift.model.parsing import is_valid, parse
from urlsift.model.schemes import (CidURL, FileURL, FtpURL, GenericURL, GopherURL, HttpURL,
                             MailtoURL, MidURL, NewsURL, NntpURL, ProsperoURL, TelnetURL,
                             WaisURL)
from urlsift import URL, Problem

CLASSES = [
    ("ftp://h/", FtpURL), ("http://h/", HttpURL), ("https://h/", HttpURL),
    ("gopher://h/", GopherURL), ("mailto:a@b", MailtoURL), ("news:*", NewsURL),
    ("nntp://h/g", NntpURL), ("telnet://h", TelnetURL), ("rlogin://h", TelnetURL),
    ("tn3270://h", TelnetURL), ("wais://h/d", WaisURL), ("file:///x", FileURL),
    ("prospero://h/x", ProsperoURL), ("mid:a@b", MidURL), ("cid:a@b", CidURL),
    ("urn:x", GenericURL), ("x-ftp://h/", GenericURL), ("Ftp://h/", FtpURL),
]


@pytest.mark.parametrize("url,cls", CLASSES)
def test_class_per_scheme(url, cls):
    u = parse(url, strict=False)
    assert type(u) is cls


@pytest.mark.parametrize("url,port", [
    # RFC 1738 §3.2-§3.11 default ports; https 443, rlogin 513 (docs/design.md#the-scheme-classes)
    ("ftp://h/", 21), ("http://h/", 80), ("https://h/", 443), ("gopher://h/", 70),
    ("nntp://h/g", 119), ("telnet://h", 23), ("rlogin://h", 513), ("tn3270://h", 23),
    ("wais://h/d", 210), ("prospero://h/x", 1525), ("file:///x", None),
    ("mailto:a@b", None), ("news:*", None), ("urn:x", None), ("http://h:8080/", 8080),
])
def test_effective_port(url, port):
    u = parse(url)
    assert u.effective_port == port
    assert u.port == (8080 if ":8080" in url else None)


def test_immutable_slots_and_no_dict():
    u = parse("http://h/p")
    with pytest.raises(AttributeError):
        u.host = "x"
    with pytest.raises(AttributeError):
        del u._text
    with pytest.raises(AttributeError):
        u.__dict__
    for cls in (URL, FtpURL, HttpURL, GenericURL, NewsURL):
        assert "__slots__" in vars(cls)


def test_str_raw_and_url_prefix():
    # RFC 1738 appendix: the "URL:" prefix is no part of the URL; u.raw keeps it
    u = parse("URL:ftp://h/x")
    assert (str(u), u.raw, u.segments) == ("ftp://h/x", "URL:ftp://h/x", ("x",))
    v = parse("ftp://h/x")
    assert v.raw == str(v) == "ftp://h/x"


def test_pickle_and_copy_keep_the_object():
    for url, strict in (("ftp://foo:@h.com:2121/a/b;type=i#f", True),
                        ("URL:http://h/a b", False)):
        u = parse(url, strict=strict)
        w = pickle.loads(pickle.dumps(u))
        assert type(w) is type(u) and w.raw == u.raw and w.parts() == u.parts()
        assert w.problems == u.problems
        assert copy.copy(u) is u and copy.deepcopy(u) is u


def test_hash_and_eq_are_consistent():
    a, b = parse("http://h/x"), parse("http://h/x")
    assert a == b and hash(a) == hash(b) and len({a, b}) == 1
    assert parse("http://h/x") != parse("http://h/y")
    assert (a == "http://h/x") is False                 # only URLs compare equal
    assert a.normalized() == a.normalized()


def test_equality_follows_the_equivalence_rules():
    # docs/design.md#equivalence: rules 1, 2, 3, 4 and 5, through u.normalized()
    assert parse("http://INFO.cern.ch:80/a%2Db") == parse("http://info.cern.ch/a-b")
    assert parse("http://h") == parse("http://h/")
    assert parse("file://localhost/x") == parse("file:///x")
    assert parse("http://h/a%2Fb") != parse("http://h/a/b")
    assert hash(parse("HTTP://h/", strict=False)) == hash(parse("http://h/"))
    assert parse("http://h:80/").normalized() == parse("http://h/").normalized()


def test_messages_for_empty_parts():
    msg = [p.message for p in urlsift.check("nntp://h/")][0]
    assert "group is empty" in msg


def test_repr_shows_parts():
    r = repr(parse("ftp://foo@h.com/a/b;type=d"))
    assert r.startswith("FtpURL('ftp://foo@h.com/a/b;type=d'")
    for part in ("user='foo'", "host='h.com'", "segments=('a', 'b')", "typecode='d'"):
        assert part in r


def test_lazy_parts_are_cached():
    u = parse("ftp://h/a%20b/c")
    assert u.segments is u.segments                     # computed once
    assert u.segments == ("a b", "c")


def test_written_parts_and_decoding():
    u = parse("ftp://a%40b:p%3Aw@h/%C3%A9%FF")
    assert (u.user, u.password) == ("a@b", "p:w")       # §3.1: ":" "@" "/" encoded
    assert (u.written("user"), u.written("password")) == ("a%40b", "p%3Aw")
    # UTF-8 with surrogateescape: lossless for the lone %FF
    assert u.segments == ("\u00e9\udcff",)
    assert u.segments[0].encode("utf-8", "surrogateescape") == b"\xc3\xa9\xff"


def test_http_parts():
    u = parse("http://h")
    assert (u.path, u.search, u.segments) == (None, None, ())
    u = parse("http://h/a/b/?x=1")
    assert (u.path, u.search, u.segments) == ("/a/b/", "x=1", ("a", "b", ""))
    u = parse("http://u:p@h?q", strict=False)
    assert (u.user, u.password, u.path, u.search) == ("u", "p", None, "q")
    assert [p.code for p in u.problems] == ["userinfo-not-allowed", "search-without-path"]


def test_ftp_segments_settled_details():
    # docs/design.md#the-parts-of-each-scheme: ftp://h gives (), ftp://h/ gives ("",),
    # ftp://h//x gives ("", "x")
    assert parse("ftp://h").segments == () and parse("ftp://h").name is None
    assert parse("ftp://h/").segments == ("",)
    assert parse("ftp://h//x").segments == ("", "x")
    assert parse("ftp://h/a;type=A").typecode == "a"
    assert parse("ftp://h/a%3Bb").segments == ("a;b",)   # encoded ";" is data


def test_news_nntp_wais_file_prospero_parts():
    n = parse("news:a1b2c3@host.dom")
    assert (n.group, n.article) == (None, "a1b2c3@host.dom")
    assert (parse("nntp://h/g").group, parse("nntp://h/g").article) == ("g", None)
    w = parse("wais://h/db/TEXT/doc%2Fid")
    assert (w.database, w.wtype, w.wpath, w.search) == ("db", "TEXT", "doc/id", None)
    f = parse("file://LocalHost/a%20b")
    assert (f.host, f.path, f.is_local) == ("LocalHost", "/a b", True)
    short = parse("file:/etc/motd", strict=False)
    assert (short.host, short.path, short.is_local) == (None, "/etc/motd", True)
    p = parse("prospero://h/a%3Bb;OBJECT-VERSION=3;x=%3D")
    assert (p.hsoname, p.fields) == ("a;b", (("OBJECT-VERSION", "3"), ("x", "=")))


def test_generic_login_parts_as_written():
    u = parse("x-foo://us%65r:pw@h.dom:123/a%2Fb?q#f")
    assert (u.user, u.password, u.host, u.port, u.path, u.fragment) == (
        "us%65r", "pw", "h.dom", 123, "/a%2Fb?q", "f")
    assert u.schemepart == "//us%65r:pw@h.dom:123/a%2Fb?q"
    assert parse("z://h:port/").port is None


def test_fragment_empty_absent():
    # 000 Fragment-id: "A void fragment-id with or without the hash sign"
    assert parse("http://h/").fragment is None
    assert parse("http://h/#").fragment == ""
    assert parse("mailto:a@b#x").address == "a@b"


def test_register_scheme():
    class MyURL(HttpURL):
        __slots__ = ()

    registry.register_scheme("webdav", MyURL, default_port=8080)
    try:
        u = parse("webdav://h/p?q")
        assert type(u) is MyURL and u.effective_port == 8080 and u.search == "q"
        assert parse("webdav://u@h/", strict=False).problems[0].code == "userinfo-not-allowed"
        assert not is_valid("webdav://u@h/")     # http's grammar: no user (RFC 1738 §3.3)
    finally:
        registry.unregister_scheme("webdav")
    assert type(parse("webdav://h/p")) is GenericURL
    assert is_valid("webdav://u@h/")             # any scheme: schemepart = *xchar (§2.1)
    with pytest.raises(ValueError):
        registry.register_scheme("Bad_Name", MyURL)
    with pytest.raises(TypeError):
        registry.register_scheme("ok", int)


def test_warnings():
    # RFC 1738 §6: passwords, non-default ports (stronger below 1024), encoded delimiters
    codes = lambda url: [w.code for w in parse(url).warnings]  # noqa: E731
    assert codes("ftp://h/") == []
    assert codes("ftp://u:secret@h/") == ["password-in-url"]
    assert codes("ftp://u:@h/") == ["password-in-url"]          # a password, though empty
    assert codes("http://h:8080/") == ["non-default-port"]
    assert codes("http://h:80/") == []
    assert codes("x-foo://h:25/") == []                        # no default to differ from
    assert codes("gopher://h:25/") == ["privileged-port"]       # the SMTP example of §6
    assert codes("telnet://u%0D%0Ax@h/") == ["encoded-delimiter", "encoded-delimiter"]
    assert codes("ftp://h/a%0d%0ab") == ["encoded-delimiter", "encoded-delimiter"]
    # nntp: the group grammar has no escapes, so no delimiter can be smuggled at all
    assert not is_valid("nntp://h/a%0D%0Ab", strict=False)
    assert codes("gopher://h/0sel%09search%09plus") == []       # two %09 are gopher syntax
    assert codes("gopher://h/0sel%09search%09plus%09more") == ["encoded-delimiter"]
    assert codes("http://h/a%0D%0A") == []                     # http is not in the list
    w = parse("http://h:81/").warnings[0]
    assert isinstance(w, Problem) and w.position == 9 and "81" in w.message


def test_parse_rejects_non_str():
    for bad in (None, b"http://h/", 3):
        with pytest.raises(TypeError):
            parse(bad)

    class S(str):
        pass

    assert parse(S("http://h/x")).segments == ("x",)


def test_mailto_headers_view_never_changes_address():
    # RFC 1738 §3.5: "no reserved characters" -- the address is the whole schemepart;
    # docs/design.md#the-parts-of-each-scheme: an extra RFC 6068 headers view
    u = parse("mailto:list@h.dom?subject=a%26b&body=x=y&&")
    assert u.address == "list@h.dom?subject=a&b&body=x=y&&"
    assert u.headers == (("subject", "a&b"), ("body", "x=y"))
    assert parse("mailto:a@b").headers is None
    assert parse("mailto:a@b?").headers == ()


# ---- URL objects a program keeps cost the cycle collector nothing (compiled core) ------

def test_url_objects_are_not_tracked_by_the_cycle_collector(core_kind):
    import gc
    u = urlsift.parse("http://a.example/b?c")
    if core_kind == "python":
        pytest.skip("the pure core cannot untrack an object (no Python API for it)")
    assert not gc.is_tracked(u)
    assert not gc.is_tracked(u._t)                 # the offsets: ints only
    # everything still works on an untracked object, caches included
    assert (u.host, u.segments, u.search) == ("a.example", ("b",), "c")
    assert u == urlsift.parse("HTTP://A.EXAMPLE/b?c", strict=False)


def test_a_subclass_with_a_dict_stays_tracked(core_kind):
    import gc

    class Tagged(urlsift.HttpURL):     # no __slots__: instances get a __dict__
        pass

    registry.register_scheme("x-tagged", Tagged)
    try:
        u = urlsift.parse("x-tagged://a.example/")
        assert type(u) is Tagged
        assert gc.is_tracked(u)        # its dict could hold a cycle
    finally:
        registry.unregister_scheme("x-tagged")


# issue 24: parse(s, scheme=...) types the result (tests/typing) and checks it
def test_parse_with_a_scheme_checks_it_at_run_time_too():
    import urlsift

    assert type(urlsift.parse("https://a.example/", scheme="https")) is urlsift.HttpURL
    with pytest.raises(urlsift.URLSyntaxError) as info:
        urlsift.parse("ftp://a.example/", scheme="http")
    assert (info.value.code, info.value.position) == ("unexpected-scheme", 0)
    assert str(info.value) == "expected a http URL, not ftp at position 0 (unexpected-scheme)"
    # the scheme is compared case-insensitively, as RFC 1738 §2.1 reads schemes
    assert urlsift.parse("HTTP://a.example/", scheme="http", strict=False).host == "a.example"
    with pytest.raises(TypeError, match="scheme must be str or None, not int"):
        urlsift.parse("http://a/", scheme=3)  # type: ignore[call-overload]
    assert isinstance(urlsift.parse("news:comp.x"), urlsift.URL)
    assert not isinstance(urlsift.parse("news:comp.x"), urlsift.HierURL)
    assert isinstance(urlsift.parse("telnet://h.example"), urlsift.HierURL)
