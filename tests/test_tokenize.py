"""One-pass tokenizer (RFC 1738 §3.1 common Internet scheme syntax). Runs on both cores."""
import runpy
from pathlib import Path

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


# -- the record's names: generated from one definition (urlsift._layout.URL_FIELDS) ------

GEN_FIELDS = Path(__file__).resolve().parent.parent / "tools" / "gen_fields.py"


@pytest.mark.twins
def test_the_generated_field_names_are_current():
    # _fields.py and _fields.pxi are written by tools/gen_fields.py from urlsift._layout:
    # both must be what it writes now (run it after changing _layout)
    from urlsift import _layout
    gen = runpy.run_path(str(GEN_FIELDS))
    assert gen["PY_TARGET"].read_text(encoding="utf-8") == gen["render_py"](_layout)
    assert gen["PXI_TARGET"].read_text(encoding="utf-8") == gen["render_pxi"](_layout)
    assert gen["main"](["--check"]) == 0


@pytest.mark.twins
def test_the_field_names_say_the_layout():
    # one name per field of _layout.FIELDS, numbered in its order; parse_tokens' two
    # fields follow the tokenizer's 17; the C enum says the same numbers
    from urlsift import _fields as F
    assert [getattr(F, f.upper()) for f in FIELDS] == list(range(17))
    assert (F.SCHEME_END, F.HOST_START, F.PATH_START, F.FRAGMENT_END, F.PROBLEM_CODE) == (
        0, 5, 9, 14, 16)
    assert (F.NFIELDS, F.SCHEME_INDEX, F.WORST_PROBLEM, F.NPARSED) == (17, 17, 18, 19)
    pxi = runpy.run_path(str(GEN_FIELDS))["PXI_TARGET"].read_text(encoding="utf-8")
    assert "    HOST_START = 5  # after the last '@', else after '//'\n" in pxi
    assert "    NFIELDS = 17  #" in pxi and "    WORST_PROBLEM = 18  #" in pxi


def test_a_record_reads_by_name(core):
    # "ftp://u:p@h:21/x?y#z" (RFC 1738 §3.1: //user:password@host:port/url-path), each
    # part located by hand: ":" at 3, "u" at 6, ":" 7, "p" 8, "@" 9, "h" 10, ":" 11,
    # "21" 12-13, "/x" 14-15, "?" 16, "y" 17, "#" 18, "z" 19
    from urlsift import _fields as F
    s = "ftp://u:p@h:21/x?y#z"
    t = core.tokenize(s)
    assert t[F.SCHEME_END] == 3
    assert (t[F.USER_START], t[F.USER_END], t[F.PASSWORD_START], t[F.PASSWORD_END]) == (
        6, 7, 8, 9)
    assert (t[F.HOST_START], t[F.HOST_END], t[F.PORT_START], t[F.PORT_END]) == (10, 11, 12, 14)
    assert (t[F.PATH_START], t[F.PATH_END], t[F.SEARCH_START], t[F.SEARCH_END]) == (
        14, 16, 17, 18)
    assert (t[F.FRAGMENT_START], t[F.FRAGMENT_END]) == (19, 20)
    assert (t[F.PROBLEM_POS], t[F.PROBLEM_CODE]) == (-1, 0)
    # a space in the path: the first problem, unsafe (RFC 1738 §2.2), at its position
    t = core.tokenize("news:a b")
    assert (t[F.SCHEME_END], t[F.PATH_START], t[F.PATH_END], t[F.HOST_START]) == (4, 5, 8, -1)
    assert (t[F.PROBLEM_POS], CODES[t[F.PROBLEM_CODE]]) == (6, "unsafe-char")


def test_a_parsed_record_reads_by_name():
    # parse_tokens' record (a URL object's _t): the tokenizer's fields, then the scheme's
    # index and the worst problem -- http is a known scheme, "HTTP" is a lenient problem
    # (uppercase-scheme), a space in the host a fatal one (RFC 1738 §5 hostname)
    import urlsift
    from urlsift import _fields as F
    from urlsift.model import registry
    u = urlsift.parse("http://h/p")
    assert len(u._t) == F.NPARSED
    assert registry.classes()[u._t[F.SCHEME_INDEX]] is type(u)
    assert u._t[F.WORST_PROBLEM] == 0 and u._t[F.PATH_START] == 8
    lenient = urlsift.parse("HTTP://h/p", strict=False)
    assert lenient._t[F.WORST_PROBLEM] == 1 and lenient._t[F.HOST_START] == 7
