"""Issue 25 step 4: what the WHATWG HTML tokenizer costs on mail, before the walker's
html room is rebuilt over it (``NEXT.md``): the ``text/html`` parts of the benchmark
spool (``mbox_path``), their transfer encoding undone (not timed), read by

- ``html_runs``: ``cores.html.html_runs(part, anchors=True)``, the core alone, on the
  core in use (``URLSIFT_CORE``);
- ``html_links``: ``urlsift.mail.htmllinks.html_links(part, anchors=True)``, the core
  and the mail layer's reading of its records (href clean-up, srcset, refresh, CSS);
- ``spool_urls``: the fast walker over the whole spool, for scale.

``bytes`` is the HTML octets read (the spool's for ``spool_urls``); ``items`` the
records or links made.
"""
from __future__ import annotations

import mailbox

import pytest

GROUP = "mail-html"


@pytest.fixture(scope="module")
def html_parts(mbox_path) -> list[bytes]:
    parts = []
    for message in mailbox.mbox(str(mbox_path)):
        for part in message.walk():
            if part.get_content_type() == "text/html":
                payload = part.get_payload(decode=True)
                if isinstance(payload, bytes):
                    parts.append(payload)
    return parts


@pytest.mark.benchmark(group=GROUP)
def test_html_runs(bench, html_parts):
    from urlsift._select import cores
    runs = cores.html.html_runs
    found = bench(lambda: sum(len(runs(p, anchors=True)[0]) for p in html_parts),
                  bytes=sum(map(len, html_parts)))
    assert found > 0


@pytest.mark.benchmark(group=GROUP)
def test_html_links(bench, html_parts):
    from urlsift.mail.htmllinks import html_links
    found = bench(lambda: sum(len(html_links(p, anchors=True)) for p in html_parts),
                  bytes=sum(map(len, html_parts)))
    assert found > 0


@pytest.mark.benchmark(group=GROUP)
def test_spool_urls(bench, mbox_path):
    from urlsift.mail.walk import spool_urls

    def walk() -> int:
        with open(mbox_path, "rb") as f:
            return sum(1 for _ in spool_urls(f, "spool"))
    assert bench(walk, bytes=mbox_path.stat().st_size) > 0


# ---- HTML mail as newsletters write it (group mail-newsletter) ---------------------------

NEWSLETTER = "mail-newsletter"
#: the URL attributes and CSS of newsletter templates, each in its own message; the
#: walk reads them itself (they sent their message to the ``email`` path before 6008a58)
_ATTRIBUTES = [
    b'<td background="https://img.example.com/bg/%d.png">',
    b'<td style="background-image:url(https://img.example.com/s/%d.png); color:#333">',
    b"<style>@import url('https://fonts.example.com/css?id=%d');</style>",
    b'<img src="https://img.example.com/p/%d.png" srcset="https://img.example.com/p/%d@2x.png 2x">',
    b'<form action="https://shop.example.com/subscribe?list=%d">',
    b'<p class="plain" title="no URL attribute">%d</p>',
]


@pytest.fixture(scope="module")
def newsletter_path(tmp_path_factory, sizes) -> "object":
    """A spool of HTML messages, one of :data:`_ATTRIBUTES` each, about a tenth of the
    benchmark spool's size (``sizes['mbox_mb']``)."""
    path = tmp_path_factory.mktemp("newsletter") / "newsletter.mbox"
    target = max(200_000, int(sizes["mbox_mb"] * 100_000))
    out, i = [], 0
    while sum(map(len, out)) < target:
        attr = _ATTRIBUTES[i % len(_ATTRIBUTES)].replace(b"%d", b"%d" % i)
        out.append(b"From news@example.com Thu Nov 26 10:00:00 2026\nMessage-ID: <%d@news.example>\n"
                   b"Content-Type: text/html; charset=utf-8\n\n<html><body><table><tr>%s"
                   b'<a href="https://shop.example.com/item/%d?utm_source=mail&amp;id=%d">Buy now</a>'
                   b"<p>Hello, see this week's offers and more text to read.</p></tr></table>"
                   b"</body></html>\n" % (i, attr, i, i))
        i += 1
    path.write_bytes(b"".join(out))
    return path


@pytest.mark.benchmark(group=NEWSLETTER)
def test_newsletter_extract_file(bench, newsletter_path):
    """``extract_file(path, mbox=True)`` on the newsletter spool: no message falls back."""
    import io

    import urlsift
    from urlsift._mail_records import FALLBACK, MSG, MSG_FLAGS
    from urlsift.mail import spool, walk
    data = newsletter_path.read_bytes()
    for _, piece in spool.mbox_blocks(io.BytesIO(data), spool.MESSAGE_MAX):
        msgs = walk._prepared(piece)[0][2]
        assert not any(msgs[i + MSG_FLAGS] & FALLBACK for i in range(0, len(msgs), MSG))
    found = bench(lambda: sum(1 for _ in urlsift.extract_file(newsletter_path, mbox=True)),
                  bytes=len(data))
    assert found > 0


@pytest.mark.benchmark(group=NEWSLETTER)
def test_newsletter_email_path(bench, newsletter_path):
    """The ``email`` path on the same spool: what those messages cost before."""
    import io

    from urlsift.mail import iter_spool_urls, spool
    data = newsletter_path.read_bytes()
    found = bench(lambda: sum(1 for _ in iter_spool_urls(spool.mbox_messages(io.BytesIO(data), "n"))),
                  bytes=len(data), heavy=True)
    assert found > 0
