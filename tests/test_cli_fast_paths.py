"""The command's lines made in the core (no Match built) are byte for byte the lines its
writers make from the records: ``extract`` as text, JSON lines or CSV, with or without
``--with-position``, on one thread or two, over files cut into many pieces.

The records path is what every other option takes; here it is forced by making
``_plain_lines`` decline, so the two are compared on the same input in one process.
"""
from __future__ import annotations

import json
import os

import pytest

from urlsift.cli import extract as extract_cmd
from urlsift.cli.main import main
from urlsift.text.files import PIECE_SIZE

# A log spread over several pieces, with what the JSON path must escape: a '"' inside
# <...> (the scanner keeps it: a wrapper ends only at '>'), and lines of every length.
_LINES = [
    b'1.2.3.4 - - [01/Jan/2026] "GET /a HTTP/1.1" 200 5 "http://ref.example/p?q=1" "UA"',
    b'see <http://a.example/say"hi"> and <URL:ftp://f.example/pub/x;type=a>',
    b"plain text with no URL at all",
    b"mailto:ops@example.org, news:comp.lang.misc and gopher://g.example/00/x",
    b"",
]


def _log(path: str, size: int) -> str:
    with open(path, "wb") as f:
        n = 0
        k = 0
        while n < size:
            line = _LINES[k % len(_LINES)] + b" #%d\n" % k
            f.write(line)
            n += len(line)
            k += 1
    return path


@pytest.fixture(scope="module")
def big_log(tmp_path_factory):
    # about 3 pieces' worth: the pieces and the join between them are exercised
    return _log(str(tmp_path_factory.mktemp("fast") / "lo g é.log"), 3 * PIECE_SIZE + 1234)


def _run(args: list[str], out: str) -> bytes:
    assert main(["extract", *args, "-o", out]) == 0
    with open(out, "rb") as f:
        return f.read()


@pytest.mark.parametrize("fmt", ["text", "jsonl", "csv"])
@pytest.mark.parametrize("position", [False, True])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_core_lines_are_the_writers_lines(big_log, tmp_path, monkeypatch, fmt, position, jobs):
    args = ["-f", fmt, "-j", jobs, big_log] + (["--with-position"] if position else [])
    fast = _run(args, str(tmp_path / "fast"))
    monkeypatch.setattr(extract_cmd, "_plain_lines", lambda *a, **k: None)
    slow = _run(args, str(tmp_path / "slow"))
    assert fast == slow
    assert fast.count(b"\n") > 1000


def test_jsonl_with_position_escapes_a_quote_and_names_the_file(tmp_path):
    # worked out by hand: the URL of line 2 holds '"' (inside <...>), which JSON writes
    # as \"; line 1's URL starts at octet 4 of the file, line 2's at 4 + 20 + 1 + 4
    path = str(tmp_path / 'we"ird.log')
    with open(path, "wb") as f:
        f.write(b"see http://a.example/x ok\nand <http://b.example/say\"hi\">\n")
    got = _run(["-f", "jsonl", "--with-position", path], str(tmp_path / "out"))
    recs = [json.loads(line) for line in got.splitlines()]
    assert recs == [
        {"url": "http://a.example/x", "file": path, "line": 1, "offset": 4},
        {"url": 'http://b.example/say"hi"', "file": path, "line": 2, "offset": 30},
    ]
    assert got.splitlines()[1].startswith(b'{"url": "http://b.example/say\\"hi\\"", "file": ')


