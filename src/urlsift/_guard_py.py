"""Pure-Python twin of ``ext/urlsift/_guard_c.pyx``: the SIGBUS guard of a mapped file.

Python code cannot survive SIGBUS (a Python-level signal handler runs only after the
faulting C read returns, and it never returns), so this twin guards nothing: ``watch``
gives the token 0 and ``faults`` is always 0, and ``GUARDS`` tells the file scanner
(``urlsift.text.files``) to read files rather than map them while this core is in use.

>>> token = watch(b"abc"); faults(token), unwatch(token)
(0, None)
"""
from __future__ import annotations

from typing import Any

__all__ = ["GUARDS", "watch", "faults", "unwatch"]

#: False: this core cannot keep a mapped read from dying of SIGBUS, so the file scanner
#: reads files instead of mapping them when this core is in use (a file that shrinks
#: then only ends the read early, and the size check reports it).
GUARDS = False


def watch(mm: Any) -> int:
    """Guard the mapping ``mm`` (here: nothing to do); a token."""
    memoryview(mm).release()     # the same argument check as the compiled core
    return 0


def faults(token: int) -> int:
    """How many reads of the watched mapping faulted (here: never counted)."""
    return 0


def unwatch(token: int) -> None:
    """Stop guarding."""
