"""A UTF-8 byte-order mark (EF BB BF, U+FEFF) at the start of an input is passed over
by every entry point that reads a file, a stream or a text of URLs one a line, offsets
staying those of the input as it stands (issue 21: ``urlsift validate`` said
``missing-scheme`` on line 1 of a file saved by Notepad). U+FEFF anywhere else is a
character like any other.

Offsets by hand: after the 3-octet BOM, ``http://a.example/`` (17 octets) is 3-20 in
bytes, 1-18 in a ``str``.
"""
from __future__ import annotations

import base64
import gzip
import json
import mailbox

import pytest

import urlsift
from urlsift import cli
from urlsift.inputs import iter_mail_urls

BOM = b"\xef\xbb\xbf"
URLS = BOM + b"http://a.example/\nhttp://b.example/x y\n"


def _write(tmp_path, name, data):
    path = tmp_path / name
    path.write_bytes(data)
    return path


# -- one URL a line ----------------------------------------------------------------------

def test_validate_skips_the_bom_of_a_file(tmp_path, capsys):
    path = _write(tmp_path, "urls.txt", URLS)
    assert cli.main(["validate", str(path)]) == 1
    out, err = capsys.readouterr()
    # only line 2 is invalid: the space is at position 18 of its URL, column 19
    assert out == (f"{path}:2:19: http://b.example/x y: unsafe-char: unsafe character ' ' "
                   f"in the http path '/x y' (must be %-encoded, RFC 1738 §2.2)\n")
    assert err == "2 checked, 1 invalid\n"
    assert cli.main(["validate", "--print-valid", str(path)]) == 1
    assert capsys.readouterr().out == "http://a.example/\n"       # without the BOM


def test_validate_columns_count_from_after_the_bom(tmp_path, capsys):
    # as an editor shows line 1 (it hides the BOM): two spaces, then the URL; its space
    # at position 17 is column 2 + 17 + 1 = 20
    path = _write(tmp_path, "urls.txt", BOM + b"  http://a.example/ x\n")
    assert cli.main(["validate", "--json", str(path)]) == 1
    rec = json.loads(capsys.readouterr().out)
    assert (rec["line"], rec["column"], rec["url"]) == (1, 20, "http://a.example/ x")
    assert [(p["position"], p["column"]) for p in rec["problems"]] == [(17, 20)]


def test_a_bom_is_only_at_the_start(tmp_path, capsys):
    # U+FEFF at the start of line 2 is no byte-order mark (cat a.txt b.txt): a character
    path = _write(tmp_path, "urls.txt", b"http://a.example/\n" + BOM + b"http://b.example/\n")
    assert cli.main(["validate", "-q", str(path)]) == 1
    assert capsys.readouterr().out.startswith(f"{path}:2:1: \ufeffhttp://b.example/: missing-scheme:")


def test_validate_and_parse_on_stdin(run):
    proc = run("validate", "-", stdin=URLS)
    assert proc.returncode == 1
    assert proc.stdout.decode().startswith("<stdin>:2:19: http://b.example/x y: unsafe-char:")
    assert proc.stderr.decode() == "2 checked, 1 invalid\n"
    proc = run("parse", "-", stdin=BOM + b"http://a.example/\n")
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().splitlines()[:3] == [
        "http://a.example/", "  type            HttpURL", "  scheme          http"]
    proc = run("parse", "-", stdin=gzip.compress(BOM + b"ftp://f.example/x\n"))  # opened as any input
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().splitlines()[:2] == ["ftp://f.example/x", "  type            FtpURL"]


def test_validate_many_on_the_lines_of_a_file(tmp_path):
    path = _write(tmp_path, "urls.txt", URLS)
    with open(path, encoding="utf-8") as f:            # not utf-8-sig: the BOM stays
        lines = [line.strip() for line in f]
    assert lines[0] == "\ufeffhttp://a.example/"      # str.strip() keeps U+FEFF
    assert urlsift.validate_many(lines) == [True, False]
    assert urlsift.validate_many(iter(lines)) == [True, False]
    assert urlsift.validate_many(tuple(lines), strict=False) == [True, True]
    # only the first string's: a later U+FEFF is a character of its URL
    assert urlsift.validate_many(["http://a.example/", "\ufeffhttp://a.example/"]) == [True, False]
    assert urlsift.is_valid("\ufeffhttp://a.example/") is False     # one URL: no file start


