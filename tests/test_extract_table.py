"""``urlsift.extract_table`` (issue 22): the rows of ``extract_file`` as an Arrow table,
made from the scanner's records (text) or the walker's matches (mail), on every corpus
here, plain and compressed, on 1-4 threads, on both cores (conftest); and the table as
pandas, polars and DuckDB read it.

Expected values of the hand-made samples are worked out in the comments (octet counts).
"""
from __future__ import annotations

import gzip
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import urlsift
import test_inputs_one_path as one_path
import test_mail_walk as walk_tests

pa = pytest.importorskip("pyarrow")
ROOT = Path(__file__).resolve().parent.parent

# "GET /a\n" is octets 0-6; "see http://g.example/x ok\n" starts at 7, its URL at 11-29
# (line 2); "<URL:ftp://f.example/p>" spans 33-56 on line 3, wrapped.
LOG = b"GET /a\nsee http://g.example/x ok\n<URL:ftp://f.example/p>\n"

#: What the scanner meets in logs and mail: wrappers over lines and a hyphen break, an
#: IRI, octets that are no UTF-8, QP soft line breaks, JSON escapes, a '"' inside a
#: wrapper (a JSON string cannot hold it as it is), trailing punctuation.
MIXED = (b"GET /x?u=http://a.example/p HTTP/1.1\n"
         b"see <URL:ftp://b.example/long-\n  name> and (http://c.example/q).\n"
         b"IRI http://\xc3\xa9t\xc3\xa9.example/caf\xc3\xa9 and bytes http://d.example/na\xefve\n"
         b"qp http://e.example/a=\nb=3D1 end\n"
         b'{"u": "https:\\/\\/f.example\\/j?x=1", "v": 2}\n'
         b'quoted <http://g.example/"q"> mailto:someone@h.example, news:<id@i.example>\n')


def _big() -> bytes:
    """MIXED and LOG over and over, lines numbered: ~300 KB, more than a piece at the
    block sizes below."""
    return b"".join(b"%d " % i + (MIXED if i % 3 else LOG) for i in range(1500))


CORPORA = {"log": LOG, "mixed": MIXED, "big": _big(), "empty": b"", "none": b"no URL here\n"}


def _file_rows(path, **kw):
    return [{"url": m.url, "start": m.start, "end": m.end, "line": m.line,
             "wrapped": m.wrapped, "hyphen_break": m.hyphen_break, "edits": list(m.edits)}
            for m in urlsift.extract_file(path, line_numbers=True, **kw)]


MATCH_COLUMNS = ["url", "start", "end", "line", "wrapped", "hyphen_break", "edits"]


@pytest.mark.parametrize("name", sorted(CORPORA))
@pytest.mark.parametrize("compress", [False, True])
def test_rows_are_extract_file_rows(tmp_path, name, compress):
    path = tmp_path / (name + (".log.gz" if compress else ".log"))
    data = CORPORA[name]
    path.write_bytes(gzip.compress(data) if compress else data)
    for jobs in (1, 2, 3, 4):
        for block_size in (None, 4096):
            expected = _file_rows(path, jobs=jobs, block_size=block_size)
            table = urlsift.extract_table(path, MATCH_COLUMNS, jobs=jobs, block_size=block_size)
            assert table.to_pylist() == expected, (jobs, block_size)
    if name == "big":
        assert len(expected) > 5000


def test_a_stream_gives_the_rows_of_the_file(tmp_path):
    path = tmp_path / "mixed.log"
    path.write_bytes(MIXED)
    with open(path, "rb") as f:
        table = urlsift.extract_table(f, MATCH_COLUMNS, block_size=64)
    assert table.to_pylist() == _file_rows(path)


def test_the_sample_by_hand(tmp_path):
    path = tmp_path / "a.log"
    path.write_bytes(LOG)
    t = urlsift.extract_table(path, ["url", "start", "end", "line", "file", "wrapped"])
    assert t.to_pylist() == [
        {"url": "http://g.example/x", "start": 11, "end": 29, "line": 2, "file": str(path),
         "wrapped": False},
        {"url": "ftp://f.example/p", "start": 33, "end": 56, "line": 3, "file": str(path),
         "wrapped": True}]
    # the default columns
    assert urlsift.extract_table(path).column_names == ["url", "start", "end", "line", "file"]


