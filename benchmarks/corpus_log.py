"""A web-server access log in the combined format, dense with URLs.

Each line is::

    ip - user [10/Oct/2000:13:55:36 +0000] "GET /target HTTP/1.1" 200 2326 "referer" "user agent"

Request targets carry paths, queries and ``%``-escapes, UTF-8 ones among them, plus
some malformed ones (``%zz``, ``%u00e9``, a trailing ``%``); a few are absolute URLs
(proxy requests) or carry an unescaped ``?next=http://...``. Referers are URLs (mixed
hosts, long query strings, Wikipedia-style parentheses) or ``-``; some user agents
carry a URL (``+http://www.google.com/bot.html``). About 3 URLs per KB.

Speed: fragments (targets, referers, agents, addresses) are drawn once into pools,
and each line joins pool entries picked with ``random.Random(seed).choices`` in
batches, so a gigabyte takes minutes, not hours.
"""
from __future__ import annotations

import random
import time
from typing import Iterator
from urllib.parse import quote

__all__ = ["iter_log_chunks", "request_target"]

BATCH = 4096                      # lines per chunk; fixed, so a smaller log is a prefix
POOL_TARGETS = 24000
POOL_REFERERS = 12000
MONTHS = "Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()
START = 946684800                 # 2000-01-01T00:00:00Z; no wall clock: deterministic

WORDS = (
    "index about products product item cart checkout search blog posts 2023 2024 img static "
    "css js api v1 v2 users profile login logout news article category tag archive docs "
    "download files pub wiki help contact en de fr assets thumbnails"
).split()
UNICODE_WORDS = ("café", "straße", "日本語", "naïve", "über uns", "€uro", "Ωmega", "søk")
EXTS = (".html", ".php", ".jpg", ".png", ".css", ".js", ".gz", "", "", "", "/")
HOSTS = (
    "www.google.com", "www.bing.com", "duckduckgo.com", "t.co", "news.ycombinator.com",
    "en.wikipedia.org", "de.wikipedia.org", "www.facebook.com", "l.facebook.com",
    "www.reddit.com", "old.reddit.com", "example.com", "www.example.org", "shop.example.net",
    "blog.example.co.uk", "192.0.2.17", "intranet.local:8080", "search.yahoo.com",
    "www.baidu.com", "yandex.ru", "mail.google.com", "outlook.live.com", "github.com",
)
WIKI = ("Python_(programming_language)", "URL_(disambiguation)", "Mercury_(planet)",
        "C_(programming_language)", "Berlin", "Uniform_Resource_Locator", "Tim_Berners-Lee")
