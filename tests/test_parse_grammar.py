"""Systematic valid and invalid cases per scheme, from the RFC 1738 §5 BNF.

Each row: the URL, the codes ``check`` reports (in position order; [] = strictly
valid), and whether lenient mode accepts it.
"""
from __future__ import annotations

import pytest

from urlsift.errors import URLSyntaxError
from urlsift.model.parsing import check, is_valid, parse, validate_many

CASES = [
    # ---- login / hostport (§3.1, §5 login, hostport, hostname, hostnumber, port) ----
    ("ftp://h", [], True),                             # whole url-path may be omitted
    ("ftp://a.b-c.d9/", [], True),                     # domainlabel with inner "-"
    ("ftp://1.2.3.4/", [], True),                      # hostnumber
    ("ftp://255.255.255.255:65535/", [], True),        # tightening: 0-255, 0-65535
    ("ftp://1.2.3.256/", ["bad-host"], False),         # hostnumber part > 255
    ("ftp://1.2.3/", ["bad-host"], False),             # toplabel must start with alpha
    ("http://999", ["bad-host"], False),               # docs/design.md#matches example
    ("ftp://a1.2b/", [], True),                        # toplabel "2b"? no: starts with digit
    ("ftp://-a.b/", ["bad-host"], False),              # label starts with "-"
    ("ftp://a-.b/", ["bad-host"], False),              # label ends with "-"
    ("ftp://a..b/", ["bad-host"], False),              # empty label
    ("ftp://a_b.c/", ["bad-host"], False),             # "_" is no alphadigit
    ("ftp://a%41.c/", ["bad-host"], False),            # no escapes in a hostname
    ("ftp://h./", ["host-trailing-dot"], True),
    ("ftp:///x", ["missing-host"], False),             # hostport needs a host
    ("ftp://:21/", ["missing-host"], False),
    ("ftp://h:/", ["empty-port"], True),
    ("ftp://h:x/", ["bad-port"], False),
    ("ftp://h:65536/", ["bad-port"], False),
    ("ftp://h:000021/", ["bad-port"], False),          # more than five digits
    ("ftp://h:21:22/", ["bad-port"], False),
    ("http://[::1]:8080/", ["ipv6-host"], True),       # lenient: bracketed IPv6
    ("http://[::1/", ["ipv6-host", "bad-host"], False),
    ("http://[::g]/", ["ipv6-host", "bad-host"], False),
    ("ftp://u;&=:p;&=@h/", [], True),                  # user = *[uchar | ; ? & =] ("?" see decisions)
    ("ftp://u%3A:p%40@h/", [], True),                  # ":" "@" encoded (§3.1)
    ("ftp://a:b:c@h/", ["bad-userinfo"], True),        # ":" in the password
    ("ftp://u~@h/", ["unsafe-char"], True),
    ("HTTP://h/", ["uppercase-scheme"], True),
    # ---- ftp (§3.2, §5 ftpurl) ----
    ("ftp://h/a/b;type=a", [], True),
    ("ftp://h/a;type=I", [], True),                    # ftptype includes "I"
    ("ftp://h/a;type=x", ["bad-typecode"], False),
    ("ftp://h/a;type=", ["bad-typecode"], False),
    ("ftp://h/a;type=aa", ["bad-typecode"], False),
    ("ftp://h/a;b", ["bad-path"], True),               # ";" reserved in fsegment
    ("ftp://h/a;TYPE=i", ["bad-path"], True),          # the literal is lower case
    ("ftp://h/a?:@&=b", [], True),                     # fsegment allows ? : @ & =
    ("ftp://h?x", ["bad-path"], True),                 # no "/" before the path
    ("ftp://h/a b", ["unsafe-char"], True),
    ("ftp://h/%zz", ["bad-escape"], True),
    ("ftp:h/x", ["missing-authority"], False),
    # ---- http (§3.3, §5 httpurl) ----
    ("http://h", [], True),
    ("http://h/", [], True),
    ("http://h/a;b:c@d&e=f/g", [], True),              # hsegment
    ("http://h/p?q;:@&=", [], True),                   # search
    ("http://h/p?", [], True),                         # empty search
    ("http://h/p?a/b", ["bad-search"], True),          # "/" not in search
    ("http://h/p?a?b", ["bad-search"], True),
    ("http://h?q", ["search-without-path"], True),
    ("http://u@h/", ["userinfo-not-allowed"], True),   # §3.3: no user name or password
    ("http://u:p@h/", ["userinfo-not-allowed"], True),
    ("http://h/a{b}", ["unsafe-char", "unsafe-char"], True),
    ("http://h/\u00e9", ["non-ascii"], True),
    ("http://h/a\x00", ["control-char"], False),       # controls: never
    ("http://h/a\x7f", ["control-char"], False),
    ("http://h/a#b#c", ["unsafe-char"], True),         # second "#"
    ("http://h/a#%7e", [], True),                      # fragment = *xchar
    ("https://h:443/", [], True),
    # ---- gopher (§3.4) ----
    ("gopher://h", [], True),
    ("gopher://h/", [], True),
    ("gopher://h/1", [], True),
    ("gopher://h/0sel;/?:@&=%09s", [], True),          # no reserved chars in gopher-path
    ("gopher://h/0a b", ["unsafe-char"], True),
    ("gopher://u@h/", ["userinfo-not-allowed"], True),
    # ---- mailto (§3.5) ----
    ("mailto:a@b.c", [], True),
    ("mailto:", ["missing-address"], False),
    ("mailto:a%b@c", ["bad-escape"], True),
    ("mailto:<a@b>", ["unsafe-char", "unsafe-char"], True),
    # ---- news (§3.6) ----
    ("news:*", [], True),
    ("news:comp.lang.c++", [], True),
    ("news:a-b_c.d+e", [], True),
    ("news:3com", ["bad-group"], False),               # group starts with alpha
    ("news:", ["bad-group"], False),
    ("news:a/b", ["bad-group"], False),
    ("news:a%41", ["bad-group"], False),               # group has no escapes
    ("news:abc;/?:&=@h.dom", [], True),                # article
    ("news:@h.dom", ["bad-article"], False),
    ("news:x@", ["missing-host"], False),
    ("news:x@999", ["bad-host"], False),
    ("news:**", ["bad-group", "bad-group"], False),
    # ---- nntp (§3.7) ----
    ("nntp://h/g", [], True),
    ("nntp://h:119/g/123", [], True),
    ("nntp://h", ["missing-path"], False),
    ("nntp://h/", ["bad-group"], False),
    ("nntp://h/g/", ["bad-article"], False),
    ("nntp://h/g/1x", ["bad-article"], False),
    ("nntp://h/g/1/2", ["bad-article"], False),
    ("nntp://h/1g", ["bad-group"], False),
    ("nntp://u@h/g", ["userinfo-not-allowed"], True),
    # ---- telnet (§3.8) ----
    ("telnet://h", [], True),
    ("telnet://u:p@h:23/", [], True),
    ("telnet://h/x", ["bad-path"], True),
    ("rlogin://u@h", [], True),
    ("tn3270://h/", [], True),
    # ---- wais (§3.9) ----
    ("wais://h/db", [], True),
    ("wais://h/", [], True),                           # database = *uchar
    ("wais://h/db?x;:@&=", [], True),
    ("wais://h/db/t/p", [], True),
    ("wais://h/db//", [], True),                       # empty wtype and wpath
    ("wais://h", ["missing-path"], False),
    ("wais://h/db/t", ["bad-path"], True),             # wtype without wpath
    ("wais://h/db/t/p/q", ["bad-path"], True),
    ("wais://h/d;b", ["bad-path"], True),
    # ---- file (§3.10) ----
    ("file:///x", [], True),
    ("file://localhost/x", [], True),
    ("file://h.dom/a/b", [], True),
    ("file://h", ["missing-path"], False),
    ("file:/x", ["file-short-form"], True),
    ("file:x", ["missing-authority"], False),
    ("file://h:1/x", ["port-not-allowed"], True),
    ("file://u@h/x", ["userinfo-not-allowed"], True),
    ("file:///a;b", ["bad-path"], True),
    # ---- prospero (§3.11) ----
    ("prospero://h/a", [], True),
    ("prospero://h//a/b;f=v;g=", [], True),
    ("prospero://h/a;f", ["bad-field"], False),
    ("prospero://h/a;f=v=w", ["bad-field"], False),
    ("prospero://h", ["missing-path"], False),
    ("prospero://u@h/a", ["userinfo-not-allowed"], True),
    # ---- mid / cid (001) ----
    ("mid:a@b", [], True),
    ("cid:", ["missing-address"], False),
    # ---- generic (§5 genericurl, otherurl) ----
    ("google.com:80", [], True),                       # §5 scheme; design.md#the-parts-of-each-scheme
    ("x-foo:anything;/?:@&=", [], True),
    ("z:", [], True),                                  # schemepart = *xchar
    ("z://h:port/p", [], True),                        # the // form cannot invalidate
    ("z:a b", ["unsafe-char"], True),
    ("noscheme", ["missing-scheme"], False),
    (":x", ["missing-scheme"], False),
    ("a_b:x", ["missing-scheme"], False),
    ("", ["missing-scheme"], False),
]
CASES = [c for c in CASES if c[0] != "ftp://a1.2b/"] + [("ftp://a1.b2/", [], True)]


