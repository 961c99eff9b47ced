"""A mail spool (mbox) whose messages hide URLs in every way mail does.

Messages are separated by ``From `` lines; a body line that starts with ``From ``
(after any number of ``>``) gets one more ``>`` (mboxrd), so a reader can undo it.
Bodies are plain text, quoted-printable (``=\\n`` soft breaks land inside long URLs,
``=`` becomes ``=3D``), base64, HTML (``<a href>`` links, some whose text is their own
URL, ``&amp;`` entities) or multipart/alternative with a plain and an HTML part.
Plain text has ``<URL:...>`` wrappers broken across lines (some right after a ``-``),
quoted replies with ``> `` prefixes, and non-ASCII words. Some messages carry
``List-Unsubscribe`` / ``List-Archive`` headers.

Paragraphs are drawn once into a pool; messages are assembled from it with one
``random.Random(seed)``, so the spool is the same for the same seed.
"""
from __future__ import annotations

import base64
import binascii
import html
import random
import re
import time
from typing import Iterator

__all__ = ["iter_messages"]

POOL_PARAGRAPHS = 600
WORDS = (
    "the a of to and in that is for it on with as was this be at by not are from or have "
    "an they which one you had we all there their been has more when will would who so "
    "release notes patch server mirror archive please see details below thanks regards "
    "café naïve résumé € über"
).split()
HOSTS = ("www.example.com", "lists.example.org", "ftp.funet.fi", "www.w3.org", "bugs.python.org",
         "github.com", "archive.org", "mail.example.net", "docs.example.io", "192.0.2.44")
PATHS = ("pub/gnu/emacs-21.4.tar.gz", "Addressing/URL/url-spec.txt", "issue12345",
         "web/20000101000000/http://www.example.com/", "doc/faq.html#section-3",
         "cgi-bin/search?q=urls&lang=en&max=20", "~user/papers/rfc1738-notes.ps",
         "wiki/Mercury_(planet)", "a/very/long/path/that/goes/on/and/on/to/make/the/line/too/long.html")
SEP = re.compile(r"(?m)^(>*From )")


def _url(r: random.Random) -> str:
    x = r.random()
    if x < 0.08:
        return f"mailto:{r.choice(('info', 'owner-list', 'j.doe'))}@{r.choice(HOSTS)}"
    if x < 0.12:
        return f"ftp://{r.choice(HOSTS)}/{r.choice(PATHS)}"
    if x < 0.15:
        return f"news:comp.infosystems.www.{r.choice(('misc', 'authoring', 'servers'))}"
    url = f"{r.choice(('http', 'https'))}://{r.choice(HOSTS)}/{r.choice(PATHS)}"
    if r.random() < 0.3 and "#" not in url:
        url += f"{'&' if '?' in url else '?'}id={r.randint(1, 99999)}&token={r.getrandbits(64):x}"
    return url


def _paragraph(r: random.Random) -> list[str]:
    """A paragraph as tokens: words, bare URLs, ``<URL:...>`` wrappers (one token each)."""
    tokens = []
    for _ in range(r.randint(15, 60)):
        x = r.random()
        if x < 0.05:
            tokens.append(_url(r))
        elif x < 0.07:
            tokens.append(f"<URL:{_url(r)}>")
        elif x < 0.08:
            tokens.append(f"({_url(r)}).")
        else:
            tokens.append(r.choice(WORDS))
    if r.random() < 0.1:
        tokens.insert(0, "From")          # a body line starting "From " must be escaped
    return tokens


def _wrap(r: random.Random, tokens: list[str], width: int = 72) -> str:
    """Fill lines to ``width``; a long wrapper is broken inside, as mail clients do."""
    lines, line = [], ""
    for tok in tokens:
        if tok.startswith("<URL:") and len(line) + len(tok) > width and len(tok) > 30:
            # break inside the wrapper: after a "-" when there is one, else at a "/"
            at = tok.find("-", 12)
            at = at + 1 if at > 0 else tok.find("/", 14) + 1
            lines.append((line + " " + tok[:at]).strip())
            line = "  " + tok[at:]
            continue
        if line and len(line) + 1 + len(tok) > width:
            lines.append(line)
            line = tok
        else:
            line = f"{line} {tok}" if line else tok
    lines.append(line)
    return "\n".join(lines)


def _unwrap(tok: str) -> str:
    """The URL of a token: ``<URL:u>`` and ``(u).`` give ``u`` (its own parentheses stay)."""
    if tok.startswith("<URL:"):
        return tok[5:-1]
    if tok.startswith("(") and tok.endswith(")."):
        return tok[1:-2]
    return tok


