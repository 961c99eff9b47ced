"""Shapes full of colons that are not URLs: ``host:port``, ``key:value``, ``file:line:``,
``C:\\``, mail headers, IPv6, and the adversarial ones.

Each generator is ``gen(r) -> Iterator[Record]`` (see :mod:`shapes_parts`): infinite,
one line (or block) per item, with the URLs planted in it. The docstring of each says
its URL density, as generated (measured on the ``small`` size).
"""
from __future__ import annotations

import random
import string
from typing import Iterator

from shapes_parts import HOSTS, WORDS, Record, clock, http_url, ipv4, ipv6, stamp, url, words

__all__ = ["proxy", "logfmt", "compiler", "windows", "mail_headers", "one_letter",
           "e_b", "long_words", "glued", "ipv6_addrs"]

SCHEME_CHARS = string.ascii_lowercase + string.digits + "+-."


def proxy(r: random.Random) -> Iterator[Record]:
    """Squid ``access.log`` and HAProxy lines: ``CONNECT host.name.com:443``,
    ``10.1.2.3:55012``, ``HIER_DIRECT/93.184.216.34``, ``[06/Feb/2024:12:14:14.655]``.
    Squid ``GET``/``POST`` lines carry the absolute URL (about 35% of lines; CONNECT
    lines have ``host:443``, no URL), HAProxy lines a captured referer now and then:
    about 2.3 URLs per KB."""
    ts = clock(r)
    hosts = [h.split(":")[0] for h in HOSTS] + ["mail.google.com", "update.microsoft.com"]
    for t in ts:
        client = f"10.{r.randint(0, 255)}.{r.randint(0, 255)}.{r.randint(1, 254)}"
        if r.random() < 0.6:                       # squid native format
            ms = r.randint(1, 90000)
            if r.random() < 0.55:
                target, method, code, urls = f"{r.choice(hosts)}:443", "CONNECT", "TCP_TUNNEL/200", []
            else:
                u = http_url(r).replace("https://", "http://")
                target, method, code, urls = u, r.choice(("GET", "GET", "POST")), r.choice(("TCP_MISS/200", "TCP_HIT/200", "TCP_MISS/304")), [u]
            yield (f"{t}.{r.randint(0, 999):03d} {ms:6d} {client} {code} {r.randint(200, 90000)} "
                   f"{method} {target} - HIER_DIRECT/{ipv4(r)} {r.choice(('text/html', 'application/json', '-'))}\n",
                   urls, 0)
        else:                                      # haproxy HTTP log format
            urls = []
            ref = ""
            if r.random() < 0.25:
                u = http_url(r)
                ref, urls = u, [u]
            yield (f"{stamp(t, '%b %d %H:%M:%S')} lb1 haproxy[{r.randint(1000, 30000)}]: "
                   f"{client}:{r.randint(1024, 65535)} [{stamp(t, '%d/%b/%Y:%H:%M:%S')}.{r.randint(0, 999):03d}] "
                   f"https-in~ app/srv{r.randint(1, 9)} 0/0/{r.randint(0, 9)}/{r.randint(1, 400)}/{r.randint(1, 500)} "
                   f"200 {r.randint(200, 90000)} - - ---- 12/12/3/1/0 0/0 {{{ref}|{r.choice(hosts)}}} "
                   f"\"GET /{r.choice(WORDS)}?id={r.randint(1, 999)} HTTP/1.1\"\n", urls, 0)


LOGFMT_KEYS = ("user", "status", "latency_ms", "method", "path", "host", "service", "session",
               "query", "component", "caller", "trace_id", "region", "bytes", "tag")


