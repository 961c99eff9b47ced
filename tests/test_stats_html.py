"""``urlsift stats --html FILE`` (issue 24): one self-contained page whose numbers are
``urlsift stats``'s own. Tested by reading the page back with ``html.parser``; the
expected time buckets are worked out by hand from the timestamps written below."""
from __future__ import annotations

import json
import os
from html.parser import HTMLParser

import pytest

from urlsift.cli import timeline
from urlsift.cli.report import time_buckets

LOG = (
    b'203.0.113.5 - - [10/Oct/2026:13:55:00 +0000] "GET / HTTP/1.1" 200 5 "http://a.example/1" "-"\n'
    b'203.0.113.5 - - [10/Oct/2026:14:05:00 +0000] "GET / HTTP/1.1" 200 5 "http://a.example/2" '
    b'"Bot (+http://b.example/bot.html)"\n'
    b'203.0.113.5 - - [10/Oct/2026:16:59:59 +0200] "GET / HTTP/1.1" 200 5 "http://c.example/" "-"\n'
    b"no timestamp here: http://d.example/x y\n"
    b"2026-10-10T15:30:00Z INFO fetched http://e.example/a b\n"
    b"2026-10-12 09:00:00,123 +02:00 WARN http://A_B.example/ and ftp://f.example/p\n"
)
MBOX = (b"From a@b Mon Oct 12 09:00:00 2026\nMessage-ID: <1@x>\n"
        b"Date: Mon, 12 Oct 2026 09:10:00 +0200\n\nsee http://m.example/ and http://a.example/1\n"
        b"\nFrom a@b Mon Oct 12 09:00:00 2026\nMessage-ID: <2@x>\n\nundated http://n.example/\n")


