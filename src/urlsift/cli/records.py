"""The records of ``extract`` and ``stats``: which inputs can be read and as what,
the columns asked for, and one record (or bare URL string) per URL found.
"""
from __future__ import annotations

import argparse
import contextlib
import os
from typing import Any, Callable, Iterable, Iterator, Optional, Sequence

from ..inputs.kinds import DIRECTORY, MAIL_KINDS, TEXT
from ..inputs import (Input, WalkOptions, input_kind, iter_file_matches, iter_file_urls, iter_mail_urls,
                      iter_numbered_mail_urls,
                      sniff_input, walk_tree)
from .. import _select
from ..text.extraction import Validity
from .common import error, read_errors, reason
from .filters import narrowed_schemes, url_filter
from .output import DETAIL_COLUMNS, PART_COLUMNS, plain_value

__all__ = ["Input", "LARGE_INPUT", "columns_for", "iter_records", "plan_inputs", "scan_options",
           "walk_options"]

#: Inputs larger than this together (on disk) make the pure-Python core say it runs:
#: it takes seconds there (about 50x the compiled core's time, setup.py).
LARGE_INPUT = 32 << 20


def scan_options(args: argparse.Namespace) -> tuple[Optional[tuple], Optional[Validity]]:
    """``(schemes, valid)`` as the scanner takes them, from the command's options."""
    valid: Optional[Validity] = ("strict" if args.strict else "lenient" if args.valid_only
                                 else None)
    return narrowed_schemes(args), valid


def plan_inputs(args: argparse.Namespace, stack: contextlib.ExitStack,
                progress: Optional[Callable[[int], None]] = None) -> tuple[list[Input], int]:
    """The inputs that can be opened, each sniffed (text or mail) exactly once; errors
    reported, status 2. Streams opened here stay open until ``stack`` closes; what is
    read of them is told to ``progress``. With ``-r`` a directory stands for the files
    of its tree (:func:`walk_tree`)."""
    plan: list[Input] = []
    failed: list[str] = []

    def report(line: str) -> None:
        error(line)
        failed.append(line)

    recursive = getattr(args, "recursive", False)
    for name in args.files or (["."] if recursive else ["-"]):
        if recursive and name != "-" and input_kind(name) == DIRECTORY:
            for path, kind in walk_tree(name, report, walk_options(args)):
                if not args.files:          # -r alone: names as rg and grep show them
                    path = os.path.relpath(path)
                inp = _plan_one(path, args, stack, report, progress)
                if inp is not None:
                    plan.append(inp)
            continue
        inp = _plan_one(name, args, stack, report, progress)
        if inp is not None:
            plan.append(inp)
    _tell_pure_core(plan)
    return plan, 2 if failed else 0


def _tell_pure_core(plan: list[Input]) -> None:
    """One line on stderr when the pure-Python core is to read a large input (an install
    without a compiled core says so where a user sees it, not only in pip's log)."""
    if _select.cores.kind != "python":
        return
    size = 0
    for inp in plan:
        with contextlib.suppress(OSError):
            if inp.stream is None and os.path.isfile(inp.name):
                size += os.path.getsize(inp.name)
    if size > LARGE_INPUT:
        error(f"warning: the pure-Python core runs (no compiled core in this install), about "
              f"50x slower on these {size >> 20} MiB; install a wheel, or a C compiler "
              f"before installing, for the compiled one ('urlsift --version' says which runs)")


def walk_options(args: argparse.Namespace) -> WalkOptions:
    """``--hidden``, ``--no-ignore``, ``-a`` and ``-g`` as a walk takes them."""
    return WalkOptions(hidden=args.hidden, ignore=not args.no_ignore, binary=args.text,
                       globs=tuple(args.glob or ()))


def _plan_one(name: str, args: argparse.Namespace, stack: contextlib.ExitStack,
              report: Callable[[str], None],
              progress: Optional[Callable[[int], None]] = None) -> Optional[Input]:
    """One input sniffed as ``urlsift.extract_file`` sniffs it (:func:`sniff_input`;
    ``--mbox`` forces mail), or None when it cannot be read (said through ``report``)."""
    try:
        return sniff_input(name, stack, mbox=True if args.mbox else None, progress=progress,
                           directory_hint=" (-r reads a directory tree)")
    except read_errors() as exc:
        if isinstance(exc, BrokenPipeError):
            raise  # our output closed, not an input error
        report(f"cannot read '{name}': {reason(exc)}")
        return None


def columns_for(args: argparse.Namespace, mail: bool) -> list[str]:
    """The output columns for the options given (``["url"]`` alone: bare strings)."""
    cols = ["url"]
    if getattr(args, "unique", None) in ("count", "normalized"):
        cols.append("count")
    every = getattr(args, "with_position", False)
    for name, flag in (("file", "with_filename"), ("line", "line_number"),
                       ("offset", "byte_offset")):
        if name == "file" and getattr(args, "no_filename", False):
            continue
        if every or getattr(args, flag, False):
            cols.append(name)
    # the text format shows a mail URL's message and part with --with-position only
    shown = getattr(args, "format", "text") != "text" or getattr(args, "with_position", False)
    if mail and shown:
        cols += ["message_id", "date", "part"]
        if getattr(args, "format", "text") != "text":
            cols += ["text", "deceptive"]   # an HTML link's text, and whether it lies
        if getattr(args, "with_position", False):
            cols.append("file_offset")   # the URL's own place, for a part read as it stands
    if args.refang:
        cols.append("refanged")
    if getattr(args, "details", False):
        cols += DETAIL_COLUMNS
    if getattr(args, "parts", False):
        cols += PART_COLUMNS
    return cols


