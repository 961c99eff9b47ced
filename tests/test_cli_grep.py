"""``urlsift extract`` as grep and rg users reach for it: ``-H -n -b`` one by one, ``-c``,
``-l``, ``-0``, ``--color``, ``-r``, ``--unique=plain|normalized``, ``--exclude-schemes``
and ``--host``. Run in-process (``urlsift.cli.main``) into ``-o`` files.

The small file below is worked out by hand: line 1 ``see http://a.example/x ok``
(the URL at octet 4), line 2 empty, line 3 ``HTTP://A.EXAMPLE:80/x and mailto:m@b.example``
(octets 27 and 53), line 4 ``ftp://files.example.org/pub`` (octet 72).
"""
from __future__ import annotations

import gzip
import json
import os

import pytest

from urlsift.cli import extract as extract_cmd
from urlsift.cli.main import main

TEXT = (b"see http://a.example/x ok\n\n"
        b"HTTP://A.EXAMPLE:80/x and mailto:m@b.example\n"
        b"ftp://files.example.org/pub\n")
URLS = ["http://a.example/x", "HTTP://A.EXAMPLE:80/x", "mailto:m@b.example",
        "ftp://files.example.org/pub"]
LINES = [1, 3, 3, 4]
OFFSETS = [4, 27, 53, 72]


@pytest.fixture
def log(tmp_path):
    path = tmp_path / "a.log"
    path.write_bytes(TEXT)
    return str(path)


def run(tmp_path, *args, status=0) -> str:
    out = tmp_path / "out.txt"
    assert main(["extract", *args, "-o", str(out)]) == status
    return out.read_bytes().decode("utf-8", "surrogateescape")


# ---- -H, -n, -b --------------------------------------------------------------------

@pytest.mark.parametrize("flags, fields", [
    (["-n"], lambda f, n, o: f"{n}:"),
    (["-b"], lambda f, n, o: f"{o}:"),
    (["-H"], lambda f, n, o: f"{f}:"),
    (["-H", "-b"], lambda f, n, o: f"{f}:{o}:"),
    (["-n", "-b"], lambda f, n, o: f"{n}:{o}:"),
    (["-H", "-n", "-b"], lambda f, n, o: f"{f}:{n}:{o}:"),
    (["--with-position"], lambda f, n, o: f"{f}:{n}:{o}:"),
])
def test_position_flags_one_by_one(tmp_path, log, flags, fields):
    expected = "".join(fields(log, n, o) + u + "\n" for u, n, o in zip(URLS, LINES, OFFSETS))
    assert run(tmp_path, *flags, log) == expected


@pytest.mark.parametrize("flags", [["-n"], ["-H", "-b"], ["-b", "-0"], ["-H", "-0"],
                                   ["-H", "-n", "--color=always"], ["--color=always"]])
@pytest.mark.parametrize("fmt", ["text", "jsonl"])
def test_core_lines_equal_the_writers_lines(tmp_path, log, monkeypatch, flags, fmt):
    fast = run(tmp_path, "-f", fmt, *flags, log)
    monkeypatch.setattr(extract_cmd, "_plain_lines", lambda *a, **k: None)
    assert run(tmp_path, "-f", fmt, *flags, log) == fast


def test_jsonl_has_the_fields_asked_for(tmp_path, log):
    recs = [json.loads(x) for x in run(tmp_path, "-f", "jsonl", "-n", "-b", log).splitlines()]
    assert recs[1] == {"url": URLS[1], "line": 3, "offset": 27}


def test_null_after_the_file_name(tmp_path, log):
    assert run(tmp_path, "-H", "-n", "-0", log).splitlines()[0] == f"{log}\x001:{URLS[0]}"


