"""extract_file(): mapped or streamed, split over threads, none lost or doubled at a
split point, line numbers, and bad input (docs/design.md#matches, docs/design.md#scale)."""
from __future__ import annotations

import io
import os
import sys
import tempfile
import threading
import tracemalloc

import pytest
from hypothesis import given, strategies as st

import urlsift
from urlsift.text import files as _filescan
from urlsift import extract, extract_file
from conftest import fed_pipe

LOG_LINE = ('203.0.113.9 - - [10/Oct/2000:13:55:36 -0700] "GET /a.gif HTTP/1.0" 200 2326 '
            '"http://www.example.com/start.html" "Mozilla/5.0 (compatible; +http://bot.example/b.html)"\n')


def write(tmp_path, data: bytes, name="f.txt"):
    p = tmp_path / name
    p.write_bytes(data)
    return p


def urls(ms):
    return [m.url for m in ms]


def test_mapped_file_offsets_and_lines(tmp_path):
    data = (LOG_LINE * 3 + "see <URL:ftp://a.example/x-\n  y> end\n").encode()
    p = write(tmp_path, data)
    ms = list(extract_file(p, line_numbers=True))
    assert urls(ms) == ["http://www.example.com/start.html", "http://bot.example/b.html"] * 3 + [
        "ftp://a.example/x-y"]
    assert [m.line for m in ms] == [1, 1, 2, 2, 3, 3, 4]
    assert all(data[m.start:m.end].decode() == m.raw for m in ms)
    assert ms[-1].hyphen_break
    assert list(extract_file(str(p))) == list(extract(data))          # str path, no lines
    assert all(m.line is None for m in extract_file(p))


def test_crlf_lines_are_counted_once(tmp_path):
    p = write(tmp_path, b"a\r\nb\r\nhttp://x.example/\r\n")
    assert [(m.url, m.line) for m in extract_file(p, line_numbers=True)] == [("http://x.example/", 3)]


def test_wrapper_straddling_every_split_point(tmp_path):
    # a wrapper broken across lines comes out whole, once, whatever the pieces
    text = "".join(f"line {i} <URL:http://h{i}.example/a-\n b> x\n" for i in range(40)).encode()
    p = write(tmp_path, text)
    expected = list(extract_file(p, line_numbers=True))
    assert len(expected) == 40 and all(m.hyphen_break for m in expected)
    for block in (1, 7, 16, 33, 100):
        for jobs in (1, 2, 3):
            assert list(extract_file(p, jobs=jobs, block_size=block, line_numbers=True)) == expected
        with open(p, "rb") as f:
            assert list(extract_file(f, block_size=block, line_numbers=True)) == expected


PIECES = ["http://", "mailto:", "<URL:", "<", ">", "URL:", "a", "b.c", "/", ":", " ", "\n", "\r\n",
          "-\n ", ".", ")", "(", "x@y", "\x00", "\xff", "é", '"', "\n\n"]
texts = st.lists(st.sampled_from(PIECES), max_size=60).map("".join).map(lambda s: s.encode("utf-8"))


@given(texts, st.integers(1, 40), st.integers(2, 4))
def test_split_points_change_nothing(data, block, jobs):
    # property: for random text and random split points, jobs > 1 gives the jobs=1 result,
    # which is the result of one pass over the whole text
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "t")
        with open(p, "wb") as f:
            f.write(data)
        one = list(extract_file(p, line_numbers=True))
        assert [m[:7] for m in one] == [m[:7] for m in extract(data)]
        assert list(extract_file(p, jobs=jobs, block_size=block, line_numbers=True)) == one
        with open(p, "rb") as f:            # streamed in blocks with carry-over
            assert list(extract_file(f, block_size=block, line_numbers=True)) == one


def test_streamed_from_a_pipe(tmp_path):
    data = (LOG_LINE * 500).encode()
    with fed_pipe(data) as path:
        got = list(extract_file(path, block_size=4096, line_numbers=True))
    assert len(got) == 1000
    assert got == list(extract_file(write(tmp_path, data), line_numbers=True))


def test_stdin_dash(monkeypatch):
    fake = io.TextIOWrapper(io.BytesIO(LOG_LINE.encode()))
    monkeypatch.setattr(sys, "stdin", fake)
    assert urls(extract_file("-")) == ["http://www.example.com/start.html", "http://bot.example/b.html"]


def test_empty_file_gives_nothing(tmp_path):
    assert list(extract_file(write(tmp_path, b""))) == []