def _html(r: random.Random, tokens: list[str]) -> str:
    out = []
    for tok in tokens:
        if "://" in tok or "mailto:" in tok:
            url = _unwrap(tok)
            href = html.escape(url)
            text = href if r.random() < 0.5 else "click here"
            out.append(f'<a href="{href}">{text}</a>')
        else:
            out.append(html.escape(tok))
    return "<p>" + " ".join(out) + "</p>"


def _headers(r: random.Random, n: int, t: int) -> str:
    sender = f"{r.choice(('alice', 'bob', 'carol', 'dave'))}@{r.choice(HOSTS[:8])}"
    date = time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime(t))
    lines = [
        f"From {sender} {time.strftime('%a %b %d %H:%M:%S %Y', time.gmtime(t))}",
        f"From: {sender}", "To: url-list@lists.example.org",
        f"Subject: {'Re: ' if r.random() < 0.5 else ''}{' '.join(r.choices(WORDS, k=5))}",
        f"Date: {date}", f"Message-ID: <{n}.{t}@{r.choice(HOSTS[:8])}>",
    ]
    if r.random() < 0.4:
        lines.append("List-Unsubscribe: <mailto:url-list-request@lists.example.org?subject=unsubscribe>,\n"
                     f" <https://lists.example.org/mailman/options/url-list/{sender}>")
        lines.append("List-Archive: <https://lists.example.org/pipermail/url-list/>")
    lines.append("MIME-Version: 1.0")
    return "\n".join(lines)


def _text(r: random.Random, pool: list[list[str]]) -> str:
    paras = [_wrap(r, p) for p in r.choices(pool, k=r.randint(1, 4))]
    if r.random() < 0.4:                  # a quoted reply above the answer
        quoted = _wrap(r, r.choice(pool), 68)
        paras.insert(0, "On Monday someone wrote:\n" + "\n".join("> " + ln for ln in quoted.split("\n")))
    return "\n\n".join(paras) + "\n"


def _qp(r: random.Random, pool: list[list[str]]) -> str:
    # one long line per paragraph, so the soft breaks fall inside URLs
    text = "\n\n".join(" ".join(p) for p in r.choices(pool, k=r.randint(1, 3))) + "\n"
    return binascii.b2a_qp(text.encode("utf-8")).decode("ascii")


def _body(r: random.Random, pool: list[list[str]], n: int) -> str:
    x = r.random()
    if x < 0.3:
        return 'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: 8bit\n\n' + _text(r, pool)
    if x < 0.5:
        return ('Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
                + _qp(r, pool))
    if x < 0.6:
        data = base64.encodebytes(_text(r, pool).encode("utf-8")).decode("ascii")
        return 'Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: base64\n\n' + data
    paras = r.choices(pool, k=r.randint(1, 3))
    page = "<html><body>\n" + "\n".join(_html(r, p) for p in paras) + "\n</body></html>\n"
    if x < 0.7:
        return 'Content-Type: text/html; charset="utf-8"\n\n' + page
    boundary = f"=_alt_{n}"
    plain = binascii.b2a_qp("\n\n".join(" ".join(p) for p in paras).encode("utf-8")).decode("ascii")
    html_qp = binascii.b2a_qp(page.encode("utf-8")).decode("ascii")
    return (f'Content-Type: multipart/alternative; boundary="{boundary}"\n\n'
            f"--{boundary}\nContent-Type: text/plain; charset=\"utf-8\"\n"
            f"Content-Transfer-Encoding: quoted-printable\n\n{plain}\n"
            f"--{boundary}\nContent-Type: text/html; charset=\"utf-8\"\n"
            f"Content-Transfer-Encoding: quoted-printable\n\n{html_qp}\n--{boundary}--\n")


def iter_messages(seed: int = 1) -> Iterator[str]:
    """Yield mbox messages forever (each ends with a blank line); same seed, same text."""
    r = random.Random(seed)
    pool = [_paragraph(r) for _ in range(POOL_PARAGRAPHS)]
    t = 946684800                          # 2000-01-01T00:00:00Z, not the wall clock
    n = 0
    while True:
        n += 1
        t += r.randint(30, 3600)
        head = _headers(r, n, t)
        sep, _, rest = head.partition("\n")
        body = SEP.sub(r">\1", _body(r, pool, n))
        yield f"{sep}\n{rest}\n{body}\n"
