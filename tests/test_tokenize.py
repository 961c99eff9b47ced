"""One-pass tokenizer (RFC 1738 §3.1 common Internet scheme syntax). Runs on both cores."""
import pytest

from urlsift._layout import CODES, FIELDS, NFIELDS
from array import array

from urlsift.model.tokens import PARTS, tokenize, tokenize_many, tokenize_offsets


def parts(s):
    t = tokenize(s)
    return {p: t.part(p) for p in PARTS}


def P(scheme=None, user=None, password=None, host=None, port=None, path=None,
      search=None, fragment=None):
    return dict(scheme=scheme, user=user, password=password, host=host, port=port,
                path=path, search=search, fragment=fragment)


@pytest.mark.parametrize("url, expected", [
    # §3.1: "//<user>:<password>@<host>:<port>/<url-path>"
    ("ftp://foo:bar@host.com:21/pub/x", P("ftp", "foo", "bar", "host.com", "21", "/pub/x")),
    # §3.1: ftp://@host.com/ has an empty user name and no password,
    # ftp://host.com/ has no user name, ftp://foo:@host.com/ has user foo, empty password
    ("ftp://@host.com/", P("ftp", "", None, "host.com", None, "/")),
    ("ftp://host.com/", P("ftp", None, None, "host.com", None, "/")),
    ("ftp://foo:@host.com/", P("ftp", "foo", "", "host.com", None, "/")),
    # §3.1: "the '/' between the host (or port) and the url-path ... may be omitted"
    ("http://host.com", P("http", host="host.com")),
    ("http://host.com:8080", P("http", host="host.com", port="8080")),
    ("http://h:", P("http", host="h", port="")),
    ("http://h/p?q=1", P("http", host="h", path="/p", search="q=1")),
    ("http://h/p?", P("http", host="h", path="/p", search="")),
    ("http://h?q", P("http", host="h", search="q")),
    ("http://h/p#frag", P("http", host="h", path="/p", fragment="frag")),
    ("http://h/p?q#", P("http", host="h", path="/p", search="q", fragment="")),
    ("http://h#f/g?x", P("http", host="h", fragment="f/g?x")),
    ("http://h/a?b?c/d", P("http", host="h", path="/a", search="b?c/d")),
    ("file:///etc/motd", P("file", host="", path="/etc/motd")),
    ("http://", P("http", host="")),
    # the userinfo ends at the last "@"; the password starts after the first ":"
    ("ftp://a@b:c@h/", P("ftp", "a@b", "c", "h", None, "/")),
    ("ftp://a:b:c@h/", P("ftp", "a", "b:c", "h", None, "/")),
    # bracketed IPv6 literal: colons inside the brackets do not start the port
    ("http://[::1]:80/a", P("http", host="[::1]", port="80", path="/a")),
    ("http://u@[fe80::1]/", P("http", user="u", host="[fe80::1]", path="/")),
    ("http://[::1", P("http", host="[::1")),
    # genericurl = scheme ":" schemepart -- no "//": the schemepart is the path
    ("mailto:mduerst@ifi.unizh.ch", P("mailto", path="mduerst@ifi.unizh.ch")),
    ("news:comp.infosystems.www", P("news", path="comp.infosystems.www")),
    ("mailto:a@b?subject=x#f", P("mailto", path="a@b?subject=x", fragment="f")),
    ("google.com:80", P("google.com", path="80")),   # a scheme may hold "." and digits
    ("x:", P("x", path="")),
    # no scheme: a partial form; the rest is still split
    ("//h/p", P(None, host="h", path="/p")),
    ("/a/b?c", P(None, path="/a/b?c")),
    ("", P(None, path="")),
])
def test_parts(url, expected):
    assert parts(url) == expected


@pytest.mark.parametrize("url, position, code", [
    ("http://h/p", None, None),
    ("ftp://h/%41%42", None, None),
    ("HTTP://h/", 0, "uppercase-scheme"),
    ("hTtp://h/", 1, "uppercase-scheme"),
    ("//h/p", 0, "missing-scheme"),
    (":x", 0, "missing-scheme"),
    ("a b:c", 0, "missing-scheme"),
    ("http://h/a b", 10, "unsafe-char"),
    ("http://h/~u", 9, "unsafe-char"),       # §2.2: "~" is national, so unsafe
    ("http://h/{", 9, "unsafe-char"),
    ('http://h/"', 9, "unsafe-char"),
    ("http://h/a#b#c", 12, "unsafe-char"),    # a second "#" is unsafe
    ("http://h/%zz", 9, "bad-escape"),
    ("http://h/%4", 9, "bad-escape"),
    ("http://h/%", 9, "bad-escape"),
    ("http://h/\x00", 9, "control-char"),
    ("http://h/\x7f", 9, "control-char"),
    ("http://h/\n", 9, "control-char"),
    ("http://h/é", 9, "non-ascii"),
    ("http://h/\U0001F600", 9, "non-ascii"),
    ("http://h/ok#a~b", 13, "unsafe-char"),    # the fragment is *xchar too
    ("http://[::1]/", 7, "unsafe-char"),       # brackets are national characters
    ("http://h/a b%zz", 10, "unsafe-char"),    # the first problem only
])
def test_first_problem(url, position, code):
    expected = None if code is None else (position, code)
    assert tokenize(url).problem == expected


def test_result_shape():
    raw = tokenize("ftp://u:p@h:1/x?y#z").offsets
    assert len(raw) == NFIELDS == len(FIELDS) == 17
    assert all(type(v) is int for v in raw)
    assert raw[16] == 0 and CODES[0] == ""


def test_non_ascii_text_offsets_count_characters():
    t = tokenize("http://hé.example/ä?ö#ü")
    assert t.part("host") == "hé.example"
    assert t.part("path") == "/ä" and t.part("search") == "ö" and t.part("fragment") == "ü"


def test_bulk_matches_single_calls():
    urls = ["http://a/b", "ftp://@h/", "mailto:x@y", "", "HTTP://A", "//x", "http://h/%z"]
    singles = [tokenize(u) for u in urls]
    assert tokenize_many(urls) == singles
    assert tokenize_many(iter(urls)) == singles
    flat = tokenize_offsets(urls)
    assert isinstance(flat, array) and flat.typecode == "q" and len(flat) == 17 * len(urls)
    assert [tuple(flat[17 * k:17 * k + 17]) for k in range(len(urls))] == [t.offsets for t in singles]
    assert len(tokenize_offsets([])) == 0


@pytest.mark.parametrize("bad", [b"http://h/", None, 3])
def test_tokenize_wants_str(bad):
    with pytest.raises(TypeError, match=type(bad).__name__):
        tokenize(bad)
    with pytest.raises(TypeError, match=type(bad).__name__):
        tokenize_many(["ok", bad])
    with pytest.raises(TypeError, match=type(bad).__name__):
        tokenize_offsets(["ok", bad])
