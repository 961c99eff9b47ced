"""The progress bar: tqdm on stderr when it is a terminal and tqdm is installed.

It counts the octets read of each input as it lies on disk: a plain file as it is
scanned, a compressed file as its compressed octets are read (so the total is the
files' sizes), standard input and pipes as they come (a bar without a total).
"""
from __future__ import annotations

import argparse
import importlib.util
import os
import stat
import sys
import time
from typing import Any, Callable, Optional

from ..inputs.kinds import MBOX, TEXT

__all__ = ["Progress", "Relay", "DELAY"]

#: seconds before the bar shows (a shorter run shows none, and loads no tqdm)
DELAY = 1.0


class Relay:
    """``progress(n)`` for a stream opened before the bar exists (standard input, a
    pipe: opened once, when the inputs are sniffed): what is read before the bar
    starts (the sniff) is kept and told to it when :meth:`start` names it."""

    def __init__(self) -> None:
        self.target: Optional[Callable[[int], None]] = None
        self.pending = 0

    def start(self, target: Callable[[int], None]) -> None:
        self.target = target
        if self.pending:
            target(self.pending)
            self.pending = 0

    def __call__(self, n: int) -> None:
        if self.target is None:
            self.pending += n
        else:
            self.target(n)


class Progress:
    """A tqdm bar on stderr when it is a terminal and tqdm is installed; else nothing.

    The bar shows once a run has lasted :data:`DELAY` seconds (as tqdm's ``delay``
    would), and tqdm is imported only then: a run shorter than that (a gigabyte of log
    takes about half a second) pays nothing for it. Until then :attr:`done` counts the
    octets read; the bar starts from that count."""

    def __init__(self, args: argparse.Namespace, plan: list,
                 relay: Optional[Relay] = None) -> None:
        self.bar: Any = None
        self.total: Optional[int] = None
        self.done = 0
        self._wanted = False
        if getattr(args, "no_progress", False) or not sys.stderr.isatty():
            return
        if importlib.util.find_spec("tqdm") is None:
            return
        # A total only when every input is a regular file read as text or an mbox: its
        # size (of a compressed file too) is what is counted (a Maildir's files are not).
        sized = all(i.kind in (TEXT, MBOX) and i.stream is None and _regular(i.name)
                    for i in plan)
        self.total = sum(_size(i.name) for i in plan) if sized else None
        self._wanted = True
        self._shown_at = time.monotonic() + DELAY
        if relay is not None:
            relay.start(self._count)

    @property
    def update(self) -> Optional[Callable[[int], None]]:
        """What to tell of each stretch read (its octets), or None: no bar."""
        return self._count if self._wanted else None

    def _count(self, n: int) -> None:
        self.done += n
        if self.bar is not None:
            self.bar.update(n)
        elif time.monotonic() >= self._shown_at:
            self._show()

    def _show(self) -> None:
        try:
            from tqdm import tqdm
        except ImportError:             # (found, but it does not import: no bar)
            self._wanted = False
            return
        self.bar = tqdm(total=self.total, initial=self.done, unit="B", unit_scale=True,
                        unit_divisor=1024, file=sys.stderr, leave=False, desc="urlsift")

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc: Any) -> None:
        if self.bar is not None:
            self.bar.close()


def _size(name: str) -> int:
    return os.path.getsize(name)


def _regular(name: str) -> bool:
    try:
        return name != "-" and stat.S_ISREG(os.stat(name).st_mode)
    except OSError:
        return False
