"""The blocks with the gate handing the walk a batch of candidates (issue 27, glued text).

Where gated words are dense (``pidfile:``, ``Makefile:``), the compiled walk reads the
text by blocks of 32 octets that drop their colons, and these read on past the first
candidate to the next ``://`` or the end of their span, so that the walk takes several
candidates a call. It must find exactly what it finds one candidate a call: a URL may
run over later candidates of the same batch, and after a match the gate reads from the
match's end (a gated word right after a match cut by ``max_length`` is a name whole).
The twin and every other way of the compiled walk are the reference (``_every_way``:
batches, one a call, 16 at a time, SSE2, the trie alone).
"""
from __future__ import annotations

import pytest

from conftest import scan_three_ways, words_text
from urlsift import _select
from urlsift.text.rules import KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE

TWINS = _select.twins("_scan")

_RUN = b"logfile:x pidfile:y Makefile:1 "        # gated colons in a row: the blocks on


def _spans(data: bytes, max_length: int = MAX_LENGTH) -> list[tuple[int, int]]:
    got = list(TWINS["python"].scan(data, 0, -1, TABLE, KNOWN, MAX_WRAPPER, max_length))
    return [(got[i], got[i + 1]) for i in range(0, len(got), 3)]


def _every_way(data: bytes, max_length: int = MAX_LENGTH) -> list[tuple[int, int]]:
    """The twin's spans, after checking that the compiled walk gives the same triples
    every way (scan_three_ways: the batches against one candidate a call too)."""
    twin = list(TWINS["python"].scan(data, 0, -1, TABLE, KNOWN, MAX_WRAPPER, max_length))
    if "cython" in TWINS:
        looked, compared, plain = scan_three_ways(data, KNOWN, None, max_length)
        assert looked == compared == plain == twin, data
    return [(twin[i], twin[i + 1]) for i in range(0, len(twin), 3)]


def _at(head: bytes, spans: list[tuple[int, int]]) -> list[tuple[int, int]]:
    return [(len(head) + s, len(head) + e) for s, e in spans]


@pytest.mark.twins
@pytest.mark.parametrize("text, expected", [
    # several glued news: in one stretch, no "://" between them: each found from "news"
    (b"hotnews:a.b lognews:c.d pidfile:x topnews:e.f",
     [(3, 11), (15, 23), (37, 45)]),
    # a news: URL whole (no shape to fit) that runs over a later candidate (its colon
    # inside the URL)
    (b"news:a.b:lognews:c.d logfile:y", [(0, 20)]),
    # a "://" URL ends the batch; what follows it right away is found
    (b"hotnews:a.b http://a.example/x hotnews:c.d", [(3, 11), (12, 30), (34, 42)]),
    (b"http://a.example/x\nlognews:c.d", [(0, 18), (22, 30)]),
    # a URL over the next "://" and a glued name
    (b"http://a.example/?u=news:x&v=http://b.example/ lognews:q.r",
     [(0, 46), (50, 58)]),
    # gated words alone between matches: none is a URL
    (b"hotnews:a.b pidfile:x logfile:y file:/etc/x", [(3, 11), (32, 43)]),
])
def test_a_batch_finds_what_a_user_expects(text, expected):
    # after gated words (the blocks with the gate read it), the text at every offset
    # of a block of 32
    for pad in range(34):
        head = _RUN + _RUN + b"a" * pad + b" "
        assert _spans(head + text) == _at(head, expected)
        assert _every_way(head + text) == _at(head, expected)


_WORDS = [b"logfile:x", b"pidfile:/run/a", b"Makefile:12", b"hotnews:comp.lang",
          b"lognews:a.b:news:c", b"file:/etc/x", b"http://a.example/a", b"x:/",
          b"hashtag:/var/x", b"contactmailto:a@b.example", b"e:b", b"<url:http://a/>",
          b"news:<a@b>", b"ftp://x/y:news:z"]


@pytest.mark.twins
@pytest.mark.parametrize("seed", range(16))
def test_glued_text_reads_the_same_by_batches(seed):
    # gated words among glued names and URLs at random offsets: candidates at every
    # place of a batch, URLs over later ones, matches at a batch's end and start
    data = words_text(seed, _WORDS, 300, 0.5, [b" ", b"\n", b"", b"  ", b"\t ", b", "])
    _every_way(data)
    _every_way(data, max_length=12 + seed)      # matches cut inside words


@pytest.mark.twins
@pytest.mark.parametrize("word", [b"hotnews:a.b", b"http://a.example/", b"file:/x",
                                  b"hotnews:a.b:news:c", b"logfile:x"])
def test_a_candidate_at_every_place_of_a_batch(word):
    # one to four candidates after the gated words, the word at every lane of three
    # blocks of 32, at the buffer's end and before more candidates of the same batch
    for count in range(1, 5):
        for pad in range(0, 97, 3):
            data = _RUN + (b"hotnews:q.r " * count) + b"a" * pad + b" " + word
            _every_way(data)
            _every_way(data + b" lognews:s.t pidfile:u hotnews:v.w")


@pytest.mark.twins
def test_a_name_right_after_a_match_cut_short_is_found_whole():
    # a URL cut by max_length ends inside a word: "file" right after its end is the
    # name whole (the gate reads from the match's end), though the batch read its
    # colon from before the match
    head = _RUN + _RUN + b"hotnews:q.r "
    url = b"http://a.example/abcdefile:/x"
    for length in range(14, 30):
        data = head + url + b" lognews:s.t"
        cut = len(b"http://a.example/abcde")
        expected = _every_way(data, max_length=length)
        if length == cut - len(b"http:"):   # (max_length: characters after the colon)
            # the URL ends right before "file"
            assert expected[1:3] == [(len(head), len(head) + cut),
                                     (len(head) + cut, len(head) + len(url))]
    # news: glued, cut after "abcde" (a news group): "file" after it is whole
    data = head + b"hotnews:abcdefile:/x pidfile:y"
    assert _every_way(data, max_length=5)[1:] == _at(head, [(3, 13), (13, 20)])
    for glued in (b"hotnews:abcdefile:/x", b"news:abcdmid:a@b", b"hotnews:abcurl:news:x"):
        for length in range(1, 22):
            _every_way(head + glued + b" pidfile:y", max_length=length)
            _every_way(_RUN + glued + b" " * 40, max_length=length)


@pytest.mark.twins
def test_candidates_at_the_buffers_start_and_end():
    for pad in range(40):
        _every_way(b"hotnews:a.b " + _RUN + b"x" * pad + b"hotnews:c.d")
        _every_way(_RUN + b"x" * pad + b"http://a.b/")
        _every_way(_RUN + b"x" * pad + b"lognews:")
        _every_way(_RUN + b"x" * pad + b"pidfile:")
