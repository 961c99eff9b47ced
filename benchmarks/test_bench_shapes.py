"""Issue 27: the scanner on every kind of text (``shapes.py``), each entry point a user
calls, one group per shape (``shape-NAME``).

Rows, per shape: ``scan[cython]`` (``urlsift.scan`` on the compiled core),
``scan[python]`` (the pure-Python twin, on :func:`shapes.pure_piece`: the first 1/32 of
the shape; ``extra_info["bytes"]`` is what was scanned, so MB/s compare), ``extract``
(every ``Match``), ``extract_file`` (the shape's file, ``jobs=1``), ``extract_file_mbox``
(the mbox shape only: ``extract_file(path, mbox=True)``), ``command`` (``python -m
urlsift extract --no-progress FILE > /dev/null``, a process per round) and the peers:
``re`` (``findall`` of :data:`test_bench_extract.PATTERN`) and ``rg -o`` (when on
``PATH``).

Each row checks its result, not its time: every URL planted in the shape (by
construction, ``Shape.urls``) is found, exactly (the scans: at least as many spans as
planted URLs; the pure twin: the same spans as the compiled core on the same piece).
``python benchmarks/shapes_report.py`` gives the same figures as one table, without
pytest, and compares two checkouts.
"""
from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import sys
from collections import Counter
from pathlib import Path
from typing import Any, Callable, Iterable

import pytest

import shapes
from test_bench_extract import PATTERN
from urlsift import _select

SEED = 1                      # as conftest's corpora
COMPILED = "cython" in _select.available_kinds()


@pytest.fixture(scope="session", params=shapes.NAMES)
def shape(request, data_dir: Path, size_name: str) -> shapes.Shape:
    """Each shape in turn, generated once into ``benchmarks/data/`` and reused."""
    return shapes.load(shapes.materialize(request.param, size_name, SEED, data_dir))


def _api(name: str) -> Callable:
    """``urlsift.NAME``, looked up at call time (after a test switches cores)."""
    return getattr(importlib.import_module("urlsift"), name)


def _run(bench, benchmark, shape: shapes.Shape, fn: Callable[[], Any], nbytes: int = 0) -> Any:
    benchmark.group = f"shape-{shape.name}"
    benchmark.extra_info["planted"] = len(shape.urls)
    return bench(fn, heavy=True, bytes=nbytes or len(shape.data), corpus=shape.name)


def _assert_found(planted: Iterable[str], found: Iterable[str]) -> None:
    """Every planted URL is among the URLs found (as multisets; more may be found)."""
    missing = Counter(planted) - Counter(found)
    assert not missing, f"{sum(missing.values())} planted URLs not found, e.g. {list(missing)[:5]}"


# ---- urlsift -----------------------------------------------------------------------

@pytest.mark.skipif(not COMPILED, reason="the compiled core is not built")
def test_shape_scan_cython(bench, benchmark, shape):
    """``urlsift.scan(buffer)`` on the compiled core: flat (start, end, flags) triples."""
    scan, data = _api("scan"), shape.data
    with _select.use("cython"):
        found = _run(bench, benchmark, shape, lambda: len(scan(data)) // 3)
    benchmark.extra_info["items"] = found
    assert found >= len(shape.urls)


def test_shape_scan_python(bench, benchmark, shape):
    """``urlsift.scan(buffer)`` on the pure-Python twin, on :func:`shapes.pure_piece`."""
    scan, piece = _api("scan"), shapes.pure_piece(shape.data)
    with _select.use("python"):
        triples = _run(bench, benchmark, shape, lambda: scan(piece), len(piece))
    benchmark.extra_info["items"] = len(triples) // 3
    if COMPILED:
        with _select.use("cython"):
            assert list(triples) == list(scan(piece))
    if len(piece) == len(shape.data):
        assert len(triples) // 3 >= len(shape.urls)


def test_shape_extract(bench, benchmark, shape):
    """``urlsift.extract(buffer)``: every ``Match``, built and kept."""
    extract, data = _api("extract"), shape.data
    matches = _run(bench, benchmark, shape, lambda: list(extract(data)))
    benchmark.extra_info["items"] = len(matches)
    _assert_found(shape.urls, (m.url for m in matches))


def test_shape_extract_file(bench, benchmark, shape):
    """``urlsift.extract_file(path)``: the shape's file as text (``jobs=1``)."""
    extract_file = _api("extract_file")
    matches = _run(bench, benchmark, shape, lambda: list(extract_file(shape.path)))
    benchmark.extra_info["items"] = len(matches)
    _assert_found(shape.urls, (m.url for m in matches))


def test_shape_extract_file_mbox(bench, benchmark, data_dir: Path, size_name: str):
    """``urlsift.extract_file(path, mbox=True)`` on the mbox shape: MIME parts decoded;
    every URL the spool was made with is found."""
    shape = shapes.load(shapes.materialize("mbox", size_name, SEED, data_dir))
    extract_file = _api("extract_file")
    matches = _run(bench, benchmark, shape, lambda: list(extract_file(shape.path, mbox=True)))
    benchmark.extra_info["items"] = len(matches)
    _assert_found(shape.decoded or [], (m.url for m in matches))


def _command(path: Path) -> list[str]:
    return [sys.executable, "-m", "urlsift", "extract", "--no-progress", str(path)]


def test_shape_command(bench, benchmark, shape):
    """``urlsift extract FILE > /dev/null`` (``python -m urlsift``, a process per round,
    the interpreter's start included). An mbox file is read as mail (the command's
    default for a file starting with ``From ``)."""
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(sys.path))
    cmd = _command(shape.path)

    def run() -> int:
        with open(os.devnull, "wb") as null:
            return subprocess.run(cmd, stdout=null, stderr=subprocess.PIPE, env=env, check=False).returncode

    rc = _run(bench, benchmark, shape, run)
    assert rc in (0, 1), f"urlsift extract exited {rc}"
    out = subprocess.run(cmd, stdout=subprocess.PIPE, env=env, check=True).stdout  # the check, untimed
    lines = out.decode("utf-8").splitlines()
    benchmark.extra_info["items"] = len(lines)
    _assert_found(shape.decoded if shape.decoded is not None else shape.urls, lines)


# ---- peers -------------------------------------------------------------------------

def test_shape_re(bench, benchmark, shape):
    """Python ``re``: ``findall`` of :data:`test_bench_extract.PATTERN` (a count, not checked:
    the pattern keeps trailing punctuation and knows no scheme without ``//``)."""
    findall, data = re.compile(PATTERN).findall, shape.data
    benchmark.extra_info["items"] = _run(bench, benchmark, shape, lambda: len(findall(data)))


def test_shape_ripgrep(bench, benchmark, shape):
    """``rg -o PATTERN FILE`` (a process per round; its output lines are counted)."""
    rg = shutil.which("rg")
    if rg is None:
        pytest.skip("rg (ripgrep) is not installed")
    cmd = [rg, "-o", "-a", "--no-filename", "--no-line-number", "--color=never", "-e",
           PATTERN.decode(), str(shape.path)]

    def run() -> int:
        done = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, check=False)
        if done.returncode > 1:                  # 1 is "no match"; 2 is an error
            raise RuntimeError(f"rg failed: {done.stderr.decode(errors='replace').strip()}")
        return done.stdout.count(b"\n")

    benchmark.extra_info["items"] = _run(bench, benchmark, shape, run)