def test_binary_file_nul_bytes_and_invalid_utf8(tmp_path):
    # defined result: control and non-ASCII octets end a URL, the URLs between are found;
    # an octet that is no UTF-8 but a Latin-1 letter goes on, %-encoded (issue 21):
    # "\xc3(" is "Ã(", "\xfe\xff" "þÿ" (RFC 1738 §2.2)
    data = b"\x00\xff\xfehttp://a.example/x\x00\x80http://b.example/\xc3(\xfe\xff<URL:ftp://c/\xe9>\x01"
    ms = list(extract_file(write(tmp_path, data)))
    assert urls(ms) == ["http://a.example/x", "http://b.example/%C3(%FE%FF", "ftp://c/%E9"]
    assert ms[1].raw == "http://b.example/Ã(þÿ" and ms[1].edits == ("octets-encoded",)
    # a wrapper holding non-ASCII is none: what is left is "URL:" + a bare URL
    assert ms[2].raw == "URL:ftp://c/é" and not ms[2].wrapped
    assert ms[2].edits == ("prefix-removed", "octets-encoded")


def test_a_long_line_without_newline_keeps_memory_bounded(tmp_path):
    # a sparse file: a single "line" of NUL octets with URLs written at a few places;
    # size is a parameter here (the same code path holds for a 1 GB line)
    size = 6 << 20
    block = 256 << 10
    p = tmp_path / "sparse.bin"
    spots = [0, 1 << 20, (3 << 20) - 5, size - 40]
    with open(p, "wb") as f:
        f.truncate(size)
        for i, off in enumerate(spots):
            f.seek(off)
            f.write(f"http://h{i}.example/p".encode())
    expected = [f"http://h{i}.example/p" for i in range(len(spots))]
    for how in ("mapped", "streamed"):
        tracemalloc.start()
        try:
            if how == "mapped":
                got = list(extract_file(p, jobs=2, block_size=block, line_numbers=True))
            else:
                with open(p, "rb") as f:
                    got = list(extract_file(f, block_size=block, line_numbers=True))
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert urls(got) == expected and {m.line for m in got} == {1}
        assert [m.start for m in got] == spots
        assert peak < size // 4, (how, peak)      # nothing near the file size is allocated


def test_a_run_without_any_split_point_is_still_read(tmp_path):
    # no newline, no white space, no ender: the mapped piece just grows to a split point
    data = b"a" * 5000 + b" http://x.example/" + b"b" * 3000
    p = write(tmp_path, data)
    assert urls(extract_file(p, block_size=100, jobs=2)) == ["http://x.example/" + "b" * 3000]


def test_a_directory_is_an_oserror_naming_it(tmp_path):
    with pytest.raises(OSError) as err:
        extract_file(tmp_path)
    assert str(tmp_path) in str(err.value)


def test_a_missing_file_is_an_oserror_naming_it(tmp_path):
    with pytest.raises(FileNotFoundError, match="nope.log"):
        extract_file(tmp_path / "nope.log")


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0,
                    reason="root reads a chmod 000 file anyway")
def test_an_unreadable_file_is_a_permission_error(tmp_path):
    p = write(tmp_path, b"http://a/")
    p.chmod(0)
    try:
        with pytest.raises(PermissionError, match="f.txt"):
            extract_file(p)
    finally:
        p.chmod(0o600)


@pytest.mark.parametrize("kw", [{"jobs": -1}, {"jobs": 1.5}, {"jobs": True}, {"block_size": 0},
                                {"valid": "maybe"}])
def test_bad_arguments_are_value_errors(tmp_path, kw):
    with pytest.raises(ValueError):
        extract_file(write(tmp_path, b"x"), **kw)


# issue 24: jobs=0 means what the command's -j 0 means, one thread per core; a negative
# count is refused, saying what is allowed
@pytest.mark.parametrize("fn", [urlsift.extract_file, extract_file])
def test_jobs_zero_is_one_per_core_as_the_command(tmp_path, fn):
    p = write(tmp_path, (LOG_LINE * 500).encode())
    want = urls(fn(p, jobs=1, block_size=4096))
    assert urls(fn(p, jobs=0, block_size=4096)) == want
    assert len(want) == 1000
    assert _filescan.job_count(0) == (os.cpu_count() or 1)


def test_jobs_zero_on_mail_and_streams(tmp_path):
    box = write(tmp_path, b"From a@b Sat Jan  1 00:00:00 2000\nSubject: x\n\nsee http://m.example/\n",
                "box.mbox")
    assert urls(urlsift.extract_file(box, jobs=0)) == ["http://m.example/"]
    assert [ln for ln in urlsift.inputs.mbox_url_lines(box, jobs=0)] == [b"http://m.example/\n"]
    assert urls(urlsift.extract_file(io.BytesIO(b"http://s.example/ x"), jobs=0)) == [
        "http://s.example/"]


