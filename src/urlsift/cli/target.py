"""Where ``urlsift extract`` writes: never onto one of its inputs, and never a half file
under the final name.

* An output that is one of the inputs (same device and inode, as GNU grep checks:
  "input file is also the output") is refused before anything is opened for writing,
  so the input is never truncated. Standard output redirected onto an input counts too.
* ``-o FILE`` for a regular file (or a name that does not exist yet) is written under a
  temporary name in the same directory (``.FILE.XXXX.part``) and renamed over ``FILE``
  when everything went well; an error or Ctrl-C removes the temporary file and leaves
  an existing ``FILE`` as it was. Anything else (``/dev/null``, a FIFO, a terminal) is
  written in place: it cannot be replaced by a rename.
"""
from __future__ import annotations

import contextlib
import os
import stat
import sys
import tempfile
from typing import IO, Any, Iterable, Iterator, Optional, Sequence

from .common import OutputError, reason, write_or_fail
from ..inputs import MissingDependency
from .output import CsvWriter, JsonlWriter, TextWriter, Writer, reconfigure_stdout

__all__ = ["make_writer", "open_writer", "refuse_input_as_output", "write_text_file"]


def _stat_of(name: Optional[str]) -> Optional[os.stat_result]:
    """The stat of a path (``"-"``: standard input; None: standard output), or None."""
    try:
        if name is None:
            return os.fstat(sys.stdout.fileno())
        if name == "-":
            return os.fstat(sys.stdin.fileno())
        return os.stat(name)
    except (OSError, ValueError, AttributeError):   # no such file, no real fd (tests)
        return None


def input_that_is_output(output: Optional[str], inputs: Iterable[str]) -> Optional[str]:
    """The first of ``inputs`` that is the same file as ``output`` (None: stdout)."""
    out = _stat_of(output)
    if out is None or not stat.S_ISREG(out.st_mode):
        return None
    for name in inputs:
        st = _stat_of(name)
        if st is not None and (st.st_dev, st.st_ino) == (out.st_dev, out.st_ino):
            return name
    return None


def refuse_input_as_output(output: Optional[str], inputs: Iterable[str]) -> None:
    """:class:`OutputError` when ``output`` (None: standard output) is one of ``inputs``."""
    clash = input_that_is_output(output, inputs)
    if clash is not None:
        shown = "<stdin>" if clash == "-" else clash
        raise OutputError(f"input file '{shown}' is also the output")


def write_text_file(output: str, text: str, inputs: Iterable[str] = ()) -> None:
    """``text`` (UTF-8) to the file ``output``, never onto one of ``inputs``: staged
    under a temporary name and renamed into place (``/dev/null``, a FIFO: in place).

    >>> import os, tempfile
    >>> d = tempfile.mkdtemp(); out = os.path.join(d, "r.html")
    >>> write_text_file(out, "<p>ok</p>"); open(out).read()
    '<p>ok</p>'
    >>> try:
    ...     write_text_file(out, "x", [out])
    ... except Exception as exc:
    ...     print(type(exc).__name__, str(exc).endswith("r.html' is also the output"))
    OutputError True
    """
    refuse_input_as_output(output, inputs)
    staged = _Staged(output) if _stageable(output) else None
    try:
        with open(staged.tmp if staged else output, "w", encoding="utf-8") as f:
            f.write(text)
        if staged is not None:
            staged.commit()
    except OSError as exc:
        if staged is not None:
            staged.discard()
        raise OutputError(f"cannot write '{output}': {reason(exc)}") from None


class _Staged:
    """A temporary file beside ``path``, renamed over it by :meth:`commit`."""

    def __init__(self, path: str) -> None:
        self.path = path
        old = _stat_of(path)
        folder = os.path.dirname(os.path.abspath(path))
        fd, self.tmp = tempfile.mkstemp(dir=folder, suffix=".part",
                                        prefix=f".{os.path.basename(path)}.")
        os.close(fd)
        if old is not None:
            mode = stat.S_IMODE(old.st_mode)        # replacing a file keeps its mode
        else:
            umask = os.umask(0)
            os.umask(umask)
            mode = 0o666 & ~umask                   # as open(path, "w") would create it
        os.chmod(self.tmp, mode)

    def commit(self) -> None:
        os.replace(self.tmp, self.path)

    def discard(self) -> None:
        with contextlib.suppress(OSError):
            os.unlink(self.tmp)


def _stageable(path: str) -> bool:
    st = _stat_of(path)
    return st is None or stat.S_ISREG(st.st_mode)


@contextlib.contextmanager
def open_writer(fmt: str, columns: Sequence[str], output: Optional[str],
                inputs: Iterable[str] = ()) -> Iterator[Writer]:
    """The writer for ``--format fmt`` to ``output`` (None: standard output), closed (and
    a staged file renamed into place) when the block ends without an error."""
    refuse_input_as_output(output, inputs)
    staged = None
    try:
        if output is not None and _stageable(output):
            staged = _Staged(output)
        writer = make_writer(fmt, columns, staged.tmp if staged else output)
    except OSError as exc:
        if staged is not None:
            staged.discard()
        raise OutputError(f"cannot write '{output or '<stdout>'}': {reason(exc)}") from None
    try:
        yield writer
        write_or_fail(lambda _: writer.close(), None, output)
        if staged is not None:
            write_or_fail(lambda _: staged.commit(), None, output)   # type: ignore[union-attr]
    except BaseException:
        with contextlib.suppress(Exception):
            writer.close()
        if staged is not None:
            staged.discard()
        raise


def make_writer(fmt: str, columns: Sequence[str], output: Optional[str]) -> Writer:
    """The writer for ``--format fmt`` to ``output`` (None: standard output)."""
    if fmt == "parquet":
        if output is None:
            if sys.stdout.isatty():
                raise MissingDependency(
                    "--format parquet writes binary data: give -o FILE or redirect stdout")
            target: Any = sys.stdout.buffer
        else:
            target = output
        from .parquet import ParquetWriter     # pyarrow's side: loaded for Parquet only
        return ParquetWriter(target, columns)
    errors = "surrogateescape" if fmt == "text" else "backslashreplace"
    if output is None:
        reconfigure_stdout(errors)
        out: IO[str] = sys.stdout
    else:
        out = open(output, "w", encoding="utf-8", errors=errors, newline="")
    cls = {"text": TextWriter, "jsonl": JsonlWriter, "csv": CsvWriter}[fmt]
    return cls(out, columns)
