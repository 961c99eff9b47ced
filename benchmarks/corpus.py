"""Deterministic benchmark corpora: an access log, a labelled URL list, a mail spool.

Nothing is fetched: each corpus is generated from ``random.Random(seed)``, so the
same seed and size always give the same bytes (``test_corpus.py`` checks it).
Output is streamed to the file in chunks; a 1 GB log never exists as one string.

As a script::

    python benchmarks/corpus.py log  --mb 1000    -o data/access.log
    python benchmarks/corpus.py urls --count 1000000 -o data/urls.txt   # + urls.txt.labels
    python benchmarks/corpus.py mbox --mb 200     -o data/mail.mbox
    python benchmarks/corpus.py mbox --mb 200     -o data/mail.mbox --truth  # + mail.mbox.truth

As a module: :func:`write_log`, :func:`write_urls`, :func:`write_mbox` write files;
:func:`labeled_urls` returns ``(url, valid, mutation)`` triples in memory;
:func:`mbox_truth` the URLs each message of a spool was made with (and
:func:`write_mbox_truth` / :func:`read_mbox_truth` as JSON lines);
:func:`read_urls`, :func:`read_labels` and :func:`request_targets` read files back.
:func:`sizes` maps ``URLSIFT_BENCH_SIZE`` (tiny/small/full) to the corpus sizes.

Sizes in MB are 10**6 bytes; a file stops at the first record boundary at or past it.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Iterable, Iterator, Optional, Union

sys.path.insert(0, str(Path(__file__).resolve().parent))   # run as a script or imported

from corpus_log import iter_log_chunks, request_target  # noqa: E402
from corpus_mbox import MessageTruth, iter_messages, iter_messages_with_truth  # noqa: E402
from corpus_urls import LabeledURL, iter_labeled_urls, labeled_urls, parse_label, urls  # noqa: E402

__all__ = [
    "SIZES", "VERSION", "sizes", "write_log", "write_urls", "write_mbox", "labeled_urls",
    "urls", "LabeledURL", "read_urls", "read_labels", "request_targets",
    "MessageTruth", "mbox_truth", "write_mbox_truth", "read_mbox_truth",
]

#: Bump when a generator changes its output, so cached files are made anew.
VERSION = 2

#: Corpus sizes per ``URLSIFT_BENCH_SIZE``.
SIZES: dict[str, dict[str, float]] = {
    "tiny": {"log_mb": 0.3, "url_count": 3000, "mbox_mb": 0.3},     # CI smoke
    "small": {"log_mb": 20, "url_count": 100_000, "mbox_mb": 10},    # default
    "full": {"log_mb": 1000, "url_count": 1_000_000, "mbox_mb": 200},
}

PathLike = Union[str, os.PathLike]
CHUNK = 1 << 20


def sizes(name: Optional[str] = None) -> dict[str, float]:
    """The sizes for ``name``, or for ``$URLSIFT_BENCH_SIZE`` (default ``small``).

    >>> sizes("tiny")["url_count"]
    3000
    """
    name = name or os.environ.get("URLSIFT_BENCH_SIZE", "small")
    if name not in SIZES:
        raise ValueError(f"URLSIFT_BENCH_SIZE must be one of {', '.join(SIZES)}, not {name!r}")
    return SIZES[name]


def _write_until(path: PathLike, chunks: Iterable[str], limit: int) -> int:
    """Write encoded chunks until ``limit`` bytes are reached; return the byte count.

    The file is written beside its final name and renamed at the end, so an
    interrupted run never leaves a half file that looks finished.
    """
    path = Path(path)
    tmp = path.with_name(path.name + ".part")
    written = 0
    buf: list[bytes] = []
    buffered = 0
    with open(tmp, "wb") as f:
        for chunk in chunks:
            data = chunk.encode("utf-8")
            buf.append(data)
            buffered += len(data)
            written += len(data)
            if buffered >= CHUNK or written >= limit:
                f.write(b"".join(buf))
                buf, buffered = [], 0
            if written >= limit:
                break
        f.write(b"".join(buf))
    os.replace(tmp, path)
    return written


def _lines(chunks: Iterator[str]) -> Iterator[str]:
    # log chunks hold BATCH lines; cut them into lines so the size stops at a line
    for chunk in chunks:
        for line in chunk[:-1].split("\n"):
            yield line + "\n"


def write_log(path: PathLike, mb: float, seed: int = 1) -> int:
    """Write an access log of about ``mb`` MB (see :mod:`corpus_log`); return its size."""
    return _write_until(path, _lines(iter_log_chunks(seed)), int(mb * 1e6))


def write_mbox(path: PathLike, mb: float, seed: int = 1) -> int:
    """Write a mail spool of about ``mb`` MB (see :mod:`corpus_mbox`); return its size."""
    return _write_until(path, iter_messages(seed), int(mb * 1e6))


def mbox_truth(mb: float, seed: int = 1) -> Iterator[MessageTruth]:
    """The truth of each message of the spool :func:`write_mbox` writes for ``mb`` and
    ``seed``, in file order: ``(message_id, [(part, url), ...])`` (see :mod:`corpus_mbox`).

    >>> first = next(mbox_truth(0.01))
    >>> first.message_id, first.urls[0]
    ('<1.946687540@bugs.python.org>', ('header', 'mailto:url-list-request@lists.example.org?subject=unsubscribe'))
    """
    limit, written = int(mb * 1e6), 0
    for message, truth in iter_messages_with_truth(seed):
        yield truth
        written += len(message.encode("utf-8"))
        if written >= limit:                       # as _write_until stops
            return


def write_mbox_truth(path: PathLike, mb: float, seed: int = 1) -> int:
    """Write :func:`mbox_truth` as JSON lines (``{"message_id": ..., "urls": [[part,
    url], ...]}``, one per message, in file order); return the number of URLs."""
    import json

    path = Path(path)
    tmp = path.with_name(path.name + ".part")
    count = 0
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        for t in mbox_truth(mb, seed):
            f.write(json.dumps({"message_id": t.message_id, "urls": t.urls}, ensure_ascii=False) + "\n")
            count += len(t.urls)
    os.replace(tmp, path)
    return count


def read_mbox_truth(path: PathLike) -> Iterator[MessageTruth]:
    """The messages' truth from a file written by :func:`write_mbox_truth`."""
    import json

    with open(path, encoding="utf-8") as f:
        for line in f:
            d = json.loads(line)
            yield MessageTruth(d["message_id"], [(part, url) for part, url in d["urls"]])


