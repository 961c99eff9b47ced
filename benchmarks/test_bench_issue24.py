"""Issue 24, the API and the analysts' items: what they cost.

Group ``issue24-parse``: ``urlsift.parse`` over the URL list as it was (no ``scheme=``)
and with ``scheme=`` (the check after the parse), to see the hot path did not slow.

Group ``issue24-mail``: the mail records, ``urlsift.extract_file(mbox, mbox=True)`` with
each match's ``text`` and ``deceptive`` read (the anchor texts made from the walk's
segments; messages with non-ASCII anchor text go to ``email``), beside the same without
reading them (the texts are made either way: one row shows the flag's cost).

Group ``issue24-stats``: ``python -m urlsift stats`` on the access log, and the same with
``--html`` (the timestamps read as the scan reads the text, the page written).
"""
from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import urlsift

SRC = str(Path(__file__).resolve().parent.parent / "src")


@pytest.mark.benchmark(group="issue24-parse")
@pytest.mark.parametrize("how", ["plain", "scheme"])
def test_parse(bench, url_list, urls_bytes, how):
    urls = [u for u in url_list if u.startswith("http:")]

    def plain() -> int:
        n = 0
        for u in urls:
            try:
                urlsift.parse(u)
                n += 1
            except ValueError:
                pass
        return n

    def with_scheme() -> int:
        n = 0
        for u in urls:
            try:
                urlsift.parse(u, scheme="http")
                n += 1
            except ValueError:
                pass
        return n

    bench(plain if how == "plain" else with_scheme, items=len(urls),
          bytes=sum(len(u) for u in urls))


@pytest.mark.benchmark(group="issue24-mail")
@pytest.mark.parametrize("read", ["url", "text+deceptive"])
def test_mail_records(bench, mbox_path, read):
    def urls_only() -> int:
        return sum(1 for _ in urlsift.extract_file(mbox_path, mbox=True))

    def with_text() -> int:
        return sum(1 for m in urlsift.extract_file(mbox_path, mbox=True) if m.deceptive or m.text)

    n = bench(urls_only if read == "url" else with_text, heavy=True,
              bytes=os.path.getsize(mbox_path))
    assert n >= 0


@pytest.mark.benchmark(group="issue24-stats")
@pytest.mark.parametrize("html", [False, True])
def test_stats_command(bench, log_path, html):
    env = dict(os.environ, PYTHONPATH=SRC + os.pathsep + os.environ.get("PYTHONPATH", ""))
    out = Path(tempfile.mkdtemp()) / "r.html"
    args = [sys.executable, "-m", "urlsift", "stats", str(log_path)]
    if html:
        args[4:4] = ["--html", str(out)]

    def run() -> int:
        return subprocess.run(args, env=env, stdout=subprocess.DEVNULL, check=True).returncode

    bench(run, heavy=True, bytes=os.path.getsize(log_path))
