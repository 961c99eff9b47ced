"""Shapes of everyday text: JSON logs, syslog, Java stack traces, CSV, HTML, CJK prose,
base64 blocks, dense URLs, English prose; and the two corpora of ``corpus.py`` (the
access log, the mail spool) as shapes.

Each generator is ``gen(r) -> Iterator[Record]`` (see :mod:`shapes_parts`): infinite,
one line (or block) per item, with the URLs planted in it. The docstring of each says
its URL density, as generated (measured on the ``small`` size).
"""
from __future__ import annotations

import base64
import random
from typing import Iterator

from corpus_log import iter_log_chunks
from corpus_mbox import iter_messages_with_truth
from shapes_parts import WORDS, Record, clock, http_url, ipv4, stamp, url, words

__all__ = ["access_log", "json_log", "syslog", "java_trace", "csv_rows", "html", "cjk",
           "base64_blocks", "dense", "prose", "mbox"]


def access_log(r: random.Random) -> Iterator[Record]:
    """The combined-format access log of :mod:`corpus_log` (its seed drawn from ``r``).
    Planted: the referer of each line that has one (a URL by
    construction); the log holds more (``+http://...`` in bot agents, absolute request
    targets, ``?next=http://...``), found but not counted: about 2 planted URLs per KB
    (3 in all)."""
    for chunk in iter_log_chunks(r.randint(1, 2 ** 31)):
        for line in chunk[:-1].split("\n"):
            ref = line.rsplit('"', 4)[1]
            yield line + "\n", ([] if ref == "-" else [ref]), 0


def mbox(r: random.Random) -> Iterator[Record]:
    """The mail spool of :mod:`corpus_mbox` (plain, quoted-printable, base64, HTML,
    multipart; ``<URL:...>`` wrappers over line breaks). Planted in the raw text: the
    ``List-*`` header URLs only (the body URLs may be encoded); the fourth field is
    the whole truth, every URL once decoded (``extract_file(path, mbox=True)`` must
    find them all): about 1.7 URLs per KB decoded, 0.3 planted in the raw text."""
    for message, truth in iter_messages_with_truth(r.randint(1, 2 ** 31)):
        header = [u for part, u in truth.urls if part == "header"]
        yield message, header, 0, [u for _, u in truth.urls]


def json_log(r: random.Random) -> Iterator[Record]:
    """Structured JSON log lines (``{"ts":"...","level":"info","msg":...,"url":...}``,
    a colon per key); 60% carry a ``"url"``, 45% a ``"referer"``, of which half written
    the way PHP's ``json_encode`` and others do, ``"https:\\/\\/x.com\\/a"`` (counted as
    hidden, not planted: the scanner does not read JSON escapes): about 3.5 URLs per KB
    planted, 0.9 hidden."""
    for t in clock(r):
        fields = [f'"ts":"{stamp(t)[:-1]}.{r.randint(0, 999):03d}Z"',
                  f'"level":"{r.choice(("info", "info", "warn", "error", "debug"))}"',
                  f'"logger":"{r.choice(("http", "db", "auth", "worker"))}"', f'"msg":"{words(r, 2, 6)}"']
        urls, hidden = [], 0
        if r.random() < 0.6:
            u = http_url(r)
            fields += [f'"method":"{r.choice(("GET", "POST"))}"', f'"url":"{u}"']
            urls.append(u)
        else:
            fields.append(f'"path":"/{r.choice(WORDS)}/{r.randint(1, 999)}"')
        fields += [f'"status":{r.choice((200, 200, 304, 404, 500))}', f'"duration_ms":{r.randint(1, 9999) / 10}',
                   f'"remote_addr":"{ipv4(r)}:{r.randint(1024, 65535)}"']
        if r.random() < 0.45:
            ref = http_url(r)
            if r.random() < 0.5:
                fields.append(f'"referer":"{ref}"')
                urls.append(ref)
            else:
                fields.append('"referer":"' + ref.replace("/", "\\/") + '"')
                hidden += 1
        yield "{" + ",".join(fields) + "}\n", urls, hidden


