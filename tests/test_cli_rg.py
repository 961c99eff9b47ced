"""``urlsift extract`` as grep and rg users expect it, round two (issue 24): file names
with several files (``-h``), ``-u`` per file, ``-c`` with a missing file, ``-r`` as rg
walks (``.gitignore``, hidden files, ``-g``, ``-a``), ``--unique=MODE``, IPv6 hosts,
``--valid-lenient``/``valid_strict``, ranges, ``--refang --details``. Each runs the
command in a child process on both cores (``run``).

The small log: line 1 ``see http://a.example/x and http://a.example/x``, line 2
``ftp://f.example/p``, line 3 ``http://a.example/x`` — three times the same URL on
lines 1 and 3, the ftp URL once.
"""
from __future__ import annotations

import json
import os

import pytest

LOG = b"see http://a.example/x and http://a.example/x\nftp://f.example/p\nhttp://a.example/x\n"


def out(proc) -> list[str]:
    return proc.stdout.decode("utf-8", "surrogateescape").splitlines()


@pytest.fixture
def two(tmp_path):
    """Two identical logs, a.log and b.log, named relative to ``tmp_path``."""
    for name in ("a.log", "b.log"):
        (tmp_path / name).write_bytes(LOG)
    return tmp_path


# ---- several files: FILE:URL, -h, a file column ----------------------------------

def test_several_files_put_the_file_name_before_each_url(run, two):
    a, b = two / "a.log", two / "b.log"
    proc = run("extract", a, b)
    urls = ["http://a.example/x", "http://a.example/x", "ftp://f.example/p", "http://a.example/x"]
    assert proc.returncode == 0
    assert out(proc) == [f"{a}:{u}" for u in urls] + [f"{b}:{u}" for u in urls]
    assert out(run("extract", "-h", a, b)) == urls + urls        # grep -h
    assert out(run("extract", a)) == urls                         # one file: no name


@pytest.mark.parametrize("fmt", ["jsonl", "csv"])
def test_several_files_give_a_file_column(run, two, fmt):
    a, b = two / "a.log", two / "b.log"
    text = run("extract", "-f", fmt, a, b).stdout.decode()
    if fmt == "jsonl":
        files = [json.loads(x)["file"] for x in text.splitlines()]
    else:
        rows = text.splitlines()
        assert rows[0] == "url,file"
        files = [r.split(",")[1] for r in rows[1:]]
    assert files == [str(a)] * 4 + [str(b)] * 4
    one = run("extract", "-f", fmt, a).stdout.decode().splitlines()[0]
    assert "file" not in one


# ---- -u counted per file and line when shown --------------------------------------

def test_unique_with_file_names_counts_each_file(run, two):
    a, b = two / "a.log", two / "b.log"
    assert out(run("extract", "-u", "-H", a, b)) == [
        f"      3 {a}:http://a.example/x", f"      1 {a}:ftp://f.example/p",
        f"      3 {b}:http://a.example/x", f"      1 {b}:ftp://f.example/p"]
    # several files name them anyway (grep); -h: one count over both
    assert out(run("extract", "-u", a, b))[0] == f"      3 {a}:http://a.example/x"
    assert out(run("extract", "-u", "-h", a, b)) == ["      6 http://a.example/x",
                                                      "      2 ftp://f.example/p"]


def test_unique_with_line_numbers_counts_each_line(run, two):
    a = two / "a.log"
    assert out(run("extract", "-u", "-n", a)) == [
        "      2 1:http://a.example/x", "      1 2:ftp://f.example/p",
        "      1 3:http://a.example/x"]
    assert out(run("extract", "--unique=plain", "-n", a)) == [
        "1:http://a.example/x", "2:ftp://f.example/p", "3:http://a.example/x"]


# ---- -c with a missing file ---------------------------------------------------------

