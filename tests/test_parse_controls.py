"""Control characters are never part of a URL, even leniently (DESIGN.md, RFC 1738 §2.2).

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
