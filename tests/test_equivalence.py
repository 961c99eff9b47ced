"""Equivalence: the rules 1-7 of docs/design.md#equivalence and the 1994 URI draft's examples.

"the draft" is draft-www-uri-00 (spec/001_*.txt), section "Reduced or increased
safe character sets", whose examples 1-3 are quoted below.
"""
from __future__ import annotations

import doctest

import pytest
from hypothesis import assume, given, strategies as st

from urlsift.model import equivalence, ports
from urlsift.model.equivalence import equivalent, normalized
from urlsift.errors import URLSyntaxError


def same(a: str, b: str) -> None:
    assert equivalent(a, b) and equivalent(b, a), (normalized(a), normalized(b))


def different(a: str, b: str) -> None:
    assert not equivalent(a, b) and not equivalent(b, a), normalized(a)


def test_docstring_examples():
    for module in (equivalence, ports):
        assert doctest.testmod(module).failed == 0


# ---- the draft's examples 1-3 -----------------------------------------------------

def test_draft_example_1_encoded_hyphen_is_the_hyphen():
    # "are identical, as the %2D encodes a hyphen character"
    same("http://info.cern.ch/albert/bertram/marie-claude",
         "http://info.cern.ch/albert/bertram/marie%2Dclaude")


def test_draft_example_2_encoded_slash_is_not_a_slash():
    # "are NOT identical, as in the second case the encoded slash does not have
    # hierarchical significance"
    different("http://info.cern.ch/albert/bertram/marie-claude",
              "http://info.cern.ch/albert/bertram%2Fmarie-claude")


@pytest.mark.parametrize("url", [
    "fxqn:/us/va/reston/cnri/ietf/24/asdf%*.fred",
    "news:12345667123%asdghfh@info.cern.ch",
])
def test_draft_example_3_malformed_escapes_are_kept_as_written(url):
    # "there is no decoding defined for "%*" or "%as"": nothing is guessed, the
    # text is kept literally (not even the "a" of "%as" is upper-cased).
    assert normalized(url) == url
    assert equivalent(url, url)


def test_malformed_escape_is_not_a_percent_sign():
    # The draft reserves "%as" "for future extension"; "%25" is a real "%" (§2.2).
    different("news:12345667123%asdghfh@info.cern.ch",
              "news:12345667123%25asdghfh@info.cern.ch")
    different("news:1%asd@h", "news:1%ASd@h")        # compared as written
    different("fxqn:/asdf%*.fred", "fxqn:/asdf%25*.fred")


def test_decoding_never_completes_a_malformed_escape():
    # "%4" is malformed; decoding the "%31" after it would write "%41", an escape
    # of "A" that was not there: the "%31" stays encoded.
    assert normalized("magic:%4%31") == "magic:%4%31"
    different("magic:%4%31", "magic:%41")
    assert normalized("magic:%%34%31") == "magic:%%341"


# ---- rule 1: scheme and host are case-folded, nothing else ---------------------------

def test_rule1_scheme_and_host_fold():
    same("HTTP://INFO.CERN.CH/albert", "http://info.cern.ch/albert")
    same("Gopher://Host.Dom:70/", "gopher://host.dom/")
    same("magic://A.B/x", "magic://a.b/x")       # any "//" form has a host (§3.1)


def test_rule1_nothing_else_folds():
    different("http://h/Albert", "http://h/albert")
    different("ftp://Joe@h/", "ftp://joe@h/")
    different("ftp://joe:PW@h/", "ftp://joe:pw@h/")
    different("http://h/a?Q", "http://h/a?q")
    different("http://h/a#X", "http://h/a#x")
    different("mailto:joe@CERN.ch", "mailto:joe@cern.ch")   # no mailto domain folding
    different("news:comp.Infosystems", "news:comp.infosystems")


def test_rule1_folds_ascii_letters_only():
    # DNS names are case-insensitive in ASCII only; "É" is left as it is.
    assert normalized("http://ÉCOLE.FR/") == "http://École.fr/"
    different("http://ÉCOLE.FR/", "http://école.fr/")


# ---- rule 2: decode only alphanumerics and $-_.!*'(), --------------------------------