def test_per_url_columns(tmp_path):
    # scheme (lower-cased: RFC 1738 §2.1 treats cases alike) and host as written (§3.1
    # hostport), also of a URL that is not valid; valid when the URL has no problem: a
    # port over 65535 is bad-port, "~" an unsafe character (§2.2); mailto has no host
    path = tmp_path / "a.log"
    path.write_bytes(b"HTTP://A.example/x http://a.example:99999/ ftp://b.example/~u "
                     b"mailto:u@c.example\n")
    t = urlsift.extract_table(path, ["url", "scheme", "host", "valid", "problems"])
    assert t.to_pylist() == [
        {"url": "HTTP://A.example/x", "scheme": "http", "host": "A.example", "valid": False,
         "problems": ["uppercase-scheme"]},
        {"url": "http://a.example:99999/", "scheme": "http", "host": "a.example",
         "valid": False, "problems": ["bad-port"]},
        {"url": "ftp://b.example/~u", "scheme": "ftp", "host": "b.example", "valid": False,
         "problems": ["unsafe-char"]},
        {"url": "mailto:u@c.example", "scheme": "mailto", "host": None, "valid": True,
         "problems": []}]
    assert pa.types.is_dictionary(t.schema.field("host").type)
    assert pa.types.is_dictionary(t.schema.field("scheme").type)
    assert t.schema.field("valid").type == pa.bool_()


# ---- mail ------------------------------------------------------------------------------

# test_inputs_one_path's spool (messages at 0 and 98), the second with a Date
SPOOL = one_path.SPOOL.replace(b"Message-ID: <2@example.org>\n", b"Message-ID: <2@example.org>\n"
                               b"Date: Mon, 3 Jan 1994 11:00:00 +0100\n")


@pytest.mark.parametrize("compress", [False, True])
def test_mail_rows_are_extract_file_rows(tmp_path, compress):
    path = tmp_path / ("spool.mbox" + (".gz" if compress else ""))
    path.write_bytes(gzip.compress(SPOOL) if compress else SPOOL)
    cols = ["url", "start", "end", "wrapped", "hyphen_break", "edits", "message_id", "part"]
    for jobs in (1, 2, 4):
        expected = [{c: (list(getattr(m, c)) if c == "edits" else getattr(m, c)) for c in cols}
                    for m in urlsift.extract_file(path, jobs=jobs)]
        assert urlsift.extract_table(path, cols, jobs=jobs).to_pylist() == expected
    t = urlsift.extract_table(path, ["url", "message_id", "date", "line", "file"])
    rows = t.to_pylist()
    assert [r["message_id"] for r in rows] == ["<1@example.org>", "<2@example.org>"]
    # the second Date is 11:00 at +0100: 10:00 UTC; the first message has none
    assert rows[0]["date"] is None and rows[1]["date"].isoformat() == "1994-01-03T10:00:00+00:00"
    assert [r["line"] for r in rows] == [None, None] and rows[0]["file"] == str(path)


def test_mail_forced_as_text(tmp_path):
    path = tmp_path / "spool.mbox"
    path.write_bytes(SPOOL)
    t = urlsift.extract_table(path, ["url", "line"], mbox=False)
    # line 9: the second message's Date header is one line more than one_path's
    assert t.to_pylist() == [{"url": "http://m.example/one", "line": 4},
                             {"url": "ftp://n.example/two", "line": 9}]


# ---- mail rows made of the walk's records (no MailMatch per URL) --------------------------

#: Every column of a spool's table but those worked out per distinct URL (tested on text).
MAIL_ROW = ["url", "start", "end", "line", "file", "wrapped", "hyphen_break", "edits",
            "message_id", "date", "part"]


def _mail_file_rows(path, jobs):
    """extract_file's matches as the table's rows: the date a UTC instant (docs/arrow.md),
    a mail URL on no line of the file."""
    from urlsift.mail.dates import date_instant
    return [{"url": m.url, "start": m.start, "end": m.end, "line": None, "file": m.source,
             "wrapped": m.wrapped, "hyphen_break": m.hyphen_break, "edits": list(m.edits),
             "message_id": m.message_id, "date": date_instant(m.date), "part": m.part}
            for m in urlsift.extract_file(path, jobs=jobs, mbox=True)]


