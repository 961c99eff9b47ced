"""urlsift.dask at any scale of files and blocks, and ``urlsift extract --dask`` as the
command (issue 26): the counting helpers against pandas on many partitions, relative
paths on workers started elsewhere, a partition that cannot read its input, a Maildir
holding a FIFO and a link to /dev/zero, lines longer than a block, inputs that grow,
globs, ``blocksize=None``, a graph linear in the blocks, and the command's output
folder, exit statuses and Parquet types (those of the local ``--format parquet``).

Skipped without the dask extra. ``twins``: the workers use the default core.
"""
from __future__ import annotations

import gzip
import io
import mailbox
import os
import random
from collections import Counter
from pathlib import Path

import pytest

pytest.importorskip("dask.dataframe", reason="the dask extra is not installed: pip install 'urlsift[dask]'")
pytest.importorskip("distributed", reason="the dask extra is not installed: pip install 'urlsift[dask]'")
pytest.importorskip("dask.task_spec", reason="urlsift.dask needs dask 2025.1 or later")
pq = pytest.importorskip("pyarrow.parquet", reason="Parquet output needs pyarrow")

import urlsift  # noqa: E402
import urlsift.dask as udask  # noqa: E402
from test_dask import _log, _rows_df, _rows_text, client  # noqa: E402,F401

pytestmark = pytest.mark.twins
ROOT = Path(__file__).resolve().parent.parent


def _skewed(tmp_path: Path) -> tuple[str, Counter]:
    """A log whose most frequent URLs are far apart in count and spread over the file:
    a top read from one partition of the counts is wrong at once."""
    rnd = random.Random(26)
    urls = (["http://top.example/a"] * 3000 + ["http://second.example/b"] * 700 +
            ["ftp://third.example/c"] * 150 + ["https://top.example/d"] * 40 +
            [f"http://h{i % 300}.example/{i}" for i in range(1200)])
    rnd.shuffle(urls)
    p = tmp_path / "skewed.log"
    p.write_text("".join(f"GET {u} 200\n" for u in urls))
    return str(p), Counter(urls)


def test_counts_are_the_tops_on_many_partitions(client, tmp_path):
    from urlsift import parse

    path, counts = _skewed(tmp_path)
    df = udask.extract(path, blocksize=7000).persist()     # scanned once for every count
    assert df.npartitions > 20
    top = udask.url_counts(df).head(3)
    assert list(top.items()) == [("http://top.example/a", 3000),
                                 ("http://second.example/b", 700),
                                 ("ftp://third.example/c", 150)]
    assert list(udask.url_counts(df, top=2).compute().items()) == list(top.items())[:2]
    assert dict(udask.url_counts(df).compute()) == counts
    hosts = Counter()
    for url, n in counts.items():
        hosts[parse(url, strict=False).host.lower()] += n
    want = sorted(hosts.items(), key=lambda kv: -kv[1])[:2]   # top.example: 3040, second: 700
    assert list(udask.host_counts(df).head(2).items()) == want
    assert list(udask.host_counts(df, top=2).compute().items()) == want
    schemes = list(udask.scheme_counts(df).compute().items())
    assert schemes == [("http", 4900), ("ftp", 150), ("https", 40)]
    # the same as pandas on the whole frame (as far as the counts differ: ties after)
    pdf = df.compute()
    assert list(udask.url_counts(df).head(4).items()) == \
        list(pdf["url"].value_counts().head(4).items())


def test_relative_maildir_on_workers_started_elsewhere(client, tmp_path, monkeypatch):
    # the workers run in another directory (the fixture checks it): the client makes
    # the path absolute, the rows still name the messages as given
    md = mailbox.Maildir(str(tmp_path / "Maildir"))
    for i in range(5):
        md.add(f"Message-ID: <r{i}@x>\nDate: Mon, 12 Oct 2026 09:00:00 +0200\n\n"
               f"see http://rel.example/{i}\n")
    monkeypatch.chdir(tmp_path)
    assert set(client.run(os.getcwd).values()) != {str(tmp_path)}
    pdf = udask.extract("Maildir", blocksize=200).compute()
    want = [(m.url, m.source, m.message_id) for m in urlsift.extract_file("Maildir", mbox=True)]
    assert len(want) == 5 and want[0][1].startswith("Maildir/")
    assert list(zip(pdf["url"], pdf["file"], pdf["message_id"])) == want
    (tmp_path / "a.log").write_text("x http://a.example/ y\n")
    got = udask.extract(["a.log"], blocksize=8).compute()
    assert list(zip(got["url"], got["file"], got["line"])) == [("http://a.example/", "a.log", 1)]


