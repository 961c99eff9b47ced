"""The ``urlsift`` command: ``extract``, ``validate``, ``parse``, ``stats``.

Exit status: 0 fine, 1 invalid URLs found (``validate``, ``parse``), 2 usage or I/O
error (one line on stderr, never a traceback), 130 interrupted, 141 closed pipe.

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

import argparse
import io
import lzma
import os
import re
import sys
import zlib
from collections import Counter
from itertools import islice
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence, cast

from . import _commands
from ._output import PART_COLUMNS, make_writer, parts_getter
from .sources import (MissingDependency, input_kind, iter_file_matches, iter_file_urls,
                      open_input)

__all__ = ["main", "build_parser"]

EPILOG = """\
examples:
  urlsift extract access.log                     every URL, one a line
  urlsift extract --unique access.log.*.gz       distinct URLs with counts, rotated logs too
  zcat big.log.gz | urlsift extract --schemes http,https | head
  urlsift extract --format jsonl --with-position --parts access.log
  urlsift extract --format csv -o urls.csv --mbox ~/mail/inbox
  urlsift extract --refang threat-report.txt     hxxp://evil[.]example -> http://evil.example
  urlsift extract --quoted old-thread.txt        <URL:...> wrapped over "> " lines, whole
  urlsift validate urls.txt                      one URL a line; exit 1 if any is invalid
  urlsift parse 'ftp://ftp.example/pub/file.txt;type=i'
  urlsift stats --json access.log

