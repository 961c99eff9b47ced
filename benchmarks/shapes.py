"""Shapes of text for timing the scanner: one deterministic generator per kind of text.

The scanner's speed depends on the text: it jumps from colon to colon, so an access
log goes at memory speed and text full of ``word:`` colons does not. Each shape here
is one kind of text a user feeds it, at a realistic density of URLs (see each
generator's docstring, in :mod:`shapes_colons` and :mod:`shapes_text`; :data:`WHAT`
names them in a line each).

Sizes (``URLSIFT_BENCH_SIZE``): ``tiny`` 64 KiB, ``small`` 8 MiB, ``full`` 64 MiB per
shape; a shape stops at the first record boundary at or past the size. Each shape is
generated from ``random.Random(f"{seed}:{name}")``, stdlib only: same seed, same bytes.

With each shape come the URLs planted in it, by construction: ``urls`` must each be
found, exactly, by ``urlsift.extract`` on the raw bytes (the scanner may find more:
glued schemes, URLs the generator does not count); ``hidden`` counts URLs written in
a form the scanner is not meant to read (JSON ``\\/``); ``decoded`` (the mbox only) is
every URL of the spool once decoded, for ``extract_file(path, mbox=True)``.

As a script::

    python benchmarks/shapes.py                       # the shapes, sizes and densities
    python benchmarks/shapes.py logfmt --size full -o logfmt.txt
"""
from __future__ import annotations

import argparse
import json
import os
import random
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Iterator, Optional, Union

sys.path.insert(0, str(Path(__file__).resolve().parent))   # run as a script or imported

import shapes_colons as _c  # noqa: E402
import shapes_text as _t  # noqa: E402

__all__ = ["SIZES", "VERSION", "GENERATORS", "NAMES", "WHAT", "Shape", "make", "size_bytes",
           "materialize", "load", "head", "pure_piece", "PURE_SHARE", "PURE_MIN"]

#: Bump when a generator changes its output, so cached files are made anew.
VERSION = 1

#: Bytes per shape for each ``URLSIFT_BENCH_SIZE``.
SIZES: dict[str, int] = {"tiny": 64 << 10, "small": 8 << 20, "full": 64 << 20}

#: The shapes, in report order.
GENERATORS: dict[str, Callable[[random.Random], Iterator[tuple]]] = {
    "log": _t.access_log, "proxy": _c.proxy, "logfmt": _c.logfmt, "compiler": _c.compiler,
    "windows": _c.windows, "headers": _c.mail_headers, "letters": _c.one_letter, "e_b": _c.e_b,
    "long": _c.long_words, "glued": _c.glued, "json": _t.json_log, "syslog": _t.syslog,
    "java": _t.java_trace, "ipv6": _c.ipv6_addrs, "csv": _t.csv_rows, "html": _t.html,
    "cjk": _t.cjk, "base64": _t.base64_blocks, "dense": _t.dense, "prose": _t.prose,
    "mbox": _t.mbox,
}
NAMES: tuple[str, ...] = tuple(GENERATORS)

#: What each shape is, in a line of markdown (report order).
WHAT: dict[str, str] = {
    "log": "combined-format access log (`corpus_log`)",
    "proxy": "squid / HAProxy: `host.name.com:443`, `10.1.2.3:55012`",
    "logfmt": "`level:info user:bob status:200 url=https://...`",
    "compiler": "`src/x.c:12:3: warning:`, `Makefile:42:`",
    "windows": "`C:\\Users\\...\\file.txt`",
    "headers": "mail headers: `Received: from ...`, `Date:`, `Subject:`",
    "letters": "one-letter keys `a:1 b:2 c:3`",
    "e_b": "the adversarial `e:b e:b e:b`",
    "long": "long scheme-character words before colons",
    "glued": "words ending in scheme names: `pidfile:x messagenews:y`",
    "json": "JSON log lines, some URLs written `https:\\/\\/x.com\\/a`",
    "syslog": "BSD syslog lines (sshd, kernel, postfix, nginx)",
    "java": "Java stack traces: `at com.foo.Bar.baz(Bar.java:123)`",
    "ipv6": "`fe80::1`, `[2001:db8::1]:443`",
    "csv": "CSV with URL columns",
    "html": "HTML with hrefs",
    "cjk": "CJK prose with IRIs",
    "base64": "MIME base64 blocks",
    "dense": "one URL per ~35 bytes",
    "prose": "English prose, few URLs",
    "mbox": "the mail spool (`corpus_mbox`)",
}

#: The pure core scans 1/PURE_SHARE of each shape, at least PURE_MIN bytes.
PURE_SHARE = 32
PURE_MIN = 32 << 10

PathLike = Union[str, os.PathLike]


@dataclass
class Shape:
    """One generated shape: its bytes and the URLs planted in them (see the module)."""
    name: str
    data: bytes
    urls: list[str]
    hidden: int = 0
    decoded: Optional[list[str]] = None
    path: Optional[Path] = field(default=None, compare=False)

    def per_kb(self) -> float:
        """Planted URLs per 1000 bytes."""
        return 1000 * len(self.urls) / max(1, len(self.data))


