"""Partial forms: the 1994 URI draft's rules, and RFC 3986 §5.2 on request.

"the draft" is draft-www-uri-00 (spec/001_*.txt), section "Partial (relative)
form"; its rules are quoted in ``urlsift/partial.py``.
"""
from __future__ import annotations

import doctest
from urllib.parse import urljoin

import pytest
from hypothesis import assume, given, strategies as st

from urlsift.model import partial as resolve_module
from urlsift.errors import URLSyntaxError
from urlsift.model.partial import resolve
from urlsift.model.equivalence import remove_dot_segments


def test_docstring_examples():
    assert doctest.testmod(resolve_module).failed == 0


# ---- the draft's worked examples ---------------------------------------------------
# "In the context of URI magic://a/b/c//d/e/f the partial URIs would expand as
# follows: g magic://a/b/c//d/e/g /g magic://a/g //g magic://g ../g
# magic://a/b/c//d/g g:a g:a and in the context of the URI magic://a/b/c//d/e/
# the results would be exactly the same."
DRAFT_EXAMPLES = [
    ("g", "magic://a/b/c//d/e/g"),
    ("/g", "magic://a/g"),
    ("//g", "magic://g"),
    ("../g", "magic://a/b/c//d/g"),
    ("g:a", "g:a"),
]


@pytest.mark.parametrize("context", ["magic://a/b/c//d/e/f", "magic://a/b/c//d/e/"])
@pytest.mark.parametrize("partial,expected", DRAFT_EXAMPLES)
def test_draft_worked_examples(context, partial, expected):
    assert resolve(context, partial) == expected


def test_first_run_of_exactly_as_many_slashes():
    # "up to (but not including) the first occurrence of exactly the same number of
    # consecutive slashes": the "//" runs are skipped, the single "/" after b is it.
    assert resolve("magic://a//b/c", "/g") == "magic://a//b/g"
    assert resolve("magic://a//b/c", "//g") == "magic://g"
    assert resolve("magic://a/b//c/d", "//g") == "magic://g"       # the first "//" wins
    # RFC 3986 keeps the authority instead.
    assert resolve("magic://a//b/c", "/g", rules="rfc3986") == "magic://a/g"


def test_no_run_of_that_many_slashes():
    # The draft is silent; RFC 3986 §5.2.2's prefix: scheme + authority for "/",
    # the scheme alone for more slashes.
    assert resolve("http://a", "/g") == "http://a/g"
    assert resolve("magic://a/b/c//d/e/f", "///g") == "magic:///g"
    assert resolve("mailto:joe", "/g") == "mailto:/g"


def test_draft_dot_segments_in_the_relative_branch():
    # "Within the result, all occurrences of "xxx/../" or "/." are recursively
    # removed, where xxx, ".." and "." are complete path elements."
    base = "http://a/b/c/d;p?q"
    assert resolve(base, "../g") == "http://a/b/g"
    assert resolve(base, "../../g") == "http://a/g"
    assert resolve(base, "./g") == "http://a/b/c/g"
    assert resolve(base, "g/./h") == "http://a/b/c/g/h"
    assert resolve(base, "g/../h") == "http://a/b/c/h"
    assert resolve(base, "./../g") == "http://a/b/g"
    assert resolve(base, "g;x=1/../y") == "http://a/b/c/y"
    # "/." goes with its slash, also at the end (RFC 3986 keeps the slash)
    assert resolve(base, ".") == "http://a/b/c"
    assert resolve(base, "./g/.") == "http://a/b/c/g"
    # "xxx/../" needs the slash after "..": a final ".." stays (RFC 1808 added that case)
    assert resolve(base, "..") == "http://a/b/c/.."
    assert resolve(base, "g/..") == "http://a/b/c/g/.."
    assert resolve(base, "../") == "http://a/b/"
    # ".." never climbs into the host; unmatched ones stay (as in RFC 1808 §5.2)
    assert resolve(base, "../../../g") == "http://a/../g"
    assert resolve(base, "../../../../g") == "http://a/../../g"
    # a void segment is a path element ("The trailing slash indicates a void segment")
    assert resolve("magic://a/b/c//d/e/f", "../../../g") == "magic://a/b/c/g"
    # incomplete elements are names, not dots
    assert resolve(base, "g..") == "http://a/b/c/g.."
    assert resolve(base, "..g") == "http://a/b/c/..g"
    assert resolve(base, ".g") == "http://a/b/c/.g"


def test_draft_dot_segments_only_in_the_path():
    base = "http://a/b/c/d;p?q"
    assert resolve(base, "g?y/../x") == "http://a/b/c/g?y/../x"
    assert resolve(base, "g#s/../x") == "http://a/b/c/g#s/../x"