@pytest.mark.parametrize("char", list("AZaz09$-_.!*'(),"))
def test_rule2_decodes_alphanumerics_and_marks(char):
    code = "%{:02X}".format(ord(char))
    same(f"http://h/x{code}y", f"http://h/x{char}y")
    same(f"http://h/x{code.lower()}y", f"http://h/x{char}y")


def test_rule2_decoded_letters_keep_their_case():
    different("http://h/%41", "http://h/a")     # %41 is "A", and paths are not folded


@pytest.mark.parametrize("char", list(";/?:@=&") + ["%", "+"] + list(' <>"#{}|\\^~[]`'))
def test_rule2_never_decodes_reserved_percent_plus_or_unsafe(char):
    code = "%{:02X}".format(ord(char))
    different(f"http://h/a{code}b", f"http://h/a{char}b")
    assert code in normalized(f"http://h/a{code.lower()}b")


def test_rule2_upper_cases_the_hex_of_kept_escapes():
    same("http://h/a%2fb", "http://h/a%2Fb")
    same("http://h/caf%c3%a9", "http://h/caf%C3%A9")
    assert normalized("http://h/%7e%2b?a%3db#%2f") == "http://h/%7E%2B?a%3Db#%2F"


def test_rule2_never_encodes():
    # Only decoding: the raw character and its escape stay different.
    different("http://h/a b", "http://h/a%20b")
    different("http://h/café", "http://h/caf%C3%A9")


def test_rule2_applies_to_every_part():
    same("ftp://j%6Fe:p%61ss@h/", "ftp://joe:pass@h/")
    same("http://h/a?%61=1", "http://h/a?a=1")
    same("http://h/#s%65c", "http://h/#sec")
    same("mailto:j%6Fe@h", "mailto:joe@h")
    same("http://%41.b/", "http://a.b/")              # decoded into a host: folded too
    different("mailto:joe%40h", "mailto:joe@h")


# ---- rule 3: ports are numbers; the default port is no port -------------------------

# RFC 1738 §3: "If :<port> is omitted, the port defaults to ..." (https: RFC 2818).
@pytest.mark.parametrize("scheme,port", [
    ("ftp", 21), ("http", 80), ("https", 443), ("gopher", 70), ("nntp", 119),
    ("telnet", 23), ("wais", 210), ("prospero", 1525), ("rlogin", 513), ("tn3270", 23),
])
def test_rule3_default_port_equals_no_port(scheme, port):
    same(f"{scheme}://h.dom:{port}/x", f"{scheme}://h.dom/x")
    same(f"{scheme}://h.dom:0{port}/x", f"{scheme}://h.dom/x")
    different(f"{scheme}://h.dom:{port + 1}/x", f"{scheme}://h.dom/x")


def test_rule3_ports_compare_as_numbers():
    same("http://h:8080/", "http://h:08080/")
    different("http://h:8080/", "http://h:8081/")
    different("http://h:443/", "http://h/")            # https's default, not http's
    different("magic://h:80/", "magic://h/")           # no default for an unknown scheme
    different("file://h:80/x", "file://h/x")


@pytest.mark.parametrize("scheme", ["http", "ftp", "magic"])
def test_rule3_a_port_of_thousands_of_digits_is_still_a_number(scheme):
    # issue 25: int() refuses more than 4300 digits; the port is compared as a number all
    # the same (RFC 1738 §3.1: port = digits) - leading zeros dropped - and never raises
    many = "7" * 5000
    assert normalized(f"{scheme}://h:{many}/") == f"{scheme}://h:{many}/"
    same(f"{scheme}://h:{'0' * 5000}{many}/", f"{scheme}://h:{many}/")
    same(f"{scheme}://h:{'0' * 5000}7/", f"{scheme}://h:7/")
    different(f"{scheme}://h:{many}/", f"{scheme}://h:{many}7/")
    assert normalized(f"{scheme}://h:{'0' * 5000}/") == f"{scheme}://h:0/"


def test_rule3_a_default_port_behind_thousands_of_zeros_is_no_port():
    same("http://h:" + "0" * 5000 + "80/x", "http://h/x")
    same("ftp://h:" + "0" * 5000 + "21/x", "ftp://h/x")
    assert equivalent("http://h:" + "8" * 5000 + "/", "HTTP://H:" + "8" * 5000 + "/")


def test_rule3_empty_port_is_no_port():
    same("http://h:/", "http://h/")                    # RFC 3986 §6.2.3


