"""%hex codec (RFC 1738 §2.2). Runs on both cores (see conftest)."""
import urllib.parse

import pytest
from hypothesis import given
from hypothesis import strategies as st

from urlsift import URLSyntaxError
from urlsift.codec import quote, unquote, unquote_to_bytes

HEXDIGITS = "0123456789ABCDEFabcdef"


# ---- decoding -------------------------------------------------------------------

@pytest.mark.parametrize("text, octets", [
    ("", b""),
    ("plain", b"plain"),
    ("a%20b", b"a b"),
    ("%41%42", b"AB"),
    ("%e9", b"\xe9"),                   # §2.2: "abcdef may also be used"
    ("%2F", b"/"),                      # a reserved character comes back too
    ("%00", b"\x00"),
    ("%25", b"%"),
    ("%2525", b"%25"),                  # one level only
    ("x%FFy", b"x\xffy"),
    ("é%20", "é ".encode()),            # non-ASCII str is taken as UTF-8
])
def test_unquote_to_bytes(text, octets):
    assert unquote_to_bytes(text) == octets
    assert unquote_to_bytes(text.encode("utf-8")) == octets
    assert unquote_to_bytes(bytearray(text.encode("utf-8"))) == octets
    assert unquote_to_bytes(memoryview(text.encode("utf-8"))) == octets


@pytest.mark.parametrize("text, position, quoted", [
    ("%", 0, "%"),
    ("ab%4", 2, "%4"),
    ("%zz", 0, "%zz"),
    ("ok%41%g1", 5, "%g1"),
    ("100%", 3, "%"),
    ("é%4", 1, "%4"),                   # position counts characters of a str
])
def test_malformed_escape_is_reported_with_position(text, position, quoted):
    with pytest.raises(URLSyntaxError) as info:
        unquote_to_bytes(text)
    err = info.value
    assert isinstance(err, ValueError)
    assert err.code == "bad-escape" and err.position == position
    assert repr(quoted) in str(err)
    with pytest.raises(URLSyntaxError) as info:
        unquote(text)
    assert info.value.position == position


def test_malformed_escape_position_in_bytes_counts_octets():
    with pytest.raises(URLSyntaxError) as info:
        unquote_to_bytes("é%4".encode())
    assert info.value.position == 2


@pytest.mark.parametrize("text, kept", [
    ("%", b"%"), ("100%", b"100%"), ("%zz", b"%zz"), ("%4", b"%4"),
    ("%%41", b"%A"), ("%4%41", b"%4A"),
])
def test_lenient_keeps_malformed_escapes_literally(text, kept):
    assert unquote_to_bytes(text, strict=False) == kept
    assert unquote(text, strict=False) == kept.decode()


def test_unquote_text():
    assert unquote("caf%C3%A9") == "café"
    assert unquote("é%20x") == "é x"
    assert unquote(b"caf%C3%A9") == "café"
    assert unquote("%E9t%E9", encoding="latin-1") == "été"
    assert unquote("no escapes") == "no escapes"


def test_errors_is_only_about_the_text_decoding():
    with pytest.raises(URLSyntaxError, match="undecodable"):
        unquote("%FF")
    assert unquote("%FF", errors="replace") == "\ufffd"
    assert unquote("%FF", errors="surrogateescape") == "\udcff"
    # strict=False does not change how octets are decoded
    with pytest.raises(URLSyntaxError, match="undecodable"):
        unquote("%FF%", strict=False)


# ---- octets that are not UTF-8 (issue 24): what and where, from both cores ----------
# RFC 3629 §3-§4: a lead octet needs its continuation octets (10xxxxxx), C0/C1 and
# F5-FF never appear, E0 needs A0-BF next (no overlong), ED needs 80-9F (no surrogate).