def iter_records(inp: Input, args: argparse.Namespace, columns: Sequence[str],
                 progress: Optional[Callable[[int], None]] = None,
                 parts: Optional[Callable[[str], dict]] = None,
                 on_error: Callable[[str], None] = error,
                 checks: Optional[Callable[[str], dict]] = None) -> Iterable[Any]:
    """Bare URL strings when ``columns == ["url"]``, else one dict per URL. A mail
    message that cannot be read is told to ``on_error`` (one line) and skipped. Only
    the URLs that ``--exclude-schemes`` and ``--host`` keep (:func:`url_filter`)."""
    keep = url_filter(args)
    rewrite = args.refang or args.quoted or getattr(args, "log_escapes", False)
    if inp.kind == TEXT and not rewrite and list(columns) == ["url"]:
        # The common case, kept free of per-URL Python code (map over the matches).
        schemes, valid = scan_options(args)
        urls = iter_file_urls(inp.name, schemes=schemes, valid=valid, jobs=args.jobs,
                              progress=progress, stream=inp.stream)
        return urls if keep is None else filter(keep, urls)
    records = _records(inp, args, columns, progress, parts, on_error, checks)
    if keep is None:
        return records
    return (r for r in records if keep(r if isinstance(r, str) else r["url"]))


def _details(url: str, match: Any, checks: Callable[[str], dict], refanged: bool) -> dict:
    """The ``--details`` columns of one URL found (a Match or a MailMatch); a URL given
    back refanged has the edit ``refanged`` (docs/codes.md), as the text and every
    format show it."""
    edits = list(match.edits)
    if refanged and "refanged" not in edits:
        edits.append("refanged")
    return {**checks(url), "wrapped": bool(match.wrapped),
            "hyphen_break": bool(match.hyphen_break), "edits": edits}


def _file_value(name: str, args: argparse.Namespace) -> str:
    """A file name as the output format takes it, the same for text and mail inputs:
    its octets in text lines, as grep and rg print a name (the writer encodes with
    ``surrogateescape``, so a name that is not UTF-8 is written as it is on disk); valid
    Unicode for JSON, CSV and Parquet (octets that are not UTF-8 as ``%XX``), and for a
    command without ``--format`` (``stats``).

    >>> _file_value("m\\udcff.mbox", argparse.Namespace(format="jsonl"))
    'm%FF.mbox'
    """
    return name if getattr(args, "format", None) == "text" else plain_value(name)


def _records(inp: Input, args: argparse.Namespace, columns: Sequence[str],
             progress: Optional[Callable[[int], None]],
             parts: Optional[Callable[[str], dict]],
             on_error: Callable[[str], None],
             checks: Optional[Callable[[str], dict]] = None) -> Iterator[Any]:
    name, kind = inp.name, inp.kind
    schemes, valid = scan_options(args)
    fast = list(columns) == ["url"]
    with_file, with_line, with_offset = ("file" in columns, "line" in columns,
                                         "offset" in columns)
    mail_cols = "message_id" in columns
    link_cols = "text" in columns
    file_offset = "file_offset" in columns
    if kind in MAIL_KINDS:
        options = dict(schemes=schemes, valid=valid, refang=args.refang, on_error=on_error,
                       stream=inp.stream, jobs=args.jobs, progress=progress)
        if fast:
            yield from (m.url for m in iter_mail_urls(name, **options))
            return
        mail: Iterable[tuple[Any, Optional[int]]] = (
            iter_numbered_mail_urls(name, **options) if with_line
            else ((m, None) for m in iter_mail_urls(name, **options)))
        for m, line in mail:
            rec: dict = {"url": m.url}
            if with_file:
                rec["file"] = _file_value(m.source, args)
            if with_line:      # a URL of a decoded part: its message's first line
                rec["line"] = line
            if with_offset:
                rec["offset"] = m.offset
            if mail_cols:
                rec.update(message_id=plain_value(m.message_id), date=plain_value(m.date),
                           part=plain_value(m.part))
            if link_cols:
                rec.update(text=plain_value(m.text), deceptive=m.deceptive)
            if file_offset:
                rec["file_offset"] = m.file_offset
            if args.refang:
                rec["refanged"] = m.refanged
            if checks is not None:
                rec.update(_details(m.url, m, checks, bool(m.refanged)))
            if parts is not None:
                rec.update(parts(m.url))
            yield rec
        return
    shown = _file_value(name, args)
    found = iter_file_matches(name, schemes=schemes, valid=valid, refang=args.refang,
                              quoted=args.quoted,
                              line_numbers=with_line, jobs=args.jobs, progress=progress,
                              stream=inp.stream,
                              log_escapes=getattr(args, "log_escapes", False))
    if fast:
        for f in found:
            yield f.url
        return
    for f in found:
        rec = {"url": f.url}
        if with_file:
            rec["file"] = shown
        if with_line:
            rec["line"] = f.line
        if with_offset:
            rec["offset"] = f.start
        if mail_cols:
            rec.update(message_id=None, date=None, part=None)
        if link_cols:
            rec.update(text=None, deceptive=None)
        if file_offset:
            rec["file_offset"] = f.start
        if args.refang:
            rec["refanged"] = f.refanged
        if checks is not None:
            rec.update(_details(f.url, f.match, checks, bool(f.refanged)))
        if parts is not None:
            rec.update(parts(f.url))
        yield rec