def test_rule3_non_numeric_port_is_kept_as_written():
    assert normalized("http://h:8o/") == "http://h:8o/"
    different("http://h:8o/", "http://h/")


# ---- rule 4: http/https/gopher: absent path = "/"; gopher "" = "/1" ---------------------

@pytest.mark.parametrize("scheme", ["http", "https", "gopher"])
def test_rule4_absent_path_is_slash(scheme):
    # RFC 1738 §3.3: "the "/" may also be omitted"; §3.4: "the delimiting "/" is
    # also optional"
    same(f"{scheme}://h.dom", f"{scheme}://h.dom/")
    same(f"{scheme}://h.dom#f", f"{scheme}://h.dom/#f")


def test_rule4_gopher_empty_path_is_type_1():
    # RFC 1738 §3.4: the <gopher-path> may be empty and "the <gophertype>
    # defaults to "1""
    same("gopher://h.dom", "gopher://h.dom/1")
    same("gopher://h.dom/", "gopher://h.dom/1")
    different("gopher://h.dom/", "gopher://h.dom/0")
    different("gopher://h.dom/1x", "gopher://h.dom/1")


def test_rule4_search_without_path():
    same("http://h.dom?q", "http://h.dom/?q")


def test_rule4_only_those_schemes():
    different("ftp://h.dom", "ftp://h.dom/")           # ftp segments () vs ("",)
    different("magic://h.dom", "magic://h.dom/")
    different("http://h.dom/a", "http://h.dom/a/")


# ---- rule 5: file://localhost/ = file:/// --------------------------------------------

def test_rule5_localhost_is_the_empty_host():
    # RFC 1738 §3.10: "<host> can be the string "localhost" or the empty string"
    same("file://localhost/etc/motd", "file:///etc/motd")
    same("file://LOCALHOST/etc/motd", "file:///etc/motd")


def test_rule5_only_file_and_only_localhost():
    different("file://vms.host.edu/etc/motd", "file:///etc/motd")
    different("http://localhost/", "http:///")
    different("file:/etc/motd", "file:///etc/motd")   # no "//": not the same form


# ---- rule 6: an empty fragment is no fragment ----------------------------------------

def test_rule6_void_fragment():
    # the draft, "Fragment-id": "A void fragment-id with or without the hash sign
    # means that the URL refers to the whole object"
    same("http://h/a#", "http://h/a")
    same("mailto:joe@h#", "mailto:joe@h")
    different("http://h/a#x", "http://h/a")
    different("http://h/a#x", "http://h/a#y")


# ---- rule 7: ftp typecodes are case-insensitive ----------------------------------------

@pytest.mark.parametrize("code", "aid")
def test_rule7_typecode_case(code):
    # RFC 1738 §5: ftptype = "A" | "I" | "D" | "a" | "i" | "d"
    same(f"ftp://h/pub/f;type={code.upper()}", f"ftp://h/pub/f;type={code}")


def test_rule7_only_the_typecode_of_ftp():
    different("ftp://h/pub/F;type=a", "ftp://h/pub/f;type=a")
    different("ftp://h/pub/f;TYPE=a", "ftp://h/pub/f;type=a")
    different("ftp://h/pub/f;type=a", "ftp://h/pub/f;type=i")
    different("http://h/pub/f;type=A", "http://h/pub/f;type=a")
    same("ftp://h/pub/f;type=%49", "ftp://h/pub/f;type=i")   # rule 2, then rule 7


# ---- and nothing else ------------------------------------------------------------------

def test_no_dot_segment_removal_and_no_hostnumber_rewriting():
    different("http://h/a/./b", "http://h/a/b")
    different("http://h/a/../b", "http://h/b")
    different("http://127.0.0.1/", "http://127.000.000.001/")
    different("ftp://@h/", "ftp://h/")                 # RFC 1738 §3.1: empty user != none
    different("ftp://foo:@h/", "ftp://foo@h/")


# ---- errors ------------------------------------------------------------------------------

@pytest.mark.parametrize("url,pos", [("http://a/\nb", 9), ("http://a/b\x7f", 10), ("\x00", 0)])
def test_control_characters_raise(url, pos):
    for call in (lambda: normalized(url), lambda: equivalent("http://a/", url)):
        with pytest.raises(URLSyntaxError) as info:
            call()
        assert (info.value.code, info.value.position) == ("control-char", pos)


