"""Issue 12: non-ASCII URLs (IRIs) in running text, beside the same text with the URLs
%-encoded and beside ``re``.

The corpus is generated here (deterministic): lines of Russian, German and Japanese
prose, each holding one IRI (``http://例え.jp/パス/N``, ``…/wiki/Straße_N``,
``http://ru.example/Москва/N``, ``…/wiki/東京_N``) or, in the encoded twin, the same URL
%-encoded as RFC 1738 §2.2 wants it. urlsift finds each IRI whole (checked: the count
and the URLs); the ``re`` peer uses :data:`PATTERN` on the decoded ``str`` (Unicode-aware,
so its matches run on into glued CJK prose; shown for speed, not compared).
"""
from __future__ import annotations

import importlib
import os
import random
import re
from typing import Callable

import pytest

SIZE = os.environ.get("URLSIFT_BENCH_SIZE", "small")     # as conftest.SIZE

#: MB of text per corpus size.
MB = {"tiny": 1, "small": 10, "full": 100}[SIZE]
PATTERN = r'[A-Za-z][A-Za-z0-9+.-]*://[^\s<>"{}|\\^`]+'
IRIS = ["http://例え.jp/パス/{}", "https://de.wikipedia.org/wiki/Straße_{}",
        "http://ru.example/Москва/{}", "https://ja.wikipedia.org/wiki/東京_{}"]
PROSE = ["см. {} и далее", "siehe {} bitte.", "詳しくは {} を見て", "voir {} ou pas"]


def _encoded(url: str) -> str:
    from urllib.parse import quote
    return quote(url, safe=":/_")


@pytest.fixture(scope="module")
def corpus() -> tuple[bytes, bytes, list[str]]:
    """(text with IRIs, the same with the URLs %-encoded, the IRIs in order)."""
    rng = random.Random(12)
    lines, encoded, urls = [], [], []
    size = 0
    while size < MB * 1_000_000:
        url = rng.choice(IRIS).format(rng.randrange(10 ** 6))
        prose = rng.choice(PROSE)
        line = "2026-11-25 " + prose.format(url) + "\n"
        lines.append(line)
        encoded.append("2026-11-25 " + prose.format(_encoded(url)) + "\n")
        urls.append(url)
        size += len(line.encode())
    return "".join(lines).encode(), "".join(encoded).encode(), urls


def _extract() -> Callable:
    return importlib.import_module("urlsift.text.extraction").extract


def _run(bench, benchmark, fn: Callable[[], int], nbytes: int) -> int:
    benchmark.group = "extract-iri"
    found = bench(fn, heavy=True, bytes=nbytes, corpus=f"iri {MB} MB")
    benchmark.extra_info["items"] = found
    return found


def test_iri_urlsift(bench, benchmark, corpus):
    """``extract(bytes)`` on the IRIs: each found whole, ``non-ascii`` said."""
    data, _, urls = corpus
    extract = _extract()
    found = _run(bench, benchmark, lambda: sum(1 for _ in extract(data)), len(data))
    assert found == len(urls)
    got = list(extract(data))
    assert [m.url for m in got] == urls and all("non-ascii" in m.edits for m in got)


def test_iri_urlsift_encoded(bench, benchmark, corpus):
    """The same URLs %-encoded (ASCII): what IRIs cost over it."""
    _, data, urls = corpus
    extract = _extract()
    assert _run(bench, benchmark, lambda: sum(1 for _ in extract(data)), len(data)) == len(urls)


def test_iri_re(bench, benchmark, corpus):
    """``re.findall`` of a Unicode-aware pattern on the decoded text (decoding included)."""
    data, _, urls = corpus
    findall = re.compile(PATTERN).findall
    _run(bench, benchmark, lambda: len(findall(data.decode())), len(data))