def _message(body, head=b"", mid=b"<1@x>"):
    return (b"From a@b Sat Jan  1 00:00:00 2000\nMessage-ID: " + mid + b"\n" + head + b"\n"
            + body + b"\n")


#: Spools whose rows take each way of the trace: an <a> text that is its href (left out),
#: href and src values (start = end = the tag's offset), a <URL:...> wrapper over quoted
#: lines (its end in a later segment), a message the walk leaves to email between two it
#: reads (message/rfc822: FALLBACK) and one with a JSON-escaped URL (email too), a Date
#: in the fixed form and one not, a URL-bearing header, base64 and quoted-printable parts.
MAIL_CORPORA = {
    "sample": (ROOT / "samples" / "mail.mbox").read_bytes(),
    "one_path": SPOOL,
    "html": _message(b'<a href="http://a.example/x">http://a.example/x</a> '
                     b'<a href="http://b.example/">see http://c.example/</a>'
                     b'<img src="http://d.example/i.png">',
                     b"Content-Type: text/html\nDate: Mon, 3 Jan 1994 11:00:00 +0100\n"),
    "quoted": _message(b"> see <URL:http://q.example/a/long-\n> path/b> ok",
                       b"Date: 3 Jan 94 11:00 EST\nList-Post: <mailto:l@q.example>\n"),
    "fallback": (_message(b"first http://one.example/")
                 + _message(b"--b\nContent-Type: message/rfc822\n\nSubject: x\n\n"
                            b"inner http://two.example/\n--b--",
                            b'Content-Type: multipart/mixed; boundary="b"\n', b"<2@x>")
                 + _message(b'{"u": "https:\\/\\/three.example\\/j"}', mid=b"<3@x>")
                 + _message(b"last http://four.example/", mid=b"<4@x>")),
    "encoded": (_message(b"aHR0cDovL2I2NC5leGFtcGxlL3A=",
                         b"Content-Transfer-Encoding: base64\n")
                + _message(b"http://qp.example/a=\nb=3D1 end",
                           b"Content-Transfer-Encoding: quoted-printable\n", b"<2@x>")),
}


@pytest.mark.parametrize("name", sorted(MAIL_CORPORA))
def test_mail_rows_of_the_walks_records_are_extract_file_rows(tmp_path, name):
    path = tmp_path / f"{name}.mbox"
    path.write_bytes(MAIL_CORPORA[name])
    for jobs in (1, 2, 3, 4):
        expected = _mail_file_rows(path, jobs)
        assert expected, name
        assert urlsift.extract_table(path, MAIL_ROW, mbox=True, jobs=jobs).to_pylist() == expected


def test_mail_rows_of_the_benchmark_spool_over_many_pieces(tmp_path):
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import corpus                   # benchmarks/corpus.py: the benchmark spool's generator
    path = tmp_path / "bench.mbox"
    corpus.write_mbox(path, 2.5, 7)            # 2.5 MB: three pieces of 1 MiB
    for jobs in (1, 3):
        expected = _mail_file_rows(path, jobs)
        assert len(expected) > 1000
        assert urlsift.extract_table(path, MAIL_ROW, jobs=jobs).to_pylist() == expected


def test_mail_rows_the_walk_leaves_keep_their_place(tmp_path):
    # message 2 is read by email (message/rfc822), message 3 too (a JSON-escaped URL):
    # their rows come between those of messages 1 and 4, as the spool has them
    path = tmp_path / "f.mbox"
    path.write_bytes(MAIL_CORPORA["fallback"])
    t = urlsift.extract_table(path, ["url", "message_id"])
    assert t.to_pylist() == [
        {"url": "http://one.example/", "message_id": "<1@x>"},
        {"url": "http://two.example/", "message_id": "<2@x>"},
        {"url": "https://three.example/j", "message_id": "<3@x>"},
        {"url": "http://four.example/", "message_id": "<4@x>"}]


