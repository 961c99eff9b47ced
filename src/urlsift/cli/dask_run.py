"""``urlsift extract --dask ADDRESS|local -o DIR FILES...``: the URLs of the files found
on a Dask cluster (:mod:`urlsift.dask`), written as a Parquet dataset (one file per
partition) with the columns of ``--format parquet --with-position``; one summary line
on stdout. Imported only when ``--dask`` is given: it loads Dask.
"""
from __future__ import annotations

import argparse
import os
import re
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


#: What a Parquet dataset written by ``--dask`` holds (and ``--overwrite`` removes).
_DATASET = re.compile(r"part\.\d+\.parquet|_metadata|_common_metadata")


def _output_problem(output: str, inputs: list[str], overwrite: bool) -> tuple[str, list[str]]:
    """Why ``-o output`` cannot take the dataset ("" when it can), and the files of an
    earlier dataset there that ``--overwrite`` removes. A folder that is not empty is
    refused without ``--overwrite``; with it, one that holds anything but such a
    dataset (or one of the inputs) is refused all the same: nothing else is removed."""
    from fsspec.core import url_to_fs

    fs, path = url_to_fs(output)
    if not fs.exists(path):
        return "", []
    if not fs.isdir(path):
        return f"-o '{output}' exists and is not a folder: --dask writes a Parquet dataset", []
    entries = sorted(fs.ls(path, detail=False))
    if not entries:
        return "", []
    if not overwrite:
        return (f"-o '{output}' is not empty ({len(entries)} entries, an earlier run's?): "
                f"give --overwrite to replace the Parquet dataset in it"), []
    protocols = fs.protocol if isinstance(fs.protocol, tuple) else (fs.protocol,)
    root = os.path.realpath(path) + os.sep
    inside = [i for i in inputs if "file" in protocols and os.path.realpath(i).startswith(root)]
    other = [e for e in entries if not _DATASET.fullmatch(e.rstrip("/").rsplit("/", 1)[-1])
             or fs.isdir(e)]
    if inside:
        return f"input '{inside[0]}' is inside the output folder '{output}'", []
    if other:
        return (f"-o '{output}' holds '{other[0].rsplit('/', 1)[-1]}', which is no part of a "
                f"Parquet dataset urlsift wrote: not replaced"), []
    return "", entries


def _remove(output: str, files: list[str]) -> None:
    from fsspec.core import url_to_fs

    fs, _ = url_to_fs(output)
    for f in files:
        fs.rm(f)


def run_dask(args: argparse.Namespace) -> int:
    """Run ``urlsift extract --dask``; the exit status (as the command's: 1 when no URL
    was found, 2 when an input or a message could not be read)."""
    problem = _refuse(args)
    if problem:
        error(problem)
        return 2
    from .. import dask as udask   # MissingDependency, one line, when the extra is missing

    udask.require()
    from distributed import Client, LocalCluster, progress

    problem, stale = _output_problem(args.output, args.files, args.overwrite)
    if problem:
        error(problem)
        return 2
    schemes, valid = scan_options(args)
    t0 = time.perf_counter()
    cluster: Any = None
    if args.dask == "local":
        cluster = LocalCluster(n_workers=os.cpu_count() or 1, threads_per_worker=1,
                               processes=True, dashboard_address=None)
        client = Client(cluster)
    else:
        client = Client(args.dask)
    try:
        # the inputs are looked at on the workers: the client is up first
        df, reports = udask.extract_reported(
            args.files if len(args.files) > 1 else args.files[0],
            mbox=True if args.mbox else None, schemes=schemes, valid=valid,
            parts=args.parts, refang=args.refang)
        _remove(args.output, stale)
        write = df.to_parquet(args.output, write_index=False, compute=False,
                              schema=udask.parquet_schema(list(df.columns)))
        futures = client.compute([write, reports])
        if sys.stderr.isatty() and not args.no_progress:
            progress(futures)
            sys.stderr.write("\n")
        reported = list(futures[1].result()["line"])
        futures[0].result()
    except (OSError, NotImplementedError) as exc:
        if isinstance(exc, MissingDependency):
            raise
        name = getattr(exc, "filename", None)
        error(f"cannot read '{name}': {reason(exc)}" if name else f"cannot read: {reason(exc)}")
        return 2
    finally:
        client.close()
        if cluster is not None:
            cluster.close()
    for line in reported:
        error(line)
    rows = _rows(args.output)
    seconds = time.perf_counter() - t0
    print(f"urlsift: {rows} URLs from {len(args.files)} input(s) in {df.npartitions} "
          f"partition(s) -> {args.output} ({seconds:.1f} s)")
    return 2 if reported else 0 if rows else 1


def _rows(directory: str) -> int:
    """The rows of the Parquet files of a dataset directory (from their footers)."""
    import pyarrow.parquet as pq
    from fsspec.core import url_to_fs

    fs, path = url_to_fs(directory)
    return sum(pq.read_metadata(f, filesystem=fs).num_rows
               for f in sorted(fs.ls(path, detail=False)) if f.endswith(".parquet"))
