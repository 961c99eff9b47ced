"""The compiled walk's gate before slashless (issue 27, glued words).

A colon with no ``//`` after it, after the last two letters of a name found without
``//`` (a prefilter pair), is decided by the walk back from the colon. Where every such
name that ends in the pair is 3 or 4 characters long and none may be glued to a word
(``file``, ``url``, ``urn``, ``mid``, ``cid``; not ``news``, ``mailto``), a colon whose
4th and 5th characters before are letters has a run longer than any of them, none glued
to it: no URL, told from five characters without the walk back (``pidfile:``,
``Makefile:``). The trie alone (``_set_prefilter(False)``) and the pure twin are the
reference: every way must give the same spans.
"""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from conftest import scan_three_ways, words_text
from urlsift import _select
from urlsift._scan_py import (GLUE_REACH, K_GLUE, K_KNOWN, K_SHAPE_ALWAYS, K_SLASHLESS,
                              K_URL, SHAPE_GROUP, SHAPE_PATH, known_blob)
from urlsift.text.rules import KNOWN, MAX_LENGTH, MAX_WRAPPER, T_ALPHA, TABLE

TWINS = _select.twins("_scan")
compiled = pytest.mark.skipif("cython" not in TWINS, reason="the Cython core is not built")


def _spans(data: bytes, blob: bytes = KNOWN, table: bytes = TABLE,
           max_length: int = MAX_LENGTH) -> list[tuple[int, int]]:
    got = list(TWINS["python"].scan(data, 0, -1, table, blob, MAX_WRAPPER, max_length))
    return [(got[i], got[i + 1]) for i in range(0, len(got), 3)]


def _every_way(data: bytes, blob: bytes = KNOWN, table: bytes = TABLE,
               max_length: int = MAX_LENGTH) -> list[int]:
    """The triples of the twin, after checking that the compiled walk gives the same
    with SSSE3's look-ups, SSE2's compares and the trie alone (no prefilter, no gate)."""
    twin = list(TWINS["python"].scan(data, 0, -1, table, blob, MAX_WRAPPER, max_length))
    if "cython" in TWINS:
        looked, compared, plain = scan_three_ways(data, blob, table, max_length)
        assert looked == compared == plain == twin, data
    return twin


@pytest.mark.twins
@pytest.mark.parametrize("data, expected", [
    # glued to a word: file, url, urn, mid, cid are never taken from inside one
    (b"pidfile:/run/x.pid Makefile:12 logfile:/var/log/x", []),
    (b"curl:http://a.example/ ok", [(5, 22)]),      # the URL after, not URL: glued
    (b"burn:x humid:a@b acid:a@b", []),
    # whole, after a space or at the buffer's start: the name is the run
    (b"file:/etc/passwd", [(0, 16)]),
    (b"see file:/etc/passwd", [(4, 20)]),
    (b"urn:isbn:0451450523", [(0, 19)]),
    # after a separator the run is the name alone: found
    (b"log_file:/etc/x", [(4, 15)]),
    (b"log file:/etc/x", [(4, 15)]),
    # a "." or a digit is in the run (RFC 1738 scheme characters): the run is no name
    (b"log.file:/etc/x", []),
    (b"log1file:/etc/x", []),
    # news and mailto may be glued: not gated
    (b"hotnews:comp.lang.c", [(3, 19)]),
    (b"contactmailto:a@b.example", [(7, 25)]),
    # one or two letters before the name: the 5th before the colon is no letter
    (b"afile:/x", []),
    (b" afile:/x", []),
    (b"xyfile:/x", []),
    # several candidates in one block of 16, gated and not
    (b"afile:1 file:/x hotnews:a.b", [(8, 15), (19, 27)]),
])
def test_a_glued_name_found_without_slashes_is_decided_as_the_trie_decides(data, expected):
    assert _spans(data) == expected
    _every_way(data)


@pytest.mark.twins
@pytest.mark.parametrize("glue", [b"", b" ", b"x", b"xy", b"xyz", b"hot", b"_", b".",
                                  b"9", b"9x", b"x9", b"\xc3\xa9", b"\xe9x", b"http://a.b/"])