@pytest.mark.parametrize("url,codes,lenient", CASES)
def test_grammar(url, codes, lenient):
    assert [p.code for p in check(url)] == codes
    assert is_valid(url) == (not codes)
    assert is_valid(url, strict=False) == lenient
    assert validate_many([url]) == [not codes]
    assert validate_many([url], strict=False) == [lenient]
    if codes:
        with pytest.raises(URLSyntaxError) as e:
            parse(url)
        assert e.value.code == codes[0]
        assert e.value.position == check(url)[0].position
    else:
        assert str(parse(url)) == url                # round trip
    if lenient:
        u = parse(url, strict=False)
        assert [p.code for p in u.problems] == codes
        assert str(u) == url
    else:
        with pytest.raises(URLSyntaxError):
            parse(url, strict=False)


def test_check_reports_every_problem_with_position_and_quote():
    url = "HTTP://u@h:/a b/c?d/e#f#g"
    probs = check(url)
    assert [(p.position, p.code) for p in probs] == [
        (0, "uppercase-scheme"), (7, "userinfo-not-allowed"), (11, "empty-port"),
        (13, "unsafe-char"), (19, "bad-search"), (23, "unsafe-char")]
    assert "'/a b/c'" in probs[3].message and "path" in probs[3].message
    assert "'d/e'" in probs[4].message
    assert "'u'" in probs[1].message


