"""The client's part of :func:`urlsift.dask.extract`: the inputs named (globs with ``*``,
``?`` and ``[...]`` expanded; a local path made absolute, since the workers may run
elsewhere), looked at on the workers (:func:`urlsift.dask.blocks.look`, one small task
per input), and the task graph of the partitions written out by hand.

The graph is linear in the partitions: per partition a scan, its summary and its final
frame; per input one fold of its summaries (the line numbers: newline counts summed
once) and one node for the input itself; one task gathering what the partitions
reported. Dask's delayed calls would carry each call's whole history in its graph
(quadratic in the blocks of a file), hence the graph is built here.
"""
from __future__ import annotations

import operator
import os
import re
from collections.abc import Mapping
from typing import Any, Iterable, Iterator, Optional

from ..inputs.kinds import MAILDIR, TEXT
from . import blocks, mailparts
from .frames import Options, frame
from .reading import Looked, Spec

__all__ = ["inputs", "looked", "plan", "build"]

_MAGIC = re.compile(r"[*?[]")


def _is_local(fs: Any) -> bool:
    protocol = fs.protocol if isinstance(fs.protocol, tuple) else (fs.protocol,)
    return "file" in protocol or "local" in protocol


def inputs(paths: Any, storage_options: Optional[dict]) -> tuple[Any, list[tuple[str, str]]]:
    """``(fs, [(path to open, name to show), ...])`` for ``paths`` (a path, a glob or a
    list of them, all on one file system). A local path is made absolute (the workers
    may run in another directory) and shown as it was given; a glob's matches in
    sorted order, shown relative when the glob was (as a shell expands it), its
    directories left out unless they are Maildirs. A glob that matches nothing raises
    ``FileNotFoundError`` naming it."""
    from fsspec.core import url_to_fs

    items = [paths] if isinstance(paths, (str, bytes, os.PathLike)) else list(paths)
    if not items:
        raise FileNotFoundError(2, "No input given", "")
    fs: Any = None
    out: list[tuple[str, str]] = []
    for item in items:
        given = os.fsdecode(item)
        item_fs, path = url_to_fs(given, **(storage_options or {}))
        if fs is None:
            fs = item_fs
        elif type(item_fs) is not type(fs):
            raise ValueError(f"all inputs must be on one file system: {given!r}")
        local = _is_local(fs)
        if not _MAGIC.search(given) or fs.exists(path):
            if local and not os.path.lexists(path):    # a stat here spares a failed task
                raise FileNotFoundError(2, "No such file or directory", given)
            out.append((path, given if local else fs.unstrip_protocol(path)))
            continue
        found = fs.glob(path, detail=True)
        matched = [p for p, info in sorted(found.items())
                   if info.get("type") != "directory"
                   or (fs.isdir(f"{p}/cur") and fs.isdir(f"{p}/new"))]
        if not matched:
            raise FileNotFoundError(2, "No such file or directory (the pattern matches "
                                       "no file)", given)
        for p in matched:
            shown = (os.path.relpath(p) if not os.path.isabs(given) else p) if local \
                else fs.unstrip_protocol(p)
            out.append((p, shown))
    return fs, out


def looked(fs: Any, names: list[tuple[str, str]], mbox: Optional[bool]) -> list[Looked]:
    """Each input looked at (:func:`blocks.look`) by the current scheduler: on the
    workers of a ``distributed.Client``, else on threads here."""
    import dask
    from dask import delayed

    local = _is_local(fs)
    look = delayed(blocks.look, pure=False)
    return list(dask.compute(*[look(fs, path, name, mbox, local) for path, name in names]))


def _groups(entries: Iterable[tuple[str, int]], size: Optional[int]) -> list[tuple[str, ...]]:
    """The message files in consecutive groups of about ``size`` octets (one at least;
    ``size`` None: all in one)."""
    groups: list[list[str]] = [[]]
    total = 0
    for path, n in entries:
        if size is not None and groups[-1] and total + n > size:
            groups.append([])
            total = 0
        groups[-1].append(path)
        total += n
    return [tuple(g) for g in groups]