def test_mail_line_numbers_are_the_spools_and_offsets_are_the_messages(tmp_path):
    spool = tmp_path / "s.mbox"
    spool.write_bytes(b"From a@b Mon Jan  1 00:00:00 2026\n\nhttp://one.example/\n"
                      b"From a@b Mon Jan  1 00:00:00 2026\n\nhttp://two.example/\n")
    # -n: the line of the spool where the URL stands as written (lines 3 and 6: a From
    # line, a blank line, the URL); -b: its message's From line, the second at 34 (the
    # first From line) + 1 (the blank line) + 20 (the URL's line) = 55
    assert run(tmp_path, "-n", "-b", str(spool)) == (
        "3:0:http://one.example/\n6:55:http://two.example/\n")


# ---- -c, -l ------------------------------------------------------------------------

def test_count(tmp_path, log):
    assert run(tmp_path, "-c", log) == "4\n"
    assert run(tmp_path, "-c", "-H", log) == f"{log}:4\n"
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"no URL here\n")
    assert run(tmp_path, "-c", log, str(empty), status=0) == f"{log}:4\n{empty}:0\n"
    assert run(tmp_path, "-c", str(empty), status=1) == "0\n"


def test_count_follows_the_filters(tmp_path, log):
    assert run(tmp_path, "-c", "--schemes", "http", log) == "2\n"
    assert run(tmp_path, "-c", "--exclude-schemes", "http", log) == "2\n"


def test_files_with_matches(tmp_path, log):
    empty = tmp_path / "empty.txt"
    empty.write_bytes(b"nothing\n")
    assert run(tmp_path, "-l", log, str(empty)) == f"{log}\n"
    assert run(tmp_path, "-l", "-0", log, log) == f"{log}\0{log}\0"
    assert run(tmp_path, "-l", str(empty), status=1) == ""


def test_summaries_refuse_other_outputs(tmp_path, log, capsys):
    for args in (["-c", "-l"], ["-c", "-f", "jsonl"], ["-l", "--unique"], ["-c", "--parts"]):
        assert main(["extract", *args, log]) == 2
        err = capsys.readouterr().err
        assert err.count("\n") == 1 and "try 'urlsift extract --help'" in err


# ---- --color -----------------------------------------------------------------------

def test_color_always_paints_as_rg(tmp_path, log):
    first = run(tmp_path, "--color=always", "-H", "-n", log).splitlines()[0]
    assert first == (f"\x1b[35m{log}\x1b[0m:\x1b[32m1\x1b[0m:"
                     f"\x1b[1;31m{URLS[0]}\x1b[0m")


def test_color_auto_is_off_for_a_file_and_with_no_color(tmp_path, log, monkeypatch):
    assert "\x1b[" not in run(tmp_path, "-H", log)          # -o: never a terminal
    from urlsift.cli.grepstyle import use_color
    import argparse

    class Tty:
        def isatty(self):
            return True

    args = argparse.Namespace(color="auto", output=None, format="text")
    monkeypatch.delenv("NO_COLOR", raising=False)
    assert use_color(args, Tty()) is True
    monkeypatch.setenv("NO_COLOR", "1")
    assert use_color(args, Tty()) is False
    assert use_color(argparse.Namespace(color="auto", output=None, format="jsonl"), Tty()) is False


# ---- -r ----------------------------------------------------------------------------

def _tree(top):
    files = {
        "b.log": b"http://b.example/\n",
        "a/z.txt": b"http://z.example/\n",
        "a/y.gz": gzip.compress(b"http://gz.example/\n"),      # NULs, but compressed
        "bin.dat": b"\0\0http://binary.example/\n",               # binary: skipped
        "Mail/cur/1:2,S": b"Message-ID: <m@x>\n\nhttp://maildir.example/\n",
    }
    for name, data in files.items():
        path = top / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data)
    (top / "Mail" / "new").mkdir()
    (top / "Mail" / "tmp").mkdir()
    os.symlink(top, top / "a" / "loop")                  # a directory link: not followed
    os.symlink(top / "b.log", top / "link.log")          # a file link: not followed either
    return top


