"""Fragments the shape generators share: hosts, words, URLs, addresses, time stamps.

Everything is drawn from the ``random.Random`` the caller passes, so a shape is the
same bytes for the same seed. The URLs made here end in a letter, a digit or ``/``:
no trailing punctuation for the scanner to trim, so each is found exactly as written
(the sanity checks of ``test_bench_shapes`` compare them as strings).
"""
from __future__ import annotations

import random
import time
from typing import Iterator, Tuple

__all__ = ["Record", "HOSTS", "WORDS", "url", "http_url", "ipv4", "ipv6", "stamp",
           "clock", "words"]

#: What a generator yields: the text of one record (a line or a block), the URLs
#: planted in it that a scan of the raw text must find (exactly these strings), and
#: how many more URLs it holds in a form the scanner is not meant to find (JSON
#: ``https:\/\/...``; for the report, not checked).
Record = Tuple[str, list, int]

HOSTS = (
    "www.example.com", "api.example.com", "cdn.example.net", "shop.example.org",
    "docs.python.org", "github.com", "en.wikipedia.org", "news.ycombinator.com",
    "static.example.io", "login.example.co.uk", "192.0.2.17", "intranet.local:8080",
    "files.example.com", "www.w3.org", "tools.ietf.org", "bugs.example.org",
)
WORDS = (
    "the of and to in is for on that with as by this from at be it are was an or have "
    "not which one all their there been has more when will would who can about into "
    "server request client cache session user page error file time value data index "
    "release build config update report access status network service proxy result"
).split()
PATH_WORDS = (
    "api v1 v2 users items search static img css js docs wiki blog 2024 archive download "
    "pub assets login account cart product news article help en de issues pull tree"
).split()
EXTS = (".html", ".php", ".png", ".js", ".css", ".json", ".tar.gz", "", "", "/")
KEYS = ("id", "q", "page", "lang", "ref", "utm_source", "sort", "token", "v")

START = 1704164645          # 2024-01-02T03:04:05Z; no wall clock: deterministic


def http_url(r: random.Random, host: str = "") -> str:
    """An ``http``/``https`` URL: host, 0-4 path segments, sometimes a query."""
    scheme = "https" if r.random() < 0.75 else "http"
    segs = r.choices(PATH_WORDS, k=r.randint(0, 4))
    path = "/" + "/".join(segs) + (r.choice(EXTS) if segs else "")
    if r.random() < 0.35:
        path += "?" + "&".join(f"{r.choice(KEYS)}={r.randint(0, 99999)}" for _ in range(r.randint(1, 3)))
    return f"{scheme}://{host or r.choice(HOSTS)}{path}"


def url(r: random.Random) -> str:
    """A URL of a scheme people write: mostly http(s), some ftp, mailto, news."""
    x = r.random()
    if x < 0.05:
        return f"ftp://ftp.{r.choice(('example.org', 'funet.fi', 'gnu.org'))}/pub/{r.choice(PATH_WORDS)}/x-{r.randint(1, 99)}.tar.gz"
    if x < 0.09:
        return f"mailto:{r.choice(('info', 'support', 'j.doe'))}@{r.choice(('example.com', 'example.org'))}"
    if x < 0.10:
        return f"news:comp.infosystems.www.{r.choice(('misc', 'servers'))}"
    return http_url(r)


def ipv4(r: random.Random) -> str:
    """A dotted IPv4 address."""
    return f"{r.randint(1, 223)}.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}"


def ipv6(r: random.Random) -> str:
    """An IPv6 address in one of the compressed forms logs print."""
    x = r.random()
    if x < 0.3:
        return f"fe80::{r.getrandbits(16):x}:{r.getrandbits(16):x}:{r.getrandbits(16):x}:{r.getrandbits(16):x}"
    if x < 0.5:
        return f"2001:db8::{r.randint(1, 255):x}"
    if x < 0.6:
        return "::1"
    return "2001:db8:" + ":".join(f"{r.getrandbits(16):x}" for _ in range(r.randint(2, 6))) + (
        "::" + f"{r.getrandbits(16):x}" if r.random() < 0.5 else "")


def clock(r: random.Random, start: int = START) -> Iterator[int]:
    """Seconds since the epoch, moving forward 0-2 s per call, forever."""
    t = start
    while True:
        t += r.choice((0, 0, 1, 2))
        yield t


def stamp(t: int, fmt: str = "%Y-%m-%dT%H:%M:%SZ") -> str:
    """``t`` formatted in UTC (ISO 8601 by default)."""
    return time.strftime(fmt, time.gmtime(t))


def words(r: random.Random, lo: int, hi: int) -> str:
    """``lo`` to ``hi`` English words, space-separated."""
    return " ".join(r.choices(WORDS, k=r.randint(lo, hi)))
