"""Control characters are never part of a URL, even leniently (RFC 1738 §2.2;
docs/design.md#strict-and-lenient).

A sample of each scheme's URL gets a control character at every position; lenient
parsing must refuse each one, whatever else is wrong around it.
"""
import pytest

from urlsift import URLSyntaxError
from urlsift.model.parsing import check, is_valid, parse, validate_many

SAMPLES = [
    "ftp://u:p@h.example:21/a/b;type=i", "http://h.example:80/a/b?q=1#f", "https://h/x",
    "gopher://h:70/1sel%09search%09plus", "mailto:a@b.example", "news:comp.lang",
    "news:id@h.example", "nntp://h/comp.lang/12", "telnet://u@h:23/", "wais://h/db?s",
    "wais://h/db/t/p", "file://localhost/etc/x", "prospero://h/a/b;f=v", "mid:m@h",
    "cid:c@h", "x-foo://h/p", "urn:isbn:1234",
]


@pytest.mark.parametrize("url", SAMPLES)
@pytest.mark.parametrize("ctl", ["\x00", "\x09", "\x0a", "\x1b", "\x7f"])
def test_a_control_character_anywhere_is_refused(url, ctl):
    assert is_valid(url, strict=False)
    for i in range(len(url) + 1):
        bad = url[:i] + ctl + url[i:]
        with pytest.raises(URLSyntaxError):
            parse(bad, strict=False)
        assert not is_valid(bad, strict=False)
        assert validate_many([bad], strict=False) == [False]
        assert (i, "control-char") in {(p.position, p.code) for p in check(bad)}, bad


# ---- a control character inside a login the scheme does not have (header injection) ----
# RFC 1738 §3.3 and friends allow no user or password for these schemes: lenient mode
# accepts one ("userinfo-not-allowed") but must still refuse what is never part of a URL
# (§2.2: control characters), in every entry point, not only in check().

@pytest.mark.parametrize("url, position", [
    ("http://a\r\nX-Injected: 1@host.example/", 8),
    ("https://user:pa\nss@host.example/", 15),
    ("gopher://\x00\x7f@h/", 9),
    ("file://u\t@localhost/etc/motd", 8),
    ("nntp://a\x1b@news.example/comp.lang", 8),
    ("wais://u:\x7f@wais.example/db", 9),
    ("prospero://\x01@p.example/x", 11),
])
def test_a_control_character_in_a_forbidden_login_is_refused_leniently(url, position):
    assert not is_valid(url, strict=False)
    with pytest.raises(URLSyntaxError) as info:
        parse(url, strict=False)
    assert (info.value.code, info.value.position) == ("control-char", position)
    assert ("control-char", position) in [(p.code, p.position) for p in check(url)]
    assert validate_many([url], strict=False) == [False]


def test_a_forbidden_login_without_controls_is_still_accepted_leniently():
    u = parse("http://user:secret@host.example/", strict=False)
    assert u.host == "host.example"
    assert [p.code for p in u.problems] == ["userinfo-not-allowed"]
