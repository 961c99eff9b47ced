"""Session fixtures: the corpora, generated once into ``benchmarks/data/`` and reused.

``URLSIFT_BENCH_SIZE`` picks the sizes (``tiny``, ``small`` — the default — or
``full``; see :data:`corpus.SIZES`). A file is reused when one with the same
generator version, seed and size is already there; its name says all three.

``bench`` is the one way the suites time a function: a fixed number of rounds of one
call each (``URLSIFT_BENCH_ROUNDS`` overrides), so a 1 GB scan is not repeated until
pytest-benchmark's time budget runs out, and every row of a report has the same rounds.
"""
from __future__ import annotations

import os
from pathlib import Path
from typing import Any, Callable

import pytest

import corpus

DATA = Path(__file__).resolve().parent / "data"
SEED = 1
SIZE = os.environ.get("URLSIFT_BENCH_SIZE", "small")
#: rounds per benchmark for each suite size (fast benchmarks and whole-file ones)
ROUNDS = {"tiny": (3, 1), "small": (15, 3), "full": (5, 3)}


def _cached(name: str, make: Callable[[Path], Any]) -> Path:
    DATA.mkdir(exist_ok=True)
    path = DATA / name
    if not path.exists():
        make(path)
    return path


@pytest.fixture(scope="session")
def size_name() -> str:
    """``tiny``, ``small`` or ``full``: the value of ``URLSIFT_BENCH_SIZE``."""
    return SIZE


@pytest.fixture(scope="session")
def data_dir() -> Path:
    """Where corpora and reports are written (``benchmarks/data/``, not in git)."""
    DATA.mkdir(exist_ok=True)
    return DATA


@pytest.fixture(scope="session")
def sizes() -> dict[str, float]:
    """The corpus sizes of this run."""
    return corpus.sizes(SIZE)


@pytest.fixture(scope="session")
def log_path(sizes) -> Path:
    """The access log (see ``corpus_log``)."""
    mb = sizes["log_mb"]
    return _cached(f"access-v{corpus.VERSION}-s{SEED}-{mb:g}MB.log", lambda p: corpus.write_log(p, mb, SEED))


@pytest.fixture(scope="session")
def mbox_path(sizes) -> Path:
    """The mail spool (see ``corpus_mbox``)."""
    mb = sizes["mbox_mb"]
    return _cached(f"mail-v{corpus.VERSION}-s{SEED}-{mb:g}MB.mbox", lambda p: corpus.write_mbox(p, mb, SEED))


@pytest.fixture(scope="session")
def urls_path(sizes) -> Path:
    """The URL list, one per line, with its ``.labels`` beside it."""
    n = int(sizes["url_count"])
    path = DATA / f"urls-v{corpus.VERSION}-s{SEED}-{n}.txt"
    if not (path.exists() and Path(str(path) + ".labels").exists()):
        DATA.mkdir(exist_ok=True)
        corpus.write_urls(path, n, SEED)
    return path


@pytest.fixture(scope="session")
def url_list(urls_path) -> list[str]:
    """The URLs of the URL list."""
    return corpus.read_urls(urls_path)


@pytest.fixture(scope="session")
def url_labels(urls_path) -> list[tuple[bool, Any]]:
    """``(valid, mutation)`` for each URL of :func:`url_list`."""
    return corpus.read_labels(urls_path)


@pytest.fixture(scope="session")
def request_targets(log_path) -> list[str]:
    """The request target of every line of the log."""
    return corpus.request_targets(log_path)


def _as_bytes(items: list[str]) -> int:
    return sum(len(s.encode("utf-8", "surrogateescape")) for s in items)


@pytest.fixture(scope="session")
def targets_bytes(request_targets) -> int:
    """Total UTF-8 size of the request targets."""
    return _as_bytes(request_targets)


@pytest.fixture(scope="session")
def urls_bytes(url_list) -> int:
    """Total UTF-8 size of the URL list."""
    return _as_bytes(url_list)


@pytest.fixture
def bench(benchmark):
    """``bench(fn, *args, heavy=False, **extra_info)``: time ``fn(*args)`` and record info.

    ``extra_info`` should hold ``bytes`` and ``items`` (what one call processes),
    from which ``report.py`` computes MB/s and items/s. Returns ``fn``'s result.
    """
    def run(fn: Callable, *args: Any, heavy: bool = False, **extra_info: Any) -> Any:
        benchmark.extra_info.update(extra_info)
        benchmark.extra_info["size"] = SIZE
        rounds = int(os.environ.get("URLSIFT_BENCH_ROUNDS", 0)) or ROUNDS[SIZE][1 if heavy else 0]
        return benchmark.pedantic(fn, args=args, rounds=rounds, iterations=1, warmup_rounds=0 if heavy else 1)

    return run


@pytest.fixture(scope="session")
def mbox_truth(sizes) -> list:
    """The URLs each message of :func:`mbox_path` was made with, in file order
    (``corpus.mbox_truth``: ``MessageTruth(message_id, [(part, url), ...])``)."""
    return list(corpus.mbox_truth(sizes["mbox_mb"], SEED))
