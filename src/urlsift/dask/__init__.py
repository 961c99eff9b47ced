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

from typing import Any, Iterable, Optional

from ..inputs.kinds import TEXT
from ..inputs.opening import MissingDependency
from ..model.parsing import parse
from ..text.extraction import Validity, check_valid
from . import graph
from .frames import PART_COLUMNS, Options, parquet_schema

__all__ = ["MissingDependency", "PART_COLUMNS", "extract", "extract_reported", "host_counts",
           "parquet_schema", "problem_counts", "require", "scheme_counts", "url_counts",
           "write_parquet_by_scheme"]

#: Default size of the blocks of a plain file (and of the ranges of an mbox).
BLOCKSIZE = "64MiB"


def require() -> Any:
    """The ``dask`` module, after checking that the extra is installed; else
    :class:`MissingDependency` with one line saying what to install."""
    try:
        import dask
        import dask.dataframe  # noqa: F401
        import dask.task_spec  # noqa: F401   (dask 2025.1 and later)
        import distributed  # noqa: F401
    except ImportError as exc:
        raise MissingDependency(
            f"urlsift.dask needs dask[dataframe] >= 2025.1 and distributed "
            f"({exc.name or exc} is missing): pip install 'urlsift[dask]'") from None
    return dask


def _blocksize(value: Any) -> Optional[int]:
    if value is None:
        return None
    if isinstance(value, str):
        from dask.utils import parse_bytes
        value = parse_bytes(value)
    if not isinstance(value, int) or isinstance(value, bool) or value < 1:
        raise ValueError(f"blocksize must be a positive number of bytes or None, not {value!r}")
    return value


def extract(paths: Any, *, blocksize: Any = BLOCKSIZE, mbox: Optional[bool] = None,
            schemes: Optional[Iterable[str]] = None, valid: Optional[Validity] = None,
            parts: bool = False, refang: bool = False,
            storage_options: Optional[dict] = None) -> Any:
    """Every URL of the files ``paths`` as a lazy Dask DataFrame.

    ``paths``: a path, a glob (``*``, ``?``, ``[...]``) or a list of them, anything
    fsspec opens (``s3://bucket/logs/*.gz`` with s3fs installed); ``storage_options`` go
    to fsspec. Columns: ``url``, ``file``, ``line``, ``offset`` as ``urlsift extract
    --format parquet --with-position``; ``message_id``, ``date``, ``part``,
    ``file_offset`` when an input is mail (``mbox=None``: a file starting with
    ``From `` and a Maildir directory; ``True``: every file is an mbox; ``False``:
    every file is text, and no file is opened before the partitions run);
    ``refanged`` with ``refang=True``; the parsed parts (``PART_COLUMNS``) with
    ``parts=True``. ``schemes`` and ``valid`` filter as in
    :func:`urlsift.extract_file`. ``blocksize``: octets per partition of a plain file
    (``"64MiB"``), ``None`` for one partition per file.

    Each input is looked at first, on the workers of the current ``distributed.Client``
    (its size, and unless ``mbox`` says, its first octets): a file is read up to the
    size it had then. Rows come in file order, partition by partition; offsets and line
    numbers are those of the whole (decompressed) file; the index is each partition's
    own 0, 1, 2... (unknown divisions). Lines the mail layer reports (a message
    skipped) go to the workers' stderr: :func:`extract_reported` returns them too.

    >>> import urlsift.dask as ud                      # doctest: +SKIP
    >>> ud.extract("logs/*.log").url.nunique().compute()   # doctest: +SKIP
    """
    return _extract(paths, blocksize, mbox, schemes, valid, parts, refang, storage_options,
                    True)[0]


def extract_reported(paths: Any, *, blocksize: Any = BLOCKSIZE, mbox: Optional[bool] = None,
                     schemes: Optional[Iterable[str]] = None, valid: Optional[Validity] = None,
                     parts: bool = False, refang: bool = False,
                     storage_options: Optional[dict] = None) -> tuple[Any, Any]:
    """:func:`extract`, and a one-partition Dask DataFrame of the lines the partitions
    reported (column ``line``, as ``urlsift extract`` prints them on stderr: ``skipping
    message 'x': not a regular file``). Compute the two together
    (``dask.compute(df.to_parquet(..., compute=False), reports)``): they share their
    tasks, so each input is read once.

    >>> df, reports = extract_reported("Maildir")       # doctest: +SKIP
    """
    return _extract(paths, blocksize, mbox, schemes, valid, parts, refang, storage_options,
                    False)


