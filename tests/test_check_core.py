"""The ``_check`` core: the Cython module and its pure twin agree on every input."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from urlsift import _select
from urlsift.model import registry
from urlsift._grammar import LENIENT_OK, PARTS, TABLES
from urlsift._layout import CODES, NFIELDS

TWINS = _select.twins("_check")
# compares the two twins directly: run once, not once per core (conftest)
SCHEMES = ["ftp", "http", "https", "gopher", "mailto", "news", "nntp", "telnet", "wais",
           "file", "prospero", "mid", "cid", "urn", "x-y", "HTTP", "Ftp", "URL:http", ""]
# the characters the grammars care about, plus unsafe, national, controls, non-ASCII
ALPHABET = "aZ09-._+$!*'(),;/?:@&=%#<>\"{}|\\^~[]` \t\x00\x7f\u00e9\u20ac\U0001f600AaFf"
urlish = st.builds(lambda s, sep, rest: s + sep + rest, st.sampled_from(SCHEMES),
                   st.sampled_from([":", "://", ":/", "://u:p@", "://[", ""]),
                   st.text(ALPHABET, max_size=30))
texts = st.one_of(urlish, st.text(max_size=30),
                  st.text(st.characters(max_codepoint=0xFF), max_size=30),
                  st.text(st.characters(max_codepoint=0x7F), max_size=30))


def run(mod, s):
    cfg = registry.config(mod)
    return (mod.problems(s, cfg), mod.parse_tokens(s, cfg), mod.is_valid(s, cfg, True),
            mod.is_valid(s, cfg, False), mod.validate_many([s, s], cfg, True),
            mod.validate_many([s], cfg, False))


@pytest.mark.twins
@given(texts)
def test_twins_agree(s):
    assert run(TWINS["cython"], s) == run(TWINS["python"], s)


@given(texts)
def test_results_are_consistent(s):
    mod = _select.cores.check
    cfg = registry.config(mod)
    flat = mod.problems(s, cfg)
    t = mod.parse_tokens(s, cfg)
    assert len(flat) % 5 == 0 and len(t) == NFIELDS + 2
    codes = [CODES[c] for c in flat[1::5]]
    assert all(0 <= p < len(PARTS) for p in flat[2::5])
    assert all(0 <= pos <= len(s) for pos in flat[0::5])
    worst = 0 if not codes else (1 if all(c in LENIENT_OK for c in codes) else 2)
    assert t[NFIELDS + 1] == worst
    if not s.startswith("URL:"):   # is_valid strips the prefix; problems does not
        assert mod.is_valid(s, cfg, True) == (worst == 0)
        assert mod.is_valid(s, cfg, False) == (worst < 2)


def test_tables_come_from_charclass():
    # the membership tables are the BNF sets: spot checks against RFC 1738 §5
    tables = dict(TABLES)
    assert tables["hpath"][ord(";")] and not tables["fpath"][ord(";")]
    assert tables["fpath"][ord("?")] and not tables["search"][ord("/")]
    assert not tables["user"][ord(":")] and not tables["user"][ord("@")]
    assert not tables["group"][ord("%")] and tables["uchar"][ord("%")]
    assert all(len(t) == 256 for t in tables.values())


def test_bad_input_types():
    mod = _select.cores.check
    cfg = registry.config(mod)
    for fn in (mod.problems, mod.parse_tokens, mod.is_valid):
        with pytest.raises(TypeError):
            fn(b"http://h/", cfg)
    with pytest.raises(TypeError):
        mod.validate_many(["ok:", 3], cfg, True)


def test_url_prefix_only_in_validation_entry_points():
    mod = _select.cores.check
    cfg = registry.config(mod)
    assert mod.is_valid("URL:http://h/", cfg, True)
    assert mod.validate_many(["URL:http://h/"], cfg, True) == [True]
    # parse_tokens and problems take the URL itself (parse strips the prefix first)
    assert mod.problems("URL:http://h/", cfg)[1::5] == [CODES.index("uppercase-scheme")]


def test_config_refuses_what_the_c_walk_could_not_read_safely():
    from urlsift._grammar import TABLE_BLOB, lenient_ok_blob
    from urlsift.model.url import URL

    ok = lenient_ok_blob()
    slots = tuple(vars(URL)[n] for n in ("_text", "_t", "_x"))
    for mod in TWINS.values():
        with pytest.raises(ValueError):
            mod.Config(["a"], b"", TABLE_BLOB, ok)                 # gids do not match names
        with pytest.raises(ValueError):
            mod.Config(["a"], b"\x63", TABLE_BLOB, ok)            # no grammar 99
        with pytest.raises(ValueError):
            mod.Config([], b"", TABLE_BLOB[:-1], ok)               # a table short
        with pytest.raises(TypeError):
            mod.Config([], b"", TABLE_BLOB, ok, (int,), slots)     # not a URL class
        with pytest.raises(TypeError):
            mod.Config([], b"", TABLE_BLOB, ok, (URL,), slots[:2])
        with pytest.raises(TypeError):                             # no classes: no objects
            mod.parse_new("http://h/", mod.Config([], b"", TABLE_BLOB, ok))
        assert mod.parse_new("z:", mod.Config([], b"", TABLE_BLOB, ok, (URL,), slots)).__class__ is URL


def refusal(mod, s, strict):
    """parse_new's answer, with a URL object reduced to its class name and slots."""
    got = mod.parse_new(s, registry.config(mod), strict)
    if isinstance(got, (int, tuple)):
        return got
    return (type(got).__name__, got._text, got._t)