def write_urls(path: PathLike, count: int, seed: int = 1) -> int:
    """Write ``count`` URLs one per line, and their labels to ``PATH.labels``.

    A label line is ``1`` (valid) or ``0 mutation``. URLs never contain a line
    break (the mutations use other control characters); read them back with
    :func:`read_urls`, which splits on ``\\n`` only.
    """
    path = Path(path)
    labels = Path(str(path) + ".labels")
    tmp_urls, tmp_labels = path.with_name(path.name + ".part"), labels.with_name(labels.name + ".part")
    written = 0
    with open(tmp_urls, "wb") as fu, open(tmp_labels, "wb") as fl:
        urls_buf: list[str] = []
        labels_buf: list[str] = []
        for i, u in enumerate(iter_labeled_urls(count, seed), 1):
            urls_buf.append(u.url + "\n")
            labels_buf.append("1\n" if u.valid else f"0 {u.mutation}\n")
            if i % 65536 == 0 or i == count:        # stream: never the whole list in memory
                data = "".join(urls_buf).encode("utf-8")
                fu.write(data)
                fl.write("".join(labels_buf).encode("ascii"))
                written += len(data)
                urls_buf, labels_buf = [], []
    os.replace(tmp_labels, labels)
    os.replace(tmp_urls, path)                     # last: its presence means both are whole
    return written


def read_urls(path: PathLike) -> list[str]:
    """The URLs of a file written by :func:`write_urls` (split on ``\\n`` only)."""
    with open(path, encoding="utf-8", newline="") as f:
        return f.read().split("\n")[:-1]


def read_labels(path: PathLike) -> list[tuple[bool, Optional[str]]]:
    """``(valid, mutation)`` per URL of a file written by :func:`write_urls`."""
    with open(str(path) + ".labels", encoding="ascii") as f:
        return [parse_label(line.rstrip("\n")) for line in f]


def request_targets(path: PathLike) -> list[str]:
    """The request target of every line of a log written by :func:`write_log`."""
    with open(path, encoding="utf-8", newline="") as f:
        return [t for t in map(request_target, f) if t]


def main(argv: Optional[list[str]] = None) -> int:
    """Command line: ``corpus.py {log,urls,mbox} [--mb N | --count N] [--seed S] -o PATH``."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("kind", choices=("log", "urls", "mbox"))
    p.add_argument("--mb", type=float, help="size in MB (log, mbox)")
    p.add_argument("--count", type=int, help="number of URLs (urls)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("-o", "--output", required=True)
    p.add_argument("--size", choices=tuple(SIZES), help="take the default size of this suite size")
    p.add_argument("--truth", action="store_true",
                   help="mbox: also write the URLs of each message to OUTPUT.truth (JSON lines)")
    a = p.parse_args(argv)
    s = sizes(a.size)
    if a.kind == "urls":
        n = write_urls(a.output, a.count or int(s["url_count"]), a.seed)
    else:
        write = write_log if a.kind == "log" else write_mbox
        n = write(a.output, a.mb or s[f"{a.kind}_mb"], a.seed)
        if a.truth and a.kind == "mbox":
            count = write_mbox_truth(a.output + ".truth", a.mb or s["mbox_mb"], a.seed)
            print(f"{a.output}.truth: {count} URLs", file=sys.stderr)
    print(f"{a.output}: {n} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