# -- text -------------------------------------------------------------------------------

def test_extract_on_a_str_and_on_bytes():
    assert [(m.url, m.start, m.end) for m in urlsift.extract("\ufeffhttp://a.example/ x")] == [
        ("http://a.example/", 1, 18)]
    assert [(m.url, m.start, m.end) for m in urlsift.extract(BOM + b"http://a.example/ x")] == [
        ("http://a.example/", 3, 20)]
    assert [(m.url, m.start) for m in urlsift.extract("\ufeff<URL:http://a.example/>")] == [
        ("http://a.example/", 1)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_extract_file_plain_and_compressed(tmp_path, jobs):
    for path in (_write(tmp_path, "a.txt", URLS), _write(tmp_path, "a.txt.gz", gzip.compress(URLS))):
        found = [(m.url, m.start, m.line) for m in
                 urlsift.extract_file(path, jobs=jobs, line_numbers=True)]
        # line 2 starts at 3 + 18 = 21
        assert found == [("http://a.example/", 3, 1), ("http://b.example/x", 21, 2)]


def test_every_extract_subcommand_on_a_file_and_stdin(tmp_path, capsys, run):
    path = _write(tmp_path, "a.txt", URLS)
    for opts in ([], ["--quoted"], ["--refang"], ["--log-escapes"], ["-j", "2"], ["--unique=plain"]):
        assert cli.main(["extract", "-n", "-b", *opts, str(path)]) == 0, opts
        assert capsys.readouterr().out == "1:3:http://a.example/\n2:21:http://b.example/x\n", opts
    assert cli.main(["extract", "-n", "-b", "-f", "jsonl", "--details", str(path)]) == 0
    assert [(r["url"], r["line"], r["offset"], r["valid_strict"]) for r in
            map(json.loads, capsys.readouterr().out.splitlines())] == [
        ("http://a.example/", 1, 3, True), ("http://b.example/x", 2, 21, True)]
    assert cli.main(["stats", "--json", str(path)]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["urls"], report["invalid"], report["schemes"]) == (2, 0, {"http": 2})
    proc = run("extract", "-b", stdin=URLS)
    assert proc.stdout.decode() == "3:http://a.example/\n21:http://b.example/x\n"


def test_reply_quotes_and_defanging_on_the_first_line(tmp_path, capsys):
    # the rewriting readers (--quoted, --refang) find the same as after no BOM, offsets
    # counting it: U+FEFF is no URL character, and a reply quote matters only on a line
    # that continues a wrapper (never the first)
    quoted = _write(tmp_path, "q.txt", BOM + b"> see <URL:http://a.example/lo\n> ng> ok\n")
    assert cli.main(["extract", "-b", "--quoted", str(quoted)]) == 0
    assert capsys.readouterr().out == "9:http://a.example/long\n"     # 3 + len("> see ")
    fanged = _write(tmp_path, "f.txt", BOM + b"hxxp://evil[.]example/ x\n")
    assert cli.main(["extract", "-b", "--refang", str(fanged)]) == 0
    assert capsys.readouterr().out == "3:http://evil.example/\n"


# -- mail -------------------------------------------------------------------------------

# "From a@example.org Mon Jan  3 10:00:00 1994\n" is 44 octets, "Message-ID: <1@example.org>\n"
# 28, the blank line 1, "see " 4: after the BOM the From line is at 3, the URL at 80;
# the second message at 3 + 44 + 28 + 1 + 25 = 101, its URL at 101 + 44 + 28 + 1 = 174.
SPOOL = (BOM + b"From a@example.org Mon Jan  3 10:00:00 1994\n"
         b"Message-ID: <1@example.org>\n\nsee http://m.example/one\n"
         b"From b@example.org Mon Jan  3 11:00:00 1994\n"
         b"Message-ID: <2@example.org>\n\nhttp://n.example/two\n")
SPOOL_FOUND = [("http://m.example/one", "<1@example.org>", 3),
               ("http://n.example/two", "<2@example.org>", 101)]


@pytest.mark.parametrize("jobs", [1, 2])
def test_an_mbox_after_a_bom_is_detected_and_split(tmp_path, jobs):
    # before: not detected as mail, and forced, the first message lost its Message-ID
    for path in (_write(tmp_path, "in.mbox", SPOOL), _write(tmp_path, "in.gz", gzip.compress(SPOOL))):
        for mbox in (None, True):
            found = list(urlsift.extract_file(path, jobs=jobs, mbox=mbox))
            assert [(m.url, m.message_id, m.offset) for m in found] == SPOOL_FOUND
            assert found[0].file_offset == 80


@pytest.mark.parametrize("engine", ["walk", "email"])
def test_both_mail_engines_skip_the_bom(tmp_path, engine):
    path = _write(tmp_path, "in.mbox", SPOOL)
    assert [(m.url, m.message_id, m.offset) for m in iter_mail_urls(path, engine=engine)] == SPOOL_FOUND


def test_the_command_reads_an_mbox_after_a_bom(tmp_path, capsys, run):
    path = _write(tmp_path, "in.mbox", SPOOL)
    want = "3\t<1@example.org>\thttp://m.example/one\n101\t<2@example.org>\thttp://n.example/two\n"
    for args in ([str(path)], ["--mbox", str(path)]):
        assert cli.main(["extract", "-f", "jsonl", "-b", *args]) == 0
        recs = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
        assert "".join(f"{r['offset']}\t{r['message_id']}\t{r['url']}\n" for r in recs) == want
    proc = run("extract", "--with-position", stdin=SPOOL)
    assert proc.stdout.decode() == ("-:3:<1@example.org>:http://m.example/one\t1 text/plain\tfile_offset=80\n"
                                    "-:101:<2@example.org>:http://n.example/two\t1 text/plain\tfile_offset=174\n")


@pytest.mark.parametrize("engine", ["walk", "email"])
def test_a_maildir_message_file_with_a_bom(tmp_path, engine):
    box = mailbox.Maildir(tmp_path / "box", create=True)
    # after the BOM, the header (28 octets) and the blank line: the URL at 3 + 29 = 32
    key = box.add(b"Message-ID: <7@example.org>\n\nhttp://d.example/\n")
    msg = tmp_path / "box" / "new" / key
    msg.write_bytes(BOM + msg.read_bytes())
    found = list(iter_mail_urls(tmp_path / "box", engine=engine))
    assert [(m.url, m.message_id) for m in found] == [("http://d.example/", "<7@example.org>")]
    assert found[0].file_offset == (32 if engine == "walk" else None)


@pytest.mark.parametrize("engine", ["walk", "email"])
def test_mail_parts_starting_with_a_bom(tmp_path, engine):
    # a base64, an 8bit and a quoted-printable part, each text starting with U+FEFF: the
    # URL right after it, at octet 3 of the part (the walk counts octets) or character 1
    # (the email walk decodes to str)
    b64 = base64.b64encode("\ufeffhttp://b.example/x ok".encode()).decode()
    spool = ("From a@example.org Mon Jan  3 10:00:00 1994\nMessage-ID: <1@example.org>\n"
             "MIME-Version: 1.0\nContent-Type: multipart/mixed; boundary=\"B\"\n\n"
             "--B\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: base64\n\n"
             f"{b64}\n"
             "--B\nContent-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
             "\ufeffhttp://e.example/y\n"
             "--B\nContent-Type: text/plain; charset=utf-8\n"
             "Content-Transfer-Encoding: quoted-printable\n\n=EF=BB=BFhttp://q.example/z\n--B--\n")
    path = _write(tmp_path, "parts.mbox", spool.encode("utf-8"))
    start = 3 if engine == "walk" else 1
    assert [(m.url, m.part, m.start) for m in iter_mail_urls(path, engine=engine)] == [
        ("http://b.example/x", "1 text/plain", start), ("http://e.example/y", "2 text/plain", start),
        ("http://q.example/z", "3 text/plain", start)]
