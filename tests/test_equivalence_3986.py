"""Equivalence under today's practice (issue 24): ``rules="rfc3986"``.

RFC 3986 §6.2.2 (syntax-based normalization: case, percent-encoding, dot segments)
and §6.2.3 (scheme-based: default and empty port, empty http path), with hosts in
their IDNA ASCII form (RFC 3490 ToASCII). The expected values are the RFC's own
examples (§6.2.2, §6.2.2.1, §6.2.3, §5.2.4) or worked out from its rules. RFC 1738's
rules (``tests/test_equivalence.py``) stay the default.
"""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

import urlsift
from urlsift import parse
from urlsift.model.equivalence import equivalent, normalized, remove_dot_segments

R = "rfc3986"


def same(a: str, b: str) -> None:
    assert equivalent(a, b, rules=R) and equivalent(b, a, rules=R), (
        normalized(a, rules=R), normalized(b, rules=R))


def different(a: str, b: str) -> None:
    assert not equivalent(a, b, rules=R), normalized(a, rules=R)


def test_section_6_2_2_example():
    # §6.2.2: "the following two URIs are equivalent"
    a, b = "example://a/b/c/%7Bfoo%7D", "eXAMPLE://a/./b/../b/%63/%7bfoo%7d"
    same(a, b)
    assert normalized(b, rules=R) == a
    assert not equivalent(a, b)                 # not under RFC 1738's rules (the default)


def test_section_6_2_2_1_case():
    same("HTTP://www.EXAMPLE.com/", "http://www.example.com/")
    same("http://h.example/%3a", "http://h.example/%3A")        # "%3a" and "%3A"
    assert normalized("http://h.example/%3a", rules=R) == "http://h.example/%3A"
    different("http://h.example/A", "http://h.example/a")       # the path keeps its case
    different("http://User@h.example/", "http://user@h.example/")


@pytest.mark.parametrize("encoded, plain", [
    ("%7E", "~"), ("%41", "A"), ("%7a", "z"), ("%2D", "-"), ("%2E", "."), ("%5F", "_"),
    ("%30", "0"),
])
def test_section_6_2_2_2_unreserved_escapes_are_decoded(encoded, plain):
    assert normalized(f"http://h.example/x{encoded}y", rules=R) == f"http://h.example/x{plain}y"


@pytest.mark.parametrize("char", list("!$&'()*+,;=:@/?#[]%") + ["%20", "%C3%A9"])
def test_section_6_2_2_2_other_escapes_stay_encoded(char):
    enc = char if char.startswith("%") and len(char) > 1 else "%%%02X" % ord(char)
    assert normalized(f"http://h.example/x{enc.lower()}", rules=R) == f"http://h.example/x{enc}"


@pytest.mark.parametrize("path, want", [
    ("/a/b/c/./../../g", "/a/g"),                # §5.2.4's example
    ("mid/content=5/../6", "mid/6"),             # §5.2.4's example
    ("/a/..", "/"), ("/a/.", "/a/"), ("/../x", "/x"), ("/./x", "/x"), ("/a//../b", "/a/b"),
    ("/.x/..y", "/.x/..y"), ("", ""), ("/", "/"),
])
def test_remove_dot_segments(path, want):
    assert remove_dot_segments(path) == want


def test_section_6_2_2_3_dot_segments_in_urls():
    same("http://h.example/a/b/../c/./d", "http://h.example/a/c/d")
    # §2.3: "%2E" is ".", so "%2E%2E" is a ".." segment once §6.2.2.2 has decoded it
    # (§6.2.2 lists case, then percent-encoding, then path segment normalization)
    same("http://h.example/a/%2E%2E/b", "http://h.example/b")
    different("http://h.example/a/%2F../b", "http://h.example/b")   # %2F is no "/"


def test_section_6_2_3_default_port_empty_port_and_empty_path():
    urls = ["http://example.com", "http://example.com/", "http://example.com:/",
            "http://example.com:80/"]        # §6.2.3: "all equivalent"
    assert {normalized(u, rules=R) for u in urls} == {"http://example.com/"}
    same("https://h.example:443/x", "https://h.example/x")
    different("http://h.example:8080/", "http://h.example/")
    different("http://example.com/data", "http://example.com/data/")   # §6.2.3: not the same