def logfmt(r: random.Random) -> Iterator[Record]:
    """logfmt and its colon cousin: ``ts=... level:info user:bob status:200
    service:api session:abc caller:main.go:42 ...`` (keys such as ``service``,
    ``session``, ``query``, ``tag`` are registered scheme names), a third of the lines
    with ``url=https://...`` or ``url:https://...`` (the ``URL:`` prefix): about
    2 URLs per KB."""
    for t in clock(r):
        sep = ":" if r.random() < 0.6 else "="
        parts = [f"ts={stamp(t)}", f"level{sep}{r.choice(('info', 'info', 'debug', 'warn', 'error'))}"]
        for key in r.sample(LOGFMT_KEYS, r.randint(4, 9)):
            if key == "caller":
                val = f"{r.choice(('main', 'server', 'db'))}.go:{r.randint(10, 900)}"
            elif key == "path":
                val = f"/{r.choice(WORDS)}/{r.randint(1, 999)}"
            elif key in ("status", "latency_ms", "bytes"):
                val = str(r.randint(1, 999))
            elif key == "trace_id":
                val = f"{r.getrandbits(64):016x}"
            else:
                val = r.choice(WORDS) + (str(r.randint(0, 99)) if r.random() < 0.3 else "")
            parts.append(f"{key}{sep}{val}")
        urls = []
        if r.random() < 0.33:
            u = http_url(r)
            parts.append(f"url{sep}{u}")
            urls.append(u)
        parts.append(f'msg="{words(r, 2, 6)}"')
        yield " ".join(parts) + "\n", urls, 0


def compiler(r: random.Random) -> Iterator[Record]:
    """Build output: ``src/x.c:12:3: warning: ... [-Wunused-variable]``,
    ``Makefile:42: recipe for target 'all' failed``, ``make[1]: *** [Makefile:42: all]
    Error 1``, rustc's ``--> src/main.rs:3:5``; about one diagnostic in twenty points
    at its documentation (``[https://gcc.gnu.org/...]``, ``https://rust-lang.github.io/...``):
    about 0.5 URLs per KB."""
    files = ("src/parser.c", "src/lexer.c", "lib/util/strbuf.c", "include/url.h", "src/main.rs",
             "tests/test_scan.cpp", "ext/urlsift/_scan_c.c")
    warns = ("unused-variable", "sign-compare", "unused-parameter", "implicit-fallthrough", "format")
    while True:
        x = r.random()
        f, line, col = r.choice(files), r.randint(1, 4000), r.randint(1, 80)
        if x < 0.5:
            w = r.choice(warns)
            text = f"{f}:{line}:{col}: warning: {words(r, 3, 8)} [-W{w}]\n"
            urls = []
            if r.random() < 0.06:
                u = f"https://gcc.gnu.org/onlinedocs/gcc/Warning-Options.html#index-W{w}"
                text = f"{f}:{line}:{col}: warning: {words(r, 3, 8)} [{u}]\n"
                urls = [u]
            yield text, urls, 0
        elif x < 0.65:
            yield f"{f}:{line}:{col}: note: in expansion of macro '{r.choice(WORDS).upper()}'\n", [], 0
        elif x < 0.75:
            yield (f"Makefile:{r.randint(10, 300)}: recipe for target '{r.choice(('all', 'build', 'test'))}' failed\n"
                   f"make[{r.randint(1, 3)}]: *** [Makefile:{r.randint(10, 300)}: all] Error 1\n"), [], 0
        elif x < 0.85:
            u = f"https://rust-lang.github.io/rust-clippy/master/index.html#{r.choice(WORDS)}_{r.choice(WORDS)}"
            urls = [u] if r.random() < 0.15 else []
            help_line = f"   = help: for further information visit {u}\n" if urls else ""
            yield (f"warning: {words(r, 3, 6)}\n  --> src/main.rs:{line}:{col}\n   |\n"
                   f"{line:3d} |     let x = {r.choice(WORDS)}();\n   |         ^\n{help_line}\n"), urls, 0
        else:
            yield f"gcc -O2 -Wall -c {f} -o {f.rsplit('.', 1)[0]}.o\n", [], 0


