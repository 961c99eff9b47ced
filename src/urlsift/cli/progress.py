"""The progress bar: tqdm on stderr when it is a terminal and tqdm is installed.

It counts the octets read of each input as it lies on disk: a plain file as it is
scanned, a compressed file as its compressed octets are read (so the total is the
files' sizes), standard input and pipes as they come (a bar without a total).
"""
from __future__ import annotations

import argparse
import os
import stat
import sys
from typing import Any, Callable, Optional

from ..inputs.kinds import TEXT

__all__ = ["Progress", "Relay"]


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
    """A tqdm bar on stderr when it is a terminal and tqdm is installed; else nothing."""

    def __init__(self, args: argparse.Namespace, plan: list,
                 relay: Optional[Relay] = None) -> None:
        self.bar = None
        if getattr(args, "no_progress", False) or not sys.stderr.isatty():
            return
        try:
            from tqdm import tqdm
        except ImportError:
            return
        # A total only when every input is a regular file read as text: its size (of a
        # compressed file too) is what is counted.
        sized = all(i.kind == TEXT and i.stream is None and _regular(i.name) for i in plan)
        total: Optional[int] = sum(_size(i.name) for i in plan) if sized else None
        self.bar = tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024,
                        file=sys.stderr, delay=1.0, leave=False, desc="urlsift")
        if relay is not None:
            relay.start(self.bar.update)

    @property
    def update(self) -> Optional[Callable[[int], None]]:
        return self.bar.update if self.bar is not None else None

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
