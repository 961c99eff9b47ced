"""The Cython core and its pure-Python twin agree on every input (hypothesis).

These tests call both twins directly, so they need the compiled core; the
autouse ``core_kind`` fixture is irrelevant here.
"""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from urlsift import _select

TWINS = _select.twins("_core")
pytestmark = [pytest.mark.skipif("cython" not in TWINS, reason="the Cython core is not built"),
              pytest.mark.twins]  # compares the twins directly: run once (conftest)

# Text that looks like URLs often enough to reach every branch of the tokenizer.
URLISH = "abcAZ09:/?#@[]%;=&+-._~ \t\n\x00\x7fé"
texts = st.one_of(
    st.text(st.sampled_from(URLISH)),
    st.text(st.characters(max_codepoint=0x7F)),
    st.text(st.characters(max_codepoint=0xFF)),
    st.text(),
    st.builds(lambda a, b, c: a + "://" + b + c,
              st.sampled_from(["http", "ftp", "X", "", "a+b"]),
              st.text(st.sampled_from(URLISH)), st.text()),
)


def outcome(fn, *args, **kwargs):
    """The result, or the type and text of the exception (both must agree)."""
    try:
        return ("ok", fn(*args, **kwargs))
    except Exception as exc:  # noqa: BLE001 - comparing how each twin fails
        return ("raised", type(exc).__name__, str(exc), getattr(exc, "position", None))


def same(name, *args, **kwargs):
    results = {kind: outcome(getattr(mod, name), *args, **kwargs) for kind, mod in TWINS.items()}
    assert results["cython"] == results["python"], (name, args, kwargs)


@given(texts)
def test_tokenize(s):
    same("tokenize", s)


@given(st.lists(texts, max_size=5))
def test_tokenize_many(urls):
    same("tokenize_many", urls)


@given(st.one_of(texts, st.binary()), st.booleans())
def test_unquote_to_bytes(s, strict):
    same("unquote_to_bytes", s, strict=strict)


@given(texts, st.sampled_from(["utf-8", "latin-1", "ascii", "UTF8"]),
       st.sampled_from(["strict", "replace", "surrogateescape", "ignore"]), st.booleans())
def test_unquote(s, encoding, errors, strict):
    same("unquote", s, encoding, errors, strict=strict)


@given(st.binary(), st.booleans())
def test_unquote_bytes_input(b, strict):
    same("unquote", b, "utf-8", "replace", strict=strict)
    same("unquote", bytearray(b), "utf-8", "replace", strict=strict)


@given(st.one_of(texts, st.binary()), st.text(st.characters(max_codepoint=0x1FF), max_size=4))
def test_quote(s, safe):
    same("quote", s, safe)


@given(st.one_of(st.binary(), st.text().map(lambda t: t.encode("utf-8", "surrogatepass"))),
       st.sampled_from(["strict", "replace", "surrogateescape", "backslashreplace"]))
def test_unquote_decodes_octets_exactly_as_bytes_decode(b, errors):
    # The Cython core decodes valid UTF-8 itself; invalid input must still behave
    # exactly as bytes.decode does, with every error handler.
    escaped = TWINS["python"].quote(b)
    same("unquote", escaped, "utf-8", errors)
    expected = outcome(b.decode, "utf-8", errors)
    got = outcome(TWINS["cython"].unquote, escaped, "utf-8", errors)
    if expected[0] == "raised":
        # issue 24: urlsift's error instead of the codec's, at the escape of the first
        # octet bytes.decode refused (each octet is written as quote writes it)
        try:
            b.decode("utf-8")
        except UnicodeDecodeError as exc:
            where = len(TWINS["python"].quote(b[:exc.start]))
        assert got[:2] == ("raised", "URLSyntaxError") and got[3] == where, got
        assert "(undecodable)" in got[2]
    else:
        assert got[:2] == expected[:2]
