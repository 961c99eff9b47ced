"""The line table of the command's ``--unique`` and ``--host`` (``urlsift._lines_py`` and
its compiled twin): distinct URL lines counted and decided once each, by their octets
(issue 27: ``-u`` and ``--host`` within 1.5x of plain ``extract``)."""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from urlsift import _select

TWINS = _select.twins("_lines")


@pytest.fixture
def table(core_kind):
    """The LineTable class of the core the test runs on (tests/conftest.py)."""
    return TWINS[core_kind].LineTable


def test_first_seen_gives_each_line_once_in_order_and_counts_all(table):
    t = table()
    assert t.first_seen(b"http://a/\nhttp://b/\nhttp://a/\n") == b"http://a/\nhttp://b/\n"
    assert t.first_seen(b"http://b/\n\nhttp://c/\n") == b"\nhttp://c/\n"   # "" is a line too
    assert t.counts() == [(b"http://a/", 2), (b"http://b/", 2), (b"", 1), (b"http://c/", 1)]
    assert len(t) == 4


def test_count_and_what_follows_the_last_newline(table):
    t = table()
    t.count(b"x\ny\nx\nno newline")            # a blob is lines each ended by a newline
    t.count(b"")
    assert t.counts() == [(b"x", 2), (b"y", 1)]


def test_sift_asks_once_per_distinct_line_and_keeps_the_answer(table):
    asked = []

    def keep(line):
        asked.append(line)
        return line.startswith(b"https:")

    t = table()
    assert t.sift(b"https://a/\nhttp://b/\nhttps://a/\n", keep) == b"https://a/\nhttps://a/\n"
    assert t.sift(b"http://b/\nhttps://c/\n", keep) == b"https://c/\n"
    assert asked == [b"https://a/", b"http://b/", b"https://c/"]
    assert t.counts() == [(b"https://a/", 2), (b"http://b/", 2), (b"https://c/", 1)]


def test_a_question_that_fails_leaves_the_line_undecided(table):
    t = table()

    def broken(line):
        raise ValueError("no")

    with pytest.raises(ValueError):
        t.sift(b"http://a/\n", broken)
    assert t.sift(b"http://a/\n", lambda line: True) == b"http://a/\n"


def test_a_question_failing_mid_blob_leaves_what_follows_unread(table):
    # the compiled table hashes lines some way ahead of their lookups: a question that
    # fails on the 11th line still leaves the 10 before it counted, itself met and
    # undecided, and the 9 after it untouched, as the twin's line-by-line reading does
    lines = [b"http://h%d.example/" % i for i in range(20)]
    t = table()

    def keep(line):
        if line == lines[10]:
            raise ValueError("no")
        return True

    with pytest.raises(ValueError):
        t.sift(b"".join(x + b"\n" for x in lines), keep)
    assert t.counts() == [(x, 1) for x in lines[:10]] + [(lines[10], 0)]
    assert t.first_seen(b"".join(x + b"\n" for x in lines[9:12])) == lines[10] + b"\n" + lines[11] + b"\n"


def test_many_distinct_lines_grow_the_table(table):
    # past the first slots and arena (64 entries, 4 KiB of octets): nothing lost
    lines = [b"http://h%d.example/%s" % (i, b"p" * (i % 97)) for i in range(5000)]
    t = table()
    t.count(b"".join(x + b"\n" for x in lines))
    assert t.first_seen(b"".join(x + b"\n" for x in lines[::-1])) == b""
    assert t.counts() == [(x, 2) for x in lines]


def test_what_it_takes(table):
    t = table()
    for bad in ("http://a/\n", None, bytearray(b"x\n")):
        with pytest.raises(TypeError):
            t.count(bad)


blobs = st.lists(st.sampled_from([b"", b"a", b"b", b"http://a/", b"http://a/x", b"\xff\x00"]),
                 max_size=30).map(lambda ls: b"".join(x + b"\n" for x in ls))


@pytest.mark.twins
@given(st.lists(st.tuples(st.sampled_from(["count", "first_seen", "sift"]), blobs),
                max_size=8))
def test_twins_agree(ops):
    tables = {k: m.LineTable() for k, m in TWINS.items()}
    for op, blob in ops:
        got = {}
        for k, t in tables.items():
            if op == "sift":
                got[k] = t.sift(blob, lambda line: len(line) % 2 == 0)
            else:
                got[k] = getattr(t, op)(blob)
        assert len(set(map(repr, got.values()))) == 1, (op, blob, got)
    assert len({repr(t.counts()) for t in tables.values()}) == 1


# ---- the compiled table's hash: fast and keyed, SipHash after a long probe --------------

def _distinct(n):
    return [b"http://h%d.example/%s" % (i, b"q" * (i % 41)) for i in range(n)]


@pytest.fixture
def compiled(core_kind):
    """The compiled twin, on its own run only (the pure one has no hash of its own)."""
    if core_kind != "cython":
        pytest.skip("the compiled table's hash")
    return TWINS["cython"]


def test_the_compiled_table_keeps_its_fast_hash_on_lines_it_spreads(compiled):
    t = compiled.LineTable()
    lines = _distinct(20000)
    t.count(b"".join(x + b"\n" for x in lines))
    assert t.hashing == "fold"
    assert t.counts() == [(x, 1) for x in lines]


@pytest.mark.parametrize("limit", [0, 1, 3])
def test_a_long_probe_turns_the_compiled_table_to_siphash_and_loses_nothing(compiled, limit):
    # a limit this low is passed at the first collisions (crafted lines would pass the
    # real one): the entries are hashed again, the lines hashed ahead of their lookups
    # too, and every count and verdict stays where it was
    twin = compiled
    was = twin._set_probe_limit(limit)
    try:
        t = twin.LineTable()
    finally:
        twin._set_probe_limit(was)
    lines = _distinct(3000)
    blob = b"".join(x + b"\n" for x in lines)
    assert t.sift(blob, lambda line: line.endswith(b"qq")) == b"".join(
        x + b"\n" for x in lines if x.endswith(b"qq"))
    assert t.hashing == "siphash"
    assert t.first_seen(blob[::-1][1:] + b"\n") != b""       # other lines: new
    assert t.sift(blob, lambda line: 1 / 0) == b"".join(      # asked no more
        x + b"\n" for x in lines if x.endswith(b"qq"))
    assert t.counts()[:3000] == [(x, 2) for x in lines]
