"""The ``urlsift`` command's entry point: run a subcommand, turn every failure into
an exit status and one line on stderr.

Exit status: 0 fine (``extract``: a URL found), 1 ``extract`` found none or ``validate``/
``parse`` found an invalid URL, 2 usage or I/O error (one line on stderr, never a
traceback), 130 interrupted, 141 closed pipe.

>>> import os, tempfile
>>> with tempfile.NamedTemporaryFile("w", suffix=".log", delete=False) as f:
...     _ = f.write('1.2.3.4 - - "GET / HTTP/1.1" 200 9 "http://a.example/" "bot (+http://b.example/)"')
>>> main(["extract", f.name])
http://a.example/
http://b.example/
0
>>> os.unlink(f.name)
"""
from __future__ import annotations

import os
import sys
from typing import Optional, Sequence

from ..inputs import MissingDependency
from .common import OutputError, error, reason, write_or_fail
from .parser import build_parser

__all__ = ["main"]


def _silence_stdout() -> None:
    """After a closed pipe: point stdout at /dev/null so the exit flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def _settle_stdout() -> None:
    """After an error: stdout flushed, or, when it cannot take what it holds (a full
    device), pointed at /dev/null, so that the interpreter's own flush at exit neither
    prints a traceback nor turns the exit status into 120."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        _silence_stdout()


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the ``urlsift`` command with ``argv`` (default: ``sys.argv[1:]``); the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)  # usage errors: one line and exit status 2
    try:
        status = args.func(args)
        write_or_fail(lambda _: sys.stdout.flush(), None, None)
        return status
    except BrokenPipeError:
        _silence_stdout()
        return 141
    except KeyboardInterrupt:
        error("interrupted")
        _settle_stdout()
        return 130
    except (MissingDependency, OutputError) as exc:
        error(str(exc))
        _settle_stdout()
        return 2
    except OSError as exc:  # the output file cannot be written, stdin unreadable...
        target = f" '{exc.filename}'" if exc.filename else ""
        error(f"cannot write{target}: {reason(exc)}" if target else reason(exc))
        _settle_stdout()
        return 2
