"""A file that changes while it is read: a clear error, never a crash, nothing found
before the change lost.

logrotate's ``copytruncate`` empties a live log while a reader has it mapped; a read of
the mapping past the new end is SIGBUS, which used to kill the interpreter (exit 135).
"""
from __future__ import annotations

import mmap
import os
import subprocess
import sys
from pathlib import Path

import pytest

import urlsift
from urlsift import _select
from urlsift.text.mapping import FileShrankError

ROOT = Path(__file__).resolve().parent.parent
SRC = Path(urlsift.__file__).resolve().parent.parent
LINE = b"1.2.3.4 - - [22/Nov/2026] \"GET http://a.example/%06d HTTP/1.1\" 200\n"   # 67 octets


def _log(path: Path, lines: int) -> None:
    path.write_bytes(b"".join(LINE.replace(b"%06d", b"%06d" % i) for i in range(lines)))


@pytest.mark.parametrize("jobs", [1, 2])
def test_a_file_truncated_between_pieces_ends_with_a_clear_error(tmp_path, jobs):
    path = tmp_path / "live.log"
    _log(path, 8192)                                  # 536 KiB: 9 pieces of 64 KiB
    it = urlsift.extract_file(path, jobs=jobs, block_size=64 << 10)
    got = [next(it).url for _ in range(10)]           # the first piece is being read
    os.truncate(path, 1000)                           # what copytruncate does
    with pytest.raises(FileShrankError, match="shrank while being read") as info:
        for m in it:
            got.append(m.url)
    assert info.value.filename == str(path)
    assert isinstance(info.value, OSError)
    # what was found before is whole and in order: URLs 0, 1, 2, ...
    assert got == [f"http://a.example/{i:06d}" for i in range(len(got))]


@pytest.mark.twins
@pytest.mark.skipif("cython" not in _select.available_kinds(), reason="needs the compiled core")
def test_the_compiled_guard_turns_a_read_past_the_new_end_into_zeros(tmp_path):
    guard = _select.twins("_guard")["cython"]
    scan = _select.twins("_scan")["cython"]
    from urlsift.text.rules import KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE

    path = tmp_path / "f.log"
    _log(path, 1024)                                  # 64 KiB
    with open(path, "rb") as f, mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ) as mm:
        token = guard.watch(mm)
        try:
            os.truncate(path, 100)                    # pages past 4 KiB are gone
            arr = scan.scan(mm, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)
            assert guard.faults(token) > 0
            assert mm[8192:8200] == b"\0" * 8         # zeros where the file was
        finally:
            guard.unwatch(token)
    # the file's first 100 octets hold one whole line and its URL (octets 31-54: after
    # '1.2.3.4 - - [22/Nov/2026] "GET '); the second line is cut by the zeros
    assert list(arr) == [31, 54, 0]


def _child_env(pure: bool, **extra: str) -> dict:
    """The environment of a child process running the urlsift under test on one core."""
    env = dict(os.environ, PYTHONPATH=str(SRC) + os.pathsep + os.environ.get("PYTHONPATH", ""),
               **extra)
    env.pop("URLSIFT_PURE", None)
    if pure:
        env["URLSIFT_PURE"] = "1"
    return env


@pytest.mark.parametrize("pure", [False, True])
def test_the_command_reports_a_shrunk_file_in_one_line(tmp_path, pure):
    # a child process truncates the file while the command reads it piece by piece, once
    # the first piece's lines are out: compiled core: mapped, pieces of 256 KiB; pure
    # core: read in blocks of 8 MiB (two held before the first cut, so a later piece may
    # come from octets already read)
    path = tmp_path / "live.log"
    _log(path, 320000 if pure else 32768)             # 21 MiB / 2.1 MiB
    code = (
        "import os, sys\n"
        "import urlsift.cli.extract as ex\n"
        "real = ex.sink_batches\n"
        "def lines(name, sink, jobs=1, progress=None):\n"
        "    for k, chunk in enumerate(real(name, sink, jobs=jobs, progress=progress)):\n"
        "        if k == 0:\n"
        "            os.truncate(name, 5000)\n"
        "        yield chunk\n"
        "ex.sink_batches = lines\n"
        "from urlsift.cli import main\n"
        "sys.exit(main(['extract', sys.argv[1]]))\n")
    proc = subprocess.run([sys.executable, "-c", code, str(path)], capture_output=True,
                          env=_child_env(pure), timeout=120)
    assert proc.returncode == 2, proc.stderr
    err = proc.stderr.decode()
    assert err.startswith(f"urlsift: cannot read '{path}': file shrank while being read")
    assert err.count("\n") == 1
    urls = proc.stdout.decode().splitlines()
    assert urls and urls == [f"http://a.example/{i:06d}" for i in range(len(urls))]


