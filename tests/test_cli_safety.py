"""The command never loses data: pipes and FIFOs are read once, an output never replaces
an input or leaves a half file, and a write error names the output.

Expected values come from the same bytes read as a regular file (samples/access.log:
40 URLs, one a line, see test_cli.ACCESS_EXPECTED), or are stated in each test.
"""
from __future__ import annotations

import gzip
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import urlsift
from urlsift.cli import main

ROOT = Path(__file__).resolve().parent.parent
SRC = Path(urlsift.__file__).resolve().parent.parent
ACCESS = ROOT / "samples" / "access.log"
MBOX = ROOT / "samples" / "mail.mbox"
DATA = ACCESS.read_bytes()

pytestmark = pytest.mark.twins    # the command's plumbing: the core in use does not matter


def run(*args, stdout=subprocess.PIPE, pass_fds=(), stdin=None, timeout=60, unbuffered=None):
    """The command in a child; ``unbuffered``: True or False sets the child's stdout
    buffering (PYTHONUNBUFFERED), None leaves it to the environment."""
    env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    if unbuffered is not None:
        env.pop("PYTHONUNBUFFERED", None)
        if unbuffered:
            env["PYTHONUNBUFFERED"] = "1"
    return subprocess.run([sys.executable, "-m", "urlsift", *map(str, args)], stdout=stdout,
                          stderr=subprocess.PIPE, stdin=stdin, env=env, pass_fds=pass_fds,
                          timeout=timeout)


def reference(*args, path=ACCESS):
    """What the command prints for the same bytes as a regular file (its status too)."""
    proc = run(*args, path)
    assert proc.returncode in (0, 1), proc.stderr      # 1: validate found invalid lines
    return proc.stdout.replace(str(path).encode(), b"INPUT")


def _feed_fifo(path: Path, data: bytes) -> threading.Thread:
    def write():
        with open(path, "wb") as f:     # blocks until the command opens the FIFO
            f.write(data)
    t = threading.Thread(target=write, daemon=True)
    t.start()
    return t


# ---- FIFOs and /dev/fd/N: sniffed and read from one open stream ------------------------

@pytest.mark.parametrize("command", [("extract",), ("extract", "--with-position"),
                                     ("stats",), ("validate", "--lenient")])
@pytest.mark.parametrize("packed", [False, True])
def test_a_named_fifo_is_read_once_and_whole(tmp_path, command, packed):
    fifo = tmp_path / "in.fifo"
    os.mkfifo(fifo)
    source = ACCESS
    if packed:
        source = tmp_path / "access.log.gz"
        source.write_bytes(gzip.compress(DATA))
    writer = _feed_fifo(fifo, source.read_bytes())
    proc = run(*command, fifo)
    writer.join(5)
    assert not writer.is_alive()
    expected = reference(*command, path=source)
    assert proc.stdout.replace(str(fifo).encode(), b"INPUT") == expected, proc.stderr
    assert proc.returncode == (1 if command[0] == "validate" else 0)   # log lines: invalid
    if command == ("extract",):
        assert len(proc.stdout.splitlines()) == 40


@pytest.mark.parametrize("packed", [False, True])
def test_dev_fd_of_a_pipe_is_read_once_and_whole(packed):
    # what the shell hands over for <(cat access.log) and <(gzip -c access.log)
    data = gzip.compress(DATA) if packed else DATA
    r, w = os.pipe()
    feeder = threading.Thread(target=lambda: (os.write(w, data), os.close(w)), daemon=True)
    feeder.start()
    try:
        proc = run("extract", f"/dev/fd/{r}", pass_fds=(r,))
    finally:
        os.close(r)
    feeder.join(5)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout == reference("extract")
    assert len(proc.stdout.splitlines()) == 40


def test_an_mbox_in_a_fifo_is_read_as_mail(tmp_path):
    fifo = tmp_path / "mail.fifo"
    os.mkfifo(fifo)
    writer = _feed_fifo(fifo, MBOX.read_bytes())
    proc = run("extract", "-f", "jsonl", fifo)
    writer.join(5)
    assert proc.stdout == reference("extract", "-f", "jsonl", path=MBOX)
    assert b'"message_id"' in proc.stdout       # sniffed as mail from the one stream


# ---- -o onto an input -------------------------------------------------------------------