@pytest.mark.twins
@given(texts)
def test_twins_agree_on_the_refusing_problem(s):
    for strict in (True, False, None):
        assert refusal(TWINS["cython"], s, strict) == refusal(TWINS["python"], s, strict)


@given(texts)
def test_refusing_problem_is_the_first_by_position(s):
    # parse_new(..., strict) names the problem parse raises: the first of all (strict)
    # or the first that lenient mode does not accept; ties go to the first reported
    mod = _select.cores.check
    cfg = registry.config(mod)
    text = s[4:] if s.startswith("URL:") else s
    flat = mod.problems(text, cfg)
    groups = [tuple(flat[k:k + 5]) for k in range(0, len(flat), 5)]
    fatal = [g for g in groups if CODES[g[1]] not in LENIENT_OK]
    for strict, pool in ((True, groups), (False, fatal)):
        got = mod.parse_new(s, cfg, strict)
        if pool:
            assert got == min(pool, key=lambda g: g[0])
        elif groups:
            # lenient mode accepts every problem: the object, in the same walk, with
            # every problem of the strict grammar (issue 27), positions in s
            shift = len(s) - len(text)
            assert [(p.position, p.code) for p in got.problems] == \
                [(g[0] + shift, CODES[g[1]]) for g in sorted(groups, key=lambda g: g[0])]
        else:
            assert not isinstance(got, (int, tuple))


def test_refusing_problem_examples():
    mod = _select.cores.check
    cfg = registry.config(mod)
    # RFC 1738 §2.1: upper case scheme (lenient), then §2.2: space is unsafe (lenient)
    assert mod.parse_new("HTTP://h/a b", cfg, True)[:2] == (0, CODES.index("uppercase-scheme"))
    u = mod.parse_new("HTTP://h/a b", cfg, False)
    assert [(p.position, p.code) for p in u.problems] == [(0, "uppercase-scheme"),
                                                           (10, "unsafe-char")]
    # §3.1 port = digits: fatal; strict refuses at the first problem, lenient at it
    assert mod.parse_new("HTTP://h:x/", cfg, True)[:2] == (0, CODES.index("uppercase-scheme"))
    assert mod.parse_new("HTTP://h:x/", cfg, False)[:2] == (9, CODES.index("bad-port"))
    u = mod.parse_new("URL:http://h/a b", cfg, False)     # positions in s, prefix too
    assert (u.raw, u.path, [(p.position, p.code) for p in u.problems]) == \
        ("URL:http://h/a b", "/a b", [(14, "unsafe-char")])
    assert mod.parse_new("URL:http://h/a b", cfg, True)[:2] == (10, CODES.index("unsafe-char"))


# hosts: the one-byte fast paths (clean hostname, clean hostnumber) against the walk
hosts = st.builds(lambda scheme, h, tail: scheme + h + tail,
                  st.sampled_from(["http://", "ftp://u@", "telnet://", "news:a@", "file://"]),
                  st.one_of(st.text("0123456789.-aZ_", max_size=20),
                            st.lists(st.integers(0, 999).map(str), min_size=1, max_size=6)
                            .map(".".join)),
                  st.sampled_from(["", "/", ":80/", ".", "./x?y"]))


@pytest.mark.twins
@given(hosts)
def test_twins_agree_on_hosts(s):
    assert run(TWINS["cython"], s) == run(TWINS["python"], s)


@pytest.mark.parametrize("host, valid", [
    ("10.0.0.255", True), ("1.2.3.4", True), ("001.2.3.4", True),     # RFC 1738 §3.1
    ("1.2.3.256", False), ("1.2.3", False), ("1.2.3.4.5", False),     # hostnumber = 4 parts
    ("1.2.3.0001", False), ("a.b-c.de", True), ("a-.b", False), ("-a.b", False),
    ("a..b", False), ("a.2b", False), ("2b.a", True), ("h_1.com", False),
    ("...", False), ("1..2.3", False), (".1.2.3", False),      # empty labels: refused, no crash
    # a label of 30 digits: too long for a hostnumber part (at most 3 digits, 0-255), and
    # the one-byte fast path once multiplied it out and overflowed (UBSan, .ci/sanitize)
    ("1.2.3." + "9" * 30, False), ("9" * 30 + ".1.2.3", False)])
def test_hosts(host, valid):
    mod = _select.cores.check
    assert mod.is_valid("http://" + host + "/", registry.config(mod), True) is valid


def test_is_valid_without_config_uses_the_default():
    # the public is_valid calls the core without a Config: the registry's default
    for mod in TWINS.values():
        cfg = registry.config(mod)
        mod.set_default(cfg)
        try:
            assert mod.is_valid("http://h/", None, True) is True
            assert mod.is_valid("http://h/a b", None, True) is False   # RFC 1738 §2.2
            assert mod.is_valid("http://h/a b", None, False) is True
            mod.set_default(None)
            assert mod.is_valid("http://h/", None, True) == -1         # no Config yet
        finally:
            mod.set_default(cfg)
