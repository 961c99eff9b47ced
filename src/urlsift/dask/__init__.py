"""Layer 6, beside the API: the URLs of many large files as a Dask DataFrame
(``pip install 'urlsift[dask]'``; design and examples: docs/dask.md).

:func:`extract` cuts each input into partitions (plain text: blocks at split points,
scanned by the core on the workers; compressed files: one partition each; mbox: ranges
of messages; Maildir: lists of message files) and returns a lazy DataFrame with the
columns of ``urlsift extract --format parquet --with-position``. The aggregations
users run at scale are functions of that DataFrame: :func:`url_counts`,
:func:`scheme_counts`, :func:`host_counts`, :func:`problem_counts`,
:func:`write_parquet_by_scheme`.

``import urlsift`` does not import this package, and this package imports Dask only
when it is called: without the extra, a call raises :class:`MissingDependency` with
one clear line.
"""
from __future__ import annotations

import os
from typing import Any, Iterable, Optional

from ..inputs.opening import HEAD, MissingDependency, compression_of, decompressed, looks_like_mbox
from ..model.parsing import parse
from ..text.extraction import Validity, check_valid
from . import blocks
from .blocks import PART_COLUMNS, Options

__all__ = ["MissingDependency", "PART_COLUMNS", "extract", "host_counts", "problem_counts",
           "require", "scheme_counts", "url_counts", "write_parquet_by_scheme"]

#: Default size of the blocks of a plain file (and of the ranges of an mbox).
BLOCKSIZE = "64MiB"


def require() -> Any:
    """The ``dask`` module, after checking that the extra is installed; else
    :class:`MissingDependency` with one line saying what to install."""
    try:
        import dask
        import dask.dataframe  # noqa: F401
        import distributed  # noqa: F401
    except ImportError as exc:
        raise MissingDependency(
            f"urlsift.dask needs dask[dataframe] and distributed ({exc.name or exc} is "
            f"missing): pip install 'urlsift[dask]'") from None
    return dask


def _blocksize(value: Any) -> int:
    if isinstance(value, str):
        from dask.utils import parse_bytes
        value = parse_bytes(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"blocksize must be a positive number of bytes, not {value!r}")
    return value


def _sniff(fs: Any, path: str, mbox: Optional[bool]) -> tuple[str, Optional[str]]:
    """``(kind, compression)``: kind ``text``, ``mbox`` or ``maildir``."""
    if fs.isdir(path):
        if fs.isdir(f"{path}/cur") and fs.isdir(f"{path}/new"):
            if not _is_local(fs):
                raise NotImplementedError(f"a Maildir must be a local directory: {path!r}")
            return "maildir", None
        raise IsADirectoryError(21, "Is a directory", path)
    with fs.open(path, "rb") as f:
        head = f.read(HEAD)
        kind = compression_of(head, path)
        if mbox is not None:
            return ("mbox" if mbox else "text"), kind
        if kind is not None:
            f.seek(0)
            with decompressed(f, kind) as stream:
                head = stream.read(HEAD)
    return ("mbox" if looks_like_mbox(head) else "text"), kind


def _is_local(fs: Any) -> bool:
    protocol = fs.protocol if isinstance(fs.protocol, tuple) else (fs.protocol,)
    return "file" in protocol or "local" in protocol


def extract(paths: Any, *, blocksize: Any = BLOCKSIZE, mbox: Optional[bool] = None,
            schemes: Optional[Iterable[str]] = None, valid: Optional[Validity] = None,
            parts: bool = False, refang: bool = False,
            storage_options: Optional[dict] = None) -> Any:
    """Every URL of the files ``paths`` as a lazy Dask DataFrame.

    ``paths``: a path, a glob or a list of them, anything fsspec opens
    (``s3://bucket/logs/*.gz`` with s3fs installed); ``storage_options`` go to fsspec.
    Columns: ``url``, ``file``, ``line``, ``offset`` as ``urlsift extract --format
    parquet --with-position``; ``message_id``, ``date``, ``part`` when an input is mail
    (``mbox=None``: a file starting with ``From `` and a Maildir directory; ``True``:
    every file is an mbox; ``False``: every file is text); ``refanged`` with
    ``refang=True``; the parsed parts (``PART_COLUMNS``) with ``parts=True``.
    ``schemes`` and ``valid`` filter as in :func:`urlsift.extract_file`.

    Rows come in file order, partition by partition; offsets and line numbers are those
    of the whole (decompressed) file.
    """
    require()
    import dask.dataframe as dd
    from dask import delayed
    from fsspec.core import get_fs_token_paths

    check_valid(valid)
    size = _blocksize(blocksize)
    if isinstance(schemes, str):
        schemes = (schemes,)
    fs, _, names = get_fs_token_paths(paths, mode="rb", storage_options=storage_options or {})
    if not names:
        raise FileNotFoundError(2, "No such file or directory", str(paths))
    inputs = [(path, *_sniff(fs, path, mbox)) for path in names]
    opts = Options(tuple(schemes) if schemes is not None else None, valid, bool(parts),
                   bool(refang), any(kind != "text" for _, kind, _ in inputs))
    local = _is_local(fs)
    given = {}        # a local path named without a glob keeps the name it was given
    if local:
        for p in [paths] if isinstance(paths, (str, os.PathLike)) else paths:
            given[fs._strip_protocol(os.fspath(p))] = os.fspath(p)
    parts_out: list[Any] = []
    for path, kind, compression in inputs:
        name = given.get(path, path) if local else fs.unstrip_protocol(path)
        parts_out += _partitions(delayed, fs, path, name, kind, compression, size, opts)
    meta = blocks.frame({}, opts)
    return dd.from_delayed(parts_out, meta=meta, verify_meta=False)