def test_draft_slash_branch_removes_no_dots():
    # The dot rule follows "Otherwise: ... and then:"; a partial starting with "/"
    # is prepended to as it is.
    assert resolve("http://a/b/c/d;p?q", "/./g") == "http://a/./g"
    assert resolve("http://a/b/c/d;p?q", "/x/../g") == "http://a/x/../g"


def test_draft_drops_the_context_search_and_fragment():
    # fragmentaddress = uri [ # fragmentid ]: the fragment is not part of the
    # context URI; "anything following the rightmost slash" includes the search.
    assert resolve("http://a/b/c?q#f", "g") == "http://a/b/g"
    assert resolve("http://a/b/c?q#f", "/g") == "http://a/g"
    assert resolve("http://a/b/c?q#f", "g#h") == "http://a/b/g#h"


def test_draft_context_without_path():
    assert resolve("http://a", "g") == "http://a/g"          # RFC 1738 §3.3: path "/"
    assert resolve("http://a?x", "g") == "http://a/g"
    assert resolve("mailto:joe@h", "g") == "mailto:g"      # no slash: all is replaced
    assert resolve("magic:/a/b", "../g") == "magic:/g"


def test_draft_absolute_form_is_kept():
    # "a full form must have a colon and that colon must occur before any slash"
    assert resolve("http://a/b", "http:g") == "http:g"
    assert resolve("http://a/b", "ftp://h/x/../y") == "ftp://h/x/../y"
    assert resolve("http://a/b", "./g:h") == "http://a/g:h"   # the slash comes first


@pytest.mark.parametrize("rules", ["draft", "rfc3986"])
def test_where_the_draft_is_silent_rfc3986(rules):
    # RFC 3986 §5.2.2: empty reference = the base without its fragment; "#s" and
    # "?y" keep the base path.
    base = "http://a/b/c/d;p?q#f"
    assert resolve(base, "", rules=rules) == "http://a/b/c/d;p?q"
    assert resolve(base, "#s", rules=rules) == "http://a/b/c/d;p?q#s"
    assert resolve(base, "?y", rules=rules) == "http://a/b/c/d;p?y"
    assert resolve(base, "?y#s", rules=rules) == "http://a/b/c/d;p?y#s"


# ---- RFC 3986 §5.4 ---------------------------------------------------------------------

RFC3986_BASE = "http://a/b/c/d;p?q"
RFC3986_NORMAL = [  # §5.4.1
    ("g:h", "g:h"), ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"),
    ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"), ("//g", "http://g"),
    ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"),
    ("#s", "http://a/b/c/d;p?q#s"), ("g#s", "http://a/b/c/g#s"),
    ("g?y#s", "http://a/b/c/g?y#s"), (";x", "http://a/b/c/;x"),
    ("g;x", "http://a/b/c/g;x"), ("g;x?y#s", "http://a/b/c/g;x?y#s"),
    ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"),
    ("..", "http://a/b/"), ("../", "http://a/b/"), ("../g", "http://a/b/g"),
    ("../..", "http://a/"), ("../../", "http://a/"), ("../../g", "http://a/g"),
]
RFC3986_ABNORMAL = [  # §5.4.2 (strict parser)
    ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"),
    ("/./g", "http://a/g"), ("/../g", "http://a/g"),
    ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"),
    ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"),
    ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"),
    ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
    ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"),
    ("g?y/./x", "http://a/b/c/g?y/./x"), ("g?y/../x", "http://a/b/c/g?y/../x"),
    ("g#s/./x", "http://a/b/c/g#s/./x"), ("g#s/../x", "http://a/b/c/g#s/../x"),
    ("http:g", "http:g"),
]


@pytest.mark.parametrize("partial,expected", RFC3986_NORMAL + RFC3986_ABNORMAL)
def test_rfc3986_examples(partial, expected):
    assert resolve(RFC3986_BASE, partial, rules="rfc3986") == expected


# ---- errors ------------------------------------------------------------------------------

@pytest.mark.parametrize("rules", ["RFC3986", "rfc1808", "", None])
def test_unknown_rules(rules):
    with pytest.raises(ValueError, match="'draft', 'rfc3986'"):
        resolve("http://a/", "g", rules=rules)


@pytest.mark.parametrize("rules", ["draft", "rfc3986"])
def test_base_must_be_absolute(rules):
    with pytest.raises(URLSyntaxError) as info:
        resolve("/a/b", "g", rules=rules)
    assert info.value.code == "missing-scheme"


@pytest.mark.parametrize("rules", ["draft", "rfc3986"])
def test_control_characters(rules):
    with pytest.raises(URLSyntaxError) as info:
        resolve("http://a/b", "g\r\nh", rules=rules)
    assert (info.value.code, info.value.position) == ("control-char", 1)
    with pytest.raises(URLSyntaxError) as info:
        resolve("http://a/\tb", "g", rules=rules)
    assert (info.value.code, info.value.position) == ("control-char", 9)


# ---- properties ----------------------------------------------------------------------------