def test_a_partition_that_cannot_read_its_input_fails_naming_it(client, tmp_path):
    gone = tmp_path / "gone.log"
    gone.write_bytes(_log(200))
    df = udask.extract(str(gone), blocksize=4096)
    gone.unlink()
    with pytest.raises(FileNotFoundError, match="gone.log"):
        df.compute()
    cut = tmp_path / "cut.log"
    cut.write_bytes(_log(200))
    df = udask.extract(str(cut), blocksize=4096)
    cut.write_bytes(b"short\n")
    with pytest.raises(OSError, match="shorter than the .* octets.*cut.log"):
        df.compute()
    md = tmp_path / "Box"
    mailbox.Maildir(str(md)).add("Message-ID: <1@x>\n\nhttp://m.example/\n")
    df = udask.extract(str(md))
    for sub in ("cur", "new", "tmp"):
        for f in (md / sub).iterdir():
            f.unlink()
        (md / sub).rmdir()
    md.rmdir()
    with pytest.raises(FileNotFoundError, match="Box"):
        df.compute()
    with pytest.raises(FileNotFoundError, match="nothing-here"):
        udask.extract(str(tmp_path / "nothing-here*.log"))


def test_maildir_fifo_and_dev_zero_cost_only_themselves(client, tmp_path):
    md = mailbox.Maildir(str(tmp_path / "Maildir"))
    for i in range(4):
        md.add(f"Message-ID: <g{i}@x>\n\nsee http://good.example/{i}\n")
    os.mkfifo(tmp_path / "Maildir" / "new" / "a-fifo")
    os.symlink("/dev/zero", tmp_path / "Maildir" / "new" / "b-zero")
    df, reports = udask.extract_reported(str(tmp_path / "Maildir"), blocksize=None)
    import dask

    pdf, lines = dask.compute(df, reports)
    assert sorted(pdf["url"]) == [f"http://good.example/{i}" for i in range(4)]
    assert sorted(lines["line"]) == [
        f"skipping message '{tmp_path}/Maildir/new/a-fifo': not a regular file",
        f"skipping message '{tmp_path}/Maildir/new/b-zero': not a regular file"]


def _long_lines(n: int = 6) -> bytes:
    """Lines much longer than a block: runs of URL characters without a split point
    (longer than the window a line end is looked for in), spaces and URLs between
    them, and line ends far apart; a JSON-ish run too."""
    rnd = random.Random(9)
    lines = []
    for i in range(n):
        parts = []
        for _ in range(rnd.randint(3, 9)):
            parts.append(rnd.choice(["a", "b", "%41"]) * rnd.randint(10, 2500))
            parts.append(rnd.choice([" http://long.example/%d " % i, " x ", " <URL:ftp://w.example/\n  p> "]))
        lines.append("".join(parts))
    return "\n".join(lines).encode() + b"\nlast http://end.example/\n"


def test_lines_longer_than_a_block(client, tmp_path):
    from urlsift.dask.blocks import split_at

    p = tmp_path / "long.log"
    data = _long_lines()
    p.write_bytes(data)
    with open(p, "rb") as f:       # the edges never cross: blocks never overlap
        edges = [split_at(f, o, len(data)) for o in range(0, len(data), 97)]
    assert edges == sorted(edges)
    want = _rows_text(str(p))
    assert want[-1][0] == "http://end.example/" and want[-1][3] == data.count(b"\n")
    for blocksize in (700, 1500, 5000):
        got = _rows_df(udask.extract(str(p), blocksize=blocksize).compute())
        assert got == want, blocksize