def test_no_scheme_raises():
    with pytest.raises(URLSyntaxError) as info:
        normalized("/albert/bertram")
    assert info.value.code == "missing-scheme"


def test_lenient_input_is_accepted():
    # equivalent() reads leniently: unsafe, national and non-ASCII text compare as written
    same("http://h/a{b}", "http://h/a{b}")
    same("HTTP://[2001:DB8::1]:80/x", "http://[2001:db8::1]/x")


# ---- properties --------------------------------------------------------------------------

_SCHEMES = st.sampled_from(["http", "HTTP", "https", "gopher", "ftp", "file", "mailto",
                            "news", "magic", "telnet"])
# Pieces that meet the rules: escapes of every kind (decodable, reserved, malformed,
# lower-case hex), delimiters, ports, "localhost", typecodes.
_PIECES = list("aAbZz09.-_~%:@/?#;=&+ !*'(),$éF") + [
    "%41", "%61", "%34", "%31", "%2d", "%2F", "%3a", "%25", "%2B", "%7e", "%C3%A9", "%4",
    "%%", "%*", "%as", "localhost", "LocalHost", ":80", ":021", ":", ";type=I", ";type=",
]
_BODY = st.lists(st.sampled_from(_PIECES), max_size=12).map("".join)
_ANY_TEXT = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=30)


@st.composite
def urls(draw) -> str:
    scheme = draw(_SCHEMES)
    slashes = draw(st.sampled_from(["//", "", "/"]))
    body = draw(st.one_of(_BODY, _ANY_TEXT))
    return f"{scheme}:{slashes}{body}"


@given(urls())
def test_normalized_is_idempotent(url):
    once = normalized(url)
    assert normalized(once) == once


@given(urls())
def test_equivalent_is_reflexive(url):
    assert equivalent(url, url)


def _variant(url: str, data) -> str:
    """Another spelling of ``url``: scheme case changed, a default port or "#" added."""
    scheme, rest = url.split(":", 1)
    if data.draw(st.booleans()):
        scheme = scheme.swapcase()
    if data.draw(st.booleans()):
        rest += "#"
    return f"{scheme}:{rest}"


@given(urls(), urls(), st.data())
def test_equivalent_is_symmetric(a, b, data):
    b = data.draw(st.sampled_from([b, _variant(a, data)]))
    assert equivalent(a, b) == equivalent(b, a)


_SEGMENT = st.text(st.sampled_from("abcXYZ019-_."), min_size=1, max_size=6)


@given(st.lists(_SEGMENT, min_size=1, max_size=4), st.data())
def test_encoding_an_alphanumeric_gives_an_equivalent_url(segments, data):
    path = "/".join(segments)
    at = data.draw(st.sampled_from([i for i, ch in enumerate(path) if ch.isalnum()] or [-1]))
    assume(at >= 0)
    code = "%{:02X}".format(ord(path[at]))
    if data.draw(st.booleans()):
        code = code.lower()
    url = f"http://h.dom/{path}"
    assert equivalent(url, f"http://h.dom/{path[:at]}{code}{path[at + 1:]}")


@given(st.lists(_SEGMENT, min_size=2, max_size=4), st.data())
def test_encoding_a_slash_gives_a_different_url(segments, data):
    path = "/".join(segments)
    at = data.draw(st.sampled_from([i for i, ch in enumerate(path) if ch == "/"]))
    code = data.draw(st.sampled_from(["%2F", "%2f"]))
    assert not equivalent(f"http://h.dom/{path}", f"http://h.dom/{path[:at]}{code}{path[at + 1:]}")


def test_the_url_prefix_is_no_part_of_the_url():
    # RFC 1738 appendix: "URL:" before a URL marks it as one; parse reads it as a prefix
    # (kept only in .raw), and equivalence reads it the same way (found by fuzz_equivalence)
    import urlsift
    assert urlsift.parse("URL:http://a.example/") == urlsift.parse("http://a.example/")
    assert urlsift.equivalent("URL:http://a.example/", "http://a.example/")
    assert urlsift.normalized("URL:ftp://H.example/f;type=A") == "ftp://h.example/f;type=a"
    assert urlsift.normalized("URL:URL:x") == "url:x"     # one prefix, as parse strips one