_SEGMENTS = ["a", "b", "g", ".", "..", ";x", "g;p", "..g", ".g", "%2E", "~u", "x:y"]
_BASE_PATH = st.lists(st.sampled_from(_SEGMENTS), max_size=4).map(lambda s: "/" + "/".join(s))


@st.composite
def bases(draw, fragment: bool = True) -> str:
    scheme = draw(st.sampled_from(["http", "magic", "ftp", "mailto"]))
    path = draw(_BASE_PATH)
    if scheme == "mailto":
        path = path.lstrip("/")
    head = f"{scheme}:" if scheme == "mailto" else f"{scheme}://h"
    query = draw(st.sampled_from(["", "?q", "?"]))
    frag = draw(st.sampled_from(["", "#f", "#"])) if fragment else ""
    return head + path + query + frag


@given(bases(), st.sampled_from(["draft", "rfc3986"]))
def test_empty_reference_is_the_base_without_fragment(base, rules):
    assert resolve(base, "", rules=rules) == base.split("#")[0]


@given(bases(), st.text(st.sampled_from("ab./?#"), max_size=5), st.sampled_from(["draft", "rfc3986"]))
def test_fragment_reference_keeps_the_base(base, frag, rules):
    assert resolve(base, "#" + frag, rules=rules) == base.split("#")[0] + "#" + frag


_SIMPLE = st.lists(st.sampled_from(["a", "b", "g", "g;p", ";x", "~u", "%2E", ".g"]), min_size=1,
                   max_size=4).map("/".join)


@given(bases(fragment=False).filter(lambda b: b.startswith("http://") and "//" not in b[7:]
                                    and "." not in b.split("/")),
       st.sampled_from(["", "/"]), _SIMPLE, st.sampled_from(["", "?y", "#s"]))
def test_draft_agrees_with_rfc3986_without_dots_or_void_segments(base, lead, path, tail):
    # Where neither "." nor ".." nor "//" appears, the two rule sets are the same.
    assume("/./" not in base + "/" and "/../" not in base + "/")
    partial = lead + path + tail
    assert resolve(base, partial) == resolve(base, partial, rules="rfc3986")


# urljoin follows RFC 3986 except (Python 3.11): it keeps "." and ".." in network-path
# references ("//x/./a"), drops void segments ("a//b" -> "a/b"), drops an empty
# query or fragment ("g?", "g#"), treats "http:g" as relative, and keeps the base's
# fragment for an empty reference. Those are left out of the generated references.
_REF_SEGMENT = st.sampled_from(["a", "b", "g", ".", "..", ";x", "g;p", "..g", ".g", "%2E"])


@given(st.lists(_REF_SEGMENT, max_size=4).map(lambda s: "/" + "/".join(s)),
       st.sampled_from(["", "?q"]),
       st.lists(_REF_SEGMENT, min_size=1, max_size=4).map("/".join),
       st.sampled_from(["", "/"]), st.sampled_from(["", "/"]),
       st.sampled_from(["", "?y", "#s", "?y#s"]))
def test_rfc3986_agrees_with_urljoin(base_path, base_query, path, lead, trail, tail):
    base = "http://a" + base_path + base_query
    assume("//" not in base_path)
    partial = lead + path + trail + tail
    assert resolve(base, partial, rules="rfc3986") == urljoin(base, partial)


# ---- RFC 3986 §5.2.4 in one pass: the same output as the step-by-step text ------------

def _remove_dot_segments_by_the_letter(path: str) -> str:
    """RFC 3986 §5.2.4 as written (the input buffer sliced at each step): the oracle."""
    inp, out = path, []
    while inp:
        if inp.startswith("../"):
            inp = inp[3:]
        elif inp.startswith("./"):
            inp = inp[2:]
        elif inp.startswith("/./"):
            inp = inp[2:]
        elif inp == "/.":
            inp = "/"
        elif inp.startswith("/../") or inp == "/..":
            inp = "/" + inp[4:]
            if out:
                out.pop()
        elif inp in (".", ".."):
            inp = ""
        else:
            j = inp.find("/", 1)
            j = len(inp) if j < 0 else j
            out.append(inp[:j])
            inp = inp[j:]
    return "".join(out)


@given(st.text(alphabet="./ab", max_size=40))
def test_dot_segment_removal_follows_the_rfc_text(path):
    # one function for resolve and for normalized(rules="rfc3986")
    assert remove_dot_segments(path) == _remove_dot_segments_by_the_letter(path)


def test_dot_segment_removal_of_many_segments_is_one_pass():
    # 20 000 "/a" then "/.", and 20 000 "./": the results the §5.2.4 steps give
    n = 20000
    assert resolve("http://h/b", "/a" * n + "/.", rules="rfc3986") == "http://h" + "/a" * n + "/"
    assert resolve("http://h/b", "./" * n, rules="rfc3986") == "http://h/"