def test_an_output_that_is_an_input_is_refused_before_anything_is_written(tmp_path):
    log = tmp_path / "c.log"
    log.write_bytes(DATA)
    proc = run("extract", "-o", log, log)
    assert proc.returncode == 2
    assert proc.stderr.decode() == f"urlsift: input file '{log}' is also the output\n"
    assert log.read_bytes() == DATA
    # the same file under another name (a hard link) is the same file
    alias = tmp_path / "alias.log"
    os.link(log, alias)
    assert run("extract", "-o", alias, ACCESS, log).returncode == 2
    assert log.read_bytes() == DATA


def test_standard_output_appended_to_an_input_is_refused(tmp_path):
    log = tmp_path / "c.log"
    log.write_bytes(DATA)
    with open(log, "ab") as out:                    # urlsift extract c.log >> c.log
        proc = run("extract", log, stdout=out)
    assert proc.returncode == 2 and b"is also the output" in proc.stderr
    assert log.read_bytes() == DATA


def test_an_interrupted_run_leaves_the_old_output_and_no_temporary_file(tmp_path, monkeypatch):
    out = tmp_path / "urls.txt"
    out.write_text("old\n")
    import urlsift.cli.extract as extract_module

    def interrupted(name, sink, jobs=1, progress=None):
        yield b"http://half.example/\n"
        raise KeyboardInterrupt

    monkeypatch.setattr(extract_module, "sink_batches", interrupted)
    assert main(["extract", "-o", str(out), str(ACCESS)]) == 130
    assert out.read_text() == "old\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["urls.txt"]


def test_a_finished_run_replaces_the_output_keeping_its_mode(tmp_path):
    out = tmp_path / "urls.txt"
    out.write_text("old\n")
    os.chmod(out, 0o640)
    assert main(["extract", "-o", str(out), str(ACCESS)]) == 0
    assert out.read_text().splitlines() == reference("extract").decode().splitlines()
    assert stat.S_IMODE(out.stat().st_mode) == 0o640
    new = tmp_path / "new.csv"
    assert main(["extract", "-f", "csv", "-o", str(new), str(ACCESS)]) == 0
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(new.stat().st_mode) == 0o666 & ~umask
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.csv", "urls.txt"]


def test_output_to_a_device_is_written_in_place(tmp_path):
    # /dev/null cannot be replaced by a rename, and must not be
    assert main(["extract", "-o", os.devnull, str(ACCESS)]) == 0
    assert stat.S_ISCHR(os.stat(os.devnull).st_mode)


# ---- write errors name the output ---------------------------------------------------------

@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
@pytest.mark.parametrize("command", [
    ("extract",), ("extract", "-f", "jsonl"), ("extract", "-f", "csv", "--parts"),
    ("extract", "-f", "parquet"), ("validate",), ("stats",), ("stats", "--json"),
])
def test_a_full_device_is_a_write_error_naming_standard_output(command, unbuffered):
    # buffered (as a user runs it) the write fails at the last flush, and what stdout
    # still holds must not fail the interpreter's flush at exit again (status 120)
    if command[-1] == "parquet":
        pytest.importorskip("pyarrow")
    with open("/dev/full", "wb") as full:
        proc = run(*command, ACCESS, stdout=full, unbuffered=unbuffered)
    assert proc.returncode == 2
    assert proc.stderr.decode() == "urlsift: cannot write '<stdout>': No space left on device\n"


@pytest.mark.parametrize("unbuffered", [False, True], ids=["buffered", "unbuffered"])
def test_parse_to_a_full_device(tmp_path, unbuffered):
    with open("/dev/full", "wb") as full:
        proc = run("parse", "http://a.example/", stdout=full, unbuffered=unbuffered)
    assert (proc.returncode, proc.stderr.decode()) == (
        2, "urlsift: cannot write '<stdout>': No space left on device\n")


def test_an_output_in_a_missing_directory_is_named(tmp_path):
    target = tmp_path / "gone" / "urls.txt"
    proc = run("extract", "-o", target, ACCESS)
    assert proc.returncode == 2
    assert proc.stderr.decode() == f"urlsift: cannot write '{target}': No such file or directory\n"


# ---- exit status as grep and rg give it -------------------------------------------------

def test_extract_exit_status_says_whether_a_url_was_found(tmp_path):
    none = tmp_path / "none.txt"
    none.write_text("no address here\n")
    assert run("extract", ACCESS).returncode == 0
    assert run("extract", none).returncode == 1
    assert run("extract", "-f", "jsonl", "--with-position", none).returncode == 1
    assert run("extract", none, ACCESS).returncode == 0          # found in one of them
    missing = run("extract", ACCESS, tmp_path / "missing.log")
    assert missing.returncode == 2 and len(missing.stdout.splitlines()) == 40


