"""The progress bar: tqdm on stderr when it is a terminal and tqdm is installed."""
from __future__ import annotations

import argparse
import os
import sys
from typing import Any, Callable, Optional

from ..inputs import is_plain_file

__all__ = ["Progress"]


class Progress:
    """A tqdm bar on stderr when it is a terminal and tqdm is installed; else nothing."""

    def __init__(self, args: argparse.Namespace, plan: list) -> None:
        self.bar = None
        if getattr(args, "no_progress", False) or not sys.stderr.isatty():
            return
        try:
            from tqdm import tqdm
        except ImportError:
            return
        # A total only when every input is a plain file: its size is what is read.
        sized = all(i.kind == "text" and i.stream is None and is_plain_file(i.name)
                    for i in plan)
        total: Optional[int] = sum(_size(i.name) for i in plan) if sized else None
        self.bar = tqdm(total=total, unit="B", unit_scale=True, unit_divisor=1024,
                        file=sys.stderr, delay=1.0, leave=False, desc="urlsift")

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
