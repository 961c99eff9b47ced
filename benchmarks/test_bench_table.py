"""Issue 22: ``urlsift.extract_table`` on the access log beside what a user writes today
to get the URLs into a frame, in the same run: ``extract_file`` -> ``Match`` -> pandas,
``re.finditer`` -> pandas, polars ``str.extract_all`` and DuckDB ``regexp_extract_all``
with the URL pattern of ``test_bench_extract`` (peers not installed are skipped).

``report.py`` gives MB/s of each row; ``tables_versus.py`` runs the same calls
interleaved on the CPU clock, best of N, with the ratios (the figures of the report).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

import urlsift
from test_bench_extract import PATTERN

#: The columns of the issue's figures: the cheap ones, and with host and valid.
COLUMNS = {"url-start-line": ["url", "start", "line"],
           "with-host-valid": ["url", "start", "line", "host", "valid"]}


def _info(path: Path, rows: int) -> dict:
    return {"bytes": path.stat().st_size, "items": rows}


@pytest.mark.parametrize("name", list(COLUMNS))
def test_extract_table(bench, benchmark, log_path: Path, name: str):
    pytest.importorskip("pyarrow")
    benchmark.group = "table"
    rows = urlsift.extract_table(log_path, COLUMNS[name]).num_rows
    bench(urlsift.extract_table, log_path, COLUMNS[name], heavy=True, **_info(log_path, rows))


def test_extract_file_matches_to_pandas(bench, benchmark, log_path: Path):
    pd = pytest.importorskip("pandas")
    benchmark.group = "table"

    def frame():
        return pd.DataFrame([(m.url, m.start, m.line)
                             for m in urlsift.extract_file(log_path, line_numbers=True)],
                            columns=["url", "start", "line"])
    rows = len(frame())
    bench(frame, heavy=True, **_info(log_path, rows))


def test_re_finditer_to_pandas(bench, benchmark, log_path: Path):
    pd = pytest.importorskip("pandas")
    benchmark.group = "table"
    pattern = re.compile(PATTERN)

    def frame():
        data = log_path.read_bytes()     # what a user of re does: the whole file
        return pd.DataFrame([(m.group().decode("utf-8", "replace"), m.start())
                             for m in pattern.finditer(data)], columns=["url", "start"])
    rows = len(frame())
    bench(frame, heavy=True, **_info(log_path, rows))


def test_polars_extract_all(bench, benchmark, log_path: Path):
    pl = pytest.importorskip("polars")
    benchmark.group = "table"
    pattern = PATTERN.decode()

    def frame():
        lines = pl.read_csv(log_path, has_header=False, separator="\x01", quote_char=None,
                            new_columns=["line"], encoding="utf8-lossy")
        return lines.select(pl.col("line").str.extract_all(pattern).alias("url")).explode("url")
    rows = frame().height
    bench(frame, heavy=True, **_info(log_path, rows))


def test_duckdb_regexp_extract_all(bench, benchmark, log_path: Path):
    duckdb = pytest.importorskip("duckdb")
    benchmark.group = "table"
    pattern = PATTERN.decode().replace("'", "''")
    query = (f"select unnest(regexp_extract_all(line, '{pattern}')) as url from "
             f"read_csv('{log_path}', columns={{'line': 'VARCHAR'}}, header=false, "
             f"delim='\\x01', quote='', escape='', ignore_errors=true)")

    def frame():
        return duckdb.sql(query).fetch_arrow_table()
    rows = frame().num_rows
    bench(frame, heavy=True, **_info(log_path, rows))