def size_bytes(size: Union[str, int, None] = None) -> int:
    """Bytes per shape for a size name (default ``$URLSIFT_BENCH_SIZE``, else ``small``)
    or a number of bytes.

    >>> size_bytes("tiny"), size_bytes(1000)
    (65536, 1000)
    """
    if isinstance(size, int):
        return size
    name = size or os.environ.get("URLSIFT_BENCH_SIZE", "small")
    if name not in SIZES:
        raise ValueError(f"size must be one of {', '.join(SIZES)} or a number of bytes, not {name!r}")
    return SIZES[name]


def make(name: str, size: Union[str, int, None] = None, seed: int = 1) -> Shape:
    """Generate shape ``name`` of about ``size`` (see :func:`size_bytes`) in memory.

    >>> s = make("e_b", 1000)
    >>> s.data[:12], len(s.data) >= 1000, make("e_b", 1000) == s
    (b'e:b e:b e:b ', True, True)
    """
    limit = size_bytes(size)
    gen = GENERATORS[name](random.Random(f"{seed}:{name}"))
    parts: list[bytes] = []
    urls: list[str] = []
    hidden, written = 0, 0
    decoded: Optional[list[str]] = None
    for rec in gen:
        data = rec[0].encode("utf-8")
        parts.append(data)
        urls += rec[1]
        hidden += rec[2]
        if len(rec) > 3:
            decoded = decoded if decoded is not None else []
            decoded += rec[3]
        written += len(data)
        if written >= limit:
            break
    return Shape(name, b"".join(parts), urls, hidden, decoded)


def materialize(name: str, size: str, seed: int, directory: PathLike) -> Path:
    """The file of shape ``name`` at ``size`` in ``directory``, generated unless a file
    of the same version, seed and size is there (its name says all four); the planted
    URLs go to a ``.json`` beside it. Returns the path of the text file."""
    directory = Path(directory)
    path = directory / f"shape-{name}-v{VERSION}-s{seed}-{size}.txt"
    meta = path.with_suffix(".json")
    if not (path.exists() and meta.exists()):
        directory.mkdir(parents=True, exist_ok=True)
        shape = make(name, size, seed)
        for target, content in ((path, shape.data),
                                (meta, json.dumps({"name": name, "urls": shape.urls, "hidden": shape.hidden,
                                                   "decoded": shape.decoded}, ensure_ascii=False).encode())):
            tmp = target.with_name(target.name + ".part")
            tmp.write_bytes(content)
            os.replace(tmp, target)
    return path


def load(path: PathLike) -> Shape:
    """The :class:`Shape` written by :func:`materialize` at ``path``."""
    path = Path(path)
    meta = json.loads(path.with_suffix(".json").read_text(encoding="utf-8"))
    return Shape(meta["name"], path.read_bytes(), meta["urls"], meta["hidden"], meta["decoded"], path)


def head(data: bytes, limit: int) -> bytes:
    """The first ``limit`` bytes of ``data``, cut after the last newline in them (all
    of ``data`` when it is no longer; the cut itself when there is no newline).

    >>> head(b"ab\\ncd\\nef", 7), head(b"abcdef", 3), head(b"ab", 5)
    (b'ab\\ncd\\n', b'abc', b'ab')
    """
    if len(data) <= limit:
        return data
    cut = data.rfind(b"\n", 0, limit)
    return data[: cut + 1] if cut >= 0 else data[:limit]


def pure_piece(data: bytes) -> bytes:
    """The slice of a shape the pure-Python core scans: the first 1/:data:`PURE_SHARE`
    of it, at least :data:`PURE_MIN` bytes, cut at a line end (the twin is ~50x slower;
    MB/s are of the bytes actually scanned)."""
    return head(data, max(PURE_MIN, len(data) // PURE_SHARE))


def main(argv: Optional[list[str]] = None) -> int:
    """List the shapes with their sizes and densities, or write one to a file."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("name", nargs="?", choices=NAMES, help="write this shape (else: list them all)")
    ap.add_argument("--size", default=None, help="tiny, small, full or a number of bytes")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("-o", "--output", help="file to write the shape to")
    args = ap.parse_args(argv)
    size: Union[str, int, None] = int(args.size) if args.size and args.size.isdigit() else args.size
    if args.name:
        shape = make(args.name, size, args.seed)
        if args.output:
            Path(args.output).write_bytes(shape.data)
        else:
            sys.stdout.buffer.write(shape.data)
        print(f"{args.name}: {len(shape.data)} bytes, {len(shape.urls)} URLs planted", file=sys.stderr)
        return 0
    print("| shape | bytes | planted | per KB | hidden | decoded | what |\n|---|---:|---:|---:|---:|---:|---|")
    for name in NAMES:
        s = make(name, size, args.seed)
        print(f"| {name} | {len(s.data)} | {len(s.urls)} | {s.per_kb():.2f} | {s.hidden} | {len(s.decoded) if s.decoded else ''} | {WHAT[name]} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
