"""urlsift.dask on a real LocalCluster (2 worker processes): the partitions give
exactly the rows of ``urlsift.extract_file`` (blocks, look-ahead, line numbers,
compressed files, mail), the aggregations, and ``urlsift extract --dask``.

Skipped when the extra (dask[dataframe], distributed) is not installed. Every test is
``twins``: it runs once (the workers use the default core).
"""
from __future__ import annotations

import gzip
import mailbox
import random
import sys
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("dask.dataframe", reason="the dask extra is not installed: pip install 'urlsift[dask]'")
pytest.importorskip("distributed", reason="the dask extra is not installed: pip install 'urlsift[dask]'")
pytest.importorskip("dask.task_spec", reason="urlsift.dask needs dask 2025.1 or later")
pytest.importorskip("pyarrow", reason="Parquet output needs pyarrow")

import urlsift  # noqa: E402
import urlsift.dask as udask  # noqa: E402
from urlsift.mail.dates import date_instant  # noqa: E402
from urlsift.text.files import LOOKAHEAD  # noqa: E402

pytestmark = pytest.mark.twins

ROOT = Path(__file__).resolve().parent.parent
BLOCK = 4096
WORDS = ["GET", "see", "the", "at", "(x)", "a,b", "<ok>", "--", "ref:"]
URLS = ["http://a.example/x", "https://b.example/p?q=1&r=2", "ftp://ftp.example/pub/f.txt;type=i",
        "mailto:joe@c.example", "news:comp.infosystems", "http://999/", "http://d.example/a b",
        "gopher://g.example:70/1", "HTTP://E.Example/", "telnet://u@t.example/",
        "http://d.example:8080/%zz", "file://host/etc/motd", "wais://w.example/db?q"]


@pytest.fixture(scope="module")
def client(tmp_path_factory):
    """Two worker processes started in a directory of their own: a relative path
    resolved on a worker, not on the client, names another file (issue 26)."""
    import os

    from distributed import Client, LocalCluster

    elsewhere = tmp_path_factory.mktemp("workers-cwd")
    here = os.getcwd()
    os.chdir(elsewhere)
    try:
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                               dashboard_address=None)
    finally:
        os.chdir(here)
    c = Client(cluster)
    assert set(c.run(os.getcwd).values()) == {str(elsewhere)}
    yield c
    c.close()
    cluster.close()


def _log(n_lines: int, seed: int = 1) -> bytes:
    rnd = random.Random(seed)
    lines = []
    for i in range(n_lines):
        words = [rnd.choice(WORDS + URLS) for _ in range(rnd.randint(0, 8))]
        if rnd.random() < 0.05:
            words.append("<URL:" + rnd.choice(URLS[:3]) + "/wr\n  apped>")
        lines.append(" ".join(words))
    return "\n".join(lines).encode() + b"\n"


def _rows_text(path: str) -> list[tuple]:
    """extract_file's rows; a .gz file decompressed first (extract_file maps files as
    they are, the inputs layer decompresses)."""
    if path.endswith(".gz"):
        with gzip.open(path, "rb") as f:
            return [(m.url, path, m.start, m.line) for m in urlsift.extract_file(f, line_numbers=True)]
    return [(m.url, path, m.start, m.line) for m in urlsift.extract_file(path, line_numbers=True)]


def _rows_df(pdf) -> list[tuple]:
    return [(u, f, int(o), int(l)) for u, f, o, l in
            zip(pdf["url"], pdf["file"], pdf["offset"], pdf["line"])]


def _by_file(pdf) -> dict[str, list[tuple]]:
    out: dict[str, list[tuple]] = {}
    for row in _rows_df(pdf):
        out.setdefault(row[1], []).append(row)
    return out


