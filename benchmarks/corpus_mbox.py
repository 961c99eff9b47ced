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

The truth comes with it: :func:`iter_truth` (or :func:`iter_messages_with_truth`)
gives, per message, its Message-ID and the URLs as generated, in message order: the
``_url`` tokens unwrapped (``<URL:u>`` and ``(u).`` give ``u``) and the
``List-Unsubscribe`` / ``List-Archive`` URLs, each as ``(part, url)`` with ``part``
``"header"``, ``"text/plain"`` or ``"text/html"``. Quoted-printable, base64, line
breaks inside wrappers, ``> `` quoting and HTML entities only encode the same URL; an
HTML anchor whose text is its own URL counts once. A multipart/alternative message
carries each URL twice, once per alternative (``text/plain`` and ``text/html``), as a
reader that reports the part of each URL finds it.
"""
from __future__ import annotations

import base64
import binascii
import html
import random
import re
import time
from typing import Iterator, NamedTuple

__all__ = ["iter_messages", "iter_messages_with_truth", "iter_truth", "MessageTruth"]

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


def _token_urls(tokens: list[str]) -> list[str]:
    """The URLs of a paragraph, in order: its ``_url`` tokens (words never hold ``:``)."""
    return [_unwrap(tok) for tok in tokens if ":" in tok]


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


def _headers(r: random.Random, n: int, t: int) -> tuple[str, list[str]]:
    sender = f"{r.choice(('alice', 'bob', 'carol', 'dave'))}@{r.choice(HOSTS[:8])}"
    date = time.strftime("%a, %d %b %Y %H:%M:%S +0000", time.gmtime(t))
    lines = [
        f"From {sender} {time.strftime('%a %b %d %H:%M:%S %Y', time.gmtime(t))}",
        f"From: {sender}", "To: url-list@lists.example.org",
        f"Subject: {'Re: ' if r.random() < 0.5 else ''}{' '.join(r.choices(WORDS, k=5))}",
        f"Date: {date}", f"Message-ID: <{n}.{t}@{r.choice(HOSTS[:8])}>",
    ]
    urls = []
    if r.random() < 0.4:
        urls = ["mailto:url-list-request@lists.example.org?subject=unsubscribe",
                f"https://lists.example.org/mailman/options/url-list/{sender}",
                "https://lists.example.org/pipermail/url-list/"]
        lines.append(f"List-Unsubscribe: <{urls[0]}>,\n <{urls[1]}>")
        lines.append(f"List-Archive: <{urls[2]}>")
    lines.append("MIME-Version: 1.0")
    return "\n".join(lines), urls


def _text(r: random.Random, pool: list[list[str]]) -> tuple[str, list[str]]:
    chosen = r.choices(pool, k=r.randint(1, 4))
    paras = [_wrap(r, p) for p in chosen]
    urls = [u for p in chosen for u in _token_urls(p)]
    if r.random() < 0.4:                  # a quoted reply above the answer
        reply = r.choice(pool)
        quoted = _wrap(r, reply, 68)
        paras.insert(0, "On Monday someone wrote:\n" + "\n".join("> " + ln for ln in quoted.split("\n")))
        urls[:0] = _token_urls(reply)
    return "\n\n".join(paras) + "\n", urls


def _qp(r: random.Random, pool: list[list[str]]) -> tuple[str, list[str]]:
    # one long line per paragraph, so the soft breaks fall inside URLs
    chosen = r.choices(pool, k=r.randint(1, 3))
    text = "\n\n".join(" ".join(p) for p in chosen) + "\n"
    return binascii.b2a_qp(text.encode("utf-8")).decode("ascii"), [u for p in chosen for u in _token_urls(p)]


def _body(r: random.Random, pool: list[list[str]], n: int) -> tuple[str, list[tuple[str, str]]]:
    """A body with its Content-Type, and its URLs as ``(part, url)`` (see the module)."""
    x = r.random()
    if x < 0.3:
        text, urls = _text(r, pool)
        return ('Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: 8bit\n\n' + text,
                [("text/plain", u) for u in urls])
    if x < 0.5:
        text, urls = _qp(r, pool)
        return ('Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: quoted-printable\n\n'
                + text, [("text/plain", u) for u in urls])
    if x < 0.6:
        text, urls = _text(r, pool)
        data = base64.encodebytes(text.encode("utf-8")).decode("ascii")
        return ('Content-Type: text/plain; charset="utf-8"\nContent-Transfer-Encoding: base64\n\n' + data,
                [("text/plain", u) for u in urls])
    paras = r.choices(pool, k=r.randint(1, 3))
    page = "<html><body>\n" + "\n".join(_html(r, p) for p in paras) + "\n</body></html>\n"
    # every URL token once: an href (its anchor text, the URL or "click here", adds none)
    # or, for news: (never made a link), the text itself
    urls = [u for p in paras for u in _token_urls(p)]
    if x < 0.7:
        return 'Content-Type: text/html; charset="utf-8"\n\n' + page, [("text/html", u) for u in urls]
    boundary = f"=_alt_{n}"
    plain = binascii.b2a_qp("\n\n".join(" ".join(p) for p in paras).encode("utf-8")).decode("ascii")
    html_qp = binascii.b2a_qp(page.encode("utf-8")).decode("ascii")
    return (f'Content-Type: multipart/alternative; boundary="{boundary}"\n\n'
            f"--{boundary}\nContent-Type: text/plain; charset=\"utf-8\"\n"
            f"Content-Transfer-Encoding: quoted-printable\n\n{plain}\n"
            f"--{boundary}\nContent-Type: text/html; charset=\"utf-8\"\n"
            f"Content-Transfer-Encoding: quoted-printable\n\n{html_qp}\n--{boundary}--\n",
            [("text/plain", u) for u in urls] + [("text/html", u) for u in urls])


class MessageTruth(NamedTuple):
    """The URLs of one generated message: its Message-ID (with the angle brackets) and
    ``(part, url)`` pairs in message order, headers first (see the module)."""
    message_id: str
    urls: list[tuple[str, str]]


def iter_messages_with_truth(seed: int = 1) -> Iterator[tuple[str, MessageTruth]]:
    """Yield ``(message, truth)`` forever: the messages of :func:`iter_messages` with
    the URLs each one was made with (the same random draws: same seed, same text)."""
    r = random.Random(seed)
    pool = [_paragraph(r) for _ in range(POOL_PARAGRAPHS)]
    t = 946684800                          # 2000-01-01T00:00:00Z, not the wall clock
    n = 0
    while True:
        n += 1
        t += r.randint(30, 3600)
        head, header_urls = _headers(r, n, t)
        sep, _, rest = head.partition("\n")
        body, body_urls = _body(r, pool, n)
        body = SEP.sub(r">\1", body)
        message_id = head[head.index("Message-ID: ") + 12:].partition("\n")[0]
        yield (f"{sep}\n{rest}\n{body}\n",
               MessageTruth(message_id, [("header", u) for u in header_urls] + body_urls))


def iter_messages(seed: int = 1) -> Iterator[str]:
    """Yield mbox messages forever (each ends with a blank line); same seed, same text."""
    for message, _ in iter_messages_with_truth(seed):
        yield message


def iter_truth(seed: int = 1) -> Iterator[MessageTruth]:
    """Yield the truth of each message of :func:`iter_messages`, forever, in order."""
    for _, truth in iter_messages_with_truth(seed):
        yield truth