def syslog(r: random.Random) -> Iterator[Record]:
    """BSD syslog lines (``Jan  2 03:04:05 host prog[pid]: ...``): sshd, kernel, systemd,
    CRON, postfix, and nginx errors quoting ``upstream: "http://127.0.0.1:8080/..."``
    and ``referrer: "https://..."``: about 2.3 URLs per KB."""
    for t in clock(r):
        head = f"{stamp(t, '%b %e %H:%M:%S')} web{r.randint(1, 4)} "
        x = r.random()
        urls = []
        if x < 0.2:
            text = (f"sshd[{r.randint(100, 99999)}]: Accepted publickey for {r.choice(('bob', 'deploy'))} from "
                    f"{ipv4(r)} port {r.randint(1024, 65535)} ssh2: ED25519 SHA256:{r.getrandbits(128):x}")
        elif x < 0.35:
            text = f"kernel: [{r.randint(1, 999999)}.{r.randint(0, 999999):06d}] usb 1-1: new high-speed USB device number {r.randint(2, 20)}"
        elif x < 0.55:
            text = f"systemd[1]: Started Session {r.randint(1, 9999)} of User {r.choice(('bob', 'root'))}."
        elif x < 0.65:
            text = f"CRON[{r.randint(100, 99999)}]: (root) CMD (run-parts --report /etc/cron.hourly)"
        elif x < 0.85:
            text = (f"postfix/smtpd[{r.randint(100, 99999)}]: connect from mx.example.com[{ipv4(r)}]:"
                    f"{r.randint(1024, 65535)}")
        else:
            up = f"http://127.0.0.1:{r.choice((8000, 8080, 9000))}/{r.choice(WORDS)}/{r.randint(1, 999)}"
            ref = http_url(r)
            text = (f"nginx: {stamp(t, '%Y/%m/%d %H:%M:%S')} [error] {r.randint(100, 999)}#0: *{r.randint(1, 99999)} "
                    f"upstream timed out (110: Connection timed out), client: {ipv4(r)}, server: example.com, "
                    f'request: "GET /{r.choice(WORDS)} HTTP/1.1", upstream: "{up}", host: "example.com", '
                    f'referrer: "{ref}"')
            urls = [up, ref]
        yield head + text + "\n", urls, 0


def java_trace(r: random.Random) -> Iterator[Record]:
    """Java application logs with stack traces: ``ERROR [main] c.e.App - ...``,
    ``java.net.ConnectException: ...``, ``\\tat com.foo.Bar.baz(Bar.java:123)`` frames,
    ``Caused by: ...``, ``\\t... 42 more``; most traces name the URL that failed:
    about 0.6 URLs per KB."""
    pkgs = ("com.example.app", "org.springframework.web.client", "io.netty.channel", "java.net",
            "org.apache.http.impl.client", "sun.nio.ch")
    classes = ("RestTemplate", "HttpClient", "SocketChannelImpl", "Bootstrap", "UserService", "Main")
    for t in clock(r):
        if r.random() < 0.6:
            yield f"{stamp(t, '%Y-%m-%d %H:%M:%S')},{r.randint(0, 999):03d} INFO  [main] c.e.App - {words(r, 3, 9)}\n", [], 0
            continue
        u = http_url(r)
        urls = [u] if r.random() < 0.8 else []
        what = f"I/O error on GET request for \"{u}\": Connection refused" if urls else "Connection refused"
        lines = [f"{stamp(t, '%Y-%m-%d %H:%M:%S')},{r.randint(0, 999):03d} ERROR [http-nio-8080-exec-{r.randint(1, 9)}] "
                 f"c.e.App - Request failed", f"org.springframework.web.client.ResourceAccessException: {what}"]
        for _ in range(r.randint(6, 20)):
            c = r.choice(classes)
            lines.append(f"\tat {r.choice(pkgs)}.{c}.{r.choice(WORDS)}({c}.java:{r.randint(10, 2000)})")
        lines.append("Caused by: java.net.ConnectException: Connection refused (Connection refused)")
        lines += ["\tat java.net.PlainSocketImpl.socketConnect(Native Method)",
                  f"\t... {r.randint(5, 60)} more"]
        yield "\n".join(lines) + "\n", urls, 0


def csv_rows(r: random.Random) -> Iterator[Record]:
    """CSV export of visits: ``id,time,user,ip,url,referrer,status,bytes``, times with
    colons, the URL columns quoted; 85% of rows have a URL, 40% a referrer too: about
    11 URLs per KB."""
    yield "id,time,user,ip,url,referrer,status,bytes\n", [], 0
    n = 0
    for t in clock(r):
        n += 1
        urls = []
        u = http_url(r) if r.random() < 0.85 else ""
        ref = http_url(r) if r.random() < 0.4 else ""
        urls = [x for x in (u, ref) if x]
        yield (f'{n},{stamp(t, "%Y-%m-%d %H:%M:%S")},{r.choice(("bob", "alice", ""))},{ipv4(r)},'
               f'"{u}","{ref}",{r.choice((200, 301, 404))},{r.randint(0, 99999)}\n'), urls, 0


def html(r: random.Random) -> Iterator[Record]:
    """An HTML page, element by element: ``<a href="https://...">`` links (some whose
    text is the URL itself, counted twice), ``<img src>``, ``<link href>``, relative
    links (not URLs), inline ``style="color:red; margin:0"`` colons, ``<p>`` text:
    about 4 URLs per KB."""
    yield ('<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8"><title>Links</title>\n'
           '<link rel="stylesheet" href="https://cdn.example.net/css/site.css">\n</head><body>\n'), \
        ["https://cdn.example.net/css/site.css"], 0
    while True:
        x = r.random()
        if x < 0.35:
            u = http_url(r)
            if r.random() < 0.2:
                yield f'<li><a href="{u}">{u}</a></li>\n', [u, u], 0
            else:
                yield f'<li><a href="{u}" class="ext">{words(r, 2, 6)}</a> {words(r, 3, 10)}</li>\n', [u], 0
        elif x < 0.45:
            u = f"https://static.example.io/img/{r.choice(WORDS)}-{r.randint(1, 999)}.png"
            yield f'<img src="{u}" alt="{words(r, 1, 3)}" width="{r.randint(16, 800)}">\n', [u], 0
        elif x < 0.6:
            yield f'<a href="/{r.choice(WORDS)}/{r.randint(1, 99)}.html">{words(r, 1, 4)}</a>\n', [], 0
        elif x < 0.75:
            yield (f'<div style="color:#{r.getrandbits(24):06x}; margin:0 auto; font-size:{r.randint(8, 20)}px">'
                   f'{words(r, 4, 12)}</div>\n'), [], 0
        else:
            yield f"<p>{words(r, 20, 60)}.</p>\n", [], 0