@pytest.mark.parametrize("call", [
    lambda p: urlsift.extract_file(p, jobs=-2),
    lambda p: extract_file(p, jobs=-2),
    lambda p: list(urlsift.inputs.mbox_url_lines(p, jobs=-2)),
    lambda p: _filescan.url_lines(p, jobs=-2),
    lambda p: _filescan.position_lines(p, (_filescan.F_URL,), jobs=-2),
])
def test_negative_jobs_are_refused_clearly(tmp_path, call):
    with pytest.raises(ValueError, match=r"jobs must be 0 \(one per core\) or a positive int, not -2"):
        call(write(tmp_path, b"From x\n\nhttp://a/\n"))


def test_closing_early_releases_the_file(tmp_path):
    p = write(tmp_path, (LOG_LINE * 2000).encode())
    it = extract_file(p, jobs=2, block_size=1000)
    assert next(it).url == "http://www.example.com/start.html"
    del it                                   # the pool is shut down, the map closed
    assert list(extract_file(p, block_size=1000))[-1].url == "http://bot.example/b.html"



def test_closing_a_mail_walk_early_stops_its_workers_and_keeps_order(tmp_path):
    # the matches of a spool come a piece at a time; a caller who stops after the first
    # leaves no walker thread behind, and one who reads on gets them all, in file order
    messages = b"".join(b"From m%d\nMessage-ID: <%d@x>\n\nsee http://h%d.example/\n"
                        % (i, i, i) for i in range(3000))
    p = write(tmp_path, messages * 40, "spool.mbox")   # ~6.5 MB: pieces of about a MiB
    it = extract_file(p, mbox=True, jobs=2)
    first = next(it)
    assert (first.url, first.message_id, first.offset) == ("http://h0.example/", "<0@x>", 0)
    del it
    assert not [t for t in threading.enumerate() if t.name.startswith("urlsift-mail-")]
    urls = [m.url for m in extract_file(p, mbox=True, jobs=2)]
    assert urls == [f"http://h{i}.example/" for i in range(3000)] * 40

def test_streaming_lookahead_covers_a_wrapper():
    # a wrapper opened just before a block end is finished from the carried-over text
    assert _filescan.LOOKAHEAD > _filescan.MAX_WRAPPER


def test_a_stream_in_blocks_smaller_than_a_word_cuts_no_url():
    # found by fuzz/fuzz_scan.py: a stream read with block_size=2 was cut 2 octets into
    # a block without a split point, inside "<http:" ("p://a.example/p" came out). A cut
    # goes where no URL may end; the stream reads on to one (up to BLOCK_SIZE octets).
    # RFC 1738 appendix: each line holds the wrapped URL <http://a.example/p> at 4-24.
    line = b"see <http://a.example/p> ok\n"
    n = _filescan.LOOKAHEAD // len(line) + 10         # longer than the lookahead
    want = [("http://a.example/p", k * len(line) + 4, k * len(line) + 24, True, k + 1)
            for k in range(n)]
    for block in (1, 2, 5):
        got = extract_file(io.BytesIO(line * n), block_size=block, line_numbers=True)
        assert [(m.url, m.start, m.end, m.wrapped, m.line) for m in got] == want


def test_streaming_a_run_longer_than_a_block(tmp_path):
    # a URL longer than MAX_LENGTH is cut there and flagged, in both modes alike
    from urlsift.text.rules import EDIT_TRUNCATED, MAX_LENGTH
    data = b"x http://a.example/" + b"p" * (3 * MAX_LENGTH) + b" http://b.example/\n"
    p = write(tmp_path, data)
    mapped = list(extract_file(p, block_size=50_000))
    with open(p, "rb") as f:
        streamed = list(extract_file(f, block_size=50_000))
    assert streamed == mapped
    assert [len(m.url) for m in mapped] == [len("http:") + MAX_LENGTH, len("http://b.example/")]
    assert EDIT_TRUNCATED in mapped[0].edits


def test_a_text_mode_file_object_is_a_clear_type_error(tmp_path):
    p = write(tmp_path, b"http://a.example/\n")
    with open(p, encoding="ascii") as f, pytest.raises(TypeError, match="binary"):
        list(extract_file(f))


