"""The JSON-escape core (``urlsift._json_py`` and its compiled twin): runs read, escapes
listed, offsets mapped back, matches remapped (issue 21: JSON logs; what a run is:
``urlsift.text.jsonescapes``). Expected values are worked out from RFC 8259 §7 (the
escapes) and RFC 1738 §2.2 (what is %-encoded in a URL)."""
from __future__ import annotations

import pytest
from hypothesis import given, settings, strategies as st

from urlsift import _select
from urlsift.text.jsonescapes import unescape_json
from urlsift.text.match import Match
from urlsift.text.rules import TABLE

TWINS = _select.twins("_json")


@pytest.fixture
def json_core(core_kind):
    """The _json module of the core the test runs on (tests/conftest.py)."""
    return TWINS[core_kind]


def test_a_run_is_read_and_its_escapes_listed(json_core):
    text = b'x "https:\\/\\/a.example\\/p" y'
    new, runs, escapes = json_core.unescape(text, TABLE)
    assert new == b'x "https://a.example/p" y'
    # the run: from the colon (8) to the '"' that ends it (25), 3 octets shorter
    assert list(runs) == [8, 25, 8, 22]
    # each "\/" (width 2) read as "/" (size 1)
    assert list(escapes) == [9, 9, 2, 1, 11, 10, 2, 1, 22, 20, 2, 1]


@pytest.mark.parametrize("escape, read", [
    (b"\\u002f", b"/"), (b"\\u002F", b"/"),             # an escaped solidus, either case
    (b"\\u0041", b"A"),                                   # a bare character as itself
    (b"\\u0020", b"%20"),                                 # space: unsafe, %-encoded (§2.2)
    (b"\\u007B", b"%7B"),                                 # "{": unsafe
    (b"\\u00e9", b"%C3%A9"),                              # U+00E9: its UTF-8 octets
    (b"\\u20AC", b"%E2%82%AC"),                           # U+20AC: three octets
    (b"\\ud83d\\ude00", b"%F0%9F%98%80"),                 # a surrogate pair: U+1F600
])
def test_each_escape_is_read_as_the_url_writes_it(json_core, escape, read):
    new, _, escapes = json_core.unescape(b"http:\\/\\/h\\/" + escape, TABLE)
    assert new == b"http://h/" + read
    assert list(escapes[-4:]) == [12, 9, len(escape), len(read)]


@pytest.mark.parametrize("text", [
    b"http:/\\/h",              # one slash escaped, one not: no run
    b"http:\\/h",               # one escaped slash only
    b"http:\\u002g\\/h",        # not hex
    b"plain http://h/ text",    # nothing escaped
    b"",
])
def test_no_run_leaves_the_text_as_it_is(json_core, text):
    new, runs, escapes = json_core.unescape(text, TABLE)
    assert new is text or new == text
    assert len(runs) == 0 and len(escapes) == 0


def test_a_lone_surrogate_and_a_backslash_end_the_run(json_core):
    new, runs, _ = json_core.unescape(b"http:\\/\\/h\\udc00x http:\\/\\/g\\\\y", TABLE)
    assert new == b"http://h\\udc00x http://g\\\\y"
    # "http:" at 0 and 18; each run 2 octets shorter, ended before "\udc00" and "\\"
    assert list(runs) == [4, 10, 4, 8, 22, 28, 20, 24]


def test_a_closing_escaped_quote_is_read_as_a_quote(json_core):
    new, runs, escapes = json_core.unescape(b'"{\\"u\\":\\"http:\\/\\/h\\/\\"}"', TABLE)
    assert new == b'"{\\"u\\":\\"http://h/"}"'
    assert list(escapes[-4:]) == [22, 19, 2, 1]         # the \" after the run
    assert list(runs) == [14, 24, 14, 20]


def test_old_offset_inside_an_escape_goes_to_its_edges(json_core):
    _, _, escapes = json_core.unescape(b"a:\\/\\/b\\u00e9c", TABLE)
    # written: a : \/ \/ b \u00e9 c at 0 1 2 4 6 7 13; read: a : / / b %C3%A9 c at 0-5, 11
    assert json_core.old_offset(escapes, 4, False) == 6           # "b"
    assert json_core.old_offset(escapes, 5, False) == 7           # the escape's start
    assert json_core.old_offset(escapes, 8, False) == 7           # inside: its start
    assert json_core.old_offset(escapes, 8, True) == 13           # inside: its end
    assert json_core.old_offset(escapes, 11, True) == 13          # before "c"
    assert json_core.old_offset(escapes, 12, True) == 14          # the end


def test_remap_moves_offsets_and_marks_what_held_escapes(json_core):
    text = b'x "http:\\/\\/h\\/p" http://g/ y'
    new, _, escapes = json_core.unescape(text, TABLE)
    assert new == b'x "http://h/p" http://g/ y'
    built = [Match("http://h/p", 3, 13, "http://h/p"), Match("http://g/", 15, 24, "http://g/")]
    out = json_core.remap(built, escapes, text, 100, 0, "json-escapes")
    assert [tuple(m) for m in out] == [
        ("http://h/p", 103, 116, "http:\\/\\/h\\/p", False, False, ("json-escapes",), None),
        ("http://g/", 118, 127, "http://g/", False, False, (), None)]
    assert all(type(m) is Match for m in out)
    # a match that starts before last_end (the previous piece's last match) is left out
    assert [m.url for m in json_core.remap(built, escapes, text, 100, 110, "e")] == ["http://g/"]


_PIECES = [b":", b"\\/", b"\\u002f", b"\\u002F", b"\\u00e9", b"\\ud83d", b"\\ude00",
           b"\\u0041", b"a", b"\\\"", b'"', b" ", b"\xc3\xa9", b"\\", b"u", b"/", b"\\u12",
           b"\xff", b"http", b"{"]


@pytest.mark.twins
@settings(max_examples=500)
@given(st.lists(st.sampled_from(_PIECES), max_size=24))
def test_the_twins_agree_with_each_other_and_the_str_reference(pieces):
    text = b"".join(pieces)
    c, p = TWINS["cython"], TWINS["python"]
    got = c.unescape(text, TABLE)
    assert got == p.unescape(text, TABLE)
    # the reference (str and bytes) of urlsift.text.jsonescapes writes the same text
    assert got[0] == unescape_json(text)[0]
    for q in range(len(got[0]) + 1):
        assert c.old_offset(got[2], q, True) == p.old_offset(got[2], q, True)
        assert c.old_offset(got[2], q, False) == p.old_offset(got[2], q, False)


def test_bad_arguments_are_refused(json_core):
    with pytest.raises(ValueError):
        json_core.unescape(b"x", b"short table")
    with pytest.raises(TypeError):
        json_core.unescape("a str", TABLE)