def test_mail_rows_of_a_compressed_spool_and_a_maildir(tmp_path):
    box = tmp_path / "s.mbox.gz"
    box.write_bytes(gzip.compress(MAIL_CORPORA["html"]))
    assert urlsift.extract_table(box, MAIL_ROW).to_pylist() == _mail_file_rows(box, 1)
    md = tmp_path / "md"
    for sub in ("cur", "new", "tmp"):
        (md / sub).mkdir(parents=True)
    (md / "new" / "1.eml").write_bytes(MAIL_CORPORA["quoted"].split(b"\n", 1)[1])
    assert urlsift.extract_table(md, MAIL_ROW).to_pylist() == _mail_file_rows(md, 1)


@settings(max_examples=15, deadline=None, suppress_health_check=list(HealthCheck))
@given(spool=walk_tests.spools(), jobs=st.integers(1, 4))
def test_mail_rows_of_generated_spools_are_extract_file_rows(tmp_path_factory, spool, jobs):
    # test_mail_walk's generated spools: multiparts, charsets, encodings, HTML, quotes
    path = tmp_path_factory.mktemp("gen") / "g.mbox"
    path.write_bytes(spool[0])
    assert urlsift.extract_table(path, MAIL_ROW, mbox=True, jobs=jobs).to_pylist() == \
        _mail_file_rows(path, jobs)


# ---- the reader, errors ------------------------------------------------------------------

def test_record_batches_read_piece_by_piece(tmp_path):
    path = tmp_path / "big.log"
    path.write_bytes(CORPORA["big"])
    reader = urlsift.record_batches(path, ["url", "line"], block_size=4096)
    assert isinstance(reader, pa.RecordBatchReader)
    batches = list(reader)
    assert len(batches) > 10
    assert pa.Table.from_batches(batches).equals(
        urlsift.extract_table(path, ["url", "line"]))


def test_an_unknown_column_is_named(tmp_path):
    path = tmp_path / "a.log"
    path.write_bytes(LOG)
    with pytest.raises(ValueError, match="'hots'"):
        urlsift.extract_table(path, ["url", "hots"])
    spool = tmp_path / "s.mbox"
    spool.write_bytes(SPOOL)
    with pytest.raises(ValueError, match="'hots'"):
        urlsift.extract_table(spool, ["url", "hots"])


def test_a_missing_path_raises_at_once(tmp_path):
    with pytest.raises(OSError, match="nope"):
        urlsift.record_batches(tmp_path / "nope.log")


def test_without_pyarrow_the_error_names_the_extra(tmp_path, monkeypatch):
    path = tmp_path / "a.log"
    path.write_bytes(LOG)
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(ImportError, match=r"urlsift\[arrow\]"):
        urlsift.extract_table(path)


# ---- pandas, polars, DuckDB on a real table -------------------------------------------------

def _table(tmp_path):
    path = tmp_path / "big.log"
    path.write_bytes(CORPORA["big"])
    return urlsift.extract_table(path, ["url", "line", "host", "valid"], jobs=2)


def _host_counts(tmp_path):
    """How often each host is found, counted over extract_file's rows."""
    counts: dict = {}
    for m in urlsift.extract_file(tmp_path / "big.log"):
        host = urlsift.parse(m.url, strict=False).host
        counts[host] = counts.get(host, 0) + 1
    return counts


def test_pandas(tmp_path):
    pytest.importorskip("pandas")
    df = _table(tmp_path).to_pandas()
    assert str(df["line"].dtype) == "int64" and str(df["valid"].dtype) == "bool"
    assert df.groupby("host", observed=True).size().to_dict() == \
        {h: n for h, n in _host_counts(tmp_path).items() if h is not None}
    assert df["line"].is_monotonic_increasing


def test_polars(tmp_path):
    pl = pytest.importorskip("polars")
    df = pl.from_arrow(_table(tmp_path))
    got = dict(df.group_by("host").len().iter_rows())
    assert got == _host_counts(tmp_path)


def test_duckdb(tmp_path):
    duckdb = pytest.importorskip("duckdb")
    t = _table(tmp_path)      # noqa: F841 (DuckDB finds the table by its name)
    got = dict(duckdb.sql("select host, count(*) from t group by 1").fetchall())
    assert got == _host_counts(tmp_path)