def test_empty_query_and_fragment_are_kept():
    # §6.2.3: delimiters of empty components are not removed unless the scheme says so
    different("http://h.example/?", "http://h.example/")
    different("http://h.example/#", "http://h.example/")


def test_opaque_schemes_only_get_case_and_escapes():
    assert normalized("MAILTO:Joe@Example.COM", rules=R) == "mailto:Joe@Example.COM"
    assert normalized("news:%61rticle@h", rules=R) == "news:article@h"


@pytest.mark.parametrize("host, ascii_form", [
    ("Bücher.example", "xn--bcher-kva.example"),
    ("B%C3%BCcher.example", "xn--bcher-kva.example"),           # §3.2.2: UTF-8 escapes
    ("xn--bcher-kva.EXAMPLE", "xn--bcher-kva.example"),
    ("münchen.de", "xn--mnchen-3ya.de"),
])
def test_hosts_compare_in_their_idna_form(host, ascii_form):
    assert normalized(f"http://{host}/p", rules=R) == f"http://{ascii_form}/p"
    same(f"http://{host}/p", f"http://{ascii_form}/p")
    if not host.isascii():        # RFC 1738's rules know no IDNA
        assert not equivalent(f"http://{host}/p", f"http://{ascii_form}/p")


def test_a_host_without_idna_form_is_kept_and_compares_different():
    # an empty label has no ToASCII form (RFC 3490 §4.1): kept, folded, not merged
    assert normalized("http://A.ü..example/", rules=R) == "http://a.ü..example/"
    different("http://ü..example/", "http://xn--tda..example/")


def test_ipv6_host_is_lower_cased():
    same("http://[2001:DB8::1]/", "http://[2001:db8::1]/")


def test_the_default_stays_rfc_1738():
    assert normalized("http://h.example/%7E") == "http://h.example/%7E"
    assert normalized("http://h.example/%7E", rules="rfc1738") == "http://h.example/%7E"
    assert urlsift.normalized("http://h.example/%7E", rules=R) == "http://h.example/~"
    assert urlsift.equivalent("http://h.example/a/../b", "http://h.example/b", rules=R)


def test_url_objects_take_the_rules_too():
    u = parse("HTTP://H.example:80/a/./b", strict=False)
    assert u.normalized(rules=R) == "http://h.example/a/b"
    assert u.normalized() == "http://h.example/a/./b"            # and == stays RFC 1738's


@pytest.mark.parametrize("bad", ["RFC3986", "3986", None, "whatwg"])
def test_unknown_rules_are_refused(bad):
    with pytest.raises(ValueError, match="rules must be 'rfc1738' or 'rfc3986'"):
        normalized("http://h/", rules=bad)
    with pytest.raises(ValueError, match="rules must be"):
        parse("http://h/").normalized(rules=bad)


def test_errors_are_those_of_the_default():
    with pytest.raises(urlsift.URLSyntaxError) as info:
        normalized("http://h/\n", rules=R)
    assert (info.value.code, info.value.position) == ("control-char", 9)
    with pytest.raises(urlsift.URLSyntaxError, match="missing-scheme"):
        normalized("//h/x", rules=R)


urls = st.builds(
    lambda scheme, host, port, segs, q: f"{scheme}://{host}{port}/{'/'.join(segs)}{q}",
    st.sampled_from(["http", "HTTP", "https", "ftp", "x-y"]),
    st.sampled_from(["h.example", "H.Example", "bücher.example", "B%C3%BCcher.example", "[::1]"]),
    st.sampled_from(["", ":", ":80", ":443", ":8080"]),
    st.lists(st.sampled_from([".", "..", "a", "%2E", "%2e%2E", "%7e", "%41", "%zz", "%", "~",
                              "%2F", "b%4%31"]), max_size=6),
    st.sampled_from(["", "?", "?a=%7e", "#", "#%41"]))


@given(urls)
def test_normalized_3986_is_idempotent(url):
    once = normalized(url, rules=R)
    assert normalized(once, rules=R) == once