def test_every_name_of_the_policy_glued_or_whole_reads_as_the_trie(glue):
    # a gated pair's colon at every distance from the buffer's start and from the last
    # match (the 5th before the colon at, before and after them)
    for name in ("file", "FILE", "url", "urn", "mid", "cid", "news", "mailto", "tel"):
        for rest in (b"/etc/x", b"a@b.example", b"comp.lang", b"http://a.example/", b"1"):
            for pad in (b"", b"a", b" ", b"ab", b"abc"):
                _every_way(pad + glue + name.encode() + b":" + rest)


@compiled
def test_the_gate_holds_at_the_last_matchs_end():
    # a URL cut by max_length ends inside a word: the run back from the next colon stops
    # at its end, so "file:" right after it is the name whole (the 5th before the colon
    # is inside the match: not gated)
    # (after a run of gated words too: the blocks with the gate then read the colon)
    for length in range(14, 30):
        for data in (b"http://a.example/abcdefile:/x", b"http://a.example/abfile:/etc/x z",
                     b"<URL:http://a/>xfile:/y", b"http://a/ bcfile:/y",
                     b"http://a.example/abcdemid:a@b", b"http://a.example/abcdurl:news:x"):
            for run in (b"", b"logfile:x pidfile:y Makefile:1 profile:z ",
                        b"logfile:x pidfile:y Makefile:1 profile:z ab"):
                _every_way(run + data + b" " * 40, max_length=length)   # blocks to the end
    # a name of 4 found without "//" and without a shape: its colon is gated unless the
    # 5th before is inside the last match
    blob = known_blob({"wxyz": K_KNOWN | K_SLASHLESS, "http": K_KNOWN})
    run = b"aawxyz:1 bbwxyz:2 ccwxyz:3 ddwxyz:4 "
    for length in range(14, 30):
        for data in (b"http://a.example/abcwxyz:q", b"http://a.example/abwxyz:q",
                     b"http://a.example/awxyz:q"):
            _every_way(run + data + b" " * 40, blob, max_length=length)
            _every_way(data + b" " * 40, blob, max_length=length)


# blobs whose pairs are gated or not: a name of 1 to GLUE_REACH characters found
# without "//", one that may be glued, a longer one that ends in the same pair
_BLOBS = {
    "tel": {"tel": K_KNOWN | K_SLASHLESS, "hotel": K_KNOWN},
    "tel glued": {"tel": K_KNOWN | K_SLASHLESS | K_GLUE | SHAPE_GROUP},
    "five": {"file": K_KNOWN | K_SLASHLESS | SHAPE_PATH | K_SHAPE_ALWAYS,
             "xfile": K_KNOWN | K_SLASHLESS},
    "two": {"le": K_KNOWN | K_SLASHLESS, "file": K_KNOWN | K_SLASHLESS},
    "long": {"a" * 32: K_KNOWN | K_SLASHLESS, "ba": K_KNOWN | K_URL, "file": K_KNOWN | K_SLASHLESS},
    "many": {f"z{a}{b}": K_KNOWN | K_SLASHLESS for a in "abcdefghijklmnopq" for b in "xy"},
}


@pytest.mark.twins
@pytest.mark.parametrize("which", sorted(_BLOBS))
def test_a_pair_is_gated_only_where_no_name_ending_in_it_could_be_the_run(which):
    blob = known_blob(_BLOBS[which])
    names = sorted(_BLOBS[which])
    for name in names:
        for glue in (b"", b"x", b"xy", b"xyz", b"abcd", b"_", b" ", b"1", b"a" * 30):
            for rest in (b"/x", b"a.b", b"a@b", b"1"):
                _every_way(b"see " + glue + name.encode() + b":" + rest + b" x", blob)
    if which == "tel":
        assert _spans(b"motel:x hotel:x tel:x", blob) == [(16, 21)]
    if which == "tel glued":        # may be glued: a word before it is left out
        assert _spans(b"motel:x", blob) == [(2, 7)]
    if which == "five":             # xfile is found without "//", glued to nothing
        assert _spans(b"xfile:x yxfile:x", blob) == [(0, 7)]
    if which == "long":             # the name of 32 characters whole
        assert _spans(b"x " + b"a" * 32 + b":b", blob) == [(2, 36)]