def _wrapper_files(tmp_path: Path) -> list[str]:
    """Files where a block edge (the first split point at or after BLOCK) falls inside
    a <URL:...> wrapper broken over lines, at several places in it; one whose
    continuation line holds a URL of its own (the next block finds it bare: dropped)."""
    paths = []
    wrapper = (b"<URL:http://w.example/" + b"a" * 40 + b"/\n   http://inner.example/" +
               b"b" * 30 + b"\n  /tail.html>")
    for k, shift in enumerate(range(-90, 20, 7)):
        head = b"x http://before.example/ y\n" * ((BLOCK + shift) // 27)
        pad = BLOCK + shift - len(head)
        data = head + b"z" * max(pad - 1, 0) + b" " + wrapper + b" after http://after.example/\n"
        p = tmp_path / f"wrap{k}.log"
        p.write_bytes(data)
        paths.append(str(p))
    return paths


def test_text_files_match_extract_file(client, tmp_path):
    big = tmp_path / "big.log"
    big.write_bytes(_log(3000))                      # ~150 KB: dozens of 4 KiB blocks
    assert big.stat().st_size > 20 * BLOCK
    no_nl = tmp_path / "nonl.log"
    no_nl.write_bytes(_log(200, 2).rstrip(b"\n") + b" http://last.example/end")
    empty = tmp_path / "empty.log"
    empty.write_bytes(b"")
    long_line = tmp_path / "long.log"               # one line of 3 MB, no newline in it
    chunk = b" ".join(u.encode() for u in URLS) + b" "
    long_line.write_bytes(chunk * (3_000_000 // len(chunk)) + b"\n")
    no_split = tmp_path / "nosplit.log"             # a run with no split point at all
    no_split.write_bytes(b"a" * 100_000 + b" http://x.example/ " + b"b" * 20_000)
    gz = tmp_path / "big.log.gz"
    gz.write_bytes(gzip.compress(_log(500, 3)))
    paths = [str(p) for p in (big, no_nl, empty, no_split, gz)]
    paths += _wrapper_files(tmp_path)

    df = udask.extract(paths, blocksize=BLOCK)
    assert list(df.columns) == ["url", "file", "line", "offset"]
    assert df.npartitions > 100
    long_df = udask.extract(str(long_line), blocksize=64 << 10)    # 46 blocks in one line
    assert long_df.npartitions > 40
    got = _by_file(df.compute())
    got.update(_by_file(long_df.compute()))
    paths.append(str(long_line))
    for path in paths:
        expected = _rows_text(path)
        assert got.get(path, []) == expected, path
    assert len(got[str(big)]) > 1000
    for p in paths:
        if "wrap" in p:     # the wrapper once and whole, its inner URL not on its own
            urls = [r[0] for r in got[p]]
            assert sum(u.startswith("http://w.example/") and u.endswith("/tail.html")
                       for u in urls) == 1, urls
            assert not any(u.startswith("http://inner.example/") for u in urls), urls
    assert got[str(no_nl)][-1][0] == "http://last.example/end"


def test_the_block_edge_falls_inside_the_wrappers(tmp_path):
    # the construction of _wrapper_files does what it says (else the test above proves less)
    from urlsift.dask.blocks import split_at

    inside = 0
    for path in _wrapper_files(tmp_path):
        data = Path(path).read_bytes()
        start = data.index(b"<URL:")
        end = data.index(b"tail.html>") + 10
        with open(path, "rb") as f:
            edge = split_at(f, BLOCK, len(data))
        inside += start < edge < end
    assert inside >= 3


def test_a_wrapper_needs_the_lookahead(tmp_path):
    # a wrapper much longer than a block: the look-ahead (not the block) bounds it
    from urlsift.text.rules import MAX_WRAPPER
    assert LOOKAHEAD > MAX_WRAPPER
    lines = "\n".join("  seg%04d/" % i for i in range(600))      # ~7 KB over 600 lines
    p = tmp_path / "longwrap.log"
    p.write_text("x\n<URL:http://long.example/\n" + lines + "\n end> y http://z.example/\n")
    got = _rows_df(udask.extract(str(p), blocksize=1024).compute(scheduler="threads"))
    assert got == _rows_text(str(p))


def test_json_escaped_urls_across_block_edges(tmp_path):
    # issue 21: "https:\/\/..." is read in each block as in extract_file, on one long line
    # (block edges after a "\", inside a run) and on many lines
    one = b'{"u":"https:\\/\\/h%d.example\\/a\\/b\\u00e9?x=%d"}'
    p = tmp_path / "app.json.log"
    p.write_bytes(b" ".join(one % (i, i) for i in range(400)) + b"\n" +
                  b"\n".join(one % (i, i) for i in range(400)) + b"\n")
    want = _rows_text(str(p))
    assert len(want) == 800 and want[0][0] == "https://h0.example/a/b%C3%A9?x=0"
    for blocksize in (1000, 1777):
        got = _rows_df(udask.extract(str(p), blocksize=blocksize).compute(scheduler="threads"))
        assert got == want, blocksize


def _mbox(path: Path, n: int) -> None:
    rnd = random.Random(5)
    out = []
    for i in range(n):
        body = " ".join(rnd.choice(WORDS + URLS) for _ in range(12))
        out.append(f"From sender{i}@example.org Mon Oct 12 09:00:00 2026\n"
                   f"Message-ID: <m{i}@example.org>\nDate: Mon, 12 Oct 2026 09:{i % 60:02d}:00 +0000\n"
                   f"Subject: {i}\nList-Post: <mailto:list{i % 3}@example.org>\n\n"
                   f"{body}\n>From the archive: http://quoted.example/{i}\n\n")
    path.write_text("".join(out))


def _mail_rows(pdf) -> list[tuple]:
    return [(u, f, _int(o), _str(m), _time(d), p, _int(fo), _str(t), bool(dc))
            for u, f, o, m, d, p, fo, t, dc in
            zip(pdf["url"], pdf["file"], pdf["offset"], pdf["message_id"], pdf["date"],
                pdf["part"], pdf["file_offset"], pdf["text"], pdf["deceptive"])]


def _time(v):
    import pandas as pd
    return None if pd.isna(v) else v.to_pydatetime()


def _int(v):
    import pandas as pd
    return None if pd.isna(v) else int(v)


def _str(v):
    import pandas as pd
    return None if pd.isna(v) else v


def _expected_mail(path: str) -> list[tuple]:
    # the Date as a UTC timestamp, as the command's Parquet holds it (RFC 5322 §3.3)
    return [(m.url, m.source, m.offset, m.message_id, date_instant(m.date), m.part,
             m.file_offset, m.text, m.deceptive) for m in urlsift.extract_file(path, mbox=True)]


def test_mail_matches_extract_file(client, tmp_path):
    box = tmp_path / "inbox.mbox"
    _mbox(box, 120)
    gzbox = tmp_path / "old.mbox.gz"
    gzbox.write_bytes(gzip.compress((ROOT / "samples" / "mail.mbox").read_bytes()))
    md = mailbox.Maildir(str(tmp_path / "Maildir"))
    for i in range(7):
        md.add(f"Message-ID: <d{i}@x>\n\nsee http://maildir.example/{i}\n")
    paths = [str(box), str(gzbox), str(tmp_path / "Maildir")]
    df = udask.extract(paths, blocksize=2048)
    assert list(df.columns) == ["url", "file", "line", "offset", "message_id", "date", "part",
                                "text", "deceptive", "file_offset"]
    assert df.npartitions > 5
    pdf = df.compute()
    # the line of the spool where each URL stands, as the command's -n (issue 24): the
    # ranges of an mbox count the lines of those before them
    from urlsift.inputs import iter_numbered_mail_urls
    for path in paths:
        got = [(u, _int(n)) for u, f, n in zip(pdf["url"], pdf["file"], pdf["line"])
               if f == path or (path.endswith("Maildir") and "Maildir" in f)]
        assert got == [(m.url, n) for m, n in iter_numbered_mail_urls(path)], path
    md_rows = [r for r in _mail_rows(pdf) if "Maildir" in r[1]]
    for path in paths[:2]:
        assert [r for r in _mail_rows(pdf) if r[1] == path] == _expected_mail(path)
    assert md_rows == _expected_mail(paths[2])
    assert any(r[6] is not None for r in md_rows)      # the URL's place in its file


def test_options_parts_schemes_valid_refang(client, tmp_path):
    from urlsift.cli.output import PART_COLUMNS, parts_getter

    assert udask.PART_COLUMNS == PART_COLUMNS
    p = tmp_path / "a.log"
    p.write_bytes(_log(400, 7) + b"hxxp://evil[.]example/x and http://ok.example/\n")
    pdf = udask.extract(str(p), blocksize=BLOCK, parts=True, schemes=["http", "ftp"],
                        valid="lenient").compute()
    expected = list(urlsift.extract_file(str(p), schemes=["http", "ftp"], valid="lenient"))
    assert list(pdf["url"]) == [m.url for m in expected]
    parts = parts_getter(False)
    for row in pdf.head(50).itertuples(index=False):
        want = parts(row.url)
        for c in PART_COLUMNS:
            value = getattr(row, c)
            assert (_int(value) if c == "port" else _str(value)) == want[c], (row.url, c)
    ref = udask.extract(str(p), refang=True).compute()
    assert "refanged" in ref.columns
    assert ("http://evil.example/x", True) in set(zip(ref["url"], ref["refanged"]))


def test_aggregations(client, tmp_path):
    import pyarrow.parquet as pq

    from urlsift import check, parse

    p = tmp_path / "agg.log"
    p.write_bytes(_log(600, 11))
    urls = [m.url for m in urlsift.extract_file(str(p))]
    df = udask.extract(str(p), blocksize=BLOCK)
    assert dict(udask.url_counts(df).compute()) == Counter(urls)
    assert dict(udask.scheme_counts(df).compute()) == Counter(u.split(":")[0].lower() for u in urls)
    hosts: Counter = Counter()
    codes: Counter = Counter()
    for u in urls:
        try:
            host = parse(u, strict=False).host
        except ValueError:
            host = None
        if host:
            hosts[host.lower()] += 1
        for code in {q.code for q in check(u)}:
            codes[code] += 1
    assert dict(udask.host_counts(df).compute()) == hosts
    assert dict(udask.problem_counts(df).compute()) == codes
    assert codes                                       # some invalid URLs were in there
    out = tmp_path / "by_scheme"
    udask.write_parquet_by_scheme(df, str(out))
    dirs = sorted(d.name for d in out.iterdir() if d.is_dir())
    assert dirs == sorted(f"scheme={s}" for s in set(u.split(":")[0].lower() for u in urls))
    http = pq.read_table(str(out / "scheme=http")).to_pydict()["url"]
    assert sorted(http) == sorted(u for u in urls if u.split(":")[0].lower() == "http")


def test_command(client, tmp_path, capsys):
    import pandas as pd

    from urlsift.cli import main

    a = tmp_path / "a.log"
    a.write_bytes(_log(300, 13))
    out = tmp_path / "out"
    status = main(["extract", "--dask", client.scheduler.address, "-o", str(out), str(a),
                   str(ROOT / "samples" / "access.log")])
    assert status == 0
    summary = capsys.readouterr().out
    assert summary.startswith("urlsift: ") and summary.count("\n") == 1
    files = sorted(out.glob("*.parquet"))
    assert len(files) == 2                           # one per partition (64 MiB blocks)
    pdf = pd.read_parquet(out)
    assert list(pdf.columns) == ["url", "file", "line", "offset"]
    assert _rows_df(pdf) == _rows_text(str(a)) + _rows_text(str(ROOT / "samples" / "access.log"))
    assert f"{len(pdf)} URLs" in summary


def test_command_errors(tmp_path, capsys, monkeypatch):
    from urlsift.cli import main

    a = tmp_path / "a.log"
    a.write_text("http://a.example/\n")
    assert main(["extract", "--dask", "local", str(a)]) == 2
    assert "give -o DIR" in capsys.readouterr().err
    assert main(["extract", "--dask", "local", "-o", str(tmp_path / "o"),
                 str(tmp_path / "missing.log")]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "missing.log" in err
    monkeypatch.setitem(sys.modules, "distributed", None)     # as if not installed
    assert main(["extract", "--dask", "local", "-o", str(tmp_path / "o"), str(a)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "pip install 'urlsift[dask]'" in err
    with pytest.raises(udask.MissingDependency):
        udask.extract(str(a))


def test_import_urlsift_does_not_load_dask():
    import subprocess
    code = "import sys, urlsift; print([m for m in ('dask', 'distributed', 'urlsift.dask') if m in sys.modules])"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, cwd=ROOT).stdout
    assert out.strip() == "[]"


def test_a_worker_killed_mid_run_loses_nothing_and_repeats_nothing(tmp_path):
    # distributed runs the tasks of a worker that died again elsewhere: the result is
    # still every row of extract_file, each once (issue 11)
    import os
    import signal
    import time

    from distributed import Client, LocalCluster, as_completed

    path = tmp_path / "big.log"
    path.write_bytes(_log(60_000, seed=7))
    want = Counter(_rows_text(str(path)))
    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                      dashboard_address=":0") as cluster, Client(cluster) as c:
        ddf = udask.extract(str(path), blocksize="32KiB")
        parts = c.compute(ddf.to_delayed())
        assert len(parts) > 20                       # enough work to be cut mid-way
        pids = c.run(os.getpid)                      # {worker address: its process}
        victim = sorted(pids)[0]
        killed = False
        for _ in zip(as_completed(parts), range(3)):
            pass                                      # a few partitions finished...
        if sum(not f.done() for f in parts) > 2:      # ...and more are to come
            os.kill(pids[victim], signal.SIGKILL)
            killed = True
        frames = c.gather(parts)
        deadline = time.monotonic() + 60
        while killed and len(c.scheduler_info()["workers"]) < 2 and time.monotonic() < deadline:
            time.sleep(0.2)                           # the nanny brings it back
    import pandas as pd

    got = Counter(_rows_df(pd.concat(frames)))
    assert killed, "the run ended before a worker could be killed: make the file larger"
    assert got == want                                # each row once: none lost, none twice