def test_check_positions_count_the_url_prefix():
    # RFC 1738 appendix: "URL:" is not part of the URL, but positions are in the input
    assert [(p.position, p.code) for p in check("URL:http://h/a b")] == [(14, "unsafe-char")]
    assert is_valid("URL:http://h/") and validate_many(["URL:http://h/"]) == [True]


def test_error_message_quotes_text():
    with pytest.raises(URLSyntaxError) as e:
        parse("http://h:99999/")
    assert (e.value.code, e.value.position) == ("bad-port", 9)
    assert "'99999'" in str(e.value)
    with pytest.raises(URLSyntaxError) as e:
        parse("ftp://h/x;type=q")
    assert (e.value.code, e.value.position) == ("bad-typecode", 15)
    assert "'q'" in e.value.message


def test_lenient_never_accepts_controls():
    for url in ("http://h/\n", "mailto:a\tb", "z:\x00", "http://h\r/"):
        assert not is_valid(url, strict=False)
        with pytest.raises(URLSyntaxError) as e:
            parse(url, strict=False)
        assert e.value.code == "control-char"


def test_validate_many_mixed_and_types():
    urls = ["http://h/", "http://h/ x", "news:*", "x", "URL:ftp://h/"]
    assert validate_many(urls) == [True, False, True, False, True]
    assert validate_many(urls, strict=False) == [True, True, True, False, True]
    assert validate_many(iter(urls)) == validate_many(urls)        # any iterable
    with pytest.raises(TypeError):
        validate_many([b"http://h/"])
    with pytest.raises(TypeError):
        is_valid(None)