@compiled
def test_a_table_whose_letters_are_not_all_alpha_turns_the_gate_off():
    # the gate reads "a letter" as ASCII; where the table says "x" is no letter, the
    # run before "xxfile:" is no longer than "file" for the walk: the trie decides
    table = bytearray(TABLE)
    table[ord("x")] &= ~T_ALPHA & 0xFF
    for data in (b"xxfile:/x", b" xxfile:/x", b"abxxfile:/x a.xxfile:/x"):
        _every_way(data, table=bytes(table))


PIECES = ["file", "FILE", "url", "urn", "mid", "cid", "news", "mailto", "le", "rl", "id",
          "x", "ab", "_", ".", "1", " ", ":", ":/", "://", "/", "<", ">", "@", "\xe9"]
texts = st.lists(st.sampled_from(PIECES), max_size=50).map("".join)


@given(texts, st.integers(min_value=0, max_value=20), st.integers(min_value=8, max_value=80))
def test_the_gate_agrees_with_the_trie_on_any_text(text, pad, max_length):
    _every_way(b"a" * pad + text.encode("utf-8"), max_length=max_length)


# ---- the run before a colon without "//", walked back 16 octets at a time -------------

@pytest.mark.twins
@pytest.mark.parametrize("data, expected", [
    (b"messagenews:comp.lang", [(7, 21)]),           # news glued to a word of 7
    (b"a.b-c+d9messagenews:comp.lang", [(15, 29)]),  # a run of 15 with . - + and a digit
    (b"x" * 40 + b"news:comp", [(40, 49)]),          # a run longer than one block
    (b"URL:http://a.example/ x", [(0, 21)]),
    (b"9url:http://a.example/", [(1, 22)]),          # a scheme starts at a letter: URL: whole
])
def test_the_run_before_a_slashless_name_is_read_as_octet_by_octet(data, expected):
    assert _spans(data) == expected
    _every_way(data)


@pytest.mark.twins
def test_the_run_before_a_slashless_name_at_every_length_and_offset():
    # the run of scheme characters before the colon, 1 to 40 long, ended by each kind
    # of octet (none, a space, "<", a letter over U+007F, a colon, the last match's
    # end), at every offset of a block
    words = b"ab.c-d+e9fghijklmnopqrstuvwxyz0123456789ABCDE"
    for name in (b"news:comp.lang", b"mailto:a@b.example", b"url:http://a.b/", b"file:/x",
                 b"URL:news:x"):
        for length in range(0, 41):
            for before in (b"", b" ", b"<", b"\xc3\xa9", b":", b"http://a.b/"):
                for pad in (b"", b"z" * 5, b" " * 11):
                    _every_way(pad + before + words[:length] + name)


@pytest.mark.twins
def test_a_colon_with_one_slash_after_it_is_read_as_the_trie_reads_it():
    # ":/" after the end of a name found without "//" (file:/x) or after none (path:/x,
    # passed over from one look-up of the two characters before), in either case, and
    # after octets that only "| 0x20" would make a pair's ("\x0b" for "+")
    blob = known_blob({"c+b": K_KNOWN | K_SLASHLESS, "x-1": K_KNOWN | K_SLASHLESS,
                       "file": K_KNOWN | K_SLASHLESS | SHAPE_PATH | K_SHAPE_ALWAYS})
    for name in (b"c+b", b"C+B", b"x-1", b"X-1", b"c\x0bb", b"x\r1", b"file", b"FILE",
                 b"fiLe", b"path", b"a", b""):
        for before in (b"", b" ", b"ab", b"http://a.b/"):
            for rest in (b":/x", b":/", b"://a.b/", b":x"):
                _every_way(before + name + rest + b" z", blob)
                _every_way(before + name + rest + b" z")
    assert _spans(b"path:/x file:/x FILE:/x", blob) == [(8, 15), (16, 23)]


# ---- the blocks with the gate (from three gated colons in a row, each near the last) --

_GLUED = [b"logfile:x", b"Makefile:12", b"pidfile:/run/a", b"curl:1", b"humid:a@b",
          b"burn:x", b"hotnews:comp.lang", b"contactmailto:a@b.example", b"file:/etc/x",
          b"url:http://a.example/", b"hotel:yes", b"subquery:/var/x", b"log_file:/x",
          b"x1file:/y", b"http://www.example.com/a", b"a:b", b"e:b", b"<mailto:a@b>",
          b"ab.file:/z", b"URL:news:x", b"AFILE:/q"]


