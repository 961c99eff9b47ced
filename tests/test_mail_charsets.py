"""A part is decoded by its declared charset only with a codec that takes linear time
(issue 25: CPython's punycode codec is quadratic); any other codec is
not called: the part is read as Latin-1 and a problem says so. ``mail.charsets`` is
the policy; the ``email`` path calls it (the walker never decodes by charset: a part of
a charset it does not scan as octets falls back to that path), on both engines and cores.
"""
from __future__ import annotations

import pytest

from urlsift.inputs import iter_mail_urls
from urlsift.mail.charsets import codec_of, decode_part

TEXT = "Grüße, καλημέρα, привет, こんにちは, 안녕하세요, 你好 http://a.example/"


@pytest.mark.parametrize("label, sample", [
    ("UTF-8", TEXT), ("utf8", TEXT), ("UTF-16LE", TEXT), ("utf-16", TEXT), ("UTF-32BE", TEXT),
    ("US-ASCII", "http://a.example/"), ("ISO-8859-1", "Grüße http://a.example/"),
    ("iso-8859-15", "€ http://a.example/"), ("ISO_8859-7", "καλημέρα http://a.example/"),
    ("windows-1252", "“quoted” http://a.example/"), ("Windows-1251", "привет"),
    ("KOI8-R", "привет"), ("KOI8-U", "привіт"), ("Shift_JIS", "こんにちは"),
    ("EUC-JP", "こんにちは"), ("ISO-2022-JP", "こんにちは"), ("EUC-KR", "안녕하세요"),
    ("GB2312", "你好"), ("GBK", "你好"), ("GB18030", "你好"), ("Big5", "你好"),
    ("TIS-620", "สวัสดี"), ("cp850", "Grüße"),
])
def test_the_charsets_mail_is_written_in_are_decoded(label, sample):
    assert decode_part(sample.encode(label), label) == (sample, None)


@pytest.mark.parametrize("label", ["punycode", "utf-7", "UTF-7", "idna", "rot13", "base64",
                                   "zlib", "uu", "hex", "quopri", "unicode_escape",
                                   "raw_unicode_escape", "cp037"])
def test_any_other_codec_is_not_called(label):
    codec, problem = codec_of(label)
    assert codec == "latin-1"
    assert problem == (f"charset {label!r} read as Latin-1: its codec is not on the list "
                       "of those that take linear time")
    octets = b"see http://a.example/ \xe9+ADw-"
    assert decode_part(octets, label)[0] == octets.decode("latin-1")


@pytest.mark.parametrize("label", ["x-unknown", "unknown-8bit", "no-such-charset", "\x00"])
def test_a_label_python_does_not_know_is_read_as_latin1_as_before(label):
    assert decode_part(b"\xe9 http://a.example/", label) == ("\xe9 http://a.example/", None)


def test_no_charset_is_utf8():
    assert decode_part("é".encode(), None) == ("é", None)
    assert decode_part(b"\xff", "") == ("\ufffd", None)


@pytest.mark.parametrize("engine", ["walk", "email"])
@pytest.mark.parametrize("label", ["punycode", "utf-7"])
def test_a_part_of_an_exotic_charset_keeps_its_urls_and_says_so(tmp_path, engine, label):
    box = tmp_path / "x.mbox"
    box.write_bytes(b"From a@example.org Thu Jan  1 00:00:00 2026\nMessage-ID: <m@x>\n"
                    b"Content-Type: text/plain; charset=" + label.encode() + b"\n\n"
                    b"see http://a.example/x" + b"a" * 5000 + b"-" + b"b" * 50 + b" ok\n")
    errors: list[str] = []
    got = [m.url for m in iter_mail_urls(box, engine=engine, on_error=errors.append)]
    assert got == ["http://a.example/x" + "a" * 5000 + "-" + "b" * 50]
    assert len(errors) == 1 and f"charset '{label}' read as Latin-1" in errors[0]