@pytest.mark.parametrize("suffix", [".gz", ".bz2", ".xz"])
def test_a_compressed_file_smaller_than_its_archive_is_not_taken_for_a_shrunk_one(
        tmp_path, suffix):
    # a short log compresses to more octets than it holds: the decompressing reader's
    # fileno() is the archive's, whose size says nothing of what is read (this gave
    # "file shrank while being read (39 bytes when opened, 39 now)" and lost the URLs)
    import bz2
    import gzip
    import lzma
    from urlsift.inputs import open_input
    data = b"http://gz.example/\n"
    pack = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress}[suffix]
    path = tmp_path / ("short.log" + suffix)
    path.write_bytes(pack(data))
    assert path.stat().st_size > len(data)
    with open_input(str(path)) as stream:
        assert [m.url for m in urlsift.extract_file(stream)] == ["http://gz.example/"]
    from urlsift.cli.main import main
    out = tmp_path / "out"
    assert main(["extract", "-H", str(path), "-o", str(out)]) == 0
    assert out.read_text() == f"{path}:http://gz.example/\n"


def _mbox(path: Path, messages: int) -> None:
    path.write_bytes(b"".join(
        b"From a@example.org Thu Jan  1 00:00:00 2026\nSubject: %d\n\nsee http://m.example/%06d ok\n\n"
        % (i, i) for i in range(messages)))


@pytest.mark.parametrize("jobs", ["1", "2", "3"])
@pytest.mark.parametrize("engine", ["walk", "email"])
def test_an_mbox_truncated_while_the_command_reads_it_is_reported(tmp_path, core_kind, jobs,
                                                                  engine):
    # issue 25: the same truncation as a text input's above gave exit 0, nothing on stderr
    # and a fifth of the URLs; mail gets the same guard at every -j, on both engines
    path = tmp_path / "live.mbox"
    _mbox(path, 30000)                                # 2.6 MiB: three pieces of 1 MiB
    reader = "mbox_blocks" if engine == "walk" else "mbox_messages"
    code = (
        "import os, sys\n"
        "from urlsift.mail import spool\n"
        f"real = spool.{reader}\n"
        "def cut(stream, *a, **k):\n"
        "    for n, item in enumerate(real(stream, *a, **k)):\n"
        "        if n == 1:\n"
        "            os.truncate(sys.argv[1], 5000)\n"
        "        yield item\n"
        f"spool.{reader} = cut\n"
        "from urlsift.cli import main\n"
        "sys.exit(main(['extract', '--mbox', '-j', sys.argv[2], sys.argv[1]]))\n")
    proc = subprocess.run([sys.executable, "-c", code, str(path), jobs], capture_output=True,
                          env=_child_env(core_kind == "python", URLSIFT_MAIL_ENGINE=engine),
                          timeout=300)
    assert proc.returncode == 2, proc.stderr
    err = proc.stderr.decode()
    assert err.startswith(f"urlsift: cannot read '{path}': file shrank while being read")
    assert err.count("\n") == 1
    urls = proc.stdout.decode().splitlines()
    assert urls == [f"http://m.example/{i:06d}" for i in range(len(urls))]


@pytest.mark.parametrize("jobs", [1, 2, 3])
def test_an_mbox_truncated_while_the_api_reads_it_raises(tmp_path, jobs):
    path = tmp_path / "live.mbox"
    _mbox(path, 120000)             # 10 MiB: more pieces of 1 MiB than are read ahead
    it = urlsift.extract_file(path, mbox=True, jobs=jobs)
    got = [next(it).url]                              # the first piece is being read
    os.truncate(path, 1000)
    with pytest.raises(FileShrankError, match="shrank while being read") as info:
        for m in it:
            got.append(m.url)
    assert info.value.filename == str(path)
    assert got == [f"http://m.example/{i:06d}" for i in range(len(got))]


def test_a_spool_read_whole_is_no_shrunk_file(tmp_path):
    path = tmp_path / "whole.mbox"
    _mbox(path, 3)
    assert [m.url for m in urlsift.extract_file(path, mbox=True)] == [
        "http://m.example/000000", "http://m.example/000001", "http://m.example/000002"]


def test_a_maildir_message_truncated_after_its_size_was_read_is_an_error(tmp_path, monkeypatch):
    from urlsift.mail import spool
    path = tmp_path / "msg"
    path.write_bytes(b"Subject: x\n\nhttp://a.example/\n")
    real = os.fstat

    def fstat_before_truncate(fd):        # the size seen, then the file cut to 10 octets
        st = real(fd)
        os.truncate(path, 10)
        return st

    monkeypatch.setattr(spool.os, "fstat", fstat_before_truncate)
    got = spool.read_message_file(str(path))
    assert isinstance(got, FileShrankError)
    assert "file shrank while being read (30 bytes when opened, 10 now)" in str(got)
