"""The files of a directory tree, as ``urlsift extract -r`` reads them (as ``grep -r``
and ``rg``).

* Entries are visited in sorted order (byte order of the names), so a run's output is
  the same every time.
* Symbolic links met inside the tree are not followed, neither to files nor to
  directories (``grep -r``; ``rg`` without ``-L``): no link can make a loop or lead out
  of the tree. A directory given on the command line is read even if it is a link.
  A directory reached twice all the same (a bind mount) is read once: directories are
  remembered by device and inode.
* A Maildir (a directory with ``cur`` and ``new``) is one input, read as mail.
* As ``rg``: ``.git`` directories are never entered; hidden files and directories (a
  name starting with ``.``) are skipped unless :attr:`WalkOptions.hidden`; what the
  ``.gitignore`` and ``.ignore`` files of the tree list is skipped unless
  :attr:`WalkOptions.ignore` is off (:mod:`.ignore`); ``globs`` (``-g``) keep or leave
  out files by path, and decide before the ignore files (as ``rg -g``).
* A binary file — a NUL in its first 8 KiB — is skipped, as ``rg`` does, unless it is
  compressed (gzip, bzip2, xz, zstd: read decompressed, as any input) or
  :attr:`WalkOptions.binary` (``-a``) is set.
* Only regular files are read; FIFOs, sockets and devices inside a tree are skipped.
* A directory that cannot be listed is reported (``on_error``) and the walk goes on.

>>> import os, tempfile
>>> top = tempfile.mkdtemp()
>>> for name, data in [("b.log", b"x"), ("a/z.txt", b"y"), ("bin", b"\\0\\1"),
...                    (".env", b"z"), (".gitignore", b"*.tmp\\n"), ("c.tmp", b"t")]:
...     os.makedirs(os.path.dirname(os.path.join(top, name)), exist_ok=True)
...     with open(os.path.join(top, name), "wb") as f:
...         _ = f.write(data)
>>> [os.path.relpath(p, top) for p, kind in walk_tree(top, print)]
['a/z.txt', 'b.log']
>>> [os.path.relpath(p, top) for p, kind in walk_tree(top, print, WalkOptions(
...     hidden=True, ignore=False, binary=True, globs=("!*.txt",)))]
['.env', '.gitignore', 'b.log', 'bin', 'c.tmp']
"""
from __future__ import annotations

import os
import stat
from typing import Callable, Iterator, NamedTuple, Optional

from .ignore import Rules, glob_rules
from .kinds import MAILDIR
from .opening import compression_of, input_kind

__all__ = ["BINARY_PROBE", "IGNORE_FILES", "WalkOptions", "is_binary", "walk_tree"]

#: How much of a file is looked at for a NUL (rg and grep look at the start too).
BINARY_PROBE = 8192
#: The files whose patterns a walk leaves out (rg reads both; .ignore is rg's own).
IGNORE_FILES = (".gitignore", ".ignore")


class WalkOptions(NamedTuple):
    """What a walk reads besides the ordinary files (rg's defaults)."""

    hidden: bool = False          #: names starting with "." too (``--hidden``)
    ignore: bool = True           #: leave out what .gitignore/.ignore list (``--no-ignore``)
    binary: bool = False          #: files with a NUL near their start too (``-a``)
    globs: tuple[str, ...] = ()   #: ``-g``: keep (``GLOB``) or leave out (``!GLOB``)


def is_binary(path: str) -> bool:
    """A NUL in the first :data:`BINARY_PROBE` octets, and not a compressed file."""
    with open(path, "rb") as f:
        head = f.read(BINARY_PROBE)
    return b"\0" in head and compression_of(head[:8], path) is None


def _ignore_rules(folder: str, base: str, rules: Rules,
                  on_error: Callable[[str], None]) -> Rules:
    """``rules`` and those of the ignore files of ``folder`` (``base`` below the top)."""
    for name in IGNORE_FILES:
        path = os.path.join(folder, name)
        try:
            with open(path, "rb") as f:
                text = f.read().decode("utf-8", "surrogateescape")
        except FileNotFoundError:
            continue
        except OSError as exc:
            on_error(f"cannot read '{path}': {exc.strerror or exc}")
            continue
        rules = rules.extended(text, base)
    return rules


def walk_tree(top: str, on_error: Callable[[str], None],
              options: Optional[WalkOptions] = None) -> Iterator[tuple[str, str]]:
    """``(path, kind)`` for every file to read under ``top`` — ``kind`` is ``"maildir"``
    for a Maildir, ``"file"`` otherwise — in sorted order, a directory's files where the
    directory stands among its siblings (``a/z.txt`` before ``b.log``)."""
    opts = options or WalkOptions()
    globs, keeping = glob_rules(opts.globs)
    seen: set[tuple[int, int]] = set()
    rules = _ignore_rules(top, "", Rules(), on_error) if opts.ignore else Rules()
    stack = [(iter(_listing(top, seen, on_error)), "", rules)]
    while stack:
        listing, base, rules = stack[-1]
        entry = next(listing, None)
        if entry is None:
            stack.pop()
            continue
        rel = base + entry.name
        try:
            if entry.is_symlink() or entry.name == ".git":
                continue
            if entry.name.startswith(".") and not opts.hidden:
                continue
            is_dir = entry.is_dir(follow_symlinks=False)
            chosen = globs.verdict(rel, is_dir)     # -g decides before .gitignore (rg)
            if chosen or (chosen is None and rules.verdict(rel, is_dir)):
                continue
            if is_dir:
                if input_kind(entry.path) == MAILDIR:
                    yield entry.path, MAILDIR
                else:
                    inner = (_ignore_rules(entry.path, rel, rules, on_error) if opts.ignore
                             else rules)
                    stack.append((iter(_listing(entry.path, seen, on_error)), rel + "/", inner))
                continue
            if keeping and chosen is None:
                continue                  # -g GLOB given, and no glob keeps this file
            if stat.S_ISREG(entry.stat(follow_symlinks=False).st_mode) and (
                    opts.binary or not is_binary(entry.path)):
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