@pytest.mark.parametrize("text, position, written, octets", [
    ("%E9", 0, "%E9", "E9"),                     # issue 24: a Latin-1 é, truncated at the end
    ("caf%E9", 3, "%E9", "E9"),
    ("caf%C3", 3, "%C3", "C3"),                  # a two-octet sequence cut at the end
    ("a%E2%82", 1, "%E2%82", "E2 82"),           # three-octet sequence, two given
    ("%80", 0, "%80", "80"),                     # a lone continuation octet
    ("ok%41%BF", 5, "%BF", "BF"),
    ("%C0%AF", 0, "%C0", "C0"),                  # overlong '/': C0 is never a lead
    ("%E0%80%AF", 0, "%E0", "E0"),               # overlong three-octet form
    ("%ED%A0%80", 0, "%ED", "ED"),               # the surrogate U+D800
    ("%F5%80%80%80", 0, "%F5", "F5"),            # above U+10FFFF
    ("%E9t%E9", 0, "%E9", "E9"),                 # Latin-1 été: the first one is reported
    ("é%E9", 1, "%E9", "E9"),                    # position counts characters of a str
    ("%C3%A9%E9x", 6, "%E9", "E9"),              # after a valid é
])
def test_octets_that_are_not_utf8_say_what_and_where(core, text, position, written, octets):
    for written_as in (text, text.encode("utf-8")):
        with pytest.raises(URLSyntaxError) as info:
            core.unquote(written_as)
        err = info.value
        where = position if isinstance(written_as, str) else len(text[:position].encode())
        assert (err.code, err.position) == ("undecodable", where)
        assert repr(written) in err.message and octets in err.message and "utf-8" in err.message
        assert isinstance(err, ValueError) and isinstance(err.__cause__, UnicodeDecodeError)


def test_literal_octets_of_bytes_input_are_reported_where_they_stand(core):
    with pytest.raises(URLSyntaxError) as info:
        core.unquote(b"ab\xe9%20")
    assert (info.value.code, info.value.position) == ("undecodable", 2)
    assert "b'\\xe9' is the octet E9" in info.value.message


def test_undecodable_with_another_encoding_names_it(core):
    with pytest.raises(URLSyntaxError) as info:
        core.unquote("x%FF", encoding="ascii")
    assert (info.value.code, info.value.position) == ("undecodable", 1)
    assert "not ascii text" in info.value.message


@pytest.mark.parametrize("text, lossless", [
    ("%E9", "\udce9"),
    ("a%E2%82b", "a\udce2\udc82b"),
    ("%C0%AF", "\udcc0\udcaf"),
])
def test_surrogateescape_is_the_documented_lossless_form(core, text, lossless):
    assert core.unquote(text, errors="surrogateescape") == lossless
    # and the octets come back from that text
    assert core.unquote_to_bytes(lossless) == core.unquote_to_bytes(text)


@pytest.mark.parametrize("bad", [None, 12, 1.5, ["a"], object()])
def test_type_errors_name_the_type(bad):
    for fn in (unquote, unquote_to_bytes, quote):
        with pytest.raises(TypeError, match=type(bad).__name__):
            fn(bad)


# ---- encoding -------------------------------------------------------------------

def test_quote_keeps_only_unreserved():
    # §2.2: "only alphanumerics, the special characters $-_.+!*'(), and reserved
    # characters used for their reserved purposes may be used unencoded"
    unreserved = "azAZ09$-_.+!*'(),"
    assert quote(unreserved) == unreserved
    assert quote(";/?:@&=") == "%3B%2F%3F%3A%40%26%3D"
    assert quote(" <>\"#%{}|\\^~[]`") == "%20%3C%3E%22%23%25%7B%7D%7C%5C%5E%7E%5B%5D%60"
    assert quote("\x00\x7f") == "%00%7F"


def test_quote_safe_set_and_text():
    assert quote("/pub/a b", safe="/") == "/pub/a%20b"
    assert quote("é") == "%C3%A9"
    assert quote(b"\xff") == "%FF"
    assert quote("é", safe="é") == "%C3%A9"      # only ASCII can be kept


# ---- properties -----------------------------------------------------------------

text_no_surrogates = st.text(st.characters(blacklist_categories=("Cs",)))


@given(text_no_surrogates)
def test_quote_then_unquote_round_trips(s):
    assert unquote(quote(s)) == s


@given(st.binary())
def test_quote_then_unquote_to_bytes_round_trips(b):
    assert unquote_to_bytes(quote(b)) == b


@given(st.binary())
def test_quote_output_is_all_unreserved_or_escapes(b):
    q = quote(b)
    i = 0
    while i < len(q):
        if q[i] == "%":
            assert q[i + 1] in "0123456789ABCDEF" and q[i + 2] in "0123456789ABCDEF"
            i += 3
        else:
            assert q[i].isascii() and (q[i].isalnum() or q[i] in "$-_.+!*'(),")
            i += 1


