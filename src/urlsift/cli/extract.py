"""``urlsift extract``: the URLs found, as text, JSON lines, CSV or Parquet."""
from __future__ import annotations

import argparse
from collections import Counter
from typing import Any, Callable, Iterable, Optional, Sequence

from ..inputs import is_plain_file
from ..text.files import url_lines
from .common import batches, error, read_errors, reason, write_or_fail
from .output import make_writer, parts_getter
from .progress import Progress
from .records import columns_for, iter_records, plan_inputs, scan_options

__all__ = ["cmd_extract"]


def cmd_extract(args: argparse.Namespace) -> int:
    """Run ``urlsift extract``; the exit status."""
    if getattr(args, "dask", None):      # on a Dask cluster (imported only then)
        from .dask_run import run_dask
        return run_dask(args)
    plan, status = plan_inputs(args)
    mail = any(kind != "text" for _, kind in plan)
    columns = columns_for(args, mail)
    writer = make_writer(args.format, columns, args.output)
    parts = parts_getter(args.format == "jsonl") if args.parts else None
    # --unique: bare URLs are counted (Counter: counted in C); of records, the first
    # of each URL is kept, with a "count".
    url_counts: Optional[Counter[str]] = Counter() if args.unique else None
    url_records: dict[str, dict[str, Any]] = {}
    with Progress(args, plan) as progress:
        for name, kind in plan:
            lines = _plain_lines(name, kind, args, columns, progress.update)
            records = () if lines is not None else iter_records(
                name, kind, args, [c for c in columns if c != "count"], progress.update, parts)
            try:
                for data in lines or ():
                    write_or_fail(writer.write_lines, data, args.output)
                for batch in batches(records):
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
                error(f"cannot read '{name}': {reason(exc)}")
                status = 2
    if url_counts is not None:
        write_or_fail(writer.write, _unique_records(url_counts, url_records, columns), args.output)
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
    if not plain or not is_plain_file(name):
        return None
    return url_lines(name, jobs=args.jobs)


def _unique_records(url_counts: Counter[str], url_records: dict[str, dict[str, Any]],
                    columns: Sequence[str]) -> list:
    if not url_records:
        items = sorted(url_counts.items(), key=lambda kv: -kv[1])  # stable: first seen first
        return [{"url": url, "count": n} for url, n in items]
    recs = sorted(url_records.values(), key=lambda r: -r["count"])
    return [{c: r.get(c) for c in columns} | _extra(r, columns) for r in recs]


def _extra(rec: dict, columns: Sequence[str]) -> dict:
    return {k: v for k, v in rec.items() if k not in columns}