def test_a_skipped_mail_message_makes_the_status_2(tmp_path):
    # a message over 64 MiB (mail.spool.MESSAGE_MAX) is skipped: said on stderr, the
    # other messages still read, and the run is not called clean
    spool = tmp_path / "box.mbox"
    big = (b"x" * 1023 + b"\n") * (65 << 10)
    spool.write_bytes(b"From a\nMessage-ID: <1@x>\n\nhttp://one.example/\n"
                      + b"From b\nMessage-ID: <2@x>\n\n" + big
                      + b"From c\nMessage-ID: <3@x>\n\nhttp://three.example/\n")
    for command in ("extract", "stats"):
        proc = run(command, spool)
        assert proc.returncode == 2, proc.stderr
        assert proc.stderr.count(b"\n") == 1 and b"skipp" in proc.stderr
    assert run("extract", spool).stdout.splitlines() == [b"http://one.example/",
                                                          b"http://three.example/"]


# ---- -f parquet: the writer thread's errors -----------------------------------------------

def _many_urls(tmp_path, n=150_000):
    """A log of ``n`` URLs, one a line: more than one row group (``GROUP_ROWS``), so the
    writer thread is handed rows (and fails) while the scan still goes on."""
    path = tmp_path / "many.log"
    path.write_text("".join(f"GET http://h{i % 97}.example/p{i}\n" for i in range(n)))
    return path


@pytest.mark.parametrize("to", ["-o", "stdout"])
def test_parquet_on_a_full_device_mid_run_is_one_line_and_status_2(tmp_path, to):
    # the error comes from the writer thread: said on the command's thread, once, no hang
    pytest.importorskip("pyarrow")
    log = _many_urls(tmp_path)
    if to == "-o":
        proc = run("extract", "-f", "parquet", "-o", "/dev/full", log, timeout=60)
        named = "/dev/full"
    else:
        with open("/dev/full", "wb") as full:
            proc = run("extract", "-f", "parquet", log, stdout=full, timeout=60)
        named = "<stdout>"
    assert (proc.returncode, proc.stderr.decode()) == (
        2, f"urlsift: cannot write '{named}': No space left on device\n")


def test_parquet_to_a_closed_pipe_ends_quietly(tmp_path):
    # "| head -c 100": the reader goes away; the writer thread's broken pipe ends the run
    # as a closed pipe ends the other formats: quietly, status 141 (or 0 if all was taken)
    pytest.importorskip("pyarrow")
    log = _many_urls(tmp_path, 200_000)
    env = dict(os.environ, PYTHONPATH=str(SRC))
    proc = subprocess.Popen([sys.executable, "-m", "urlsift", "extract", "-f", "parquet", str(log)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=env)
    assert proc.stdout.read(4) == b"PAR1"        # a Parquet file's magic number
    proc.stdout.close()
    err = proc.stderr.read()
    assert (proc.wait(timeout=60), err) == (141, b"")


def test_parquet_rows_of_several_row_groups_in_file_order(tmp_path):
    pq = pytest.importorskip("pyarrow.parquet")
    log = _many_urls(tmp_path)
    out = tmp_path / "u.parquet"
    assert main(["extract", "-f", "parquet", "-n", "-o", str(out), str(log)]) == 0
    f = pq.ParquetFile(out)
    rows = [f.metadata.row_group(i).num_rows for i in range(f.metadata.num_row_groups)]
    # row groups of at least 65 536 rows (text.arrow.GROUP_ROWS), the last fewer
    assert len(rows) > 1 and min(rows[:-1]) >= 1 << 16 and sum(rows) == 150_000
    t = f.read()
    assert t.column("url").to_pylist() == [f"http://h{i % 97}.example/p{i}" for i in range(150_000)]
    assert t.column("line").to_pylist() == list(range(1, 150_001))


def test_parquet_rows_of_several_files_name_their_own_file(tmp_path):
    # each input's rows are made by its own sink (its file name), in the order given,
    # though the rows of a file are handed to the writer thread a row group at a time
    pq = pytest.importorskip("pyarrow.parquet")
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    a.write_bytes(b"http://a.example/1\nhttp://a.example/2\n")
    b.write_bytes(b"x http://b.example/1\n")
    out = tmp_path / "u.parquet"
    assert main(["extract", "-f", "parquet", "-H", "-n", "-o", str(out), str(a), str(b)]) == 0
    assert pq.read_table(out).to_pylist() == [
        {"url": "http://a.example/1", "file": str(a), "line": 1},
        {"url": "http://a.example/2", "file": str(a), "line": 2},
        {"url": "http://b.example/1", "file": str(b), "line": 1}]
