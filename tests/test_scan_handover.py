"""The triples of a long scan handed over as an ``array('q')`` (issue 27).

From 64 Ki characters on, the compiled walk writes into the result's own memory, with
room for as many triples a character as the last such scan found and an eighth more;
where there are more, it goes on in memory of its own and copies them; where far fewer,
the result is shrunk. Whatever came before, a scan gives its own triples, the twin's,
as an array that behaves as any other.
"""
from __future__ import annotations

import pickle
from array import array

import pytest

from urlsift import _select
from urlsift.text.rules import KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE

TWINS = _select.twins("_scan")

LONG = 1 << 16                      # the compiled walk's LEND_MIN


def _dense(n: int) -> bytes:
    # a URL every 6 to 30 octets: more triples a character than any room made before
    out, i = [], 0
    while sum(map(len, out)) < n:
        out.append(b"a://b " if i % 3 else b"see http://h%d.example/p?q=%d " % (i, i))
        i += 1
    return b"".join(out)


def _sparse(n: int) -> bytes:
    # one URL in the middle of n octets of words
    half = b"word, and more words: no link here.\n" * (n // 72)
    return half + b"http://only.example/one\n" + half


def _scan(core: str, data, start: int = 0, stop: int = -1) -> array:
    return TWINS[core].scan(data, start, stop, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)


@pytest.mark.twins
@pytest.mark.parametrize("order", ["sparse, dense, dense", "dense, sparse, dense",
                                   "dense, dense, sparse"])
def test_a_long_scan_gives_its_own_triples_whatever_the_one_before_found(order):
    texts = {"dense": _dense(LONG + 5000), "sparse": _sparse(LONG + 5000)}
    expected = {k: list(_scan("python", v)) for k, v in texts.items()}
    assert len(expected["dense"]) > 3 * (LONG + 5000) // 16     # more than the first room
    assert len(expected["sparse"]) == 3
    for kind in order.split(", "):
        got = _scan("cython", texts[kind])
        assert isinstance(got, array) and got.typecode == "q"
        assert list(got) == expected[kind], kind


@pytest.mark.twins
def test_a_long_str_and_a_range_of_a_long_buffer_give_the_twins_triples():
    data = _dense(LONG + 3000)
    for text in (data.decode(), data.decode() + "\u0100", data.decode() + "\U00010000"):
        assert list(_scan("cython", text)) == list(_scan("python", text))
    # the room is made for the characters scanned, not the whole buffer
    big = _sparse(4 * LONG) + data
    start = len(big) - len(data)
    assert list(_scan("cython", big, start)) == list(_scan("python", big, start))
    assert list(_scan("cython", big, 0, LONG + 10)) == list(_scan("python", big, 0, LONG + 10))


@pytest.mark.twins
def test_the_array_handed_over_grows_and_pickles_as_any_other():
    data = _dense(LONG + 1000)
    _scan("cython", data)           # the room of the next: this one's triples and more
    got = _scan("cython", data)
    n = len(got)
    expected = list(_scan("python", data))
    got.append(7)
    got.extend(range(100))
    assert len(got) == n + 101 and list(got[:n]) == expected and got[n] == 7
    assert pickle.loads(pickle.dumps(got)) == got
    del got[n:]
    assert got == array("q", expected)


@pytest.mark.twins
def test_a_long_text_without_a_url_gives_an_empty_array():
    data = b"no link, only words: and colons.\n" * (LONG // 30)
    got = _scan("cython", data)
    assert got == array("q") and got.typecode == "q"
    assert list(_scan("python", data)) == []
