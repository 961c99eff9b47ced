"""The ``urlsift`` command, run as a subprocess (``python -m urlsift``) on the samples and
on generated files. The subprocess uses the same core kind as the test (URLSIFT_PURE).

Expected URLs come from reading samples/access.log with the extraction rules
(docs/design.md#extraction-from-text): a bare URL ends at white space or ``"``; trailing ``. , ; : ! ?`` are trimmed and a ``)``
without partner in the URL; a scheme starts at a letter (``+http://`` gives ``http://``);
a scheme alone (``http://``) is not reported; ``host:port`` with no ``//`` is not a URL.
"""
from __future__ import annotations

import bz2
import csv
import gzip
import io
import json
import lzma
import os
import signal
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

import pytest

import urlsift

ROOT = Path(__file__).resolve().parent.parent
SRC = Path(urlsift.__file__).resolve().parent.parent
SAMPLES = ROOT / "samples"
ACCESS = SAMPLES / "access.log"

# (line, URL) of samples/access.log, in order.
ACCESS_EXPECTED = [
    (2, "http://www.example.com/"),
    (3, "http://www.example.com/"),
    (4, "http://www.google.com/bot.html"),           # "+http://...bot.html)": ")" unpartnered
    (5, "http://www.google.com/bot.html"),
    (6, "https://www.google.com/search?q=blue+widget"),
    (7, "http://www.example.com/products/widget-42?color=blue&size=m"),
    (8, "http://shop.example:99999/cart"),            # proxy request target
    # line 9: "CONNECT www.example.com:443": no "//", not a known scheme: no URL
    (10, "http://www.bing.com/bingbot.htm"),
    (11, "http://evil.example/phish"),                # inside "/redirect?to=http://..."
    (12, "https://news.ycombinator.example/item?id=4242"),
    (13, "http://www.example.com/blog/2026/10/urls-in-logs"),
    (14, "http://www.feedly.com/fetcher.html"),       # trailing ";" trimmed
    (16, "http://www.example.com/search?q=%zz"),
    (17, "http://www.example.com/~alice/"),
    (18, "http://www.example.com/~alice/"),
    (19, "http://300.12.1.7/admin"),
    (20, "HTTP://WWW.EXAMPLE.COM/"),                  # schemes match case-insensitively
    (21, "http://user:secret@intranet.example/"),
    (22, "ftp://ftp.example.org/pub/urlsift/"),
    (23, "mailto:ops@example.org"),                   # "(mailto:ops@example.org)"
    (25, "http://www.uptimerobot.com/"),
    # line 26: referer "http://": a scheme alone is not reported
    (27, "https://partner.example.net/deals/(summer)"),  # ")" has its partner: kept
    (28, "gopher://gopher.example.org/00/rfc1738.txt"),
    (30, "http://www.example.com/index.html"),
    (32, "http://www.semrush.com/bot.html"),
    (33, "http://www.example.com/docs/#install"),
    (34, "http://localhost:8080/health"),
    (35, "https://www.example.com/faq"),              # trailing "." trimmed
    (36, "http://[2001:db8::1]/"),
    (37, "http://www.google.com/bot.html"),
    (38, "http://www.example.com/"),
    (39, "http://www.example.com/products/widget-42?color=blue&size=m"),
    (40, "http://www.example.com/products/widget-42?color=blue&size=m"),
    (44, "http://www.feedly.com/fetcher.html"),
    (45, "https://www.example.com/faq"),
    (46, "http://www.example.com/index.html"),
    (48, "http://www.google.com/bot.html"),
    (49, "http://www.example.com/"),
    (50, "http://www.example.com/contact"),
    (50, "mailto:ops@example.org"),
]
ACCESS_URLS = [u for _, u in ACCESS_EXPECTED]
# Invalid under RFC 1738 exactly: port > 65535 (stated tightening), "%zz" (§2.2), "~"
# national/unsafe (§2.2), hostnumber part 300 (tightening; "7" cannot be a toplabel),
# upper-case scheme (§5 BNF), user/password in http (§3.3), "[" "]" unsafe (§2.2).
ACCESS_STRICT_INVALID = {
    "http://shop.example:99999/cart", "http://www.example.com/search?q=%zz",
    "http://www.example.com/~alice/", "http://300.12.1.7/admin", "HTTP://WWW.EXAMPLE.COM/",
    "http://user:secret@intranet.example/", "http://[2001:db8::1]/",
}