def windows(r: random.Random) -> Iterator[Record]:
    """Windows paths: ``2024-01-02 03:04:05 INFO Copied C:\\Users\\bob\\Documents\\report.docx
    to D:\\Backup\\...``, ``\\\\server\\share`` paths; one line in ten names a URL
    (a ``file:///C:/...`` or a download ``https://...``): about 0.8 URLs per KB."""
    users = ("alice", "bob", "Administrator", "svc_build")
    dirs = ("Documents", "Downloads", "AppData\\Local\\Temp", "AppData\\Roaming\\Mozilla\\Firefox\\Profiles",
            "Desktop", "source\\repos\\urlsift", "OneDrive\\Reports 2024")
    names = ("report.docx", "setup.exe", "notes.txt", "data.csv", "install.log", "index.html", "x64\\Release\\app.dll")
    for t in clock(r):
        p = f"C:\\Users\\{r.choice(users)}\\{r.choice(dirs)}\\{r.choice(names)}"
        q = f"{r.choice('DEF')}:\\Backup\\{stamp(t, '%Y-%m-%d')}\\{r.choice(names)}"
        x = r.random()
        urls = []
        if x < 0.05:
            u = "file:///" + p.replace("\\", "/").replace(" ", "%20")
            text = f"opened {u}"
            urls = [u]
        elif x < 0.10:
            u = http_url(r)
            text = f"downloaded {u} to {p}"
            urls = [u]
        elif x < 0.2:
            text = f"\\\\fileserver\\share\\{r.choice(dirs)}\\{r.choice(names)} not found"
        else:
            text = f"Copied {p} to {q} ({r.randint(100, 10 ** 7)} bytes)"
        yield f"{stamp(t, '%Y-%m-%d %H:%M:%S')} {r.choice(('INFO', 'INFO', 'WARN'))} {text}\n", urls, 0


def mail_headers(r: random.Random) -> Iterator[Record]:
    """Mail header blocks: ``Received: from ... by ...; Tue, 02 Jan 2024 03:04:05 +0000``
    (2-4 of them), ``Date:``, ``From:``, ``Subject:``, ``Message-ID:``, ``Content-Type:``,
    ``DKIM-Signature: v=1; a=rsa-sha256; ...``, ``X-Mailer:``; half the blocks carry
    ``List-Unsubscribe: <https://...>, <mailto:...>`` and ``List-Archive: <https://...>``:
    about 1.4 URLs per KB."""
    for t in clock(r):
        date = stamp(t, "%a, %d %b %Y %H:%M:%S +0000")
        lines = []
        for _ in range(r.randint(2, 4)):
            lines.append(f"Received: from mx{r.randint(1, 9)}.example.com (mx.example.com [{ipv4(r)}])\n"
                         f"\tby mail.example.org (Postfix) with ESMTPS id {r.getrandbits(40):X}\n"
                         f"\tfor <bob@example.org>; {date}")
        lines += [f"Date: {date}", f"From: {r.choice(('Alice', 'Bob'))} <{r.choice(('alice', 'bob'))}@example.com>",
                  "To: list@lists.example.org", f"Subject: {'Re: ' if r.random() < 0.4 else ''}{words(r, 3, 7)}",
                  f"Message-ID: <{r.getrandbits(48):x}.{t}@mail.example.com>",
                  "MIME-Version: 1.0", "Content-Type: text/plain; charset=utf-8",
                  f"DKIM-Signature: v=1; a=rsa-sha256; c=relaxed/relaxed; d=example.com; s=s1;\n"
                  f"\tt={t}; h=from:to:subject:date:message-id; bh={r.getrandbits(180):x}=",
                  f"X-Mailer: {r.choice(('Apple Mail (2.3696)', 'Microsoft Outlook 16.0', 'Mutt/2.2.9'))}"]
        urls = []
        if r.random() < 0.5:
            u1 = f"https://lists.example.org/mailman/options/list/{r.getrandbits(32):x}"
            u2 = "mailto:list-request@lists.example.org?subject=unsubscribe"
            u3 = f"https://lists.example.org/pipermail/list/{stamp(t, '%Y-%B')}/"
            lines += [f"List-Unsubscribe: <{u1}>,\n <{u2}>", f"List-Archive: <{u3}>"]
            urls = [u1, u2, u3]
        yield "\n".join(lines) + "\n\n", urls, 0


def one_letter(r: random.Random) -> Iterator[Record]:
    """One-letter keys: ``a:1 b:2 c:3 x:y ...`` (a colon every 4-5 bytes), a URL
    every 30 tokens or so: about 6 URLs per KB."""
    letters = string.ascii_letters
    while True:
        toks = [f"{r.choice(letters)}:{r.choice(letters + string.digits)}" for _ in range(r.randint(8, 24))]
        urls = []
        if r.random() < 0.5:
            u = http_url(r)
            toks.insert(r.randint(0, len(toks)), u)
            urls = [u]
        yield " ".join(toks) + "\n", urls, 0


