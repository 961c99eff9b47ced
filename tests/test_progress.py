"""The progress bar counts what is read of each input as it lies on disk: a compressed
file by its compressed octets (so the bar ends at the file's size), standard input and
pipes as they come, without a total. Checked on the counts, never on time."""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
import sys

import pytest

from urlsift.cli import build_parser
from urlsift.cli import extract as extract_cmd
from urlsift.cli import progress as progress_mod
from urlsift.cli.main import main
from urlsift.inputs import iter_file_matches, iter_file_urls, open_input

BODY = b"".join(b"line %d http://h%d.example/p?q=%d\n" % (i, i % 97, i) for i in range(20000))
PACK = {".gz": gzip.compress, ".bz2": bz2.compress, ".xz": lzma.compress}


@pytest.fixture(params=sorted(PACK))
def packed(request, tmp_path):
    path = tmp_path / ("a.log" + request.param)
    path.write_bytes(PACK[request.param](BODY))
    return path


def _counter():
    told: list[int] = []
    return told, told.append


def test_urls_of_a_compressed_file_count_its_compressed_octets(packed):
    told, tell = _counter()
    urls = list(iter_file_urls(str(packed), progress=tell))
    assert len(urls) == 20000
    assert sum(told) == packed.stat().st_size and len(told) >= 1


def test_rewritten_text_counts_the_same(packed):
    told, tell = _counter()
    found = list(iter_file_matches(str(packed), refang=True, progress=tell))
    assert len(found) == 20000
    assert sum(told) == packed.stat().st_size


def test_open_input_counts_what_is_read_of_a_plain_stream(tmp_path):
    path = tmp_path / "plain.log"
    path.write_bytes(BODY)
    told, tell = _counter()
    with open_input(str(path), tell) as f:
        assert f.peek(5)[:5] == b"line "        # a peek takes nothing
        assert sum(told) == 0
        assert f.read() == BODY
    assert sum(told) == len(BODY)


class _Recorded(extract_cmd.Progress):
    """The command's bar, remembered at its end (total and count; the bar's own when
    it was shown: the run lasted its delay)."""
    seen: list = []

    def __exit__(self, *exc):
        if self.bar is not None:
            _Recorded.seen.append((self.bar.total, self.bar.n))
        elif self.update is not None:
            _Recorded.seen.append((self.total, self.done))
        super().__exit__(*exc)


@pytest.fixture(params=["at once", "never"])
def terminal(monkeypatch, request):
    """stderr a terminal; the bar shown from the first stretch read, or never (a run
    shorter than its delay): it counts the same either way."""
    pytest.importorskip("tqdm")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(extract_cmd, "Progress", _Recorded)
    monkeypatch.setattr(progress_mod, "DELAY", 0.0 if request.param == "at once" else 1e9)
    _Recorded.seen = []
    return _Recorded.seen


def test_a_run_shorter_than_the_delay_loads_no_tqdm(tmp_path, monkeypatch):
    pytest.importorskip("tqdm")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(progress_mod, "DELAY", 1e9)
    monkeypatch.delitem(sys.modules, "tqdm", raising=False)
    path = tmp_path / "plain.log"
    path.write_bytes(BODY)
    assert main(["extract", str(path), "-o", str(tmp_path / "out")]) == 0
    assert "tqdm" not in sys.modules
    assert (tmp_path / "out").read_bytes().count(b"\n") == 20000


def test_the_bar_shown_late_starts_from_what_was_read(monkeypatch):
    pytest.importorskip("tqdm")
    monkeypatch.setattr(sys.stderr, "isatty", lambda: True, raising=False)
    args = build_parser().parse_args(["extract", "x"])
    clock = [100.0]
    monkeypatch.setattr(progress_mod.time, "monotonic", lambda: clock[0])
    p = progress_mod.Progress(args, [])
    tell = p.update
    tell(10)
    tell(5)
    assert p.bar is None and p.done == 15
    clock[0] += progress_mod.DELAY
    tell(7)                               # the delay is over: shown, from 22
    assert p.bar is not None and p.bar.n == 22
    tell(3)
    assert (p.bar.n, p.done) == (25, 25)
    p.__exit__(None, None, None)


def test_the_bar_of_a_compressed_file_ends_at_its_size(packed, tmp_path, terminal):
    assert main(["extract", str(packed), "-o", str(tmp_path / "out")]) == 0
    size = packed.stat().st_size
    assert terminal == [(size, size)]


def test_the_bar_of_standard_input_has_no_total_and_counts_the_octets(tmp_path, terminal,
                                                                      monkeypatch):
    data = gzip.compress(BODY)
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BufferedReader(io.BytesIO(data))))
    assert main(["extract", "-", "-o", str(tmp_path / "out")]) == 0
    assert terminal == [(None, len(data))]
    assert (tmp_path / "out").read_bytes().count(b"\n") == 20000


def test_a_plain_file_still_has_its_total(tmp_path, terminal):
    path = tmp_path / "plain.log"
    path.write_bytes(BODY)
    assert main(["extract", str(path), "-o", str(tmp_path / "out")]) == 0
    assert terminal == [(len(BODY), len(BODY))]


SPOOL = b"".join(b"From a@b Mon Jan  1 00:00:00 2024\nMessage-ID: <%d@x>\n\nsee http://h%d.example/\n\n"
                 % (i, i) for i in range(3000))


@pytest.mark.parametrize("options", [[], ["-j", "2"], ["--with-position"], ["-f", "jsonl"],
                                     ["--schemes", "http"], ["--refang"]])
def test_the_bar_of_an_mbox_has_its_size_and_ends_there(tmp_path, terminal, options):
    # the URL lines made in the core (plain), the match lists (--schemes), the records (the
    # positions, JSON lines) and the email path (--refang) all count what they read
    path = tmp_path / "box.mbox"
    path.write_bytes(SPOOL)
    out = tmp_path / "out"
    assert main(["extract", *options, str(path), "-o", str(out)]) == 0
    assert terminal == [(len(SPOOL), len(SPOOL))]
    assert out.read_bytes().count(b"\n") == 3000