BOTS = (
    "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    "Mozilla/5.0 (compatible; bingbot/2.0; +http://www.bing.com/bingbot.htm)",
    "Mozilla/5.0 (compatible; AhrefsBot/7.0; +http://ahrefs.com/robot/)",
    "Mozilla/5.0 (compatible; YandexBot/3.0; +http://yandex.com/bots)",
    "Mozilla/5.0 (compatible; Baiduspider/2.0; +http://www.baidu.com/search/spider.html)",
    "facebookexternalhit/1.1 (+http://www.facebook.com/externalhit_uatext.php)",
    "Mozilla/5.0 (compatible; SemrushBot/7~bl; +http://www.semrush.com/bot.html)",
    "Mozilla/5.0 (compatible; DotBot/1.2; +https://opensiteexplorer.org/dotbot; help@moz.com)",
    "Mozilla/5.0 (compatible; MJ12bot/v1.4.8; http://mj12bot.com/)",
    "Mozilla/5.0 (compatible; PetalBot;+https://webmaster.petalsearch.com/site/petalbot)",
)
BROWSERS = (
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
    "Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Mobile/15E148",
    "Mozilla/4.08 [en] (Win98; I ;Nav)",
    "curl/7.88.1", "python-requests/2.31.0", "Wget/1.21.3", "Go-http-client/1.1", "-",
)
BAD_ESCAPES = ("%zz", "%u00e9", "%", "%4", "%G0", "%%41")


def _path(r: random.Random) -> str:
    segs = []
    for _ in range(r.randint(0, 4)):
        x = r.random()
        if x < 0.12:
            segs.append(quote(r.choice(UNICODE_WORDS)))         # UTF-8 escapes: caf%C3%A9
        elif x < 0.18:
            segs.append(r.choice(WORDS) + "%20" + r.choice(WORDS))
        else:
            segs.append(r.choice(WORDS))
    return "/" + "/".join(segs) + (r.choice(EXTS) if segs else "")


def _query(r: random.Random, long: bool = False) -> str:
    n = r.randint(6, 14) if long else r.randint(1, 4)
    items = []
    for _ in range(n):
        key = r.choice(("q", "id", "page", "utm_source", "utm_medium", "ref", "s", "lang", "sort", "ved", "ei"))
        x = r.random()
        if x < 0.2:
            val = quote(" ".join(r.choices(UNICODE_WORDS + tuple(WORDS), k=r.randint(1, 3))))
        elif x < 0.3:
            val = quote("http://" + r.choice(HOSTS) + _path(r), safe="")   # http%3A%2F%2F...
        elif long and x < 0.6:
            val = "".join(r.choices("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_", k=r.randint(12, 40)))
        else:
            val = r.choice(WORDS) + str(r.randint(0, 999))
        items.append(f"{key}={val}")
    return "?" + "&".join(items)


def _target(r: random.Random) -> str:
    x = r.random()
    if x < 0.02:                                   # proxy request: absolute URL
        return "http://" + r.choice(HOSTS) + _path(r)
    t = _path(r)
    if x < 0.45:
        t += _query(r)
    if x < 0.05:
        t += "&next=http://" + r.choice(HOSTS) + _path(r)
    elif x < 0.09:
        at = r.randint(1, len(t))
        t = t[:at] + r.choice(BAD_ESCAPES) + t[at:]
    return t


def _referer(r: random.Random) -> str:
    host = r.choice(HOSTS)
    scheme = "https" if r.random() < 0.7 else "http"
    x = r.random()
    if "wikipedia" in host and x < 0.6:
        return f"{scheme}://{host}/wiki/{r.choice(WIKI)}"
    if host in ("www.google.com", "www.bing.com", "search.yahoo.com", "yandex.ru") and x < 0.8:
        return f"{scheme}://{host}/search{_query(r, long=True)}"
    return f"{scheme}://{host}{_path(r)}{_query(r) if x < 0.4 else ''}"


def _ips(r: random.Random, n: int) -> list[str]:
    ips = [f"{r.randint(1, 223)}.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}" for _ in range(n)]
    ips[: n // 20] = [f"2001:db8:{r.randint(0, 65535):x}::{r.randint(1, 65535):x}" for _ in range(n // 20)]
    return ips


def iter_log_chunks(seed: int = 1) -> Iterator[str]:
    """Yield the log forever, in chunks of :data:`BATCH` whole lines.

    The caller stops when it has enough; for a given ``seed`` the stream is
    always the same, so a smaller log is a prefix of a larger one.
    """
    r = random.Random(seed)
    targets = [_target(r) for _ in range(POOL_TARGETS)]
    referers = [_referer(r) for _ in range(POOL_REFERERS)] + ["-"] * (POOL_REFERERS * 2 // 3)
    agents = list(BROWSERS) * 8 + list(BOTS)     # about one line in nine is a bot
    ips = _ips(r, 3000)
    users = ["-"] * 30 + ["frank", "alice", "bob"]
    methods = ["GET"] * 85 + ["POST"] * 10 + ["HEAD"] * 3 + ["OPTIONS", "PUT"]
    statuses = ["200"] * 70 + ["304"] * 10 + ["404"] * 8 + ["301", "302"] * 3 + ["500", "403", "206"] * 2
    protocols = ["HTTP/1.1"] * 6 + ["HTTP/1.0", "HTTP/2.0"]
    t = START
    stamp_t, stamp = -1, ""
    while True:
        lines = []
        rows = zip(r.choices(ips, k=BATCH), r.choices(users, k=BATCH), r.choices(methods, k=BATCH),
                   r.choices(targets, k=BATCH), r.choices(protocols, k=BATCH),
                   r.choices(statuses, k=BATCH), r.choices(referers, k=BATCH),
                   r.choices(agents, k=BATCH), r.choices((0, 0, 0, 1, 2), k=BATCH))
        for ip, user, method, target, proto, status, ref, agent, step in rows:
            t += step
            if t != stamp_t:                       # format the time only when it moves
                stamp_t = t
                tm = time.gmtime(t)
                stamp = (f"{tm.tm_mday:02d}/{MONTHS[tm.tm_mon - 1]}/{tm.tm_year}:"
                         f"{tm.tm_hour:02d}:{tm.tm_min:02d}:{tm.tm_sec:02d} +0000")
            size = (t * 7919 + len(target)) % 50000
            lines.append(f'{ip} - {user} [{stamp}] "{method} {target} {proto}" {status} {size} "{ref}" "{agent}"\n')
        yield "".join(lines)


def request_target(line: str) -> str:
    """The request target of one combined-format line (``""`` when it has none).

    >>> request_target('1.2.3.4 - - [x] "GET /a%20b?q=1 HTTP/1.1" 200 5 "-" "-"')
    '/a%20b?q=1'
    """
    start = line.find('"')
    end = line.find('"', start + 1)
    parts = line[start + 1:end].split(" ")
    return parts[1] if len(parts) == 3 else ""