def test_mbox_true_walks_a_spool_message_by_message(tmp_path):
    # docs/design.md#mail: extract_file(path, mbox=True) decodes quoted-printable parts, so a
    # soft line break ("=\n") inside a URL does not cut it, and "=3D" is "=".
    spool = tmp_path / "spool.mbox"
    spool.write_bytes(
        b"From a@example.org Mon Jan  3 10:00:00 1994\n"
        b"Message-ID: <m1@example.org>\n"
        b"Content-Type: text/plain; charset=us-ascii\n"
        b"Content-Transfer-Encoding: quoted-printable\n\n"
        b"See http://www.example.org/a/very/long/pa=\nth?x=3D1 today.\n"
    )
    found = list(urlsift.extract_file(spool, mbox=True))
    assert [m.url for m in found] == ["http://www.example.org/a/very/long/path?x=1"]
    assert found[0].message_id == "<m1@example.org>"
    # the default (mbox=None) sees the From line and walks it as mail too; mbox=False
    # scans the raw text, and the soft break cuts the URL: its "=" is left out and the
    # cut is said (RFC 2045 §6.7 rule 5; the line, 42 characters, is no QP line of full
    # width, so the next one is not joined)
    assert list(urlsift.extract_file(spool)) == found
    assert [(m.url, m.raw, m.edits) for m in urlsift.extract_file(spool, mbox=False)] == [
        ("http://www.example.org/a/very/long/pa", "http://www.example.org/a/very/long/pa=",
         ("qp-soft-break",))]



def _deny(path):
    """An ``open`` that refuses ``path`` as a chmod 000 file refuses a normal user
    (root reads such a file anyway, and CI runs as root)."""
    real_open = open

    def fake_open(file, *args, **kwargs):
        if os.fspath(file) == os.fspath(path):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real_open(file, *args, **kwargs)
    return fake_open


def test_an_unreadable_file_is_a_permission_error_naming_it(tmp_path, monkeypatch):
    p = write(tmp_path, b"http://a/")
    monkeypatch.setattr("builtins.open", _deny(p))
    with pytest.raises(PermissionError, match="f.txt"):
        extract_file(p)


def test_the_command_reports_an_unreadable_file_in_one_line(tmp_path, monkeypatch, capsys):
    from urlsift import cli

    secret, ok = write(tmp_path, b"http://a.example/"), tmp_path / "ok.log"
    ok.write_bytes(b"see http://b.example/\n")
    monkeypatch.setattr("builtins.open", _deny(secret))
    status = cli.main(["extract", "-h", str(secret), str(ok)])
    out, err = capsys.readouterr()
    assert status == 2
    assert out == "http://b.example/\n"               # the other file is still read
    assert err.count("\n") == 1 and "cannot read" in err and "f.txt" in err


@pytest.mark.parametrize("jobs", [1, 2])
def test_url_lines_are_the_urls_of_extract_file(tmp_path, jobs):
    # The command's plain output path: the same URLs, one a line, as extract_file.
    data = (b"GET /a http://a.example/x (see <URL:ftp://b.example/very-\n  long/p>)\n"
            b"10:23:45 Note: mailto:me@c.example. and http://d.example/q?x=1)\n") * 5000
    p = tmp_path / "log"
    p.write_bytes(data)
    expected = "".join(m.url + "\n" for m in extract_file(p)).encode("ascii")
    assert b"".join(_filescan.url_lines(p, jobs=jobs)) == expected
    assert expected.count(b"\n") == 4 * 5000
    empty = tmp_path / "empty"
    empty.write_bytes(b"")
    assert b"".join(_filescan.url_lines(empty)) == b""
    with pytest.raises(FileNotFoundError, match="nope"):
        _filescan.url_lines(tmp_path / "nope")


def test_no_more_scan_threads_than_pieces(tmp_path):
    # 10 000 octets in pieces of 4 000: at most three pieces, so at most three workers
    import threading

    p = write(tmp_path, (b"see http://x.example/ " * 500)[:10_000])
    it = extract_file(p, jobs=64, block_size=4000)
    assert next(it).url == "http://x.example/"
    scanners = [t for t in threading.enumerate() if t.name.startswith("urlsift-scan")]
    assert len(scanners) <= 3
    # 22-octet groups: 455 start before 10 000, the last cut to "http://x" (still a URL)
    assert 1 + len(list(it)) == 455


def test_position_lines_agree_with_extract_file_across_pieces(tmp_path):
    # the command's --with-position text, made in the core piece by piece (several
    # pieces, wrappers over line ends), equals what the matches of extract_file say
    from urlsift.text.files import F_LINE, F_OFFSET, F_URL, position_lines
    body = "".join(f'x "GET http://a.example/{i}" <URL:ftp://b.example/\n {i}>\n\n'
                   for i in range(20000))
    path = tmp_path / "p.log"
    path.write_text(body)
    for jobs in (1, 2):
        got = b"".join(position_lines(path, (b"P:", F_LINE, b":", F_OFFSET, b":", F_URL, b"\n"),
                                      jobs=jobs))
        expected = b"".join(b"P:%d:%d:%s\n" % (m.line, m.start, m.url.encode())
                            for m in extract_file(path, line_numbers=True))
        assert got == expected
        assert got.count(b"\n") == 40000