@pytest.fixture
def cli(core_kind):
    """Run ``python -m urlsift ARGS`` on the core kind of the test."""
    env = dict(os.environ)
    env["PYTHONPATH"] = str(SRC) + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("URLSIFT_PURE", None)
    if core_kind == "python":
        env["URLSIFT_PURE"] = "1"

    def run(*args, input=None, code=None):
        cmd = [sys.executable, "-c", code] if code else [sys.executable, "-m", "urlsift"]
        return subprocess.run(cmd + [str(a) for a in args], input=input, capture_output=True,
                              env=env, cwd=ROOT, timeout=120)

    run.env = env
    return run


def lines(proc):
    return proc.stdout.decode().splitlines()


def no_traceback(proc):
    return b"Traceback" not in proc.stderr


# -- extract: formats ----------------------------------------------------------------

def test_extract_text(cli):
    proc = cli("extract", ACCESS)
    assert proc.returncode == 0, proc.stderr
    assert lines(proc) == ACCESS_URLS
    assert proc.stderr == b""


def test_extract_stdin_dash_and_none(cli):
    data = ACCESS.read_bytes()
    assert lines(cli("extract", input=data)) == ACCESS_URLS
    assert lines(cli("extract", "-", input=data)) == ACCESS_URLS


def test_extract_jsonl_with_position(cli):
    proc = cli("extract", "--format", "jsonl", "--with-position", ACCESS)
    assert proc.returncode == 0, proc.stderr
    recs = [json.loads(line) for line in lines(proc)]
    data = ACCESS.read_bytes()
    text_lines = data.split(b"\n")
    assert [(r["line"], r["url"]) for r in recs] == ACCESS_EXPECTED
    for r in recs:
        assert r["file"] == str(ACCESS)
        # bare URLs: the offset is where the URL's bytes are, on its line
        assert data[r["offset"]:r["offset"] + len(r["url"])] == r["url"].encode()
        assert data.count(b"\n", 0, r["offset"]) + 1 == r["line"]
        assert r["url"].encode() in text_lines[r["line"] - 1]


def test_extract_text_with_position_is_grep_like(cli):
    out = lines(cli("extract", "--with-position", ACCESS))
    line, url = ACCESS_EXPECTED[0]
    offset = ACCESS.read_bytes().index(url.encode())
    assert out[0] == f"{ACCESS}:{line}:{offset}:{url}"


def test_extract_csv(cli):
    proc = cli("extract", "--format", "csv", "--with-position", ACCESS)
    rows = list(csv.reader(io.StringIO(proc.stdout.decode())))
    assert rows[0] == ["url", "file", "line", "offset"]
    assert [(int(r[2]), r[0]) for r in rows[1:]] == ACCESS_EXPECTED