def test_count_with_a_missing_file_still_names_the_other(run, two):
    a = two / "a.log"
    proc = run("extract", "-c", two / "nosuch", a)
    assert out(proc) == [f"{a}:4"]                     # grep -c nosuch a.log: a.log:N
    assert proc.stderr.decode() == f"urlsift: cannot read '{two / 'nosuch'}': No such file or directory\n"
    assert proc.returncode == 2
    assert out(run("extract", "-c", a)) == ["4"]


# ---- -r as rg walks ------------------------------------------------------------------

@pytest.fixture
def tree(tmp_path):
    files = {"a.log": b"http://a.example/\n", "sub/b.txt": b"http://b.example/\n",
             ".git/config": b"url = http://git.example/\n", ".env": b"http://env.example/\n",
             ".hid/c.log": b"http://hid.example/\n", "build/out.log": b"http://build.example/\n",
             "keep.tmp": b"http://keep.example/\n", "x.tmp": b"http://tmp.example/\n",
             "sub/.gitignore": b"/deep.log\n", "sub/deep.log": b"http://deep.example/\n",
             "bin.dat": b"http://bin.example/\0\1\2\n",
             ".gitignore": b"# built\nbuild/\n*.tmp\n!keep.tmp\n"}
    for name, data in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_bytes(data)
    return tmp_path


def test_recursive_skips_git_hidden_ignored_and_binary_files(run, tree):
    proc = run("extract", "-r", tree)
    assert proc.returncode == 0
    assert out(proc) == [f"{tree}/a.log:http://a.example/",
                         f"{tree}/keep.tmp:http://keep.example/",
                         f"{tree}/sub/b.txt:http://b.example/"]


def test_recursive_with_hidden_no_ignore_and_text(run, tree):
    got = out(run("extract", "-r", "-h", "--hidden", "--no-ignore", "-a", tree))
    assert got == ["http://env.example/", "http://hid.example/", "http://a.example/",
                   "http://bin.example/", "http://build.example/", "http://keep.example/",
                   "http://b.example/", "http://deep.example/", "http://tmp.example/"]
    # .git is never read, even with --hidden (rg)
    assert "http://git.example/" not in got


def test_recursive_without_a_path_reads_the_current_directory(run, tree):
    # as rg and grep -r: the names relative to it, no "./"
    assert out(run("extract", "-r", cwd=tree)) == ["a.log:http://a.example/",
                                                  "keep.tmp:http://keep.example/",
                                                  "sub/b.txt:http://b.example/"]


def test_glob_keeps_and_leaves_out(run, tree):
    # a glob that keeps decides before .gitignore (rg's overrides): sub/deep.log, listed
    # in sub/.gitignore, is read; build/, which no glob matches, stays left out
    assert out(run("extract", "-r", "-h", "-g", "*.log", tree)) == ["http://a.example/",
                                                                   "http://deep.example/"]
    assert out(run("extract", "-r", "-h", "-g", "!*.log", tree)) == [
        "http://keep.example/", "http://b.example/"]
    assert out(run("extract", "-r", "-h", "-g", "!sub", tree)) == [
        "http://a.example/", "http://keep.example/"]
    # a glob decides before .gitignore (rg): x.tmp, ignored by "*.tmp", is read
    assert out(run("extract", "-r", "-h", "-g", "*.tmp", tree)) == [
        "http://keep.example/", "http://tmp.example/"]


# ---- --unique=MODE: one spelling ----------------------------------------------------

def test_unique_mode_only_after_an_equals_sign(run, two):
    a = two / "a.log"
    proc = run("extract", "--unique", "plain", a)
    assert proc.returncode == 2 and proc.stdout == b""          # refused before any output
    assert "--unique=plain" in proc.stderr.decode()
    assert out(run("extract", "--uniq=plain", a)) == ["http://a.example/x", "ftp://f.example/p"]
    proc = run("extract", "--uniq", a)                            # no "ambiguous option"
    assert proc.returncode == 0 and out(proc)[0] == "      3 http://a.example/x"
    assert run("extract", "--unique=sorted", a).returncode == 2