well_formed = st.lists(
    st.one_of(
        st.text(st.characters(blacklist_characters="%", blacklist_categories=("Cs",)), max_size=5),
        st.builds(lambda a, b: "%" + a + b, st.sampled_from(HEXDIGITS), st.sampled_from(HEXDIGITS)),
    )
).map("".join)


@given(well_formed)
def test_agrees_with_urllib_on_well_formed_input(s):
    assert unquote_to_bytes(s) == urllib.parse.unquote_to_bytes(s)
    assert unquote(s, errors="replace") == urllib.parse.unquote(s, errors="replace")
    assert unquote(s, encoding="latin-1") == urllib.parse.unquote(s, encoding="latin-1")


# ---- lone surrogates (no UTF-8 form): urlsift's own error, same from both cores ----

@pytest.mark.parametrize("name, text, position", [
    ("quote", "\ud800", 0),
    ("quote", "ab\udfff", 2),
    ("unquote_to_bytes", "\ud800", 0),
    ("unquote_to_bytes", "a%41\udc00", 4),     # U+DC00 is below U+DC80
    ("unquote_to_bytes", "%zz\ud83d", 3),      # (strict=False below)
])
def test_a_lone_surrogate_is_a_syntax_error_with_its_position(core, name, text, position):
    kwargs = {"strict": False} if name == "unquote_to_bytes" else {}
    with pytest.raises(URLSyntaxError) as info:
        getattr(core, name)(text, **kwargs)
    assert isinstance(info.value, ValueError)
    assert (info.value.code, info.value.position) == ("lone-surrogate", position)
    assert f"U+{ord(text[position]):04X}" in str(info.value)


def test_surrogateescape_octets_still_round_trip(core):
    # U+DCE9 stands for the octet 0xE9 (what bytes.decode(..., "surrogateescape") made)
    assert core.unquote_to_bytes("caf\udce9%20x") == b"caf\xe9 x"
    assert core.quote("\udce9") == "%E9"
    assert core.unquote("a\ud800%41") == "a\ud800A"    # str to str: literal text kept as is


# ---- bad arguments: the same exception, type and words, from both cores --------------

@pytest.mark.parametrize("name, args, kwargs, error, words", [
    ("unquote", ("%C3%A9",), {"errors": "surrogateescape\0x"}, ValueError, "NUL"),
    ("unquote", ("%C3%A9",), {"errors": "é"}, LookupError, "unknown error handler name 'é'"),
    ("unquote", ("%41",), {"encoding": None}, TypeError, "encoding must be str, not NoneType"),
    ("unquote", ("%41",), {"errors": None}, TypeError, "errors must be str, not NoneType"),
    ("unquote", ("%E9",), {"encoding": "nope"}, LookupError, "unknown encoding: nope"),
    ("quote", ("a b",), {"safe": None}, TypeError, "safe must be str, not NoneType"),
    ("quote", ("a b",), {"safe": b"/"}, TypeError, "safe must be str, not bytes"),
])
def test_bad_arguments_fail_alike_on_both_cores(core, name, args, kwargs, error, words):
    with pytest.raises(error) as info:
        getattr(core, name)(*args, **kwargs)
    assert words in str(info.value)


def test_a_pair_checked_once_is_still_checked_for_every_other(core):
    # the (encoding, errors) pairs checked are remembered (a caller passing
    # errors="replace" on every URL pays for the codec lookups once): a good pair is
    # taken again and again, and a bad one still fails each time, next to it
    for _ in range(3):
        assert core.unquote("caf%C3%A9%FF", "utf-8", "replace") == "caf\u00e9\ufffd"
        assert core.unquote("caf%E9", "latin-1", "strict") == "caf\u00e9"
        with pytest.raises(LookupError, match="unknown error handler name 'r\u00e9place'"):
            core.unquote("%41", "utf-8", "r\u00e9place")
        with pytest.raises(LookupError, match="unknown encoding: utf-9"):
            core.unquote("%41", "utf-9", "replace")
        with pytest.raises(TypeError, match="errors must be str, not bytes"):
            core.unquote("%41", "utf-8", b"replace")


def test_a_strided_memoryview_is_read_as_its_own_octets(core):
    # memoryview(b"a%41b%42c%43")[::2] is the octets a 4 b 4 c 4 (no escape left)
    assert core.unquote_to_bytes(memoryview(b"a%41b%42c%43")[::2]) == b"a4b4c4"
    assert core.unquote_to_bytes(memoryview(b"x%%4411")[::2]) == b"xA"   # x % 4 1
