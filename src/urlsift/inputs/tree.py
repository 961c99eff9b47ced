"""The files of a directory tree, as ``urlsift extract -r`` reads them (as ``grep -r``).

* Entries are visited in sorted order (byte order of the names), so a run's output is
  the same every time.
* Symbolic links met inside the tree are not followed, neither to files nor to
  directories (``grep -r``; ``rg`` without ``-L``): no link can make a loop or lead out
  of the tree. A directory given on the command line is read even if it is a link.
  A directory reached twice all the same (a bind mount) is read once: directories are
  remembered by device and inode.
* A Maildir (a directory with ``cur`` and ``new``) is one input, read as mail.
* A binary file — a NUL in its first 8 KiB — is skipped, as ``rg`` does, unless it is
  compressed (gzip, bzip2, xz, zstd: read decompressed, as any input).
* Only regular files are read; FIFOs, sockets and devices inside a tree are skipped.
* A directory that cannot be listed is reported (``on_error``) and the walk goes on.

>>> import os, tempfile
>>> top = tempfile.mkdtemp()
>>> for name, data in [("b.log", b"x"), ("a/z.txt", b"y"), ("bin", b"\\0\\1")]:
...     os.makedirs(os.path.dirname(os.path.join(top, name)), exist_ok=True)
...     with open(os.path.join(top, name), "wb") as f:
...         _ = f.write(data)
>>> [os.path.relpath(p, top) for p, kind in walk_tree(top, print)]
['a/z.txt', 'b.log']
"""
from __future__ import annotations

import os
import stat
from typing import Callable, Iterator

from .opening import compression_of, input_kind

__all__ = ["BINARY_PROBE", "is_binary", "walk_tree"]

#: How much of a file is looked at for a NUL (rg and grep look at the start too).
BINARY_PROBE = 8192


def is_binary(path: str) -> bool:
    """A NUL in the first :data:`BINARY_PROBE` octets, and not a compressed file."""
    with open(path, "rb") as f:
        head = f.read(BINARY_PROBE)
    return b"\0" in head and compression_of(head[:8], path) is None


def walk_tree(top: str, on_error: Callable[[str], None]) -> Iterator[tuple[str, str]]:
    """``(path, kind)`` for every file to read under ``top`` — ``kind`` is ``"maildir"``
    for a Maildir, ``"file"`` otherwise — in sorted order, a directory's files where the
    directory stands among its siblings (``a/z.txt`` before ``b.log``)."""
    seen: set[tuple[int, int]] = set()
    stack = [iter(_listing(top, seen, on_error))]
    while stack:
        entry = next(stack[-1], None)
        if entry is None:
            stack.pop()
            continue
        try:
            if entry.is_symlink():
                continue
            if entry.is_dir(follow_symlinks=False):
                if input_kind(entry.path) == "maildir":
                    yield entry.path, "maildir"
                else:
                    stack.append(iter(_listing(entry.path, seen, on_error)))
                continue
            if stat.S_ISREG(entry.stat(follow_symlinks=False).st_mode) and not is_binary(entry.path):
                yield entry.path, "file"
        except OSError as exc:
            on_error(f"cannot read '{entry.path}': {exc.strerror or exc}")


def _listing(folder: str, seen: set[tuple[int, int]],
             on_error: Callable[[str], None]) -> list[os.DirEntry[str]]:
    """The entries of ``folder`` sorted by name; none when it was listed before."""
    try:
        st = os.stat(folder)
        if (st.st_dev, st.st_ino) in seen:
            return []
        seen.add((st.st_dev, st.st_ino))
        with os.scandir(folder) as it:
            return sorted(it, key=lambda e: os.fsencode(e.name))
    except OSError as exc:
        on_error(f"cannot read '{folder}': {exc.strerror or exc}")
        return []