def test_extract_parquet(cli, tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "urls.parquet"
    proc = cli("extract", "--format", "parquet", "--with-position", "-o", out, ACCESS)
    assert proc.returncode == 0, proc.stderr
    table = pq.read_table(out)
    assert table.column_names == ["url", "file", "line", "offset"]
    assert list(zip(table["line"].to_pylist(), table["url"].to_pylist())) == ACCESS_EXPECTED
    piped = cli("extract", "--format", "parquet", ACCESS)  # stdout is a pipe here: allowed
    assert pq.read_table(io.BytesIO(piped.stdout))["url"].to_pylist() == ACCESS_URLS


def test_parquet_without_pyarrow_is_one_line(cli, tmp_path):
    code = ("import sys; sys.modules['pyarrow'] = None; sys.modules['pyarrow.parquet'] = None\n"
            "from urlsift.cli import main; sys.exit(main(sys.argv[1:]))")
    proc = cli("extract", "--format", "parquet", "-o", tmp_path / "x.parquet", ACCESS, code=code)
    assert proc.returncode == 2
    assert proc.stderr.decode().count("\n") == 1 and "pyarrow" in proc.stderr.decode()


def test_extract_unique_counts(cli):
    proc = cli("extract", "--unique", ACCESS)
    out = lines(proc)
    counts = Counter(ACCESS_URLS)
    parsed = [(int(line[:7]), line[8:]) for line in out]
    assert dict((u, n) for n, u in parsed) == counts
    # most frequent first; ties in order of first appearance (www.example.com/ on line 2
    # and bot.html on line 4 are both seen 4 times)
    assert [u for _, u in parsed[:3]] == ["http://www.example.com/", "http://www.google.com/bot.html",
                                          "http://www.example.com/products/widget-42?color=blue&size=m"]
    assert [n for n, _ in parsed] == sorted((n for n, _ in parsed), reverse=True)


def test_extract_unique_jsonl(cli):
    recs = [json.loads(x) for x in lines(cli("extract", "-u", "-f", "jsonl", ACCESS))]
    assert {r["url"]: r["count"] for r in recs} == Counter(ACCESS_URLS)


def test_extract_schemes(cli):
    assert lines(cli("extract", "--schemes", "ftp,GOPHER", ACCESS)) == [
        "ftp://ftp.example.org/pub/urlsift/", "gopher://gopher.example.org/00/rfc1738.txt"]
    assert lines(cli("extract", "--schemes", "mailto", ACCESS)) == ["mailto:ops@example.org"] * 2


def test_extract_strict_and_valid_only(cli):
    pytest.importorskip("urlsift.model.parsing")
    strict = lines(cli("extract", "--strict", ACCESS))
    assert strict == [u for u in ACCESS_URLS if u not in ACCESS_STRICT_INVALID]
    lenient = set(lines(cli("extract", "--valid-only", ACCESS)))
    # lenient mode accepts upper-case schemes, "~", user/password anywhere, IPv6 brackets
    # and keeps malformed escapes literally (docs/design.md#strict-and-lenient)
    assert {"HTTP://WWW.EXAMPLE.COM/", "http://www.example.com/~alice/",
            "http://user:secret@intranet.example/", "http://[2001:db8::1]/",
            "http://www.example.com/search?q=%zz"} <= lenient
    assert set(strict) <= lenient


def test_extract_parts(cli):
    pytest.importorskip("urlsift.model.parsing")
    recs = [json.loads(x) for x in lines(cli("extract", "--parts", "-f", "jsonl", ACCESS))]
    by_url = {r["url"]: r for r in recs}
    r = by_url["http://localhost:8080/health"]
    assert (r["scheme"], r["host"], r["port"], r["path"]) == ("http", "localhost", 8080, "/health")
    r = by_url["https://www.google.com/search?q=blue+widget"]
    assert (r["scheme"], r["host"], r["port"], r["search"]) == (
        "https", "www.google.com", None, "q=blue+widget")
    r = by_url["ftp://ftp.example.org/pub/urlsift/"]
    # split on "/" (docs/design.md#the-parts-of-each-scheme)
    assert r["segments"] == ["pub", "urlsift", ""]
    rows = list(csv.DictReader(io.StringIO(cli("extract", "--parts", "-f", "csv", ACCESS)
                                           .stdout.decode())))
    assert rows[0]["host"] == "www.example.com" and rows[0]["port"] == ""


# -- extract: inputs -----------------------------------------------------------------

@pytest.mark.parametrize("ext, pack", [("gz", gzip.compress), ("bz2", bz2.compress),
                                       ("xz", lzma.compress)])
def test_compressed_inputs(cli, tmp_path, ext, pack):
    path = tmp_path / f"access.log.1.{ext}"
    path.write_bytes(pack(ACCESS.read_bytes()))
    assert lines(cli("extract", path)) == ACCESS_URLS
    # compressed stdin is recognized by its magic bytes
    assert lines(cli("extract", input=path.read_bytes())) == ACCESS_URLS
    recs = [json.loads(x) for x in lines(cli("extract", "-f", "jsonl", "--with-position", path))]
    assert [(r["line"], r["url"]) for r in recs] == ACCESS_EXPECTED


def test_zstd_without_zstandard(cli, tmp_path):
    path = tmp_path / "a.log.zst"
    path.write_bytes(b"\x28\xb5\x2f\xfd" + b"\0" * 16)
    code = ("import sys; sys.modules['zstandard'] = None\n"
            "from urlsift.cli import main; sys.exit(main(sys.argv[1:]))")
    proc = cli("extract", "-h", path, ACCESS, code=code)
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert err.count("\n") == 1 and "zstandard" in err and err.startswith("urlsift: cannot read")
    assert lines(proc) == ACCESS_URLS  # the other file is still processed


def test_missing_file_and_directory(cli, tmp_path):
    proc = cli("extract", "-h", tmp_path / "nope.log", ACCESS, tmp_path)
    assert proc.returncode == 2
    assert lines(proc) == ACCESS_URLS
    assert proc.stderr.decode().splitlines() == [
        f"urlsift: cannot read '{tmp_path / 'nope.log'}': No such file or directory",
        f"urlsift: cannot read '{tmp_path}': Is a directory (-r reads a directory tree)"]


def test_binary_invalid_utf8_and_empty(cli, tmp_path):
    binary = tmp_path / "blob.bin"
    binary.write_bytes(bytes(range(256)) * 4 + b"\0http://in.binary.example/x\0" + bytes(range(256)))
    latin = tmp_path / "latin.log"
    latin.write_bytes(b"caf\xe9 http://a.example/caf\xe9 \xff\xfe http://b.example/ok\n")
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    proc = cli("extract", "-h", binary, latin, empty)
    assert proc.returncode == 0 and proc.stderr == b""
    # a non-ASCII octet ends a bare URL (docs/design.md#where-a-bare-url-ends-and-trimming),
    # but for one that is no UTF-8 and a Latin-1 letter: it goes on, written %HH (issue 21,
    # RFC 1738 §2.2)
    assert lines(proc) == ["http://in.binary.example/x", "http://a.example/caf%E9",
                           "http://b.example/ok"]
    assert cli("extract", empty).stdout == b""


def test_refang_option(cli, tmp_path):
    path = tmp_path / "report.txt"
    data = b"C2: hxxps://evil[.]example[.]com/gate.php\nclean: http://ok.example/\n"
    path.write_bytes(data)
    assert lines(cli("extract", path)) == ["hxxps://evil[.]example[.]com/gate.php",
                                           "http://ok.example/"]  # off by default
    recs = [json.loads(x) for x in
            lines(cli("extract", "--refang", "-f", "jsonl", "--with-position", path))]
    assert [(r["url"], r["refanged"]) for r in recs] == [
        ("https://evil.example.com/gate.php", True), ("http://ok.example/", False)]
    assert data[recs[0]["offset"]:].startswith(b"hxxps://evil[.]")  # offsets: original text
    rows = list(csv.reader(io.StringIO(cli("extract", "--refang", "-f", "csv", path).stdout.decode())))
    assert rows == [["url", "refanged"], ["https://evil.example.com/gate.php", "true"],
                    ["http://ok.example/", "false"]]


# -- mail ----------------------------------------------------------------------------

def test_mbox_is_detected_and_decoded(cli):
    from test_sources import MBOX_EXPECTED

    recs = [json.loads(x) for x in lines(cli("extract", "-f", "jsonl", SAMPLES / "mail.mbox"))]
    assert [(r["message_id"], r["part"], r["url"]) for r in recs] == MBOX_EXPECTED
    assert recs[0]["date"] == "2026-10-12T09:00:00+00:00"


def test_mbox_csv_columns_and_maildir(cli, tmp_path):
    import mailbox

    box = mailbox.Maildir(tmp_path / "Mail", create=True)
    box.add(b"Message-ID: <m1@x>\nDate: Mon, 12 Oct 2026 09:00:00 +0000\n\nsee http://one.example/\n")
    proc = cli("extract", "-f", "csv", "--with-position", tmp_path / "Mail")
    rows = list(csv.DictReader(io.StringIO(proc.stdout.decode())))
    assert proc.returncode == 0, proc.stderr
    assert [(r["url"], r["message_id"], r["part"], r["date"]) for r in rows] == [
        ("http://one.example/", "<m1@x>", "1 text/plain", "2026-10-12T09:00:00+00:00")]
    assert rows[0]["file"].startswith(str(tmp_path / "Mail"))


def test_mbox_flag_on_compressed_stdin(cli):
    from test_sources import MBOX_EXPECTED

    packed = gzip.compress((SAMPLES / "mail.mbox").read_bytes())
    assert lines(cli("extract", "--mbox", input=packed)) == [u for _, _, u in MBOX_EXPECTED]


# -- validate, parse, stats ----------------------------------------------------------

def test_validate(cli, tmp_path):
    pytest.importorskip("urlsift.model.parsing")
    path = tmp_path / "urls.txt"
    path.write_bytes(b"http://www.example.com/\nftp://ftp.example.org/pub/f.txt;type=i\n"
                     b"http://h.example:99999/\n\nhttp://a.example/%zz\r\nHTTP://UP.example/\n"
                     b"mailto:someone@example.org\n")
    proc = cli("validate", path)
    assert proc.returncode == 1
    out = lines(proc)
    assert len(out) == 3
    # FILE:LINE:COLUMN, both 1-based: the port starts at octet 17 of the URL, column 18
    assert out[0].startswith(f"{path}:3:18: http://h.example:99999/: bad-port: ")
    # RFC 1738 §2.2: "%" must start an escape; the column of the "%"
    assert out[1].startswith(f"{path}:5:18: http://a.example/%zz: bad-escape: ")
    assert out[2].startswith(f"{path}:6:1: HTTP://UP.example/: uppercase-scheme: ")
    assert proc.stderr.decode() == "6 checked, 3 invalid\n"
    ok = tmp_path / "ok.txt"
    ok.write_bytes(b"http://www.example.com/\n")
    assert cli("validate", "-q", ok).returncode == 0
    recs = [json.loads(x) for x in lines(cli("validate", "--json", path))]
    assert [r["line"] for r in recs] == [3, 5, 6]
    assert [r["column"] for r in recs] == [18, 18, 1]
    indented = tmp_path / "indented.txt"
    indented.write_bytes(b"  \thttp://a.example/%zz\n")      # 3 white space octets first
    assert lines(cli("validate", indented))[0].startswith(f"{indented}:1:21: ")
    assert recs[1]["problems"][0]["code"] == "bad-escape"
    lenient = cli("validate", "--lenient", path)  # lenient: upper case and %zz accepted
    assert [x.split(": ")[1] for x in lines(lenient)] == ["http://h.example:99999/"]


def test_validate_as_a_filter(cli, tmp_path):
    pytest.importorskip("urlsift.model.parsing")
    path = tmp_path / "urls.txt"
    # RFC 1738 §2.1 scheme in lower case (strict), §2.2 space unsafe, §3.6 news:* valid
    path.write_bytes(b"http://a.example/\nHTTP://b.example/\n\nftp://c.example/x y\nnews:*\n")
    valid = cli("validate", "--print-valid", path)
    assert lines(valid) == ["http://a.example/", "news:*"]
    assert valid.returncode == 1 and valid.stderr.decode() == "4 checked, 2 invalid\n"
    invalid = cli("validate", "--print-invalid", "-q", path)
    assert lines(invalid) == ["HTTP://b.example/", "ftp://c.example/x y"] and not invalid.stderr
    lenient = cli("validate", "--print-invalid", "--lenient", path)   # lenient takes both
    assert lines(lenient) == [] and lenient.returncode == 0
    both = cli("validate", "--print-valid", "--json", path)
    assert both.returncode == 2 and b"not allowed with" in both.stderr


def test_validate_missing_file_is_status_2(cli, tmp_path):
    pytest.importorskip("urlsift.model.parsing")
    proc = cli("validate", tmp_path / "none.txt")
    assert proc.returncode == 2 and no_traceback(proc)
    assert proc.stderr.decode().splitlines()[0].startswith("urlsift: cannot read")


def test_parse_json_and_pretty(cli):
    pytest.importorskip("urlsift.model.parsing")
    url = "ftp://user:secret@ftp.example.org/pub/file.txt;type=I"
    proc = cli("parse", "--json", url)
    assert proc.returncode == 0, proc.stderr
    (rec,) = [json.loads(x) for x in lines(proc)]
    parts = rec["parts"]
    # RFC 1738 §3.2: user, password, cwd segments, typecode (lower-cased,
    # docs/design.md#the-parts-of-each-scheme)
    assert (parts["scheme"], parts["user"], parts["password"], parts["host"]) == (
        "ftp", "user", "secret", "ftp.example.org")
    assert parts["segments"] == ["pub", "file.txt"] and parts["typecode"] == "i"
    assert parts["port"] is None and parts["effective_port"] == 21
    assert rec["warnings"]  # §6: a password in the URL
    pretty = cli("parse", url, "http://a.example/%zz").stdout.decode()
    assert "typecode" in pretty and "bad-escape" in pretty


def test_parse_unparseable_is_status_1(cli):
    pytest.importorskip("urlsift.model.parsing")
    proc = cli("parse", "http://a.example/\x01")  # control characters: never a URL
    assert proc.returncode == 1 and no_traceback(proc)


def test_stats(cli):
    pytest.importorskip("urlsift.model.parsing")
    proc = cli("stats", "--json", ACCESS)
    assert proc.returncode == 0, proc.stderr
    rep = json.loads(proc.stdout)
    assert rep["urls"] == len(ACCESS_URLS)
    assert rep["distinct"] == len(set(ACCESS_URLS))
    assert rep["schemes"] == dict(Counter(u.split(":")[0].lower() for u in ACCESS_URLS))
    hosts = Counter(u.split("/")[2].lower() for u in ACCESS_URLS if "//" in u)
    assert next(iter(rep["hosts"].items())) == ("www.example.com", hosts["www.example.com"])
    assert rep["invalid"] == sum(1 for u in ACCESS_URLS if u in ACCESS_STRICT_INVALID)
    assert rep["problems"]["bad-escape"] == 1 and rep["problems"]["uppercase-scheme"] == 1
    table = cli("stats", ACCESS).stdout.decode()
    assert "www.example.com" in table and "invalid by code" in table


# -- behaviour -----------------------------------------------------------------------

def test_closed_pipe_is_quiet(cli, tmp_path):
    big = tmp_path / "big.log"
    with open(big, "w") as f:
        for i in range(120_000):
            f.write(f'10.0.0.1 - - "GET /p{i} HTTP/1.1" 200 1 "http://ref.example/{i}" "UA"\n')
    proc = subprocess.Popen([sys.executable, "-m", "urlsift", "extract", str(big)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=cli.env, cwd=ROOT)
    first = proc.stdout.readline()
    proc.stdout.close()  # like "| head -1"
    err = proc.stderr.read()
    rc = proc.wait(timeout=120)
    assert first == b"http://ref.example/0\n"
    assert err == b""
    assert rc in (0, 141)


def _wait_blocked_on_stdin(pid):
    """Until the process sleeps reading its stdin pipe (Linux /proc), else 2 s."""
    _wait_in(pid, "pipe_read")


def _wait_in(pid, wchan):
    """Until the process sleeps in the kernel function ``wchan`` (Linux /proc: e.g.
    ``pipe_read``, ``pipe_write``), at most 60 s; 2 s where /proc cannot tell."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            with open(f"/proc/{pid}/wchan") as f:
                if wchan in f.read():
                    return
        except OSError:
            time.sleep(2)
            return
        time.sleep(0.05)


def test_interrupt_is_one_line(cli):
    proc = subprocess.Popen([sys.executable, "-m", "urlsift", "extract"], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=cli.env, cwd=ROOT)
    _wait_blocked_on_stdin(proc.pid)
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err == b"urlsift: interrupted\n"


def test_usage_errors(cli):
    for args in (["extract", "--format", "xml"], [], ["bogus"], ["extract", "--jobs", "x"],
                 ["extract", "--schemes", "ht tp"]):
        proc = cli(*args)
        assert proc.returncode == 2, args
        assert no_traceback(proc) and b"error:" in proc.stderr and proc.stdout == b""


def test_help_has_examples(cli):
    out = cli("--help").stdout.decode()
    assert "examples:" in out and "urlsift extract access.log" in out
    assert "examples:" in cli("extract", "--help").stdout.decode()


def test_output_file(cli, tmp_path):
    out = tmp_path / "urls.txt"
    proc = cli("extract", "-o", out, ACCESS)
    assert proc.returncode == 0 and proc.stdout == b""
    assert out.read_text().splitlines() == ACCESS_URLS
    bad = cli("extract", "-o", tmp_path / "no" / "dir" / "x.txt", ACCESS)
    assert bad.returncode == 2 and no_traceback(bad)
    assert bad.stderr.decode().count("\n") == 1


def test_jobs_gives_the_same_urls(cli):
    assert lines(cli("extract", "--jobs", "2", ACCESS)) == ACCESS_URLS


def test_quoted_option(cli, tmp_path):
    path = tmp_path / "thread.txt"
    path.write_bytes(b"Bob wrote:\n> > see <URL:http://a.example/very-\n> > long/path> and\n"
                     b"> http://b.example/x\n")
    # the wrapper's second line is quoted and goes on to its ">": joined either way
    # (issue 12: automatic where it cannot hurt); --quoted removes every prefix first
    assert lines(cli("extract", path)) == ["http://a.example/very-long/path",
                                           "http://b.example/x"]
    assert lines(cli("extract", "--quoted", path)) == ["http://a.example/very-long/path",
                                                        "http://b.example/x"]
    # a quoted line with no ">" of its own is no continuation: the quote's ">" ends it
    other = tmp_path / "other.txt"
    other.write_bytes(b"> see <http://a.example/x\n> and more text\n")
    assert lines(cli("extract", other)) == ["http://a.example/x"]


def test_jsonl_escapes_what_needs_escaping(cli, tmp_path):
    # Inside a wrapper nothing is trimmed: a non-ASCII or '"' character may stay in the
    # URL; every line must still be valid JSON holding exactly the URL.
    path = tmp_path / "w.txt"
    path.write_bytes('<URL:http://a.example/caf\u00e9> <URL:http://b.example/"q"> '
                     'http://c.example/\n'.encode())
    text_urls = lines(cli("extract", path))
    recs = [json.loads(x) for x in lines(cli("extract", "-f", "jsonl", path))]
    assert [r["url"] for r in recs] == text_urls
    assert text_urls[-1] == "http://c.example/"


def test_progress_bar_only_on_a_terminal(monkeypatch):
    # In-process: the bar exists only when stderr is a terminal, tqdm is importable
    # and --no-progress is not given; it shows once its delay is over (no timing
    # involved: the delay is set to 0 for that).
    from urlsift.cli import progress as progress_mod
    from urlsift.cli.progress import Progress
    from urlsift.cli import build_parser
    from urlsift.cli.records import Input

    plan = [Input(str(ACCESS), "text")]
    args = build_parser().parse_args(["extract", str(ACCESS)])
    monkeypatch.setattr(sys.stderr, "isatty", lambda: False, raising=False)
    with Progress(args, plan) as p:
        assert p.bar is None and p.update is None
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    quiet = build_parser().parse_args(["extract", "--no-progress", str(ACCESS)])
    with Progress(quiet, plan) as p:
        assert p.bar is None and p.update is None
    monkeypatch.setitem(sys.modules, "tqdm", None)
    with Progress(args, plan) as p:
        assert p.bar is None and p.update is None
    monkeypatch.delitem(sys.modules, "tqdm")
    pytest.importorskip("tqdm")
    with Progress(args, plan) as p:
        assert p.update is not None and p.total == ACCESS.stat().st_size
        assert p.bar is None                  # not before its delay
    monkeypatch.setattr(progress_mod, "DELAY", 0.0)
    with Progress(args, plan) as p:
        p.update(1)
        assert p.bar is not None and p.bar.total == ACCESS.stat().st_size and p.bar.n == 1


def test_readme_quick_start_mixed_log_and_mail(cli):
    # The README's command: a log and a spool together; mail columns are empty for
    # the log's rows, and every row has the parsed parts.
    from test_sources import MBOX_EXPECTED

    proc = cli("extract", "--parts", "--format", "csv", ACCESS, SAMPLES / "mail.mbox")
    assert proc.returncode == 0, proc.stderr
    rows = list(csv.DictReader(io.StringIO(proc.stdout.decode())))
    assert [r["url"] for r in rows] == ACCESS_URLS + [u for _, _, u in MBOX_EXPECTED]
    assert {r["message_id"] for r in rows[:len(ACCESS_URLS)]} == {""}
    assert [(r["message_id"], r["part"]) for r in rows[len(ACCESS_URLS):]] == [
        (mid, part) for mid, part, _ in MBOX_EXPECTED]
    assert rows[0]["scheme"] == "http" and rows[0]["host"] == "www.example.com"


def test_with_position_text_is_what_the_records_say(cli):
    # the text of --with-position is made in the core (no Match); jsonl goes through the
    # records: both must say the same file, line and offset for every URL
    text = lines(cli("extract", "--with-position", ACCESS))
    recs = [json.loads(x) for x in lines(cli("extract", "-f", "jsonl", "--with-position", ACCESS))]
    assert text == [f"{r['file']}:{r['line']}:{r['offset']}:{r['url']}" for r in recs]
    assert [int(t.split(":")[1]) for t in text][:3] == [line for line, _ in ACCESS_EXPECTED[:3]]


@pytest.mark.parametrize("url, path", [
    ("ftp://h.example/pub/x;type=a", "/pub/x;type=a"),
    ("gopher://h.example/0sel%09search", "/0sel%09search"),
    ("news:comp.lang.misc", "comp.lang.misc"),
    ("news:a1@h.example", "a1@h.example"),
    ("mailto:ops@example.org", "ops@example.org"),
    ("nntp://h.example/comp.lang/12", "/comp.lang/12"),
    ("wais://h.example/db?x", "/db"),
    ("http://h.example/a%20b?q", "/a%20b"),
])
def test_parts_give_every_scheme_a_path(tmp_path, cli, url, path):
    src = tmp_path / "one.txt"
    src.write_text(f"see {url} now\n")
    rows = list(csv.DictReader(io.StringIO(cli("extract", "--parts", "-f", "csv", src).stdout.decode())))
    assert [(r["url"], r["path"]) for r in rows] == [(url, path)]


def test_jsonl_is_valid_utf8_with_undecodable_octets_percent_encoded(tmp_path, cli):
    # a %E9 decodes to an octet that is no UTF-8: kept as "\udce9" it made JSON that jq
    # turns into U+FFFD and Python cannot encode; it is written as %E9 again
    src = tmp_path / "sur.txt"
    src.write_text("see ftp://caf%E9@h.example/x and http://h/%E9t%C3%A9\n")
    out = cli("extract", "-f", "jsonl", "--parts", src).stdout
    out.decode("utf-8")                               # valid UTF-8, strictly
    recs = [json.loads(x) for x in out.decode().splitlines()]
    assert recs[0]["user"] == "caf%E9"
    assert recs[1]["segments"] == ["%E9té"]           # the valid UTF-8 é decoded, the lone octet not
    assert "\\udc" not in out.decode()


def test_a_usage_error_is_one_line_with_a_pointer_to_help(cli):
    proc = cli("extract", "--format", "nope", ACCESS)
    assert proc.returncode == 2
    err = proc.stderr.decode()
    assert err.count("\n") == 1 and "invalid choice: 'nope'" in err
    assert err.rstrip().endswith("(try 'urlsift extract --help')")
    proc = cli()
    assert proc.returncode == 2 and proc.stderr.decode().count("\n") == 1


def test_parse_reads_urls_from_standard_input(cli):
    proc = cli("parse", "--json", "-", input=b"http://a.example/\n\nftp://h/x;type=q\n")
    recs = [json.loads(x) for x in lines(proc)]
    assert [(r["url"], r["valid"]) for r in recs] == [("http://a.example/", True),
                                                      ("ftp://h/x;type=q", False)]
    assert proc.returncode == 1          # an invalid URL among them


def test_mail_with_position_gives_each_url_its_place_in_the_file(cli, tmp_path):
    # a URL in an 8bit part or a header is read where it stands: file_offset is where
    # its text starts in the spool; one in a quoted-printable part has no such place
    spool = tmp_path / "box.mbox"
    spool.write_bytes(b"From a\nMessage-ID: <1@x>\nList-Post: <mailto:l@x.example>\n\n"
                      b"see http://plain.example/\n"
                      b"From b\nMessage-ID: <2@x>\nContent-Transfer-Encoding: quoted-printable\n\n"
                      b"see http://qp.example/a=3Db\n")
    data = spool.read_bytes()
    proc = cli("extract", "--with-position", "--format", "jsonl", spool)
    assert proc.returncode == 0, proc.stderr
    got = [(r["url"], r["offset"], r["file_offset"]) for r in map(json.loads, lines(proc))]
    second = data.index(b"From b")
    assert got == [("mailto:l@x.example", 0, data.index(b"<mailto:")),
                   ("http://plain.example/", 0, data.index(b"http://plain")),
                   ("http://qp.example/a=b", second, None)]
    text = lines(cli("extract", "--with-position", spool))
    assert text[1] == (f"{spool}:0:<1@x>:http://plain.example/\t1 text/plain\t"
                       f"file_offset={data.index(b'http://plain')}")


@pytest.mark.parametrize("kind", ["text", "mbox"])
def test_interrupt_with_threads_is_one_line_and_quick(cli, tmp_path, kind):
    # -j 4 with the output blocked (nobody reads it): the threads are mid-walk or wait;
    # Ctrl-C must still end the run at once, with one line and status 130
    sample = (SAMPLES / ("access.log" if kind == "text" else "mail.mbox")).read_bytes()
    big = tmp_path / f"big.{kind}"
    big.write_bytes(sample * (40_000_000 // len(sample)))
    proc = subprocess.Popen([sys.executable, "-m", "urlsift", "extract", "-j", "4", str(big)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=cli.env, cwd=ROOT)
    _wait_in(proc.pid, "pipe_write")       # its output pipe is full: it is busy
    proc.send_signal(signal.SIGINT)
    proc.stdout.close()                    # what it wrote is not wanted
    err = proc.stderr.read()
    proc.wait(timeout=60)                  # a hang fails here
    assert proc.returncode == 130, err
    # (the pure core says first that it runs on these 40 MB, docs/cli.md)
    lines = err.splitlines()
    assert lines[-1] == b"urlsift: interrupted"
    assert all(line.startswith(b"urlsift: warning: the pure-Python core") for line in lines[:-1])
    assert len(lines) == (2 if cli.env.get("URLSIFT_PURE") else 1)


def test_parquet_holds_a_message_date_as_a_utc_timestamp(cli, tmp_path):
    # issue 26: Parquet (and Dask) hold the Date as a time; RFC 5322 §3.3: the offset
    # names the instant, "-0000" is UTC with the local zone unknown; jsonl keeps the text
    pq = pytest.importorskip("pyarrow.parquet")
    import datetime as dt
    box = tmp_path / "box.mbox"
    box.write_bytes(b"From a@b Mon Oct 12 09:00:00 2026\n"
                    b"Date: Mon, 12 Oct 2026 10:15:00 +0200\n\nhttp://a.example/\n\n"
                    b"From a@b Mon Oct 12 09:00:00 2026\n"
                    b"Date: Tue, 13 Oct 2026 08:00:00 -0000\n\nhttp://b.example/\n\n"
                    b"From a@b Mon Oct 12 09:00:00 2026\n"
                    b"Date: last Tuesday\n\nhttp://c.example/\n")
    out = tmp_path / "urls.parquet"
    assert cli("extract", "--format", "parquet", "-o", out, box).returncode == 0
    table = pq.read_table(out)
    assert str(table.schema.field("date").type) == "timestamp[us, tz=UTC]"
    utc = dt.timezone.utc
    assert table.column("date").to_pylist() == [dt.datetime(2026, 10, 12, 8, 15, tzinfo=utc),
                                                dt.datetime(2026, 10, 13, 8, 0, tzinfo=utc),
                                                None]
    lines = cli("extract", "--format", "jsonl", box).stdout.decode().splitlines()
    assert [json.loads(x)["date"] for x in lines] == [
        "2026-10-12T10:15:00+02:00", "2026-10-13T08:00:00", "last Tuesday"]