# ---- --host with an IPv6 host -------------------------------------------------------

def test_host_matches_an_ipv6_host_as_written(run, tmp_path):
    path = tmp_path / "v6.log"
    path.write_bytes(b"http://[2001:db8::1]/x http://[2001:db8::2]/ http://b.example/\n")
    assert out(run("extract", "--host", "[2001:db8::1]", path)) == ["http://[2001:db8::1]/x"]
    assert out(run("extract", "--host", "[2001:DB8::*]", path)) == [
        "http://[2001:db8::1]/x", "http://[2001:db8::2]/"]
    assert out(run("extract", "--host", "[ab].example", path)) == ["http://b.example/"]


# ---- validity named for what it is ---------------------------------------------------

def test_valid_lenient_and_valid_strict(run, tmp_path):
    path = tmp_path / "v.log"
    path.write_bytes(b"http://a.example/~x http://b.example:99999/ http://c.example/\n")
    # ~ is unsafe (RFC 1738 2.2) yet lenient mode takes it; port 99999 no mode takes
    assert out(run("extract", "--valid-lenient", path)) == ["http://a.example/~x",
                                                            "http://c.example/"]
    assert out(run("extract", "--valid-only", path)) == ["http://a.example/~x",
                                                         "http://c.example/"]
    assert out(run("extract", "--valid-strict", path)) == ["http://c.example/"]
    assert out(run("extract", "--strict", path)) == ["http://c.example/"]
    recs = [json.loads(x) for x in out(run("extract", "--valid-lenient", "--details",
                                           "-f", "jsonl", path))]
    assert [(r["url"], r["valid_strict"]) for r in recs] == [("http://a.example/~x", False),
                                                             ("http://c.example/", True)]
    assert all("valid" not in r for r in recs)


# ---- ranges -------------------------------------------------------------------------

@pytest.mark.parametrize("args", [["stats", "--top", "-1"], ["stats", "--top", "0"],
                                  ["extract", "--after-context=-1"], ["extract", "-C", "x"],
                                  ["extract", "--jobs=-2"]])
def test_numbers_out_of_range_are_refused(run, args):
    proc = run(*args, stdin=b"http://a.example/\n")
    err = proc.stderr.decode()
    assert proc.returncode == 2 and proc.stdout == b""
    assert err.count("\n") == 1 and err.startswith("urlsift")
    assert ("or more" in err) or ("not a number" in err)


# ---- --refang --details ------------------------------------------------------------

def test_refang_shows_in_details(run, tmp_path):
    path = tmp_path / "r.txt"
    path.write_bytes(b"see hxxp://evil[.]example/x and http://ok.example/\n")
    text = out(run("extract", "--refang", "--details", path))
    assert text[0].split("\t")[0] == "http://evil.example/x"
    assert "edits=refanged" in text[0].split("\t")
    assert "edits=" in text[1].split("\t")
    recs = [json.loads(x) for x in out(run("extract", "--refang", "--details", "-f", "jsonl",
                                           path))]
    assert [(r["url"], r["refanged"], r["edits"]) for r in recs] == [
        ("http://evil.example/x", True, ["refanged"]), ("http://ok.example/", False, [])]


# ---- -n on mail: the line in the file ----------------------------------------------

MBOX = (b"From a@example.org Mon Oct 12 09:00:00 2026\n"         # 1
        b"Message-ID: <1@example.org>\n"                         # 2
        b"List-Post: <mailto:l@example.org>\n"                   # 3
        b"\n"                                                    # 4
        b"see http://a.example/x\n"                              # 5
        b"\n"                                                    # 6
        b"From b@example.org Mon Oct 12 10:00:00 2026\n"         # 7
        b"Message-ID: <2@example.org>\n"                         # 8
        b"MIME-Version: 1.0\n"                                   # 9
        b"Content-Type: text/plain; charset=us-ascii\n"          # 10
        b"Content-Transfer-Encoding: base64\n"                   # 11
        b"\n"                                                    # 12
        b"aHR0cDovL2IuZXhhbXBsZS95Cg==\n"                        # 13: "http://b.example/y\n"
        b"\n"
        b"From c@example.org Mon Oct 12 11:00:00 2026\n"         # 15
        b"Message-ID: <3@example.org>\n"                         # 16
        b"\n"                                                    # 17
        b"text\n"                                                # 18
        b"  and http://c.example/z\n")                           # 19


