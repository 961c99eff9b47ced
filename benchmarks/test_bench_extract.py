"""Issue 4: finding URLs in the access log and the mail spool, beside the peers.

urlsift: ``urlsift.scan(buffer)`` (bulk spans, flat triples),
``extract(buffer)`` (``Match`` objects), ``extract_file(path, jobs=1)`` and
``jobs=2`` (and ``mbox=True`` on the spool, which also decodes the MIME parts).
Peers, with one reasonable URL pattern (:data:`PATTERN`): Python ``re``, the same
pattern on google-re2, ``rg -o`` on the file (ripgrep, via subprocess), and
``urlextract`` on a 1 MB prefix (it is too slow for more; its group times urlsift
and ``re`` on the same prefix, so the ratios hold).

The counts found go to ``extra_info["items"]`` (so items/s is URLs found per second): they differ by design (the pattern
does not trim trailing punctuation, urlextract finds bare domains, urlsift takes
``mailto:`` and wrappers), so they are shown, not compared.
"""
from __future__ import annotations

import importlib
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any, Callable

import pytest

#: A URL as a user would grep for it: a scheme, "://", then up to an unsafe character.
PATTERN = rb'[A-Za-z][A-Za-z0-9+.-]*://[^\s<>"{}|\\^`]+'
PREFIX = 1_000_000


def extract_name(name: str) -> Callable:
    """``urlsift.text.extraction.NAME`` (looked up at call time, after a test switches cores)."""
    return getattr(importlib.import_module("urlsift.text.extraction"), name)


@pytest.fixture(scope="session", params=["log", "mbox"])
def text_file(request, log_path, mbox_path) -> tuple[str, Path, bytes]:
    """``(kind, path, content)`` for the log and for the spool, in turn."""
    path = log_path if request.param == "log" else mbox_path
    return request.param, path, path.read_bytes()


@pytest.fixture(scope="session")
def prefix(log_path) -> bytes:
    """The first 1 MB of the log, cut at a line end (for the slow peers)."""
    with open(log_path, "rb") as f:
        data = f.read(PREFIX)
    return data[: data.rfind(b"\n") + 1]


def _run(bench, benchmark, kind: str, fn: Callable[[], int], nbytes: int, heavy: bool = True) -> None:
    benchmark.group = f"extract-{kind}"
    found = bench(fn, heavy=heavy, bytes=nbytes, corpus=kind)
    benchmark.extra_info["items"] = found         # items/s is then URLs found per second


# ---- urlsift -----------------------------------------------------------------------

def test_extract_urlsift_scan(bench, benchmark, text_file):
    """``scan(buffer)``: spans as flat (start, end, flags) triples; no Match objects."""
    kind, _, data = text_file
    scan = extract_name("scan")
    _run(bench, benchmark, kind, lambda: len(scan(data)) // 3, len(data))


def test_extract_urlsift_extract(bench, benchmark, text_file):
    """``extract(buffer)``: every ``Match``, consumed."""
    kind, _, data = text_file
    extract = extract_name("extract")
    _run(bench, benchmark, kind, lambda: sum(1 for _ in extract(data)), len(data))


@pytest.mark.parametrize("jobs", [1, 2])
def test_extract_urlsift_file(bench, benchmark, text_file, jobs):
    """``extract_file(path, jobs=N)`` on the file itself (memory-mapped or streamed)."""
    kind, path, data = text_file
    extract_file = extract_name("extract_file")
    _run(bench, benchmark, kind, lambda: sum(1 for _ in extract_file(path, jobs=jobs)), len(data))


def test_extract_urlsift_file_mbox(bench, benchmark, mbox_path):
    """``urlsift.extract_file(path, mbox=True)``: message by message, MIME parts decoded."""
    extract_file = importlib.import_module("urlsift.inputs").extract_file
    _run(bench, benchmark, "mbox", lambda: sum(1 for _ in extract_file(mbox_path, mbox=True)),
         mbox_path.stat().st_size)


# ---- peers -------------------------------------------------------------------------

def test_extract_re(bench, benchmark, text_file):
    """Python ``re``: ``findall`` of :data:`PATTERN` over the whole buffer."""
    kind, _, data = text_file
    findall = re.compile(PATTERN).findall
    _run(bench, benchmark, kind, lambda: len(findall(data)), len(data))


def test_extract_re2(bench, benchmark, text_file):
    """google-re2: the same pattern, same ``findall``."""
    re2 = pytest.importorskip("re2", reason="google-re2 is not installed")
    kind, _, data = text_file
    findall = re2.compile(PATTERN).findall
    _run(bench, benchmark, kind, lambda: len(findall(data)), len(data))


def test_extract_ripgrep(bench, benchmark, text_file):
    """``rg -o PATTERN FILE`` (a process per round; its output lines are counted)."""
    rg = shutil.which("rg")
    if rg is None:
        pytest.skip("rg (ripgrep) is not installed")
    kind, path, data = text_file
    cmd = [rg, "-o", "-a", "--no-filename", "--no-line-number", "--color=never", "-e", PATTERN.decode(), str(path)]

    def run() -> int:
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
        if done.returncode > 1:                  # 1 is "no match"; 2 is an error
            raise RuntimeError(f"rg failed: {done.stderr.decode(errors='replace').strip()}")
        return done.stdout.count(b"\n")

    _run(bench, benchmark, kind, run, len(data))


# ---- the 1 MB prefix: urlextract, with urlsift and re on the same bytes ------------

def _prefix_run(bench, benchmark, fn: Callable[[], Any], data: bytes) -> None:
    benchmark.group = "extract-prefix-1MB"
    found = bench(fn, heavy=True, bytes=len(data), corpus="log prefix")
    benchmark.extra_info["items"] = found


def test_extract_prefix_urlextract(bench, benchmark, prefix):
    """``URLExtract().find_urls(text)`` on the first MB of the log."""
    urlextract = pytest.importorskip("urlextract", reason="urlextract is not installed")
    find_urls = urlextract.URLExtract(limit=None).find_urls   # no cap of 10000
    text = prefix.decode("utf-8", "replace")
    _prefix_run(bench, benchmark, lambda: len(find_urls(text)), prefix)


def test_extract_prefix_urlsift(bench, benchmark, prefix):
    """``extract(buffer)`` on the same MB."""
    extract = extract_name("extract")
    _prefix_run(bench, benchmark, lambda: sum(1 for _ in extract(prefix)), prefix)


def test_extract_prefix_re(bench, benchmark, prefix):
    """``re`` on the same MB."""
    findall = re.compile(PATTERN).findall
    _prefix_run(bench, benchmark, lambda: len(findall(prefix)), prefix)