@pytest.mark.twins
@pytest.mark.parametrize("seed", range(12))
def test_dense_gated_words_are_read_as_the_trie_reads_them(seed):
    # runs of gated words (the blocks then drop them) among names found whole or
    # glued, URLs and other colons, with separators of 1 to 3 octets, so that the
    # candidates fall at every offset of a block and at the block's first lanes
    data = words_text(seed, _GLUED, 400, 0.6, [b" ", b"\n", b"  ", b"\t ", b", "])
    _every_way(data)
    _every_way(data, max_length=20)          # matches cut inside words: the last match


@pytest.mark.twins
def test_the_blocks_with_the_gate_give_way_where_no_candidate_follows():
    # a run of gated words turns the gate's blocks on; colons with no candidate for
    # longer than they read a call (plain blocks again), then candidates again, at the
    # buffer's end and before it
    run = b"logfile:x pidfile:y Makefile:1 profile:z "
    for filler in (b"a:b " * 40, b"a:b " * 200, b"x" * 700, b"e:b" * 300):
        for tail in (b"", b"file:/x", b"hotnews:a.b logfile:x", b"http://a.example/ end"):
            for data in (run + filler + tail, run + run + filler + run + tail,
                         filler + run + tail + filler):
                _every_way(data)


def test_the_gated_words_of_a_run_are_not_urls_and_the_rest_are():
    data = b"logfile:x pidfile:y Makefile:1 profile:z hotnews:a.b file:/etc/x logfile:q"
    assert _spans(data) == [(44, 52), (53, 64)]
    _every_way(data)


# ---- the blocks with the gate 32 octets at a time (AVX2) against 16 at a time ---------
# (_every_way: scan_three_ways compares the two; where the CPU has no AVX2, both are 16)

_RUN = b"logfile:x pidfile:y Makefile:1 "        # gated colons in a row: the blocks on
_AFTER = [b"file:/etc/x", b"hotnews:a.b", b"news:a.b", b"xmailto:a@b.example",
          b"hashtag:/var/x", b"subquery:/", b"x:/", b"a://b.example/", b"http://a.example/",
          b"logfile:/x", b"_file:/x", b"<url:http://a/>", b"URL:news:x", b"abc://"]


@pytest.mark.twins
@pytest.mark.parametrize("word", _AFTER)
def test_a_word_after_gated_words_at_every_offset_of_two_blocks_of_32(word):
    # ":/" and "://" after a pair or none, gated or not, glued or whole, at every lane
    # of two blocks of 32 and across their edges, at the buffer's end and before more
    for pad in range(70):
        for sep in (b" ", b"x", b"_"):
            data = _RUN + b"a" * pad + sep + word
            _every_way(data)
            _every_way(data + b" " + _RUN + b"file:/y")


_LETTERS = b"qrstuvwxyzabcdefghijklmnopqrstuv"    # GLUE_REACH (32) letters


@pytest.mark.twins
@pytest.mark.parametrize("length", [2, 3, 4, 5, 8, 15, 16, 17, 31, 32])
@pytest.mark.parametrize("glued", [False, True], ids=["whole", "may be glued"])
def test_a_name_of_every_length_after_gated_words_reads_as_the_trie(length, glued):
    # a name found without "//" of 2 to GLUE_REACH characters (1 turns the prefilter
    # off) beside file's gated pair, in the blocks with the gate: whole, glued to a
    # letter, after a separator, right after a match, at the buffer's start and end,
    # its colon at every lane of two blocks of 32
    assert len(_LETTERS) == GLUE_REACH
    name = _LETTERS[-length:]
    bits = K_KNOWN | K_SLASHLESS | (K_GLUE | SHAPE_GROUP if glued else 0)
    blob = known_blob({"file": K_KNOWN | K_SLASHLESS, name.decode(): bits, "http": K_KNOWN})
    for before in (b"", b" ", b"ab", b"_", b"<http://a/>", b"http://a.b/ "):
        _every_way(before + name + b":x", blob)                 # at the buffer's start
        for pad in range(66):
            data = _RUN + b"b" * pad + before + name + b":(x)"
            _every_way(data, blob)                              # at its end
            _every_way(data + b" " + _RUN, blob)