def test_recursive_reads_a_tree_in_order(tmp_path):
    top = _tree(tmp_path / "t")
    got = run(tmp_path, "-r", "-H", str(top)).splitlines()
    # sorted by name ("M" < "a"); the Maildir read as mail, each URL named by its message
    # file; the gzip file read decompressed; bin.dat, a/loop and link.log left out
    assert got == [f"{top}/Mail/cur/1:2,S:http://maildir.example/",
                   f"{top}/a/y.gz:http://gz.example/",
                   f"{top}/a/z.txt:http://z.example/",
                   f"{top}/b.log:http://b.example/"]


def test_recursive_counts_and_lists(tmp_path):
    top = _tree(tmp_path / "t")
    assert run(tmp_path, "-r", "-l", str(top / "a"), str(top / "b.log")) == (
        f"{top}/a/y.gz\n{top}/a/z.txt\n{top}/b.log\n")


def test_a_directory_without_r_is_refused(tmp_path, capsys):
    top = _tree(tmp_path / "t")
    assert main(["extract", str(top / "a")]) == 2
    assert "Is a directory (-r reads a directory tree)" in capsys.readouterr().err


# ---- --unique=plain|normalized -----------------------------------------------------

def test_unique_plain_in_first_seen_order_without_counts(tmp_path):
    path = tmp_path / "u.txt"
    path.write_bytes(b"http://b.example/ http://a.example/ http://b.example/ http://c.example/\n")
    assert run(tmp_path, "--unique=plain", str(path)) == (
        "http://b.example/\nhttp://a.example/\nhttp://c.example/\n")
    recs = [json.loads(x) for x in
            run(tmp_path, "--unique=plain", "-f", "jsonl", "-b", str(path)).splitlines()]
    assert recs == [{"url": "http://b.example/", "offset": 0},
                    {"url": "http://a.example/", "offset": 18},
                    {"url": "http://c.example/", "offset": 54}]


def test_unique_normalized_counts_equivalent_urls_once(tmp_path, log):
    # RFC 1738 §3.1/§3.3: scheme and host in any case, port 80 the default for http
    assert run(tmp_path, "--unique=normalized", log).splitlines() == [
        "      2 http://a.example/x", "      1 mailto:m@b.example",
        "      1 ftp://files.example.org/pub"]


def test_unique_flag_before_a_file_is_still_the_flag(tmp_path, log):
    assert run(tmp_path, "-u", log).splitlines()[0] == "      1 http://a.example/x"
    assert run(tmp_path, "--unique", log).splitlines()[0] == "      1 http://a.example/x"


def test_unique_mode_must_be_known(tmp_path, log, capsys):
    with pytest.raises(SystemExit) as exc:
        main(["extract", "--unique=sorted", log])
    assert exc.value.code == 2
    assert "invalid choice: 'sorted'" in capsys.readouterr().err


# ---- --exclude-schemes, --host -----------------------------------------------------

def test_exclude_schemes(tmp_path, log):
    assert run(tmp_path, "--exclude-schemes", "http,MAILTO", log).splitlines() == [URLS[3]]
    assert run(tmp_path, "--schemes", "http,ftp", "--exclude-schemes", "ftp", log
               ).splitlines() == URLS[:2]


def test_host_glob(tmp_path, log):
    # case-insensitive (host names are); a URL without a host never matches
    assert run(tmp_path, "--host", "a.EXAMPLE", log).splitlines() == URLS[:2]
    assert run(tmp_path, "--host", "*.example.org", "--host", "a.*", log
               ).splitlines() == [URLS[0], URLS[1], URLS[3]]
    assert run(tmp_path, "--host", "b.example", log, status=1) == ""


def test_stats_follow_the_filters(tmp_path, log, capsys):
    assert main(["stats", "--json", "--host", "a.example", log]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["urls"] == 2 and report["schemes"] == {"http": 2}


def test_dask_refuses_the_grep_flags(tmp_path, log, capsys):
    assert main(["extract", "--dask", "local", "-o", str(tmp_path / "d"), "-c", log]) == 2
    assert "--dask does not take -c" in capsys.readouterr().err
