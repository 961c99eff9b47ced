"""Defanged URLs (urlsift.refang) and the offset map under it (urlsift._edits)."""
from __future__ import annotations

import pytest

from urlsift.text.edits import apply_edits
from urlsift.text.refang import extract_refanged, refang


@pytest.mark.parametrize("defanged, plain", [
    ("hxxp://evil[.]example[.]com/x", "http://evil.example.com/x"),
    ("hxxps://evil[.]example/", "https://evil.example/"),
    ("HXXP://EVIL[.]EXAMPLE/", "http://EVIL.EXAMPLE/"),
    ("http[:]//a(.)b{.}c[dot]d(dot)e/", "http://a.b.c.d.e/"),
    ("hxxp[://]a[.]b/", "http://a.b/"),
    ("fxp://files[.]example/pub/", "ftp://files.example/pub/"),
    ("h**p://a[.]b/c[/]d", "http://a.b/c/d"),
    ("mailto:abuse[@]evil[.]example", "mailto:abuse@evil.example"),
    ("mailto:abuse[at]evil[.]example", "mailto:abuse@evil.example"),
])
def test_refang_forms(defanged, plain):
    assert refang(defanged)[0] == plain
    assert refang(defanged.encode())[0] == plain.encode()


@pytest.mark.parametrize("buffer", [bytearray, memoryview])
def test_refang_reads_other_buffers_as_bytes(buffer):
    text, emap = refang(buffer(b"hxxp://a[.]b/"))
    assert type(text) is bytes and text == b"http://a.b/"
    assert (emap.start(7), emap.end(10)) == (7, 12)  # "a.b" is "a[.]b" in the original


@pytest.mark.parametrize("text", [
    "the fxp protocol",       # a word, not before a colon
    "shxxp://x",             # hxxp inside a longer word is not a scheme
    "plain http://a.example/ text",
    "",
])
def test_refang_leaves_other_text(text):
    assert refang(text)[0] == text


def test_edit_map_points_back_into_the_original():
    original = "ab[.]cd[.]ef"
    text, emap = refang(original)
    assert text == "ab.cd.ef"
    # "cd" is at 3..5 in the new text and 5..7 in the original
    assert (emap.start(3), emap.end(5)) == (5, 7)
    # a span covering the replaced "." covers all of "[.]"
    assert (emap.start(2), emap.end(3)) == (2, 5)
    # the whole text
    assert (emap.start(0), emap.end(len(text))) == (0, len(original))


def test_deletion_edges():
    # "> " prefixes deleted: a span ending right before a deleted prefix excludes it,
    # a span starting right after it starts after it.
    original = "ab\n> cd"
    text, emap = apply_edits(original, [(3, 5, "")])
    assert text == "ab\ncd"
    assert emap.end(3) == 3          # end of "ab\n"
    assert emap.start(3) == 5        # "cd" starts after "> "
    assert emap.end(5) == 7


def test_extract_refanged_reports_original_offsets():
    text = "IOC: hxxp://evil[.]example[.]com/x and http://ok.example/ end"
    found = list(extract_refanged(text))
    assert [(r.url, r.refanged) for r in found] == [
        ("http://evil.example.com/x", True), ("http://ok.example/", False)]
    first, second = found
    assert text[first.start:first.end] == "hxxp://evil[.]example[.]com/x"
    assert first.raw == "hxxp://evil[.]example[.]com/x"
    assert text[second.start:second.end] == "http://ok.example/"


def test_extract_refanged_bytes_offsets_are_byte_offsets():
    data = "é hxxps[:]//a[.]example/p".encode()  # "é" is two bytes
    (r,) = list(extract_refanged(data))
    assert r.url == "https://a.example/p"
    assert (r.start, r.end) == (3, len(data))
    assert r.refanged


def test_scheme_filter_applies_to_the_refanged_scheme():
    text = "hxxp://a[.]example/ fxp://b[.]example/"
    assert [r.url for r in extract_refanged(text, schemes=["ftp"])] == ["ftp://b.example/"]