@pytest.mark.twins
@pytest.mark.parametrize("word, expected", [
    (b"hashtag:/var/x", []),             # ":/" after no name's end: no URL
    (b"logfile:/var/x", []),             # after file glued to a word: none
    (b"log file:/var/x", [(4, 15)]),     # file whole
    (b"hotnews:a.b", [(3, 11)]),         # news glued: found from its "n"
    (b"hashtag://a.example/", [(0, 20)]),     # "//": the run is the scheme
    (b"x:/ y://a.b/", [(4, 12)]),
])
def test_the_blocks_with_the_gate_find_what_a_user_expects(word, expected):
    for pad in (0, 1, 15, 16, 31, 32, 33):
        head = _RUN + b"a" * pad + b" "
        assert _spans(head + word) == [(len(head) + s, len(head) + e) for s, e in expected]
        _every_way(head + word)


# ---- the gate's octets, every value (the blocks of 32 read them by look-ups) ----------

# the octets next to the letters: "@" and "[" are "`" and "{" less 0x20, "`" and "{" the
# octets either side of a to z; over 127, the same with the top bit
_EDGES = b"@A[Z`a{z09_ .-+" + bytes([0xC0, 0xC1, 0xDA, 0xDB, 0xE0, 0xE1, 0xFA, 0xFB, 0xFF])


@pytest.mark.twins
@pytest.mark.parametrize("where", ["5th", "4th"])
def test_the_gate_reads_every_octet_before_a_gated_pair_as_the_trie(where):
    # file's pair (gated) with any octet as the 5th before its colon (the octet before
    # "file") or the 4th (in place of its "f"): a letter there, and the name is glued
    # (no URL); anything else, as the trie reads it; the colon at every lane of a block
    # of 32 for the octets next to the letters, every octet at a few lanes
    for x in range(256):
        word = (bytes([x]) + b"file:/x") if where == "5th" else (b"a" + bytes([x]) + b"ile:/x")
        for pad in (range(40) if x in _EDGES else (0, 5, 17, 31)):
            _every_way(_RUN + b"b" * pad + b" " + word)
            _every_way(_RUN + b"b" * pad + b" " + word + b" " + _RUN)


@pytest.mark.parametrize("x", b"@[`{_ ")
def test_an_octet_next_to_the_letters_before_file_leaves_file_whole(x):
    # "@", "[", "`", "{" (the octets either side of A-Z and a-z), "_" and a space are
    # no scheme characters (RFC 1738 §2.1): the run is "file" alone, a URL of its own
    head = _RUN + b"b" * 3 + b" " + bytes([x])
    assert _spans(head + b"file:/x") == [(len(head), len(head) + 7)]
    _every_way(head + b"file:/x")


@pytest.mark.parametrize("x", b"AZaz")
def test_a_letter_before_file_glues_it_to_a_word(x):
    # A, Z, a, z (the ends of the letters): "file" glued, none of its URLs
    head = _RUN + b"b" * 3 + b" " + bytes([x])
    assert _spans(head + b"file:/x") == []
    _every_way(head + b"file:/x")


@pytest.mark.twins
@pytest.mark.parametrize("pair", [b"le", b"LE", b"Le", b"lE", b"l\xe5", b"\xecl",
                                  b"l\xc5", b"\xcce", b"\xec\xe5"])
def test_a_pair_is_read_without_case_and_not_past_ascii(pair):
    # a name's last two octets matched without case (FILE:, File:); with the top bit
    # set (0xE5 is "e" | 0x80) they end no name: at every lane of two blocks of 32,
    # whole and glued, in the blocks with the gate and the plain ones, against the trie
    for pad in range(70):
        for head in (b" fi", b" logfi", b" news:a.b fi"):
            _every_way(_RUN + b"b" * pad + head + pair + b":/x")
            _every_way(b"b" * pad + head + pair + b":/x")       # the plain blocks
            _every_way(b"a:b " + b"b" * pad + head + pair + b":/x a:b")


def test_file_in_capitals_is_found_whole_and_not_glued():
    head = _RUN + b"b "
    assert _spans(head + b"FILE:/x") == [(len(head), len(head) + 7)]
    assert _spans(head + b"LOGFILE:/x") == []
    _every_way(head + b"FILE:/x LOGFILE:/x File:/y")