def _partitions(delayed: Any, fs: Any, path: str, name: str, kind: str,
                compression: Optional[str], size: int, opts: Options) -> list[Any]:
    if kind == "maildir":
        return [delayed(blocks.scan_maildir_files, pure=True)(group, opts)
                for group in _groups(blocks.maildir_paths(name), size)]
    if compression is not None or (kind == "text" and opts.refang):
        if kind == "mbox":
            return [delayed(blocks.scan_mbox_range, pure=True)(
                fs, path, name, 0, None, 0, compression, opts)]
        return [delayed(blocks.scan_text_file, pure=True)(fs, path, name, compression, opts)]
    total = fs.size(path)
    edges = list(range(0, total, size)) + [total] if total else [0, 0]
    if kind == "mbox":
        return [delayed(blocks.scan_mbox_range, pure=True)(fs, path, name, lo, hi, total,
                                                           None, opts)
                for lo, hi in zip(edges, edges[1:])]
    scan = delayed(blocks.scan_text_block, pure=True, nout=2)
    next_carry = delayed(blocks.next_carry, pure=True)
    fix = delayed(blocks.fix_text_block, pure=True)
    out = []
    carry: Any = blocks.FIRST_CARRY
    for lo, hi in zip(edges, edges[1:]):
        df, summary = scan(fs, path, name, lo, hi, total, opts)
        out.append(fix(df, carry))
        carry = next_carry(carry, summary)
    return out


def _groups(files: list[tuple[str, int]], size: int) -> list[list[str]]:
    """The message files in consecutive groups of about ``size`` octets (one at least)."""
    groups: list[list[str]] = [[]]
    total = 0
    for path, n in files:
        if groups[-1] and total + n > size:
            groups.append([])
            total = 0
        groups[-1].append(path)
        total += n
    return groups


# -- aggregations -------------------------------------------------------------------


def url_counts(df: Any) -> Any:
    """Distinct URLs with their counts, most frequent first: a Dask Series
    (index ``url``, name ``count``)."""
    return df["url"].value_counts().rename("count")


def _schemes_hosts(pdf: Any) -> Any:
    import pandas as pd

    urls = list(pdf["url"])
    hosts: dict[str, Optional[str]] = {}
    out_hosts = []
    for url in urls:
        if url not in hosts:
            try:
                host = parse(url, strict=False).host
            except ValueError:
                host = None
            hosts[url] = host.lower() if host else None
        out_hosts.append(hosts[url])
    return pd.DataFrame({"scheme": pd.array([u.split(":", 1)[0].lower() for u in urls],
                                            dtype="string"),
                         "host": pd.array(out_hosts, dtype="string")}, index=pdf.index)


def _with_scheme_host(df: Any) -> Any:
    import pandas as pd

    meta = pd.DataFrame({"scheme": pd.array([], dtype="string"),
                         "host": pd.array([], dtype="string")})
    return df[["url"]].map_partitions(_schemes_hosts, meta=meta)


def scheme_counts(df: Any) -> Any:
    """URLs by scheme (lower-cased, as ``urlsift stats``): a Dask Series, most first."""
    return _with_scheme_host(df)["scheme"].value_counts().rename("count")


def host_counts(df: Any) -> Any:
    """URLs by host (lenient parse, lower-cased, as ``urlsift stats``; URLs without a
    host left out): a Dask Series, most first."""
    return _with_scheme_host(df)["host"].dropna().value_counts().rename("count")


def _problem_rows(pdf: Any) -> Any:
    import pandas as pd

    from ..model.parsing import check

    cache: dict[str, list[str]] = {}
    codes = []
    for url in pdf["url"]:
        got = cache.get(url)
        if got is None:
            got = cache[url] = sorted({p.code for p in check(url)})
        codes.extend(got)
    return pd.DataFrame({"code": pd.array(codes, dtype="string")})


def problem_counts(df: Any) -> Any:
    """Invalid URLs by problem code (``urlsift.check``: RFC 1738 strictly): a Dask
    Series, most first. A URL with several codes counts once under each, as in
    ``urlsift stats``."""
    import pandas as pd

    meta = pd.DataFrame({"code": pd.array([], dtype="string")})
    rows = df[["url"]].map_partitions(_problem_rows, meta=meta)
    return rows["code"].value_counts().rename("count")


def write_parquet_by_scheme(df: Any, path: str, **kwargs: Any) -> Any:
    """Write ``df`` to a Parquet dataset at ``path`` partitioned by scheme
    (``path/scheme=http/part.0.parquet``...): the lower-cased scheme is added as a
    column when ``df`` has none. ``kwargs`` go to ``DataFrame.to_parquet``."""
    if "scheme" not in df.columns:
        df = df.assign(scheme=_with_scheme_host(df)["scheme"])
    else:
        df = df.assign(scheme=df["scheme"].fillna("").str.lower())
    kwargs.setdefault("write_index", False)
    return df.to_parquet(path, partition_on=["scheme"], **kwargs)