def test_a_file_that_grows_is_read_as_it_was(client, tmp_path):
    p = tmp_path / "growing.log"
    p.write_bytes(_log(300, 4) + b"tail http://grow.example/pa")
    want = _rows_text(str(p))
    box = tmp_path / "growing.mbox"
    box.write_bytes(b"From a@b Mon Oct 12 09:00:00 2026\nMessage-ID: <1@x>\n\n"
                    b"http://first.example/\n")
    df = udask.extract([str(p), str(box)], blocksize=4096)
    with open(p, "ab") as f:
        f.write(b"th/longer http://later.example/\n")
    with open(box, "ab") as f:
        f.write(b"\nFrom c@d Mon Oct 12 09:00:00 2026\n\nhttp://later.example/\n")
    pdf = df.compute()
    text = pdf[pdf["file"] == str(p)]
    assert _rows_df(text) == want and want[-1][0] == "http://grow.example/pa"
    assert list(pdf[pdf["file"] == str(box)]["url"]) == ["http://first.example/"]


def test_globs_and_one_partition_per_file(client, tmp_path):
    for name in ("a1.log", "a2.log", "b1.log", "abc.log"):
        (tmp_path / name).write_text(f"see http://{name}.example/\n" * 500)
    (tmp_path / "c.log.gz").write_bytes(gzip.compress(b"gz http://gz.example/\n"))
    files = lambda df: sorted(set(df.compute()["file"]))    # noqa: E731
    assert files(udask.extract(str(tmp_path / "a?.log"))) == [
        str(tmp_path / "a1.log"), str(tmp_path / "a2.log")]
    assert files(udask.extract(str(tmp_path / "[ab]1.log"))) == [
        str(tmp_path / "a1.log"), str(tmp_path / "b1.log")]
    every = udask.extract(str(tmp_path / "*.log*"), blocksize=None)
    assert every.npartitions == 5
    assert udask.extract(str(tmp_path / "*.log*"), blocksize=1000).npartitions > 5
    pdf = every.compute()
    for name in ("a1.log", "abc.log"):
        path = str(tmp_path / name)
        assert _rows_df(pdf[pdf["file"] == path]) == _rows_text(path)