def test_every_code_is_documented_and_exercised():
    from pathlib import Path

    from urlsift._grammar import LENIENT_OK
    from urlsift._layout import CODES

    doc = (Path(__file__).resolve().parent.parent / "docs" / "codes.md").read_text()
    exercised = {code for _, codes, _ in CASES for code in codes}
    for code in CODES[1:]:
        assert f"| `{code}` |" in doc, code
        assert code in exercised, code
        row = next(line for line in doc.splitlines() if line.startswith(f"| `{code}` |"))
        lenient = row.rsplit("|", 2)[-2].strip()
        assert lenient.startswith("accepted" if code in LENIENT_OK else "refused"), code


# ---- every printable ASCII character in every part, against the §5 sets ---------
from urlsift import charclass  # noqa: E402

_UCHAR = charclass.members(charclass.UNRESERVED)   # plus escapes, which are excluded below
PART_SETS = [
    # template, characters the part allows (§5), characters left out (delimiters), code
    ("ftp://h/a{}b", _UCHAR + "?:@&=/", "#%", "bad-path"),           # fsegment + "/"
    ("http://h/a{}b", _UCHAR + ";:@&=/", "?#%", "bad-path"),         # hsegment + "/"
    ("http://h/p?a{}b", _UCHAR + ";:@&=", "#%", "bad-search"),       # search
    ("ftp://a{}b@h/", _UCHAR + ";&=", "@/?#%:", "bad-userinfo"),     # user
    ("wais://h/a{}b", _UCHAR, "/?#%", "bad-path"),                   # database
    ("wais://h/d/a{}b/p", _UCHAR, "/?#%", "bad-path"),               # wtype
    ("prospero://h/x;f=a{}b", _UCHAR + "?:@&", ";#%", "bad-field"),  # fieldvalue
    ("news:a{}b", charclass.members(charclass.ALPHA | charclass.DIGIT) + "-.+_", "@#%", "bad-group"),
    ("news:a{}b@h", _UCHAR + ";/?:&=", "@#%", "bad-article"),        # article
    ("http://h/#a{}b", _UCHAR + ";/?:@&=", "%", "bad-path"),         # fragment: xchar
    ("mailto:a{}b", _UCHAR + ";/?:@&=", "#%", "bad-path"),           # encoded822addr
    ("gopher://h/0a{}b", _UCHAR + ";/?:@&=", "#%", "bad-path"),      # selector: xchar
    ("x-y:a{}b", _UCHAR + ";/?:@&=", "#%", "bad-path"),              # genericurl
]
_PRINTABLE = [chr(c) for c in range(0x20, 0x7F)]


@pytest.mark.parametrize("template,allowed,skip,code", PART_SETS)
def test_each_character_in_each_part(template, allowed, skip, code):
    pos = template.index("{}")
    for ch in _PRINTABLE:
        if ch in skip:
            continue
        found = [(p.position, p.code) for p in check(template.format(ch))]
        if ch in allowed:
            assert found == [], (template, ch)
        else:
            want = "unsafe-char" if charclass.is_unsafe(ch) else code
            assert found == [(pos, want)], (template, ch)
    # a control is refused everywhere; a non-ASCII character is recorded
    assert [p.code for p in check(template.format("\x1b"))] == ["control-char"]
    assert [p.code for p in check(template.format("\u00fc"))] == ["non-ascii"]


# ---- news:<message-id>: the brackets RFC 822 writes, accepted leniently -------------------