exit status: 0 ok, 1 invalid URLs found (validate, parse), 2 usage or I/O error,
130 interrupted.
"""

BATCH = 8192
#: What reading a damaged or unreadable input raises (besides OSError).
READ_ERRORS: tuple = (OSError, EOFError, lzma.LZMAError, zlib.error)


def _read_errors() -> tuple:
    try:
        import zstandard
    except ImportError:
        return READ_ERRORS
    return READ_ERRORS + (zstandard.ZstdError,)


def error(message: str) -> None:
    """One line on stderr, prefixed with the program name."""
    sys.stderr.write(f"urlsift: {message}\n")
    sys.stderr.flush()


def reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror and not isinstance(exc, MissingDependency):
        return exc.strerror
    return str(exc) or type(exc).__name__


def _schemes(text: str) -> tuple[str, ...]:
    names = tuple(s.strip().lower() for s in text.split(",") if s.strip())
    for name in names:
        if not re.fullmatch(r"[a-z0-9+.\-]+", name):
            raise argparse.ArgumentTypeError(f"not a scheme name: {name!r}")
    if not names:
        raise argparse.ArgumentTypeError("no scheme given")
    return names


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError("must be 0 (all cores) or more")
    return n or (os.cpu_count() or 1)


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``urlsift`` command."""
    from . import __version__

    fmt = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(
        prog="urlsift", formatter_class=fmt, epilog=EPILOG,
        description="Find, validate and take apart RFC 1738 URLs in logs, mail and text.")
    parser.add_argument("--version", action="version", version=f"urlsift {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)

    scan = argparse.ArgumentParser(add_help=False)
    scan.add_argument("files", nargs="*", metavar="FILE",
                      help="text, log or mail files; .gz .bz2 .xz .zst read as they are; "
                           "'-' or none: standard input")
    scan.add_argument("--schemes", type=_schemes, metavar="LIST",
                      help="only these schemes, comma-separated (e.g. http,https,ftp)")
    scan.add_argument("--valid-only", action="store_true",
                      help="only URLs valid in lenient mode (the real-world syntax)")
    scan.add_argument("--strict", action="store_true",
                      help="only URLs valid under RFC 1738 exactly (implies --valid-only)")
    scan.add_argument("--mbox", action="store_true",
                      help="read the files as mbox mail spools (auto when a file starts "
                           "with 'From '; a Maildir directory is always read as mail)")
    scan.add_argument("--refang", action="store_true",
                      help="recognize defanged URLs (hxxp://evil[.]example) and give them back "
                           "refanged")
    scan.add_argument("--quoted", action="store_true",
                      help="remove reply-quote prefixes ('> ') first, so a <URL:...> wrapped "
                           "over quoted lines comes out whole (always on in mail)")
    scan.add_argument("-j", "--jobs", type=_jobs, default=1, metavar="N",
                      help="threads for large plain files (0: one per core)")
    scan.add_argument("--no-progress", action="store_true",
                      help="no progress bar (there is none anyway when stderr is not a terminal)")

    ex = sub.add_parser("extract", parents=[scan], formatter_class=fmt, help="print the URLs found",
                        description="Print the URLs found in the files.", epilog=EPILOG)
    ex.add_argument("-f", "--format", choices=("text", "jsonl", "csv", "parquet"),
                    default="text", help="output format (parquet needs pyarrow)")
    ex.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    ex.add_argument("-u", "--unique", action="store_true",
                    help="each distinct URL once with its count, most frequent first")
    ex.add_argument("--with-position", action="store_true",
                    help="add file, line and byte offset (mail: file, message offset, "
                         "Message-ID)")
    ex.add_argument("--parts", action="store_true",
                    help="add the parsed parts: scheme, user, password, host, port, path...")
    ex.set_defaults(func=cmd_extract)

    st = sub.add_parser("stats", parents=[scan], formatter_class=fmt,
                        help="counts by scheme, top hosts, invalid URLs by problem code",
                        description="Statistics of the URLs found in the files.")
    st.add_argument("--json", action="store_true", help="JSON instead of a table")
    st.add_argument("--top", type=int, default=10, metavar="N", help="how many hosts (10)")
    st.set_defaults(func=_commands.cmd_stats)

    va = sub.add_parser("validate", formatter_class=fmt, help="check one URL a line",
                        description="Check files holding one URL a line; print each invalid "
                                    "one with its position, code and message; exit 1 if any.")
    va.add_argument("files", nargs="*", metavar="FILE", help="'-' or none: standard input")
    va.add_argument("--lenient", action="store_true",
                    help="accept what lenient mode accepts (default: RFC 1738 strictly)")
    va.add_argument("--json", action="store_true", help="JSON lines instead of text")
    va.add_argument("-q", "--quiet", action="store_true", help="no summary line on stderr")
    va.set_defaults(func=_commands.cmd_validate)

    pa = sub.add_parser("parse", formatter_class=fmt, help="show the parts of URLs",
                        description="Show the parts of each URL, its problems and its security "
                                    "warnings (RFC 1738 §6).")
    pa.add_argument("urls", nargs="+", metavar="URL")
    pa.add_argument("--json", action="store_true", help="one JSON object a line")
    pa.add_argument("--strict", action="store_true",
                    help="parse by RFC 1738 exactly (default: lenient, problems listed)")
    pa.set_defaults(func=_commands.cmd_parse)
    return parser


# -- extract -----------------------------------------------------------------------------

def scan_options(args: argparse.Namespace) -> tuple[Optional[tuple], Optional[str]]:
    valid = "strict" if args.strict else "lenient" if args.valid_only else None
    return args.schemes, valid


def plan_inputs(args: argparse.Namespace) -> tuple[list[tuple[str, str]], int]:
    """``[(name, kind)]`` of the inputs that can be opened; errors reported, status 2."""
    plan = []
    status = 0
    for name in args.files or ["-"]:
        try:
            kind = input_kind(name)
            if kind == "directory":
                raise IsADirectoryError(21, "Is a directory", name)
            if kind == "text":
                if args.mbox:
                    kind = "mbox"
                elif name == "-":
                    # typeshed says BinaryIO; a process's stdin.buffer is a BufferedReader
                    stdin = cast(io.BufferedReader, sys.stdin.buffer)
                    if stdin.peek(5)[:5] == b"From ":
                        kind = "mbox"
                else:
                    with open_input(name) as stream:
                        kind = input_kind(name, stream)
        except _read_errors() as exc:
            if isinstance(exc, BrokenPipeError):
                raise  # our output closed, not an input error
            error(f"cannot read '{name}': {reason(exc)}")
            status = 2
            continue
        plan.append((name, kind))
    return plan, status


def columns_for(args: argparse.Namespace, mail: bool) -> list[str]:
    cols = ["url"]
    if getattr(args, "unique", False):
        cols.append("count")
    if getattr(args, "with_position", False):
        cols += ["file", "line", "offset"]
    if mail:
        cols += ["message_id", "date", "part"]
    if args.refang:
        cols.append("refanged")
    if getattr(args, "parts", False):
        cols += PART_COLUMNS
    return cols


def iter_records(name: str, kind: str, args: argparse.Namespace, columns: Sequence[str],
                 progress: Optional[Callable[[int], None]] = None,
                 parts: Optional[Callable[[str], dict]] = None) -> Iterable[Any]:
    """Bare URL strings when ``columns == ["url"]``, else one dict per URL."""
    if kind == "text" and not (args.refang or args.quoted) and list(columns) == ["url"]:
        # The common case, kept free of per-URL Python code (map over the matches).
        schemes, valid = scan_options(args)
        return iter_file_urls(name, schemes=schemes, valid=valid, jobs=args.jobs,
                              progress=progress)
    return _records(name, kind, args, columns, progress, parts)


def _records(name: str, kind: str, args: argparse.Namespace, columns: Sequence[str],
             progress: Optional[Callable[[int], None]],
             parts: Optional[Callable[[str], dict]]) -> Iterator[Any]:
    schemes, valid = scan_options(args)
    fast = list(columns) == ["url"]
    with_pos = "file" in columns
    mail_cols = "message_id" in columns
    if kind in ("mbox", "maildir"):
        from .mail import iter_mail_urls
        for m in iter_mail_urls(name, schemes=schemes, valid=valid, refang=args.refang,
                                on_error=error):
            if fast:
                yield m.url
                continue
            rec: dict = {"url": m.url}
            if with_pos:
                rec.update(file=m.source, line=None, offset=m.offset)
            rec.update(message_id=m.message_id, date=m.date, part=m.part)
            if args.refang:
                rec["refanged"] = m.refanged
            if parts is not None:
                rec.update(parts(m.url))
            yield rec
        return
    found = iter_file_matches(name, schemes=schemes, valid=valid, refang=args.refang,
                              quoted=args.quoted,
                              line_numbers=with_pos, jobs=args.jobs, progress=progress)
    if fast:
        for f in found:
            yield f.url
        return
    for f in found:
        rec = {"url": f.url}
        if with_pos:
            rec.update(file=name, line=f.line, offset=f.start)
        if mail_cols:
            rec.update(message_id=None, date=None, part=None)
        if args.refang:
            rec["refanged"] = f.refanged
        if parts is not None:
            rec.update(parts(f.url))
        yield rec


def batches(items: Iterable[Any], size: int = BATCH) -> Iterator[list]:
    it = iter(items)
    while True:
        batch = list(islice(it, size))
        if not batch:
            return
        yield batch


def cmd_extract(args: argparse.Namespace) -> int:
    plan, status = plan_inputs(args)
    mail = any(kind != "text" for _, kind in plan)
    columns = columns_for(args, mail)
    writer = make_writer(args.format, columns, args.output)
    parts = parts_getter(args.format == "jsonl") if args.parts else None
    # --unique: bare URLs are counted (Counter: counted in C); of records, the first
    # of each URL is kept, with a "count".
    url_counts: Optional[Counter[str]] = Counter() if args.unique else None
    url_records: dict[str, dict[str, Any]] = {}
    with _commands.Progress(args, plan) as progress:
        for name, kind in plan:
            lines = _plain_lines(name, kind, args, columns, progress.update)
            records = () if lines is not None else iter_records(
                name, kind, args, [c for c in columns if c != "count"], progress.update, parts)
            try:
                for data in lines or ():
                    _write(writer.write_lines, data, args.output)
                for batch in batches(records):
                    if url_counts is None:
                        _write(writer.write, batch, args.output)
                    elif isinstance(batch[0], str):
                        url_counts.update(batch)
                    else:
                        for rec in batch:
                            seen = url_records.get(rec["url"])
                            if seen is None:
                                url_records[rec["url"]] = rec
                                rec["count"] = 1
                            else:
                                seen["count"] += 1
            except _read_errors() as exc:
                if isinstance(exc, BrokenPipeError):
                    raise  # our output closed, not an input error
                error(f"cannot read '{name}': {reason(exc)}")
                status = 2
    if url_counts is not None:
        _write(writer.write, _unique_records(url_counts, url_records, columns), args.output)
    writer.close()
    return status


def _plain_lines(name: str, kind: str, args: argparse.Namespace, columns: Sequence[str],
                 progress: Optional[Callable[[int], None]]) -> Optional[Iterable[bytes]]:
    """For ``urlsift extract FILE`` with nothing else asked (the plain text of a plain
    file, URLs only, no filter, no bar): the URL lines made in the core, no Match built.
    None when anything else is asked."""
    plain = (args.format == "text" and list(columns) == ["url"] and not args.unique
             and kind == "text" and not (args.refang or args.quoted) and progress is None
             and scan_options(args) == (None, None) and name != "-")
    from .sources import _is_plain_file

    if not plain or not _is_plain_file(name):
        return None
    from ._filescan import url_lines

    return url_lines(name, jobs=args.jobs)


class OutputError(Exception):
    """Writing the output failed (not a reading error: the run cannot go on)."""


def _write(write: Callable[[Any], None], data: Any, output: Optional[str]) -> None:
    """``write(data)``; a failing output (not a closed pipe) ends the run as an OutputError."""
    try:
        write(data)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise OutputError(f"cannot write '{output or '<stdout>'}': {reason(exc)}") from None


def _unique_records(url_counts: Counter[str], url_records: dict[str, dict[str, Any]],
                    columns: Sequence[str]) -> list:
    if not url_records:
        items = sorted(url_counts.items(), key=lambda kv: -kv[1])  # stable: first seen first
        return [{"url": url, "count": n} for url, n in items]
    recs = sorted(url_records.values(), key=lambda r: -r["count"])
    return [{c: r.get(c) for c in columns} | _extra(r, columns) for r in recs]


def _extra(rec: dict, columns: Sequence[str]) -> dict:
    return {k: v for k, v in rec.items() if k not in columns}


# -- entry point -------------------------------------------------------------------------

def _silence_stdout() -> None:
    """After a closed pipe: point stdout at /dev/null so the exit flush is quiet."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):
        pass


def main(argv: Optional[Sequence[str]] = None) -> int:
    """Run the ``urlsift`` command with ``argv`` (default: ``sys.argv[1:]``); the exit status."""
    parser = build_parser()
    args = parser.parse_args(argv)  # usage errors: one line and exit status 2
    try:
        status = args.func(args)
        sys.stdout.flush()
        return status
    except BrokenPipeError:
        _silence_stdout()
        return 141
    except KeyboardInterrupt:
        error("interrupted")
        return 130
    except (MissingDependency, OutputError) as exc:
        error(str(exc))
        return 2
    except OSError as exc:  # the output file cannot be written, stdin unreadable...
        target = f" '{exc.filename}'" if exc.filename else ""
        error(f"cannot write{target}: {reason(exc)}" if target else reason(exc))
        return 2

