"""Every test runs twice: once on the Cython core, once on the pure-Python twin
(except those marked ``twins``, which compare the two directly and run once, and are
skipped where the Cython core is not built).

The autouse fixture ``core_kind`` switches all of urlsift to one core for the
test (``urlsift._select.use``); ``core`` hands the test the ``_core`` module in
use. Tests that compare the two twins directly use ``urlsift._select.twins``.
"""
from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
from pathlib import Path
from typing import Iterator

import pytest
from hypothesis import HealthCheck, settings

from urlsift import _select

settings.register_profile("default", max_examples=300, deadline=None)
settings.register_profile(
    "ci", max_examples=3000, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "default"))

KINDS = _select.available_kinds()
#: Where the urlsift under test was imported from: the checkout's ``src`` (in place or
#: editable), or site-packages after ``pip install .`` (CI: ``src`` has no compiled core
#: there, so a child process pointed at it would run the pure twin).
PACKAGE_PATH = str(Path(_select.__file__).resolve().parent.parent)


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "twins: compares the two cores directly, so it runs once, not once per core")


def pytest_generate_tests(metafunc):
    if "core_kind" in metafunc.fixturenames:
        twins = metafunc.definition.get_closest_marker("twins") is not None
        metafunc.parametrize("core_kind", KINDS[:1] if twins else KINDS, indirect=True)


def pytest_collection_modifyitems(config, items):
    """A ``twins`` test needs both cores: skipped, and said why, where the compiled one
    is not built."""
    if len(KINDS) > 1:
        return
    skip = pytest.mark.skip(reason="the Cython core is not built")
    for item in items:
        if item.get_closest_marker("twins") is not None:
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def core_kind(request):
    """The kind of core this test runs on: "cython" or "python"."""
    with _select.use(request.param):
        yield request.param


@pytest.fixture
def core(core_kind):
    """The ``_core`` module of the kind this test runs on."""
    return _select.cores.core


@pytest.fixture
def run(core_kind):
    """``python -m urlsift ARGS`` in a child process on the core of the test (the
    checkout's ``src`` first on its path), ``stdin`` bytes on its input, in the checkout
    or in ``cwd``."""
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ)
    env["PYTHONPATH"] = PACKAGE_PATH + os.pathsep + env.get("PYTHONPATH", "")
    env.pop("URLSIFT_PURE", None)
    if core_kind == "python":
        env["URLSIFT_PURE"] = "1"

    def go(*args, stdin: bytes = b"", cwd=None):
        return subprocess.run([sys.executable, "-m", "urlsift", *map(str, args)],
                              input=stdin, capture_output=True, env=env, cwd=cwd or root,
                              timeout=120)
    return go


@pytest.fixture
def fresh():
    """The lines a fresh interpreter prints running ``code`` (the urlsift under test first
    on its path): what an import loads is seen there, not in this process."""
    root = Path(__file__).resolve().parent.parent
    env = dict(os.environ)
    env["PYTHONPATH"] = PACKAGE_PATH + os.pathsep + env.get("PYTHONPATH", "")

    def go(code: str) -> list[str]:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                              check=True, env=env, cwd=root, timeout=120).stdout.splitlines()
    return go


def extract_output(tmp_path: Path, *args: object) -> bytes:
    """What ``urlsift extract ARGS -o FILE`` writes, run in this process (exit status 0)."""
    from urlsift.cli.main import main
    out = tmp_path / "out"
    assert main(["extract", *map(str, args), "-o", str(out)]) == 0
    return out.read_bytes()


@contextlib.contextmanager
def fed_pipe(data: bytes) -> Iterator[str]:
    """``/dev/fd/N`` of a pipe that a thread fills with ``data`` (then closes), for
    inputs that can be read only once."""
    r, w = os.pipe()

    def feed() -> None:
        with os.fdopen(w, "wb") as out:
            out.write(data)

    t = threading.Thread(target=feed)
    t.start()
    try:
        yield f"/dev/fd/{r}"
    finally:
        t.join()
        os.close(r)



def words_text(seed: int, words: list[bytes], count: int, share: float,
               seps: list[bytes]) -> bytes:
    """``count`` words of ``words``, each of the first three with ``share`` of the
    draws, each followed by one of ``seps``, at random (from ``seed``): gated words
    among the rest, so that candidates fall at every offset of the compiled walk's
    blocks."""
    import random
    rng = random.Random(seed)
    drawn = [rng.choice(words[:3]) if rng.random() < share else rng.choice(words)
             for _ in range(count)]
    return b"".join(w + rng.choice(seps) for w in drawn)


def scan_three_ways(data: bytes, blob: bytes, table: bytes | None = None,
                    max_length: int | None = None) -> tuple[list[int], list[int], list[int]]:
    """The compiled scan's triples three ways: its blocks with SSSE3's look-ups (where
    the CPU has them; the blocks with the gate 32 octets at a time with AVX2, a batch
    of candidates a call, checked against one a call and against the same 16 at a
    time), with SSE2's compares, and the plain walk (no prefilter)."""
    from urlsift.text.rules import MAX_LENGTH, MAX_WRAPPER, TABLE
    scan = _select.twins("_scan")["cython"]
    args = (table or TABLE, blob, MAX_WRAPPER, max_length or MAX_LENGTH)
    was, was_ssse3 = scan._set_prefilter(True), scan._set_ssse3(True)
    was_avx2, was_batch = scan._set_avx2(True), scan._set_batch(True)
    try:
        looked = list(scan.scan(data, 0, -1, *args))
        scan._set_batch(False)
        one = list(scan.scan(data, 0, -1, *args))
        assert looked == one, f"the blocks of 32 by batches and one a call differ on {data!r}"
        scan._set_avx2(False)
        by16 = list(scan.scan(data, 0, -1, *args))
        assert looked == by16, f"the gated blocks of 32 and of 16 differ on {data!r}"
        scan._set_ssse3(False)
        compared = list(scan.scan(data, 0, -1, *args))
        scan._set_prefilter(False)
        plain = list(scan.scan(data, 0, -1, *args))
    finally:
        scan._set_prefilter(was)
        scan._set_ssse3(was_ssse3)
        scan._set_avx2(was_avx2)
        scan._set_batch(was_batch)
    return looked, compared, plain