CJK_SENTENCES = (
    "詳しくは次のページを見てください", "この記事は東京で書かれました", "会議は午後に始まります",
    "我们在北京的办公室明天开会", "请访问下面的网站了解更多信息", "資料は共有フォルダにあります",
    "서울에서 회의가 있습니다", "아래 링크를 참고하세요",
)
CJK_IRIS = ("https://例え.jp/パス/{}", "https://ja.wikipedia.org/wiki/東京{}", "https://中文.cn/文章/{}",
            "http://www.example.jp/ニュース/{}", "https://ko.wikipedia.org/wiki/서울{}")


def cjk(r: random.Random) -> Iterator[Record]:
    """Chinese, Japanese and Korean prose with IRIs (``https://例え.jp/パス/12``), set off
    by spaces or followed by ``。``; full-width colons ``：``, times ``12:30``: about
    2.5 URLs per KB (70% of them IRIs; a CJK character is 3 bytes)."""
    while True:
        parts, urls = [], []
        for _ in range(r.randint(2, 6)):
            s = r.choice(CJK_SENTENCES)
            x = r.random()
            if x < 0.15:
                s += f"（{r.randint(0, 23)}:{r.randint(0, 59):02d}）"
            elif x < 0.25:
                s = "注意：" + s
            parts.append(s + "。")
        if r.random() < 0.5:
            u = r.choice(CJK_IRIS).format(r.randint(1, 999)) if r.random() < 0.7 else http_url(r)
            parts.insert(r.randint(0, len(parts)), f" {u} " if r.random() < 0.5 else f" {u}。")
            urls.append(u)
        yield "".join(parts) + "\n", urls, 0


def base64_blocks(r: random.Random) -> Iterator[Record]:
    """MIME attachments: part headers (``Content-Type: image/png; name=...``,
    ``Content-Disposition:``), then 2-8 KB of base64 in 76-character lines, 4 parts in
    10 with a ``Content-Location: https://...`` header: about 0.08 URLs per KB."""
    while True:
        urls = []
        head = (f"--=_boundary\nContent-Type: {r.choice(('image/png', 'application/pdf', 'application/zip'))}; "
                f"name=\"{r.choice(WORDS)}.bin\"\nContent-Transfer-Encoding: base64\n"
                f"Content-Disposition: attachment\n")
        if r.random() < 0.4:
            u = http_url(r)
            head += f"Content-Location: {u}\n"
            urls.append(u)
        body = base64.encodebytes(r.randbytes(r.randint(1500, 6000))).decode("ascii")
        yield head + "\n" + body + "\n", urls, 0


def dense(r: random.Random) -> Iterator[Record]:
    """URLs back to back, one per ~35 bytes (a URL list, a link dump), separated by a
    space or a newline: about 29 URLs per KB."""
    while True:
        toks = []
        for _ in range(r.randint(1, 3)):
            if r.random() < 0.5:
                toks.append(f"http{'s' if r.random() < 0.5 else ''}://{r.choice(('a', 'b', 'go', 'x'))}.example/"
                            f"{r.choice(WORDS)}{r.randint(0, 99)}")
            else:
                toks.append(url(r))
        yield " ".join(toks) + "\n", toks, 0


def prose(r: random.Random) -> Iterator[Record]:
    """English prose: paragraphs of sentences, the colons prose has (``Note:``, ``as
    follows:``, ``at 10:30``, ``a 3:1 ratio``), a URL about every 4 KB, in parentheses
    or at the end of a sentence: about 0.27 URLs per KB."""
    while True:
        sents, urls = [], []
        for _ in range(r.randint(3, 8)):
            s = words(r, 6, 20).capitalize()
            x = r.random()
            if x < 0.05:
                s = "Note: " + s
            elif x < 0.1:
                s += f" at {r.randint(1, 12)}:{r.randint(0, 59):02d}"
            elif x < 0.13:
                s += f" in a {r.randint(2, 9)}:1 ratio"
            elif x < 0.16:
                s += " as follows: " + words(r, 3, 6)
            elif x < 0.18:
                u = url(r)
                s += f" ({u})" if r.random() < 0.5 else f" at {u}"
                urls.append(u)
            sents.append(s + ".")
        yield " ".join(sents) + "\n\n", urls, 0