@pytest.mark.parametrize("extra", [[], ["-j", "2"], ["--refang"]])
def test_line_numbers_of_mail_are_lines_of_the_spool(run, tmp_path, extra):
    box = tmp_path / "box.mbox"
    box.write_bytes(MBOX)
    got = out(run("extract", "-n", *extra, box))
    if extra == ["--refang"]:
        # read through email: no URL has a place of its own, each its message's line
        assert got == ["1:mailto:l@example.org", "1:http://a.example/x",
                       "7:http://b.example/y", "15:http://c.example/z"]
        return
    # written as they stand: their own lines; base64: the From line of its message
    assert got == ["3:mailto:l@example.org", "5:http://a.example/x",
                   "7:http://b.example/y", "19:http://c.example/z"]
    recs = [json.loads(x) for x in out(run("extract", "-n", "-f", "jsonl", *extra, box))]
    assert [r["line"] for r in recs] == [3, 5, 7, 19]


def test_line_numbers_of_a_maildir_never_leave_an_empty_field(run, tmp_path):
    folder = tmp_path / "md"
    for sub in ("cur", "new", "tmp"):
        (folder / sub).mkdir(parents=True)
    name = folder / "cur" / "1700000000.x:2,S"
    name.write_bytes(b"Subject: x\nList-Post: <mailto:l@example.org>\n\nsee http://a.example/\n")
    assert out(run("extract", "-H", "-n", folder)) == [f"{name}:2:mailto:l@example.org",
                                                       f"{name}:4:http://a.example/"]


# ---- --log-escapes: a host in its Unicode form ---------------------------------------

def test_log_escaped_host_is_an_idn_the_filters_can_use(run, tmp_path):
    # d0 b4 is the UTF-8 of "д" (U+0434); \x20 in the path stays %20 (RFC 1738 2.2)
    log = tmp_path / "access.log"
    log.write_bytes(b'1.2.3.4 - - [x] "GET / HTTP/1.1" 200 9 "http://\\xd0\\xb4.example/a\\x20b" '
                    b'"UA"\n')
    assert out(run("extract", "--log-escapes", log)) == ["http://д.example/a%20b"]
    parts = out(run("extract", "--log-escapes", "--parts", log))[0].split("\t")
    assert "host=д.example" in parts and "path=/a%20b" in parts
    assert out(run("extract", "--log-escapes", "--host", "*.EXAMPLE", log)) == [
        "http://д.example/a%20b"]
    stats = json.loads(run("stats", "--json", "--log-escapes", log).stdout)
    assert stats["hosts"] == {"д.example": 1}


# ---- -A/-B/-C: lines around the line of each URL ------------------------------------

CTX = (b"alpha\n"                                       # 1
       b"see http://a.example/ here\n"                  # 2
       b"beta\ngamma\ndelta\n"                          # 3 4 5
       b"http://b.example/ and http://c.example/\n"     # 6
       b"omega\n")                                      # 7


