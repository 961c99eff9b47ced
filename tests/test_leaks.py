"""No entry point keeps memory call after call (issue 14: a leak in the C core would
grow the resident set with every call, and a long-running user feels it).

Each case is run until warm, then many more times: the resident set (from
``/proc/self/statm``, Linux) may not grow by more than a few MiB. The compiled core
is run ten times as often as the pure one (the leaks to find are in C).
"""
from __future__ import annotations

import gc
import os

import pytest

import urlsift
from urlsift.mail.walk import spool_urls

pytestmark = pytest.mark.skipif(not os.path.exists("/proc/self/statm"),
                                reason="needs /proc/self/statm (Linux) to read the resident set")

GROWTH = 4 << 20     # bytes the resident set may grow: 40 bytes a call kept would pass it
MAIL = (b"From a\nMessage-ID: <1@x>\nDate: Mon, 12 Oct 2026 10:15:00 +0200\n"
        b"List-Post: <mailto:l@x.example>\nContent-Type: multipart/alternative; boundary=b\n\n"
        b"--b\nContent-Transfer-Encoding: quoted-printable\n\nsee http://a.example/?x=3D1\n"
        b"--b\nContent-Type: text/html\n\n<a href=\"http://h.example/?a&amp;b\">x &copy;</a>\n--b--\n"
        b"From b\nContent-Type: message/rfc822\n\nSubject: x\n\nhttp://inner.example/\n")


def _rss() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _parse_bad():
    try:
        urlsift.parse("http://a b.example/%zz")
    except urlsift.URLSyntaxError:
        pass


def _mail():
    import io
    for _ in spool_urls(io.BytesIO(MAIL), "box"):
        pass


CASES = {
    "parse": lambda: urlsift.parse("ftp://user:pw@ftp.example:21/a/b;type=i").parts(),
    "parse-invalid": _parse_bad,
    "check": lambda: urlsift.check("gopher://a.example/0sel%09search"),
    "extract": lambda: list(urlsift.extract(b"see <URL:http://a.example/x-\n y> and ftp://b/c.")),
    "unquote": lambda: urlsift.unquote("a%20b%ZZ%C3%A9", strict=False),
    "mail-walk": _mail,
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_no_growth_over_many_calls(name, core_kind):
    fn = CASES[name]
    n = 100_000 if core_kind == "cython" else 5_000
    if name == "mail-walk":
        n //= 20
    for _ in range(n // 4):                 # warm: caches, interned strings, arenas
        fn()
    gc.collect()
    before = _rss()
    for _ in range(n):
        fn()
    gc.collect()
    assert _rss() - before < GROWTH, f"{name}: {(_rss() - before) >> 10} KiB more after {n} calls"