def e_b(r: random.Random) -> Iterator[Record]:
    """The adversarial ``e:b e:b e:b ...``: a colon every 4 bytes, each after a one-letter
    run; a URL about every 4 KB (so there is something to find): 0.25 URLs per KB."""
    while True:
        urls = []
        line = "e:b " * 50
        if r.random() < 0.05:
            u = http_url(r)
            line += u + " "
            urls = [u]
        yield line.rstrip() + "\n", urls, 0


def long_words(r: random.Random) -> Iterator[Record]:
    """Long runs of scheme characters before colons: ``abcdefghijklmnopqrstuvwxyz0123.abc+def-ghi:``
    repeated, space-separated or glued (``...ghi:abc...ghi:``), and random runs of 16-64
    scheme characters; a URL about every 2.5 KB: 0.4 URLs per KB."""
    word = "abcdefghijklmnopqrstuvwxyz0123.abc+def-ghi:"
    while True:
        x = r.random()
        if x < 0.4:
            line = (word + " ") * r.randint(2, 6)
        elif x < 0.7:
            line = word * r.randint(2, 6)
        else:
            line = " ".join(r.choice(string.ascii_letters) + "".join(r.choices(SCHEME_CHARS, k=r.randint(15, 63))) + ":"
                            for _ in range(r.randint(2, 5)))
        urls = []
        if r.random() < 0.07:
            u = http_url(r)
            line += " " + u
            urls = [u]
        yield line + "\n", urls, 0


#: Words that end in a registered scheme name (file, news, tel, sip, git, data, tag...).
GLUED_WORDS = ("pidfile", "Makefile", "Dockerfile", "profile", "logfile", "messagenews", "hotnews",
               "hotel", "motel", "gossip", "legit", "digit", "userdata", "metadata", "hashtag",
               "pricetag", "newsession", "webservice", "subquery", "toolbox.tool", "userinfo")


def glued(r: random.Random) -> Iterator[Record]:
    """Words ending in scheme names: ``pidfile:x Makefile:1 messagenews:y profile:z
    hotel:3 metadata:{...}``; the scanner takes some of them for a glued scheme
    (``file:x``, ``news:y``) by design, those are not counted as planted; a URL every
    ~25 tokens: about 3.5 URLs per KB."""
    vals = ("x", "1", "42", "/var/run/app.pid", "yes", "none", "z", "ok")
    while True:
        toks = [f"{r.choice(GLUED_WORDS)}:{r.choice(vals)}" for _ in range(r.randint(6, 16))]
        urls = []
        if r.random() < 0.6:
            u = url(r)
            toks.insert(r.randint(0, len(toks)), u)
            urls = [u]
        yield " ".join(toks) + "\n", urls, 0


def ipv6_addrs(r: random.Random) -> Iterator[Record]:
    """IPv6 everywhere: ``ss``/``netstat`` lines ``tcp6 ... [2001:db8::1]:443
    [fe80::1]:55012 ESTAB``, ``inet6 fe80::1/64 scope link``, dnsmasq replies;
    one line in eight holds a URL, a fifth of those with an IPv6 host
    (``http://[2001:db8::1]:8080/...``): about 1.7 URLs per KB."""
    for t in clock(r):
        x = r.random()
        if x < 0.45:
            text = (f"tcp6  0  0 [{ipv6(r)}]:{r.choice((443, 80, 22, 8080))} "
                    f"[{ipv6(r)}]:{r.randint(1024, 65535)} {r.choice(('ESTAB', 'TIME-WAIT', 'LISTEN'))}")
        elif x < 0.65:
            text = f"    inet6 {ipv6(r)}/{r.choice((64, 128, 48))} scope {r.choice(('link', 'global', 'host'))}"
        elif x < 0.87:
            text = (f"{stamp(t, '%b %d %H:%M:%S')} gw dnsmasq[{r.randint(100, 999)}]: reply "
                    f"{r.choice(HOSTS).split(':')[0]} is {ipv6(r)}")
        else:
            u = (f"http://[{ipv6(r)}]:{r.choice((80, 8080, 8443))}/{r.choice(WORDS)}"
                 if r.random() < 0.2 else http_url(r))
            yield f"{stamp(t)} fetch {u} from [{ipv6(r)}]:{r.randint(1024, 65535)}\n", [u], 0
            continue
        yield text + "\n", [], 0