@pytest.mark.parametrize("args, expected", [
    (["-n", "-C1"], ["1-alpha", "2:http://a.example/", "3-beta", "--", "5-delta",
                     "6:http://b.example/", "6:http://c.example/", "7-omega"]),
    (["-A1"], ["http://a.example/", "beta", "--", "http://b.example/", "http://c.example/",
               "omega"]),
    (["-n", "-C3"], ["1-alpha", "2:http://a.example/", "3-beta", "4-gamma", "5-delta",
                     "6:http://b.example/", "6:http://c.example/", "7-omega"]),   # no gap: no --
    # line 2 starts at octet 6 (after "alpha" and its line end), 3 at 33, 4 at 38, 5 at 44, 6 at 50
    (["-n", "-b", "-B1"], ["1-0-alpha", "2:10:http://a.example/", "--", "5-44-delta",
                           "6:50:http://b.example/", "6:72:http://c.example/"]),
    (["-n", "-A", "0"], ["2:http://a.example/", "6:http://b.example/", "6:http://c.example/"]),
])
def test_context_lines(run, tmp_path, args, expected):
    path = tmp_path / "c.txt"
    path.write_bytes(CTX)
    proc = run("extract", *args, path)
    assert proc.returncode == 0 and out(proc) == expected


def test_context_lines_with_file_names_and_standard_input(run, tmp_path):
    path = tmp_path / "c.txt"
    path.write_bytes(CTX)
    got = out(run("extract", "-H", "-n", "-B2", path))
    assert got == [f"{path}-1-alpha", f"{path}:2:http://a.example/", "--",
                   f"{path}-4-gamma", f"{path}-5-delta", f"{path}:6:http://b.example/",
                   f"{path}:6:http://c.example/"]
    assert out(run("extract", "-A1", "--host", "c.example", stdin=CTX)) == [
        "http://c.example/", "omega"]


@pytest.mark.parametrize("args", [["-C1", "-f", "jsonl"], ["-C1", "-c"], ["-A1", "-u"]])
def test_context_refuses_what_it_cannot_show(run, args):
    proc = run("extract", *args, stdin=CTX)
    assert proc.returncode == 2 and proc.stdout == b""
    assert "-A/-B/-C" in proc.stderr.decode()


def test_context_blocks_find_each_url_once_whole(monkeypatch):
    # in-process, with blocks far smaller than a line of URLs: every URL once, whole,
    # on its line, as one block of everything gives
    import io
    from urlsift.cli import context
    from urlsift.cli.grepstyle import line_template
    text = b"".join(b"line %d http://h%d.example/%s x <URL:http://w%d.example/a-\n b>\n"
                    % (i, i, b"p" * (i % 50), i) for i in range(300))

    def lines_of(block, tail):
        monkeypatch.setattr(context, "BLOCK", block)
        monkeypatch.setattr(context, "TAIL", tail)
        got: list[str] = []
        args = type("A", (), dict(schemes=None, exclude_schemes=None, host=None, strict=False,
                                  valid_only=False, refang=False, quoted=False,
                                  log_escapes=False))()
        show = context.Context(1, 0, line_template(["url", "line"], null=False, color=False),
                               got.append)
        n = show.input(io.BytesIO(text), "t", context.scanner(args))
        return n, "".join(got)

    whole = lines_of(1 << 30, 1 << 10)
    assert whole[0] == 600
    assert lines_of(4096, 1024) == whole


# ---- which core runs --------------------------------------------------------------

def test_version_says_which_core_runs(run, core_kind):
    version = run("--version").stdout.decode()
    assert version.startswith("urlsift ")
    assert version.endswith("(pure-Python core)\n" if core_kind == "python"
                            else "(compiled core)\n")


def test_the_pure_core_says_so_on_a_large_input(run, tmp_path, core_kind):
    # a sparse file of 40 MiB: a URL, then zeros that -l never reads
    big = tmp_path / "big.log"
    with open(big, "wb") as f:
        f.write(b"http://a.example/\n")
        f.truncate(40 << 20)
    small = tmp_path / "small.log"
    small.write_bytes(b"http://a.example/\n")
    proc = run("extract", "-l", big)
    assert proc.returncode == 0 and out(proc) == [str(big)]
    err = proc.stderr.decode()
    if core_kind == "python":
        assert err.count("\n") == 1 and "pure-Python core" in err and "40 MiB" in err
    else:
        assert err == ""
    assert run("extract", "-l", small).stderr == b""
