"""The fuzz targets (``fuzz/``) replayed over their committed seed corpus, without fuzzing.

Each target compares the two cores itself and asserts its invariants (see its
docstring), so this runs once (``twins``). atheris is not needed: without it the
targets read their input through ``_common.StandIn``, which must read it as atheris's
``FuzzedDataProvider`` does (checked when atheris is installed).
"""
from __future__ import annotations

import importlib
import random
import sys
from pathlib import Path

import pytest

FUZZ = Path(__file__).resolve().parent.parent / "fuzz"
TARGETS = sorted(p.stem for p in FUZZ.glob("fuzz_*.py"))
pytestmark = pytest.mark.twins     # the targets call both cores themselves


@pytest.fixture(scope="module")
def fuzz_dir():
    sys.path.insert(0, str(FUZZ))
    try:
        yield FUZZ
    finally:
        sys.path.remove(str(FUZZ))


def test_every_target_has_seeds():
    assert TARGETS and all(any((FUZZ / "corpus" / t).iterdir()) for t in TARGETS)


@pytest.mark.parametrize("name", TARGETS)
def test_target_passes_its_seed_corpus(fuzz_dir, name):
    target = importlib.import_module(name)
    for seed in sorted((fuzz_dir / "corpus" / name).iterdir()):
        target.TestOneInput(seed.read_bytes())


# the same 64 random octets in every run (and in every pytest-xdist worker, which must
# collect the same tests)
@pytest.mark.parametrize("data", [b"", b"\x01", b"\x01\x02\x03abc\xff\xfe",
                                  random.Random(64).randbytes(64)])
def test_the_stand_in_reads_as_atheris_does(fuzz_dir, data):
    atheris = pytest.importorskip("atheris")
    common = importlib.import_module("_common")
    real, mine = atheris.FuzzedDataProvider(data), common.StandIn(data)
    for count in (1, 0, 2, 1, 5, 100):
        assert mine.ConsumeBytes(count) == real.ConsumeBytes(count)
        assert mine.remaining_bytes() == real.remaining_bytes()
