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
