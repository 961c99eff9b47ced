"""``urlsift extract --dask ADDRESS|local -o DIR FILES...``: the URLs of the files found
on a Dask cluster (:mod:`urlsift.dask`), written as a Parquet dataset (one file per
partition) with the columns of ``--format parquet --with-position``; one summary line
on stdout. Imported only when ``--dask`` is given: it loads Dask.
"""
from __future__ import annotations

import argparse
import os
import sys
import time
from typing import Any

from ..inputs import MissingDependency
from .common import error, reason
from .records import scan_options

__all__ = ["run_dask"]


def _refuse(args: argparse.Namespace) -> str:
    """What ``--dask`` cannot do with these options ("" when it can)."""
    if not args.output:
        return "--dask writes a Parquet dataset: give -o DIR"
    if args.format not in ("text", "parquet"):
        return f"--dask writes Parquet, not {args.format}: leave out --format"
    if not args.files or "-" in args.files:
        return "--dask reads files (fsspec paths or globs), not standard input"
    if args.unique:
        return "--dask does not take --unique: count with urlsift.dask.url_counts (docs/dask.md)"
    if args.quoted:
        return "--dask does not take --quoted"
    grep_style = [flag for flag, on in (("-c", args.count), ("-l", args.files_with_matches),
                                        ("-r", args.recursive), ("--host", args.host),
                                        ("--exclude-schemes", args.exclude_schemes),
                                        ("--details", args.details),
                                        ("--log-escapes", args.log_escapes)) if on]
    if grep_style:
        return (f"--dask does not take {', '.join(grep_style)}: filter the Parquet dataset "
                f"(docs/dask.md)")
    return ""


def run_dask(args: argparse.Namespace) -> int:
    """Run ``urlsift extract --dask``; the exit status."""
    problem = _refuse(args)
    if problem:
        error(problem)
        return 2
    from .. import dask as udask   # MissingDependency, one line, when the extra is missing

    udask.require()
    from distributed import Client, LocalCluster, progress

    schemes, valid = scan_options(args)
    t0 = time.perf_counter()
    try:
        df = udask.extract(args.files if len(args.files) > 1 else args.files[0],
                           mbox=True if args.mbox else None, schemes=schemes, valid=valid,
                           parts=args.parts, refang=args.refang)
    except (OSError, NotImplementedError) as exc:
        if isinstance(exc, MissingDependency):
            raise
        name = getattr(exc, "filename", None)
        error(f"cannot read '{name}': {reason(exc)}" if name else f"cannot read: {reason(exc)}")
        return 2
    cluster: Any = None
    if args.dask == "local":
        cluster = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(args.dask)
    try:
        write = df.to_parquet(args.output, write_index=False, compute=False)
        future = client.compute(write)
        if sys.stderr.isatty() and not args.no_progress:
            progress(future)
            sys.stderr.write("\n")
        future.result()
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    rows = _rows(args.output)
    seconds = time.perf_counter() - t0
    print(f"urlsift: {rows} URLs from {len(args.files)} input(s) in {df.npartitions} "
          f"partition(s) -> {args.output} ({seconds:.1f} s)")
    return 0


def _rows(directory: str) -> int:
    """The rows of the Parquet files of a dataset directory (from their footers)."""
    import pyarrow.parquet as pq

    return sum(pq.read_metadata(os.path.join(directory, f)).num_rows
               for f in sorted(os.listdir(directory)) if f.endswith(".parquet"))