def test_csv_is_laid_out_in_the_core_quoting_as_the_csv_module(tmp_path, monkeypatch):
    # worked out by hand: line 1 is 26 octets, its URL at 4; line 2 (28 octets), holding
    # a comma, at 26 + 4 = 30; line 3's raw span (its "<"; the URL holds '"') at
    # 26 + 28 + 4 = 58. RFC 4180: a field holding a comma or a quote is quoted, and a
    # quote in it doubled
    path = str(tmp_path / "a,b.log")
    with open(path, "wb") as f:
        f.write(b"see http://a.example/x ok\nand http://c.example/a,b ok\nand <http://b.example/s\"h\">\n")

    def no_records(*a, **k):
        raise AssertionError("the records path was taken")

    monkeypatch.setattr(extract_cmd, "iter_records", no_records)
    got = _run(["-f", "csv", "--with-position", path], str(tmp_path / "out"))
    quoted = '"' + path + '"'
    assert got.decode().splitlines() == [
        "url,file,line,offset",
        f"http://a.example/x,{quoted},1,4",
        f'"http://c.example/a,b",{quoted},2,30',
        f'"http://b.example/s""h""",{quoted},3,58',
    ]


def test_jsonl_file_name_that_is_not_utf8_becomes_percent_octets(tmp_path):
    # docs/cli.md: an octet of a file name that is not UTF-8 is written %XX
    name = os.path.join(os.fsencode(str(tmp_path)), b"caf\xe9.log")
    with open(name, "wb") as f:
        f.write(b"http://a.example/\n")
    got = _run(["-f", "jsonl", "--with-position", os.fsdecode(name)], str(tmp_path / "o"))
    rec = json.loads(got)
    assert rec["file"] == os.fsdecode(os.path.join(os.fsencode(str(tmp_path)), b"caf%E9.log"))
    got.decode("utf-8")           # valid UTF-8 throughout


@pytest.mark.parametrize("opts", [["-u"], ["--unique=plain"], ["--unique=normalized"],
                                  ["--host", "*.example"], ["--host", "a.example", "-u"],
                                  ["--exclude-schemes", "news,mailto"]])
@pytest.mark.parametrize("jobs", ["1", "2"])
def test_unique_and_filters_on_the_core_lines_are_the_records_output(big_log, tmp_path,
                                                                       monkeypatch, opts, jobs):
    # issue 27: --unique, --host, --exclude-schemes sift the lines made in the core
    # (_LineSifter) instead of building a Match per URL; the same octets either way
    args = ["-j", jobs, big_log, *opts]
    fast = _run(args, str(tmp_path / "fast"))
    monkeypatch.setattr(extract_cmd, "_plain_lines", lambda *a, **k: None)
    slow = _run(args, str(tmp_path / "slow"))
    assert fast == slow
    assert fast


def test_unique_counts_by_hand(tmp_path):
    # three URLs, one twice and one written with %2D for "-" (the same URL normalized,
    # RFC 1738 §2.2: an octet may be written as its escape); counts first, then the URL
    path = tmp_path / "u.log"
    path.write_bytes(b"http://a.example/x-y http://b.example/ http://a.example/x%2Dy\n"
                     b"again http://b.example/\n")
    # (as uniq -c: the count right-aligned in 7 columns)
    got = _run(["-u", str(path)], str(tmp_path / "o")).decode().splitlines()
    assert got == ["      2 http://b.example/", "      1 http://a.example/x-y",
                   "      1 http://a.example/x%2Dy"]
    got = _run(["--unique=normalized", str(path)], str(tmp_path / "o")).decode().split()
    assert got == ["2", "http://a.example/x-y", "2", "http://b.example/"]
    got = _run(["--unique=plain", str(path)], str(tmp_path / "o")).decode().splitlines()
    assert got == ["http://a.example/x-y", "http://b.example/", "http://a.example/x%2Dy"]


@pytest.mark.parametrize("opts", [["-c"], ["-c", "--host", "*.example"], ["-c", "-H"]])
def test_counts_over_the_core_lines_are_the_records_counts(big_log, tmp_path, monkeypatch,
                                                           opts):
    # issue 27: -c counts the lines made in the core; the same number as the records
    args = [big_log, *opts]
    fast = _run(args, str(tmp_path / "fast"))
    monkeypatch.setattr(extract_cmd, "_plain_lines", lambda *a, **k: None)
    slow = _run(args, str(tmp_path / "slow"))
    assert fast == slow
    assert int(fast.split(b":")[-1]) > 1000