def test_the_graph_is_linear_in_the_blocks(tmp_path):
    # per block a scan, its summary and its frame; per file a fold and the file itself
    p = tmp_path / "many.log"
    p.write_bytes(b"x http://a.example/ y\n" * 20_000)      # 440 000 octets
    for blocks in (10, 100, 1000):
        df = udask.extract(str(p), blocksize=-(-440_000 // blocks), mbox=False)
        assert df.npartitions == blocks
        graph = dict(df.__dask_graph__())
        ours = [k for k in graph if str(k[0] if isinstance(k, tuple) else k).startswith("urlsift-")]
        assert 3 * blocks < len(ours) <= 4 * blocks + 4, blocks
        folds = [k for k in ours if isinstance(k, tuple) and k[0].startswith("urlsift-fold")]
        assert len(folds) == 1


def test_the_kind_given_opens_no_file_on_the_client(tmp_path, monkeypatch):
    import dask
    from fsspec.implementations.local import LocalFileSystem

    p = tmp_path / "a.log"
    p.write_text("http://a.example/\n")
    opened = []
    real = LocalFileSystem._open
    monkeypatch.setattr(LocalFileSystem, "_open",
                        lambda self, path, *a, **k: opened.append(path) or real(self, path, *a, **k))
    with dask.config.set(scheduler="sync"):      # the looks run here, where they are seen
        udask.extract(str(p), mbox=False)
        assert opened == []
        udask.extract(str(p))                   # the kind sniffed: its first octets read
        assert opened == [str(p)]
        # told "text" and not looked into: gzip octets under a plain name are found by
        # the partitions, and the first reads the whole file decompressed
        hidden = tmp_path / "plain-name.log"
        body = _log(300, 8)
        hidden.write_bytes(gzip.compress(body))
        df = udask.extract(str(hidden), mbox=False, blocksize=512)
        assert df.npartitions > 3
        want = [(m.url, str(hidden), m.start, m.line)
                for m in urlsift.extract_file(io.BytesIO(body), line_numbers=True)]
        assert _rows_df(df.compute()) == want and want


def _schema(path: Path) -> list[tuple[str, str]]:
    files = sorted(path.glob("*.parquet")) if path.is_dir() else [path]
    return [(f.name, str(f.type)) for f in pq.read_schema(files[0])]


def test_command_columns_and_types_equal_the_local_command(client, tmp_path, capsys):
    from urlsift.cli import main

    mbox = ROOT / "samples" / "mail.mbox"
    log = ROOT / "samples" / "access.log"
    for name, inputs in (("text", [log]), ("mail", [mbox]), ("both", [log, mbox])):
        one = tmp_path / f"{name}.parquet"
        assert main(["extract", "--format", "parquet", "--with-position", "-o", str(one),
                     *map(str, inputs)]) == 0
        out = tmp_path / f"{name}-dask"
        assert main(["extract", "--dask", client.scheduler.address, "-o", str(out),
                     *map(str, inputs)]) == 0
        assert _schema(out) == _schema(one), name
        local = pq.read_table(one).to_pylist()
        dasked = [r for f in sorted(out.glob("*.parquet"), key=lambda f: int(f.stem[5:]))
                  for r in pq.read_table(f).to_pylist()]
        assert dasked == local, name
    capsys.readouterr()


def test_command_output_folder_and_exit_statuses(client, tmp_path, capsys):
    from urlsift.cli import main

    addr = client.scheduler.address
    a = tmp_path / "a.log"
    a.write_bytes(_log(400, 5))
    out = tmp_path / "out"
    assert main(["extract", "--dask", addr, "-o", str(out), str(a)]) == 0
    first = pq.read_table(out).num_rows
    (out / "part.7.parquet").write_bytes((out / "part.0.parquet").read_bytes())   # stale
    before = sorted(p.name for p in out.iterdir())
    capsys.readouterr()
    assert main(["extract", "--dask", addr, "-o", str(out), str(a)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is not empty" in err and "--overwrite" in err
    assert sorted(p.name for p in out.iterdir()) == before            # left as it was
    assert main(["extract", "--dask", addr, "--overwrite", "-o", str(out), str(a)]) == 0
    assert sorted(p.name for p in out.iterdir()) == ["part.0.parquet"]
    assert pq.read_table(out).num_rows == first                       # no stale rows
    keep = out / "notes.txt"
    keep.write_text("mine")
    assert main(["extract", "--dask", addr, "--overwrite", "-o", str(out), str(a)]) == 2
    assert "notes.txt" in capsys.readouterr().err and keep.read_text() == "mine"
    keep.unlink()
    inside = out / "in.log"
    inside.write_text("http://in.example/\n")
    assert main(["extract", "--dask", addr, "--overwrite", "-o", str(out), str(inside)]) == 2
    assert "inside the output folder" in capsys.readouterr().err and inside.exists()
    none = tmp_path / "none.log"
    none.write_text("no address here\n")
    assert main(["extract", "--dask", addr, "-o", str(tmp_path / "o2"), str(none)]) == 1
    assert main(["extract", "--format", "parquet", "-o", str(tmp_path / "n.parquet"),
                 str(none)]) == 1                                     # as the local command
    md = mailbox.Maildir(str(tmp_path / "Maildir"))
    md.add("Message-ID: <1@x>\n\nhttp://ok.example/\n")
    os.mkfifo(tmp_path / "Maildir" / "new" / "fifo")
    capsys.readouterr()
    assert main(["extract", "--dask", addr, "-o", str(tmp_path / "o3"),
                 str(tmp_path / "Maildir")]) == 2
    err = capsys.readouterr().err
    assert "skipping message" in err and "fifo': not a regular file" in err
    assert pq.read_table(tmp_path / "o3").to_pydict()["url"] == ["http://ok.example/"]