def test_news_message_id_in_angle_brackets_is_lenient_with_its_problems():
    # RFC 1738 §3.6: news:<message-id> where message-id is "unique-id@full_domain_name",
    # written without the "<" ">" of RFC 822; users paste it with them
    url = "news:<foo@bar.example>"
    assert [(p.position, p.code) for p in check(url)] == [(5, "unsafe-char"), (21, "unsafe-char")]
    assert not is_valid(url) and is_valid(url, strict=False)
    u = parse(url, strict=False)
    assert (u.article, u.group) == ("foo@bar.example", None)
    assert [(p.position, p.code) for p in u.problems] == [(5, "unsafe-char"), (21, "unsafe-char")]
    # the inside is still the article grammar: a bad host inside is still refused
    assert not is_valid("news:<foo@bar_example>", strict=False)
    # a bracket on one side only is just an unsafe character of the id (kept)
    assert parse("news:<foo@bar.example", strict=False).article == "<foo@bar.example"


# ---- "?" in a login: data where the scheme has no search part (RFC 1738 §5 user) --------

@pytest.mark.parametrize("url, user, password, host", [
    ("telnet://ab?ga?l;@host.example", "ab?ga?l;", None, "host.example"),
    ("telnet://abigail:se??et@host.example", "abigail", "se??et", "host.example"),
    ("ftp://a?b@host.example/x", "a?b", None, "host.example"),
    ("ftp://a:b?c@host.example/x", "a", "b?c", "host.example"),
    ("rlogin://u?=&;@h.example:513", "u?=&;", None, "h.example"),
])
def test_a_question_mark_in_a_login_is_login_data(url, user, password, host):
    assert is_valid(url), check(url)
    u = parse(url)
    assert (u.user, u.password, u.host) == (user, password, host)


def test_no_host_is_taken_from_inside_a_login():
    # before: host "ab" (the text before the first "?"), and "bad-port" for se??et
    for url in ("telnet://ab?ga?l;@host.example", "ftp://x?y:z@host.example/"):
        assert parse(url, strict=False).host == "host.example"
    # a "?" with no "@" after it is no login: ftp has no search part, so it is a path error
    assert [p.code for p in check("ftp://host.example?x")] == ["bad-path"]
    # ftp paths may hold "?" (§5 fsegment), and http keeps "?" as its search
    assert parse("ftp://host.example/x?y").segments == ("x?y",)
    assert parse("http://a?b@host.example/", strict=False).host == "a"


def test_an_nntp_article_number_has_at_most_20_digits():
    # 65 536 digits raised Python's own ValueError (4 300-digit limit) from .article
    assert parse("nntp://h/comp.lang/" + "9" * 20).article == 10 ** 20 - 1
    for url in ("nntp://h/comp.lang/" + "1" * 21, "nntp://h/comp.lang/" + "1" * 65536):
        with pytest.raises(URLSyntaxError) as info:
            parse(url, strict=False)
        assert (info.value.code, info.value.position) == ("bad-article", 19 + 20)


# ---- gopher: "/" or "?" after the first %09 is in §5's language (a warning, not an error) ----
# RFC 1738 §5: selector = *xchar takes in "%09" and all after it; the search rule has no
# "/" or "?", so such a URL is read by §5 as one long selector: strictly valid, with the
# warning ambiguous-search (tests/test_gopher_bnf.py derives each case).

@pytest.mark.parametrize("url, warned", [
    ("gopher://h/0%09/", [15]),
    ("gopher://h/+FNURD%09/%09", [20]),
    ("gopher://h/0sel%09a?b", [19]),
    ("gopher://h/0a/b?c", []),                          # the selector is *xchar
    ("gopher://h/0sel%09se;a:r@ch%09pl/us?", []),       # gopher+_string = *xchar
])
def test_gopher_search_with_slash_or_question_mark_is_valid_with_a_warning(url, warned):
    assert check(url) == [] and is_valid(url) and is_valid(url, strict=False)
    u = parse(url)
    assert u.problems == ()
    assert [(w.position, w.code) for w in u.warnings] == [(i, "ambiguous-search") for i in warned]
    assert (u.search is not None) == ("%09" in url)
