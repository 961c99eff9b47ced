"""``urlsift extract``: the URLs found, as text, JSON lines, CSV or Parquet."""
from __future__ import annotations

import argparse
import contextlib
from collections import Counter
from typing import Any, Callable, Iterable, Optional, Sequence

from operator import itemgetter

from ..inputs import is_plain_file, mbox_match_lists, mbox_url_lines
from ..text.files import F_LINE, F_OFFSET, F_URL, position_lines, url_lines
from .common import batches, error, read_errors, reason, write_or_fail
from .output import Writer, checks_getter, json_string, parts_getter, plain_value
from .progress import Progress
from .records import Input, columns_for, iter_records, plan_inputs, scan_options
from .target import open_writer

__all__ = ["cmd_extract"]


def cmd_extract(args: argparse.Namespace) -> int:
    """Run ``urlsift extract``; the exit status."""
    if getattr(args, "dask", None):      # on a Dask cluster (imported only then)
        from .dask_run import run_dask
        return run_dask(args)
    with contextlib.ExitStack() as stack:
        plan, status = plan_inputs(args, stack)
        mail = any(inp.kind != "text" for inp in plan)
        columns = columns_for(args, mail)
        writer = stack.enter_context(open_writer(args.format, columns, args.output,
                                                 [inp.name for inp in plan]))
        found, failed = _extract_all(args, plan, columns, writer)
    # as grep and rg: 2 when an input failed, else 0 when a URL was found, 1 when none
    return 2 if status or failed else (0 if found else 1)


def _extract_all(args: argparse.Namespace, plan: list[Input], columns: list[str],
                 writer: Writer) -> tuple[bool, bool]:
    """Scan every input of ``plan`` into ``writer``: (a URL was found, an input failed)."""
    status = 0
    found = False
    skipped: list[str] = []

    def report(line: str) -> None:       # a mail message skipped: said, and status 2
        error(line)
        skipped.append(line)

    parts = parts_getter(args.format == "jsonl") if args.parts else None
    checks = checks_getter() if getattr(args, "details", False) else None
    # --unique: bare URLs are counted (Counter: counted in C); of records, the first
    # of each URL is kept, with a "count".
    url_counts: Optional[Counter[str]] = Counter() if args.unique else None
    url_records: dict[str, dict[str, Any]] = {}
    with Progress(args, plan) as progress:
        for inp in plan:
            lines = _plain_lines(inp, args, columns, progress.update, report)
            records = () if lines is not None else iter_records(
                inp, args, [c for c in columns if c != "count"], progress.update, parts, report,
                checks)
            try:
                for data in lines or ():
                    found = found or bool(data)
                    write_or_fail(writer.write_lines, data, args.output)
                for batch in batches(records):
                    found = True
                    if url_counts is None:
                        write_or_fail(writer.write, batch, args.output)
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
            except read_errors() as exc:
                if isinstance(exc, BrokenPipeError):
                    raise  # our output closed, not an input error
                error(f"cannot read '{inp.name}': {reason(exc)}")
                status = 2
    if url_counts is not None:
        write_or_fail(writer.write, _unique_records(url_counts, url_records, columns), args.output)
    return found, status == 2 or bool(skipped)


def _plain_lines(inp: Input, args: argparse.Namespace, columns: Sequence[str],
                 progress: Optional[Callable[[int], None]],
                 on_error: Callable[[str], None] = error) -> Optional[Iterable[bytes]]:
    """For ``urlsift extract [--with-position] FILE`` with nothing else asked (the text
    output of a plain file, no filter, no bar): the lines made in the core, no Match
    built; for an mbox, the URLs of each piece of the spool joined at once. None when
    anything else is asked."""
    cols = list(columns)
    if (inp.kind == "mbox" and args.format == "text" and cols == ["url"] and not args.unique
            and not args.refang and progress is None):
        schemes, valid = scan_options(args)
        if schemes is None and valid is None:     # the lines made in the core
            return mbox_url_lines(inp.name, on_error=on_error, stream=inp.stream, jobs=args.jobs)
        lists = mbox_match_lists(inp.name, schemes=schemes, valid=valid, on_error=on_error,
                                 stream=inp.stream, jobs=args.jobs)
        return (("\n".join(map(itemgetter(0), ms)) + "\n").encode("utf-8", "surrogateescape")
                for ms in lists if ms)
    plain = (args.format in ("text", "jsonl") and cols in (["url"], POSITION_COLUMNS)
             and not args.unique and inp.kind == "text" and not (args.refang or args.quoted)
             and progress is None and scan_options(args) == (None, None)
             and inp.stream is None)
    if not plain or not is_plain_file(inp.name):
        return None
    if args.format == "jsonl":     # the lines JsonlWriter would write, made in the core
        return position_lines(inp.name, _jsonl_layout(inp.name, cols), jobs=args.jobs, json=True)
    if cols == POSITION_COLUMNS:     # FILE:LINE:OFFSET:URL, as TextWriter writes them
        prefix = (inp.name + ":").encode("utf-8", "surrogateescape")
        return position_lines(inp.name, (prefix, F_LINE, b":", F_OFFSET, b":", F_URL, b"\n"),
                              jobs=args.jobs)
    return url_lines(inp.name, jobs=args.jobs)


def _jsonl_layout(name: str, columns: Sequence[str]) -> tuple:
    """The layout of ``{"url": ..., "file": ..., "line": ..., "offset": ...}`` lines,
    byte for byte what :class:`JsonlWriter` writes for such a record."""
    if columns == ["url"]:
        return (b'{"url": "', F_URL, b'"}\n')
    shown = json_string(plain_value(name)).encode("utf-8")
    return (b'{"url": "', F_URL, b'", "file": ' + shown + b', "line": ', F_LINE,
            b', "offset": ', F_OFFSET, b'}\n')


#: The columns of ``--with-position`` alone (text: ``FILE:LINE:OFFSET:URL``).
POSITION_COLUMNS = ["url", "file", "line", "offset"]


def _unique_records(url_counts: Counter[str], url_records: dict[str, dict[str, Any]],
                    columns: Sequence[str]) -> list:
    if not url_records:
        items = sorted(url_counts.items(), key=lambda kv: -kv[1])  # stable: first seen first
        return [{"url": url, "count": n} for url, n in items]
    recs = sorted(url_records.values(), key=lambda r: -r["count"])
    return [{c: r.get(c) for c in columns} | _extra(r, columns) for r in recs]


def _extra(rec: dict, columns: Sequence[str]) -> dict:
    return {k: v for k, v in rec.items() if k not in columns}
