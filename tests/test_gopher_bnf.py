"""Gopher URLs are strictly valid exactly when RFC 1738 §5's BNF derives them (issue 21).

§5 (one line in the spec text, set out here)::

    gopherurl      = "gopher://" hostport [ / [ gtype [ selector
                     [ "%09" search [ "%09" gopher+_string ] ] ] ] ]
    gtype          = xchar
    selector       = *xchar
    search         = *[ uchar | ";" | ":" | "@" | "&" | "=" ]
    gopher+_string = *xchar

The grammar is ambiguous: ``xchar`` includes ``escape``, so ``selector`` can take in a
``%09`` and everything after it. Strict validity is membership in the language: a string
is valid when *some* derivation accepts it. So ``gopher://h/7sel%09a/b`` is valid (the
derivation gtype ``7``, selector ``sel%09a/b``), though the derivation that splits at
``%09`` fails on the ``/`` (search has no ``/`` or ``?``). §3.4's prose says to split
there ("<gophertype><selector>%09<search>", and "Within the <gopher-path>, no characters
are reserved"), so ``u.search`` is ``a/b``, and the departure from §5's search rule is a
warning, ``ambiguous-search``, at each ``/`` and ``?`` of that search — not a problem.

Positions are counted by hand: ``gopher://h/`` is 11 characters, so the gtype is at 11.
Every test runs on both cores (conftest); ``test_the_twins_agree`` compares them directly.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urlsift import _select, check, is_valid, parse
from urlsift.model import registry

# ---- the cases worked out from §5 by hand ------------------------------------------------
# (url, (gtype, selector, search, gopher+), warnings as (position, code))
VALID = [
    # the URL: the prose split fails on "/", the selector derivation accepts it
    ("gopher://h/7sel%09a/b", ("7", "sel", "a/b", None), [(19, "ambiguous-search")]),
    ("gopher://h/7sel%09a?b", ("7", "sel", "a?b", None), [(19, "ambiguous-search")]),
    # 7 at 11, %09 12-14, a 15, "/" 16, b 17, %09 18-20, c 21, "/" 22 (gopher+: no warning)
    ("gopher://h/7%09a/b%09c/d", ("7", "", "a/b", "c/d"), [(16, "ambiguous-search")]),
    # a search of ";:@&=" is §5's search: no warning
    ("gopher://h/7sel%09;:@&=", ("7", "sel", ";:@&=", None), []),
    # "%09" inside what §5 may call the search (search = *uchar includes escapes): §3.4
    # splits at the first two %09 only, so the second starts the gopher+ string
    ("gopher://h/7sel%09a%09b", ("7", "sel", "a", "b"), []),
    # a third %09 stays in the gopher+ string (*xchar); it would split a Gopher+ command:
    # the §6 warning at 23 (7 at 11, sel 12-14, %09 15-17, a 18, %09 19-21, b 22)
    ("gopher://h/7sel%09a%09b%09c", ("7", "sel", "a", "b\tc"), [(23, "encoded-delimiter")]),
    # the gopher+ string is *xchar: "/" and "?" are fine there
    ("gopher://h/0s%09q%09+a/b?c", ("0", "s", "q", "+a/b?c"), []),
    # search with "/", then a gopher+ string: the warning at 17 only
    ("gopher://h/0s%09a/b%09+x", ("0", "s", "a/b", "+x"), [(17, "ambiguous-search")]),
    # empty selector (§3.4: "The Gopher selector string may be an empty string")
    ("gopher://h/7%09foo", ("7", "", "foo", None), []),
    ("gopher://h/7%09", ("7", "", "", None), []),
    ("gopher://h/7%09%09", ("7", "", "", ""), []),
    ("gopher://h/7%09?", ("7", "", "?", None), [(15, "ambiguous-search")]),
    # gtype only; an empty gopher-path defaults to gtype "1" (§3.4)
    ("gopher://h/7", ("7", "", None, None), []),
    ("gopher://h/", ("1", "", None, None), []),
    ("gopher://h", ("1", "", None, None), []),
    # gtype = xchar, and an escape is one xchar: "%09" first is the gtype (a tab), not
    # the search's delimiter, which needs a gtype before it (docs/decisions.md)
    ("gopher://h/%09", ("\t", "", None, None), []),
    ("gopher://h/%09%09x", ("\t", "", "x", None), []),
    # the selector holds "/" and "?" (*xchar); §3.4: "no characters are reserved"
    ("gopher://h/0a/b?c", ("0", "a/b?c", None, None), []),
]


@pytest.mark.parametrize("url, parts, warnings", VALID)
def test_what_the_bnf_derives_is_valid(url, parts, warnings):
    assert check(url) == []
    assert is_valid(url) and is_valid(url, strict=False)
    u = parse(url)
    assert (u.gtype, u.selector, u.search, u.gopher_plus) == parts
    assert u.problems == ()
    assert [(w.position, w.code) for w in u.warnings] == warnings


# Not xchar in any derivation: still errors (§2.2 unsafe, §2.2 escape = "%" hex hex),
# the message naming the part §3.4's split puts the character in.
INVALID = [
    ("gopher://h/7a b", 13, "unsafe-char", "selector"),
    ("gopher://h/7sel%09a b", 19, "unsafe-char", "search"),
    ("gopher://h/7sel%09a{b", 19, "unsafe-char", "search"),
    ("gopher://h/7sel%09a%zz", 19, "bad-escape", "search"),
    ("gopher://h/7s%09q%09a b", 21, "unsafe-char", "gopher_plus"),
]


@pytest.mark.parametrize("url, position, code, part", INVALID)
def test_what_no_derivation_takes_is_invalid(url, position, code, part):
    problems = check(url)
    assert [(p.position, p.code) for p in problems] == [(position, code)]
    assert part in problems[0].message
    assert not is_valid(url)
    assert is_valid(url, strict=False)            # character-level: accepted leniently
    assert [p.code for p in parse(url, strict=False).problems] == [code]


def test_the_warning_message_says_why():
    (w,) = parse("gopher://h/7sel%09a/b").warnings
    assert "'a/b'" in w.message and "§5" in w.message and "§3.4" in w.message


# ---- the BNF itself as an oracle ------------------------------------------------------------
# §5's gopherurl for host "h" as a regular expression: Python's re backtracks through the
# alternatives, so a fullmatch means that some derivation accepts the string.
_ESCAPE = r"%[0-9A-Fa-f]{2}"
_UNRESERVED = r"[A-Za-z0-9$\-_.+!*'(),]"
_XCHAR = rf"(?:{_UNRESERVED}|[;/?:@&=]|{_ESCAPE})"
_SEARCH = rf"(?:{_UNRESERVED}|{_ESCAPE}|[;:@&=])"
BNF = re.compile(rf"gopher://h(?:/(?:{_XCHAR}(?:{_XCHAR}*(?:%09{_SEARCH}*(?:%09{_XCHAR}*)?)?)?)?)?")

PIECES = ["%09", "%09", "/", "?", "a", "7", "%", "%2F", "%zz", " ", ";", "{", "=", "0", "9",
          "#", "\t", "é"]
paths = st.lists(st.sampled_from(PIECES), max_size=10).map("".join)
gopher_urls = paths.map(lambda path: "gopher://h/" + path)


def _search_marks(url: str) -> list[int]:
    """Where §3.4's search holds "/" or "?": after the gtype, between the first two %09."""
    path = url[11:]
    gtype = 3 if path[:1] == "%" and len(path) >= 3 else 1
    t1 = path.find("%09", gtype)
    if t1 < 0:
        return []
    t2 = path.find("%09", t1 + 3)
    search = path[t1 + 3:] if t2 < 0 else path[t1 + 3:t2]
    return [11 + t1 + 3 + i for i, ch in enumerate(search) if ch in "/?"]


@given(gopher_urls)
def test_strict_validity_is_membership_in_the_bnf(url):
    body = url.split("#", 1)[0]
    fragment_ok = "#" not in url or re.fullmatch(rf"{_XCHAR}*", url.split("#", 1)[1])
    assert is_valid(url) == bool(BNF.fullmatch(body) and fragment_ok), url
    if is_valid(url):
        marks = [w.position for w in parse(url).warnings if w.code == "ambiguous-search"]
        assert marks == _search_marks(body), url


TWINS = _select.twins("_check")


@pytest.mark.twins
@pytest.mark.twins
@given(gopher_urls)
def test_the_twins_agree(url):
    got = []
    for mod in TWINS.values():
        cfg = registry.config(mod)
        got.append((mod.problems(url, cfg), mod.parse_tokens(url, cfg),
                    mod.is_valid(url, cfg, True), mod.is_valid(url, cfg, False)))
    assert got[0] == got[1], url
