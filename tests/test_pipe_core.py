"""The scan pipeline (Cython ``_pipe_c`` on worker threads, pure ``_pipe_py`` in turn).

A ``Pipeline`` must hand back, in order, exactly the pieces that ``_filescan`` would cut
(the first split point at or after ``start + block``, looked for a window at a time) and
each piece's triples as one ``scan`` of it gives them, however many workers race for
the pieces and whenever the consumer stops.
"""
from __future__ import annotations

import mmap
import threading

import pytest
from hypothesis import given, settings, strategies as st

from urlsift import _scan_py, _select
from urlsift._select import cores
from urlsift.text.rules import KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE

TWINS = _select.twins("_pipe")

PIECES = [b"http://", b"mailto:", b"<URL:", b"<", b">", b"URL:", b"a", b"b.c", b"/", b":", b" ",
          b"\n", b"-\n ", b".", b")", b"\x00", b"\xff", b'"', b"\n\n"]
texts = st.lists(st.sampled_from(PIECES), max_size=80).map(b"".join)


def pipeline(buf, block, window=64, workers=1, kind=None):
    module = TWINS[kind] if kind else cores.pipe
    return module.Pipeline(buf, block, window, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH, workers)


def taken(p):
    try:
        return [(list(arr), a, b) for arr, a, b in iter(p.take, None)]
    finally:
        p.close()


def reference(buf, block, window):
    """The pieces cut one after the other, each scanned alone (the serial rule)."""
    n, a, out = len(buf), 0, []
    while a < n:
        b, pos = n, a + block
        while pos < n:
            r = cores.scan.next_boundary(buf, pos, min(pos + window, n), TABLE)
            if r >= 0:
                b = r
                break
            pos += window
        out.append((list(cores.scan.scan(buf, a, b, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)), a, b))
        a = b
    return out


def test_pieces_of_a_short_text_worked_out_by_hand():
    # "x <URL:http://a.example/\n b> y\nz http://c.example/ w\n" (53 octets), block 5:
    # piece 1 ends after the first "\n" (24) at 25, and its wrapper runs on to ">" (27);
    # piece 2 ends after the "\n" at 30; piece 3 runs to the end (the last "\n" is at 52).
    text = b"x <URL:http://a.example/\n b> y\nz http://c.example/ w\n"
    wrapped = _scan_py.WRAPPED | _scan_py.PREFIX | _scan_py.WHITESPACE
    assert taken(pipeline(text, 5)) == [([2, 28, wrapped], 0, 25), ([], 25, 31),
                                        ([33, 50, 0], 31, 53)]


def test_an_empty_buffer_has_no_piece():
    assert taken(pipeline(b"", 4)) == []


def test_no_split_point_makes_one_piece_to_the_end():
    # only URL characters: no octet after which a bare URL could end
    text = b"http://x.example/" + b"a" * 300
    assert taken(pipeline(text, 10, window=16)) == [([0, len(text), 0], 0, len(text))]


@settings(deadline=None)
@given(texts, st.integers(1, 40), st.integers(1, 40), st.integers(1, 3))
def test_pieces_are_the_serial_pieces(data, block, window, workers):
    assert taken(pipeline(data, block, window, workers)) == reference(data, block, window)


def test_many_workers_on_many_pieces_keep_the_order():
    line = b'1.2.3.4 - - "GET /a HTTP/1.0" 200 9 "http://ref.example/p?q=1" "bot (+http://b.example/)"\n'
    data = line * 4000
    want = reference(data, 997, 4096)
    for workers in (1, 2, 3, 5):
        for _ in range(3):
            assert taken(pipeline(data, 997, 4096, workers)) == want


def test_closing_early_stops_the_workers_and_releases_the_buffer(tmp_path):
    path = tmp_path / "log"
    path.write_bytes(b"see http://x.example/ now\n" * 20000)
    with open(path, "rb") as f:
        mm = mmap.mmap(f.fileno(), 0, access=mmap.ACCESS_READ)
        p = pipeline(mm, 100, workers=2)
        first = p.take()     # 26-octet lines: the first split point at or after 100 is 104
        assert first is not None and first[1:] == (0, 104)
        assert list(first[0]) == [4, 21, 0, 30, 47, 0, 56, 73, 0, 82, 99, 0]
        p.close()
        p.close()                                   # idempotent
        assert p.take() is None
        mm.close()                                  # raises BufferError if a view were kept
    assert not [t for t in threading.enumerate() if t.name.startswith("urlsift-scan")]


@pytest.mark.parametrize("args, error", [
    ((b"x", 4, 64, TABLE[:255], KNOWN, 10, 10, 1), ValueError),     # table not 256 entries
    ((b"x", 0, 64, TABLE, KNOWN, 10, 10, 1), ValueError),           # block
    ((b"x", 4, 0, TABLE, KNOWN, 10, 10, 1), ValueError),            # window
    ((b"x", 4, 64, TABLE, KNOWN, 10, 10, 0), ValueError),           # workers
    (("text", 4, 64, TABLE, KNOWN, 10, 10, 1), TypeError),          # not a buffer
])
def test_bad_arguments(args, error):
    with pytest.raises(error):
        cores.pipe.Pipeline(*args)


@pytest.mark.twins
@settings(deadline=None)
@given(texts, st.integers(1, 40), st.integers(1, 40))
def test_twins_agree(data, block, window):
    assert taken(pipeline(data, block, window, 2, "cython")) == \
        taken(pipeline(data, block, window, 2, "python"))