def _extract(paths: Any, blocksize: Any, mbox: Optional[bool], schemes: Optional[Iterable[str]],
             valid: Optional[Validity], parts: bool, refang: bool, storage_options: Optional[dict],
             echo: bool) -> tuple[Any, Any]:
    require()
    check_valid(valid)
    size = _blocksize(blocksize)
    if isinstance(schemes, str):
        schemes = (schemes,)
    fs, names = graph.inputs(paths, storage_options)
    found = graph.looked(fs, names, mbox)
    opts = Options(tuple(schemes) if schemes is not None else None, valid, bool(parts),
                   bool(refang), any(got.kind != TEXT for got in found), echo)
    return graph.build(graph.plan(fs, names, found, size), opts)


# -- aggregations -------------------------------------------------------------------


def _counted(values: Any, top: Optional[int]) -> Any:
    """``values`` counted, most frequent first (ties in the order ``value_counts``
    leaves them). Dask's ``value_counts`` on many partitions gives many partitions in
    no order (``head`` would read the first of them only): ``top=None`` gathers the
    counts into one sorted partition (every distinct value in one frame); ``top=N``
    keeps the N largest of each partition of the counts, so the distinct values never
    meet in one place."""
    if top is None:
        return values.value_counts(sort=True, split_out=1).rename("count")
    return values.value_counts().nlargest(top).rename("count")


def url_counts(df: Any, top: Optional[int] = None) -> Any:
    """Distinct URLs with their counts, most frequent first: a Dask Series (index
    ``url``, name ``count``), in one partition; ``top=N``: only the N most frequent
    (for more distinct URLs than one worker holds).

    >>> ud.url_counts(df).head(20)                    # doctest: +SKIP
    """
    return _counted(df["url"], top)


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


def scheme_counts(df: Any, top: Optional[int] = None) -> Any:
    """URLs by scheme (lower-cased, as ``urlsift stats``): a Dask Series, most first
    (``top`` as in :func:`url_counts`)."""
    return _counted(_with_scheme_host(df)["scheme"], top)


def host_counts(df: Any, top: Optional[int] = None) -> Any:
    """URLs by host (lenient parse, lower-cased, as ``urlsift stats``; URLs without a
    host left out): a Dask Series, most first (``top`` as in :func:`url_counts`).

    >>> ud.host_counts(df).head(10)                   # doctest: +SKIP
    """
    return _counted(_with_scheme_host(df)["host"].dropna(), top)


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


def problem_counts(df: Any, top: Optional[int] = None) -> Any:
    """Invalid URLs by problem code (``urlsift.check``: RFC 1738 strictly): a Dask
    Series, most first (``top`` as in :func:`url_counts`). A URL with several codes
    counts once under each, as in ``urlsift stats``."""
    import pandas as pd

    meta = pd.DataFrame({"code": pd.array([], dtype="string")})
    rows = df[["url"]].map_partitions(_problem_rows, meta=meta)
    return _counted(rows["code"], top)


def write_parquet_by_scheme(df: Any, path: str, **kwargs: Any) -> Any:
    """Write ``df`` to a Parquet dataset at ``path`` partitioned by scheme
    (``path/scheme=http/part.0.parquet``...): the lower-cased scheme is added as a
    column when ``df`` has none. ``kwargs`` go to ``DataFrame.to_parquet``."""
    if "scheme" not in df.columns:
        df = df.assign(scheme=_with_scheme_host(df)["scheme"])
    else:
        df = df.assign(scheme=df["scheme"].fillna("").str.lower())
    kwargs.setdefault("write_index", False)
    schema = parquet_schema([c for c in df.columns if c != "scheme"])
    kwargs.setdefault("schema", dict(zip(schema.names, schema.types)))
    return df.to_parquet(path, partition_on=["scheme"], **kwargs)