def plan(fs: Any, names: list[tuple[str, str]], found: list[Looked],
         blocksize: Optional[int]) -> list[tuple[Spec, list[Any]]]:
    """Each input's :class:`Spec` and what its partitions take: block numbers for a
    file (one for a compressed file, text read with ``refang`` is decided on the worker,
    ``blocksize`` None or an empty file), groups of message files for a Maildir."""
    out: list[tuple[Spec, list[Any]]] = []
    for (path, name), got in zip(names, found):
        spec = Spec(fs, path, name, got.size, got.kind, got.compression, blocksize)
        if got.kind == MAILDIR:
            out.append((spec, _groups(got.entries, blocksize)))
        elif got.compression is not None or blocksize is None or got.size == 0:
            out.append((spec, [0]))
        else:
            out.append((spec, list(range(-(-got.size // blocksize)))))
    return out


class _Layer(Mapping):
    """The tasks, with the token they were named by: Dask tokenizes a graph it is given
    (every task pickled: seconds for 10 000 blocks) unless it can ask for the token."""

    def __init__(self, tasks: dict, token: str) -> None:
        self._tasks, self._token = tasks, token

    def __getitem__(self, key: Any) -> Any:
        return self._tasks[key]

    def __iter__(self) -> Iterator[Any]:
        return iter(self._tasks)

    def __len__(self) -> int:
        return len(self._tasks)

    def __dask_tokenize__(self) -> str:
        return self._token


def build(planned: list[tuple[Spec, list[Any]]], opts: Options) -> tuple[Any, Any]:
    """The lazy DataFrame of the planned partitions, and a one-partition DataFrame of the
    lines they reported (column ``line``; compute both at once: they share their
    tasks)."""
    import dask.dataframe as dd
    from dask.base import tokenize
    import pandas as pd
    from dask.task_spec import DataNode, List, Task, TaskRef

    if opts.refang:      # text read with refang is one partition (the worker decides)
        planned = [(s, [0]) if s.kind == TEXT else (s, p) for s, p in planned]
    tok = tokenize(planned, opts)
    scan, summary, fold = f"urlsift-scan-{tok}", f"urlsift-summary-{tok}", f"urlsift-fold-{tok}"
    part, spec_name = f"urlsift-part-{tok}", f"urlsift-input-{tok}"
    opts_key = f"urlsift-options-{tok}"
    dsk: dict[Any, Any] = {opts_key: DataNode(opts_key, opts)}
    keys = []
    folds = []
    j = 0
    for i, (spec, parts) in enumerate(planned):
        spec_key = (spec_name, i)
        dsk[spec_key] = DataNode(spec_key, spec)
        first = j
        for k, what in enumerate(parts):
            key = (scan, j)
            if spec.kind == MAILDIR:
                dsk[key] = Task(key, mailparts.scan_maildir, TaskRef(spec_key), what,
                                TaskRef(opts_key))
            else:
                dsk[key] = Task(key, blocks.scan_partition, TaskRef(spec_key), k,
                                TaskRef(opts_key))
            dsk[(summary, j)] = Task((summary, j), operator.getitem, TaskRef(key), 1)
            j += 1
        dsk[(fold, i)] = Task((fold, i), blocks.fold,
                              List(*[TaskRef((summary, x)) for x in range(first, j)]))
        folds.append(TaskRef((fold, i)))
        for k in range(j - first):
            key = (part, first + k)
            dsk[key] = Task(key, blocks.finish, TaskRef((scan, first + k)), TaskRef((fold, i)), k)
            keys.append(key)
    reports_key = f"urlsift-reports-{tok}"
    dsk[reports_key] = Task(reports_key, blocks.reports_of, List(*folds))
    layer = _Layer(dsk, tok)
    df = dd.from_graph(layer, frame({}, opts), (None,) * (len(keys) + 1), keys, "urlsift")
    meta = pd.DataFrame({"line": pd.array([], dtype="string")})
    return df, dd.from_graph(layer, meta, (None, None), [reports_key], "urlsift-reports")
