"""urlsift.dask on a LocalCluster against ``extract_file(jobs=N)`` on one machine, and
the size and build time of its task graph against the number of blocks.

Not a test: prints MB/s, of the wall clock and, for Dask, of the CPU clock (the worker
processes' and this one's: on a machine shared with other work, the wall time says
more about the others than about the scan), and the load average. Each Dask run builds every partition's DataFrame on the
workers (``len`` of each comes back; with ``--parquet`` they are written instead);
``extract_file`` runs consume every match (``line_numbers=True`` too, as the Dask rows
have line numbers). The file is read once before timing (page cache). An mbox works
too (``extract_file`` then reads it as mail, as the Dask partitions do).

``--graph 10 1000 10000``: for each count, a file of that many 4 KiB blocks is cut,
and ``extract()`` (the input looked at, the graph written) plus the graph made
concrete are timed; the tasks and the pickled octets of the graph are counted. Linear
means the time and size per block stay flat.

    python benchmarks/corpus.py log --mb 200 -o big.log
    python benchmarks/dask_local.py big.log --workers 1 2 --jobs 2 --runs 3
    python benchmarks/dask_local.py --graph 10 1000 10000
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import tempfile
import time
from typing import Optional


def _dask_run(path: str, workers: int, blocksize: str, parquet: bool, runs: int,
              cpu: list[float]) -> list[float]:
    """Wall times of ``runs`` runs; ``cpu`` gets the CPU time of each run, summed over
    the worker processes (their own clocks, ``time.process_time``) and this one."""
    from distributed import Client, LocalCluster

    import urlsift.dask as udask

    times = []
    with LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                      dashboard_address=None) as cluster, Client(cluster) as client:
        client.run(lambda: __import__("urlsift.dask.blocks"))     # warm the workers
        for _ in range(runs):
            out = tempfile.mkdtemp(prefix="dask-bench-")
            before = client.run(time.process_time)
            c = time.process_time()
            t = time.perf_counter()
            df = udask.extract(path, blocksize=blocksize)
            if parquet:
                df.to_parquet(out, write_index=False)
                n = None
            else:
                n = int(df.map_partitions(len).sum().compute())
            times.append(time.perf_counter() - t)
            after = client.run(time.process_time)
            cpu.append(time.process_time() - c + sum(after[w] - before[w] for w in after))
            shutil.rmtree(out, ignore_errors=True)
        print(f"  ({n if n is not None else 'written'} rows, {df.npartitions} partitions)")
    return times


def _file_run(path: str, jobs: int, line_numbers: bool, runs: int) -> list[float]:
    from urlsift import extract_file

    times = []
    for _ in range(runs):
        t = time.perf_counter()
        sum(1 for _ in extract_file(path, jobs=jobs, line_numbers=line_numbers))
        times.append(time.perf_counter() - t)
    return times


def _graph_run(blocks: list[int], runs: int) -> None:
    import pickle

    import dask

    import urlsift.dask as udask

    block = 4096
    line = b"x http://a.example/path y\n"
    with tempfile.TemporaryDirectory(prefix="dask-graph-") as tmp:
        print(f"{'blocks':>8} {'tasks':>8} {'graph MiB':>10} {'build s':>8} "
              f"{'us/block':>9} {'B/block':>8}")
        for n in blocks:
            path = os.path.join(tmp, f"{n}.log")
            with open(path, "wb") as f:
                f.write((line * (block // len(line) + 1))[:block] * n)
            times = []
            for _ in range(runs):
                with dask.config.set(scheduler="sync"):    # the look: here, not timed apart
                    t = time.perf_counter()
                    df = udask.extract(path, blocksize=block)
                    graph = dict(df.__dask_graph__())
                    times.append(time.perf_counter() - t)
            size = len(pickle.dumps(graph, protocol=5))
            best = min(times)
            print(f"{df.npartitions:>8} {len(graph):>8} {size / 2**20:>10.2f} {best:>8.3f} "
                  f"{best / n * 1e6:>9.1f} {size / n:>8.0f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("path", nargs="?")
    ap.add_argument("--graph", type=int, nargs="+", metavar="BLOCKS",
                    help="graph size and build time for files of so many blocks")
    ap.add_argument("--workers", type=int, nargs="+", default=[1, 2])
    ap.add_argument("--jobs", type=int, nargs="*", default=[2],
                    help="extract_file(jobs=N) rows (none: --jobs alone)")
    ap.add_argument("--blocksize", default="64MiB")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--parquet", action="store_true", help="write Parquet instead of counting")
    args = ap.parse_args()
    if args.graph:
        _graph_run(args.graph, args.runs)
    if not args.path:
        return
    size = os.path.getsize(args.path)
    with open(args.path, "rb") as f:             # into the page cache
        while f.read(64 << 20):
            pass
    mb = size / 1e6

    def report(label: str, times: list[float], cpu: Optional[list[float]] = None) -> None:
        med = statistics.median(times)
        print(f"{label:<44} median {med:6.2f} s  best {min(times):6.2f} s  "
              f"{mb / med:7.1f} MB/s (best {mb / min(times):7.1f})"
              + (f"  CPU best {min(cpu):6.2f} s {mb / min(cpu):7.1f} MB/s per CPU-second"
                 if cpu else "") + f"  load {os.getloadavg()[0]:.2f}")

    for jobs in args.jobs:
        report(f"extract_file(jobs={jobs})", _file_run(args.path, jobs, False, args.runs))
        report(f"extract_file(jobs={jobs}, line_numbers=True)",
               _file_run(args.path, jobs, True, args.runs))
    for w in args.workers:
        what = "to_parquet" if args.parquet else "len"
        cpu: list[float] = []
        report(f"dask LocalCluster {w} worker(s), {what}",
               _dask_run(args.path, w, args.blocksize, args.parquet, args.runs, cpu), cpu)


if __name__ == "__main__":
    main()