class _Page(HTMLParser):
    """The tables of the page by ``data-section``, and every tag and attribute seen."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self.tags: list[tuple[str, dict]] = []
        self.section = None
        self.row: list[str] = []
        self.cell = None

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        self.tags.append((tag, a))
        if tag == "table":
            self.section = a.get("data-section")
            self.tables[self.section] = []
        elif tag == "tr":
            self.row = []
        elif tag == "td":
            self.cell = ""

    def handle_endtag(self, tag):
        if tag == "td":
            self.row.append(self.cell)
            self.cell = None
        elif tag == "tr" and self.section and self.row:
            self.tables[self.section].append(self.row)
        elif tag == "table":
            self.section = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data

    def numbers(self, section: str) -> dict[str, int]:
        return {k: int(v) for k, v in self.tables[section]}


def _read(path) -> _Page:
    page = _Page()
    page.feed(path.read_text(encoding="utf-8"))
    page.close()
    return page


def _stats(run, *args) -> dict:
    done = run("stats", "--json", *args)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


@pytest.fixture
def inputs(tmp_path):
    (tmp_path / "access.log").write_bytes(LOG)
    (tmp_path / "inbox.mbox").write_bytes(MBOX)
    return tmp_path


def test_the_page_holds_the_numbers_of_stats(inputs, run):
    log, box, out = inputs / "access.log", inputs / "inbox.mbox", inputs / "report.html"
    done = run("stats", "--html", out, log, box)
    assert done.returncode == 0, done.stderr
    want = _stats(run, log, box)
    page = _read(out)
    summary = {k: int(v) for k, v in page.tables["summary"]}
    assert summary == {"URLs found": want["urls"], "distinct URLs": want["distinct"],
                       "invalid (RFC 1738)": want["invalid"]}
    assert page.numbers("schemes") == want["schemes"]
    assert page.numbers("hosts") == want["hosts"]
    assert page.numbers("problems") == want["problems"]
    files = page.numbers("files")
    assert files == {str(log): _stats(run, log)["urls"], str(box): _stats(run, box)["urls"]}
    assert sum(files.values()) == want["urls"]
    # and the table on stdout, as without --html
    assert b"URLs found" in done.stdout


def test_urls_over_time_by_hour(inputs, run):
    # LOG's dated URLs in UTC: 13:55 (1), 14:05 (2), 14:59 (16:59 at +0200: 1),
    # 15:30 (1), and on the 12th 07:00 (09:00 at +02:00: 2); the mbox's first message
    # 07:10 on the 12th (2 URLs), the second has no Date. 13:55 on the 10th to 07:10 on
    # the 12th is 42 hours: too many minutes for 120 bars, so one bar an hour.
    out = inputs / "r.html"
    done = run("stats", "--html", out, inputs / "access.log", inputs / "inbox.mbox")
    assert done.returncode == 0, done.stderr
    buckets = _read(out).numbers("timeline")
    assert {k: v for k, v in buckets.items() if v} == {
        "2026-10-10 13:00": 1, "2026-10-10 14:00": 3, "2026-10-10 15:00": 1,
        "2026-10-12 07:00": 4}
    assert len(buckets) == 43                   # 13:00 on the 10th to 07:00 on the 12th
    text = out.read_text()
    assert "9 of 11 URLs stand on a line (or in a message) with a timestamp" in text
    assert "one bar per 1 hour" in text


def test_urls_over_time_by_minute(tmp_path, run):
    log = tmp_path / "a.log"
    log.write_bytes(LOG[:LOG.index(b"2026-10-12")])     # 13:55 to 15:30: 96 minutes
    out = tmp_path / "r.html"
    assert run("stats", "--html", out, log).returncode == 0
    buckets = _read(out).numbers("timeline")
    assert len(buckets) == 96
    assert {k: v for k, v in buckets.items() if v} == {
        "2026-10-10 13:55": 1, "2026-10-10 14:05": 2, "2026-10-10 14:59": 1,
        "2026-10-10 15:30": 1}


def test_a_compressed_log_and_stdin_are_read_once(tmp_path, run):
    import gzip
    log = tmp_path / "a.log.gz"
    log.write_bytes(gzip.compress(LOG))
    out = tmp_path / "r.html"
    assert run("stats", "--html", out, log).returncode == 0
    assert sum(_read(out).numbers("timeline").values()) == 7
    out2 = tmp_path / "s.html"
    assert run("stats", "--html", out2, "-", stdin=LOG).returncode == 0
    assert _read(out2).numbers("timeline") == _read(out).numbers("timeline")
    assert _read(out2).numbers("files") == {"-": 8}   # LOG holds 8 URLs, 7 dated


def test_no_timestamps_says_so(tmp_path, run):
    log = tmp_path / "plain.txt"
    log.write_bytes(b"see http://a.example/ and http://b.example/\n")
    out = tmp_path / "r.html"
    assert run("stats", "--html", out, log).returncode == 0
    page = _read(out)
    assert "timeline" not in page.tables
    assert "No URL stands on a line with a timestamp" in out.read_text()


def test_the_page_fetches_nothing(inputs, run):
    out = inputs / "r.html"
    assert run("stats", "--html", out, inputs / "access.log").returncode == 0
    page = _read(out)
    tags = {tag for tag, _ in page.tags}
    assert not tags & {"script", "link", "img", "iframe", "object", "embed", "base", "image",
                       "use", "foreignobject"}
    assert "svg" in tags and "rect" in tags
    for tag, attrs in page.tags:
        assert not {"src", "href", "xlink:href", "srcset", "action"} & set(attrs), (tag, attrs)
        assert not any(k.startswith("on") for k in attrs), (tag, attrs)
    text = out.read_text()
    assert "url(" not in text and "@import" not in text
    assert "default-src 'none'" in text


def test_never_onto_an_input(inputs, run):
    log = inputs / "access.log"
    done = run("stats", "--html", log, log)
    assert done.returncode == 2
    assert b"input file '%s' is also the output" % str(log).encode() in done.stderr
    assert log.read_bytes() == LOG
    link = inputs / "same.html"
    os.link(log, link)                          # another name of the same file
    done = run("stats", "--html", link, log)
    assert done.returncode == 2 and log.read_bytes() == LOG
    assert done.stdout == b""                   # refused before anything was read


def test_html_with_json_prints_the_json_unchanged(inputs, run):
    out = inputs / "r.html"
    done = run("stats", "--json", "--html", out, inputs / "access.log")
    assert json.loads(done.stdout) == _stats(run, inputs / "access.log")
    assert out.exists()


# ---- the timestamps ------------------------------------------------------------------

def _utc_minute(*fields: int) -> int:
    from datetime import datetime, timezone
    return int(datetime(*fields, tzinfo=timezone.utc).timestamp()) // 60


@pytest.mark.parametrize("line, fields", [
    (b'1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET / HTTP/1.0"', (2000, 10, 10, 20, 55)),
    (b"2026-01-02T03:04:05Z x", (2026, 1, 2, 3, 4)),
    (b"2026-01-02T03:04:05.123+01:00 x", (2026, 1, 2, 2, 4)),
    (b"2026-01-02 03:04:05,999 -0130 x", (2026, 1, 2, 4, 34)),
    (b"2026-01-02 03:04 x", (2026, 1, 2, 3, 4)),          # no zone: UTC
    (b"<34>Oct  1 22:14:15 host su: x", (2026, 10, 1, 22, 14)),
    (b"at 2026-03-04T05:06:07Z then 2027-01-01T00:00:00Z", (2026, 3, 4, 5, 6)),   # the first
])
def test_minute_of(line, fields):
    now = _utc_minute(2026, 11, 26, 0, 0) * 60
    assert timeline.minute_of(line, now=now) == _utc_minute(*fields)


def test_syslog_year_is_never_in_the_future():
    now = _utc_minute(2026, 1, 5, 0, 0) * 60
    assert timeline.minute_of(b"Dec 31 23:59:00 h x", now=now) == _utc_minute(2025, 12, 31, 23, 59)


@pytest.mark.parametrize("line", [b"no time", b"2026-13-01T00:00:00Z", b"12026-01-01T00:00Z",
                                  b"[32/Oct/2000:13:55:36 -0700]"])
def test_no_minute(line):
    assert timeline.minute_of(line) is None


def test_dated_stream_over_small_reads():
    import io
    data = LOG
    stream = timeline.DatedStream(io.BytesIO(data))
    seen = []
    at = [data.index(b"http://a.example/1"), data.index(b"http://d.example/"),
          data.index(b"http://e.example/"), data.index(b"ftp://f.example/")]
    got = []
    while True:
        chunk = stream.read(7)
        if not chunk:
            break
        seen.append(chunk)
        while at and at[0] < stream.read_so_far - 40:
            got.append(stream.minute_at(at.pop(0)))
    got += [stream.minute_at(a) for a in at]
    assert b"".join(seen) == data
    assert got == [_utc_minute(2026, 10, 10, 13, 55), None, _utc_minute(2026, 10, 10, 15, 30),
                   _utc_minute(2026, 10, 12, 7, 0)]


def test_time_buckets_grow_to_fit():
    size, rows = time_buckets({0: 1, 60 * 24 * 3: 2})       # three days apart
    assert size == "1 hour" and len(rows) == 73 and rows[0] == ("1970-01-01 00:00", 1)
    size, rows = time_buckets({0: 1, 60 * 24 * 365: 2})     # a year apart: 53 weeks
    assert size == "1 week" and len(rows) == 53 and rows[-1][1] == 2
    size, rows = time_buckets({0: 1, 60 * 24 * 1095: 2})    # three years: 157 weeks, too many
    assert size == "30 days" and len(rows) == 37 and sum(n for _, n in rows) == 3
