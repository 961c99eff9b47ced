"""The scanner's lookup of scheme names (issue 27) and its prefilter.

The known schemes reach the walk as a trie read backwards from the colon
(``_scan_py.known_blob``): one walk back of at most GLUE_REACH characters per colon says
whether the run before it is a known scheme, one found without ``//``, one that may be
glued to a word. The compiled walk skips every colon that has neither ``/`` after it
(``//`` where it looks octet by octet) nor the last two letters of such a name before it
(SSE2 blocks, or ``memchr`` and a look), and walks a URL after ``//`` 16 octets at a time where the table allows; the
plain walk, every colon through the trie and every octet on its own, is the reference:
both must give the same spans on every input.
"""
from __future__ import annotations

import pytest
from hypothesis import given, strategies as st

from conftest import scan_three_ways
from urlsift import _scan_py, _select
from urlsift._scan_py import (K_ANGLE, K_GLUE, K_KNOWN, K_SLASHLESS, K_URL, SHAPE_GROUP,
                              _suffixes, _trie, known_blob)
from urlsift.text.rules import (KNOWN, KNOWN_SCHEMES, KNOWN_WITHOUT_SLASHES, MAX_LENGTH,
                                MAX_WRAPPER, SCHEME_ATTRIBUTES, TABLE)

TWINS = _select.twins("_scan")
compiled = pytest.mark.skipif("cython" not in TWINS, reason="the Cython core is not built")


def test_the_attributes_of_a_run_are_read_in_one_walk_back():
    blob = known_blob({"news": K_KNOWN | K_SLASHLESS | K_GLUE | SHAPE_GROUP,
                       "snews": K_KNOWN, "ws": K_KNOWN})
    # "xsnews:" read from the colon: s, w, e, n, s, x -- "ws" at 2, news at 4, snews at 5
    att = _suffixes(b"xsnews:", 0, 6, _trie(blob))
    assert len(att) == 6                        # the walk stops at "x": no name goes on
    assert att[2] == K_KNOWN
    assert att[4] == K_KNOWN | K_SLASHLESS | K_GLUE | SHAPE_GROUP
    assert att[5] == K_KNOWN
    assert att[1] == att[3] == 0


def test_the_walk_back_is_case_blind_and_stops_at_the_limit():
    blob = known_blob({"news": K_KNOWN})
    assert _suffixes(b"NeWs:", 0, 4, _trie(blob))[4] == K_KNOWN
    assert len(_suffixes(b"news:", 2, 4, _trie(blob))) == 3      # "ws" only: from 2 on


def test_the_policy_gives_each_name_its_bits():
    assert SCHEME_ATTRIBUTES["news"] & (K_SLASHLESS | K_ANGLE | K_GLUE) == \
        K_SLASHLESS | K_ANGLE | K_GLUE
    assert SCHEME_ATTRIBUTES["mailto"] & K_GLUE
    for name in ("file", "urn", "mid", "cid"):        # never taken from inside a word
        assert not SCHEME_ATTRIBUTES[name] & K_GLUE
    assert SCHEME_ATTRIBUTES["url"] & K_URL
    assert SCHEME_ATTRIBUTES["http"] == K_KNOWN
    assert all(SCHEME_ATTRIBUTES[n] & K_KNOWN for n in KNOWN_SCHEMES)
    assert all(SCHEME_ATTRIBUTES[n] & K_SLASHLESS for n in KNOWN_WITHOUT_SLASHES)


def test_the_prefilter_pairs_are_the_ends_of_the_slashless_names():
    nodes = int.from_bytes(KNOWN[4:8], "little")
    tail = KNOWN[_scan_py._HEAD + nodes * (1 + 2 * _scan_py.N_SYMBOLS):]
    pairs = {tail[1 + 2 * i:3 + 2 * i] for i in range(tail[0])}
    expected = {(n[-1] + n[-2]).encode() for n in (*KNOWN_WITHOUT_SLASHES, "url")}
    assert pairs == expected          # "ot" of mailto, "sw" of news, "lr" of url, ...


@pytest.mark.parametrize("names, why", [
    ({"": K_KNOWN}, "empty"),
    ({"a_b": K_KNOWN}, "not a scheme character"),
    ({"x" * 33: K_KNOWN}, "longer than GLUE_REACH"),
])
def test_a_name_the_trie_cannot_hold_is_refused(names, why):
    with pytest.raises(ValueError, match="not a scheme name"):
        known_blob(names)


def test_a_short_slashless_name_turns_the_prefilter_off():
    blob = known_blob({"x": K_KNOWN | K_SLASHLESS, "http": K_KNOWN})
    assert blob[-1] == _scan_py.NO_PREFILTER
    for twin in TWINS.values():       # and the walk still finds "x:" (every colon looked at)
        got = list(twin.scan(b"see x:y now", 0, -1, TABLE, blob, MAX_WRAPPER, MAX_LENGTH))
        assert got[:2] == [4, 7]


@pytest.mark.parametrize("blob", [b"", b"mailto\0news\0\0", KNOWN[:-1], KNOWN + b"\0",
                                  b"USK1" + bytes(300)])
def test_a_known_blob_that_is_no_trie_is_refused_by_both_cores(blob):
    for twin in TWINS.values():
        with pytest.raises(ValueError, match="trie of scheme names"):
            twin.scan(b"http://x.example/", 0, -1, TABLE, blob, MAX_WRAPPER, MAX_LENGTH)


def test_a_child_out_of_range_is_refused_by_both_cores():
    bad = bytearray(KNOWN)
    nodes = int.from_bytes(KNOWN[4:8], "little")
    at = _scan_py._HEAD + nodes + 2 * 5            # the root's child for symbol 5 ("e")
    bad[at:at + 2] = (nodes + 7).to_bytes(2, "little")
    for twin in TWINS.values():
        with pytest.raises(ValueError, match="trie of scheme names"):
            twin.scan(b"x", 0, -1, TABLE, bytes(bad), MAX_WRAPPER, MAX_LENGTH)


# ---- the prefilter against the plain walk ----------------------------------------------

PIECES = ["http", "news", "NEWS", "mailto", "file", "url", "URL", "urn", "mid", "cid",
          "make", "message", "snews", "jar", ":", ":/", "://", "/", "<", ">", "@", " ",
          "\n", "a", "e", "b", "1", ".", "..", "+", "-", "x", "to", "ws", "le", "rl", "id",
          "é", "日", "\U0001f600", "=", "\\"]
texts = st.lists(st.sampled_from(PIECES), max_size=60).map("".join)


def _with_and_without_prefilter(data, table=TABLE):
    scan = TWINS["cython"]
    was = scan._set_prefilter(True)
    try:
        fast = list(scan.scan(data, 0, -1, table, KNOWN, MAX_WRAPPER, MAX_LENGTH))
        scan._set_prefilter(False)
        plain = list(scan.scan(data, 0, -1, table, KNOWN, MAX_WRAPPER, MAX_LENGTH))
    finally:
        scan._set_prefilter(was)
    return fast, plain


def _table_without(table, octets, bits):
    return bytes(b & ~bits if i in octets else b for i, b in enumerate(table))


@pytest.mark.twins
def test_a_url_walked_16_octets_at_a_time_ends_where_octet_by_octet():
    # the URL's walk reads blocks of 16 (SSE2) where the table's PLAIN octets are "!" to
    # "~" less a few: every URL length from 1 to 40 after "//", ended by every octet that
    # is not PLAIN (brackets, quotes, controls, space, DEL, octets over 0x7F, "=" + LF);
    # with the policy's table, one with "x" taken out of PLAIN (one compare more),
    # and one with 17 printable octets out of it (no blocks: octet by octet)
    from urlsift._layout import T_PLAIN
    tables = [TABLE, _table_without(TABLE, {ord("x")}, T_PLAIN),
              _table_without(TABLE, set(range(ord("a"), ord("q"))), T_PLAIN)]
    enders = [b"", b" ", b"\t", b"\n", b"(a)", b")", b"[", b"]", b"]((", b'"', b"<", b">",
              b"\\", b"^", b"`", b"{", b"|", b"}", b"\x7f", b"\x00", b"\xc3\xa9z", b"\xe9",
              b"=\nx", b".", b"?!"]
    # the URLs after a colon without "//" (URL:http://..., mailto:) are walked the same way
    for table in tables:
        for head in (b"see http://", b"see URL:http://", b"see mailto:"):
            for length in range(1, 41):
                for end in enders:
                    data = head + (b"abcdefghijklmnopqrstuvwxyz0123456789-~%/" * 2)[:length] + end
                    fast, plain = _with_and_without_prefilter(data, table)
                    assert fast == plain, (head, length, end)
                    assert fast == list(TWINS["python"].scan(
                        data, 0, -1, table, KNOWN, MAX_WRAPPER, MAX_LENGTH)), (head, length, end)


@pytest.mark.twins
@given(texts, st.integers(min_value=0, max_value=20))
def test_the_prefilter_finds_what_the_plain_walk_finds(text, pad):
    # padding moves the colons across the 16-octet blocks; str of 1, 2 and 4 octets too
    for data in (text.encode(), ("p" * pad + text).encode(), text, text + "\u0100",
                 text + "\U00010000"):
        fast, plain = _with_and_without_prefilter(data)
        assert fast == plain
        assert fast == list(TWINS["python"].scan(data, 0, -1, TABLE, KNOWN,
                                                  MAX_WRAPPER, MAX_LENGTH))


@pytest.mark.twins
def test_the_prefilter_at_the_edges_of_a_block():
    # a candidate at every offset of a 48-octet buffer: first, last, across blocks
    for at in range(0, 44):
        for word in (b"news:x", b"a://b", b"NeWs:y", b"e:b", b"xmailto:a@b", b"host:/p",
                     b"file:/p", b"pidfile:/p", b"a:/"):
            data = (b"." * at + word + b" " * 48)[:max(48, at + len(word))]
            fast, plain = _with_and_without_prefilter(data)
            assert fast == plain, (at, word)


def _spans(data, blob=KNOWN):
    # (start, end) of each match, from both cores
    got = {name: list(twin.scan(data, 0, -1, TABLE, blob, MAX_WRAPPER, MAX_LENGTH))
           for name, twin in TWINS.items()}
    first = next(iter(got.values()))
    assert all(g == first for g in got.values()), got
    return [(first[i], first[i + 1]) for i in range(0, len(first), 3)]


@pytest.mark.twins
@pytest.mark.parametrize("data, expected", [
    (b"trace_id:7ac4", []),                  # "id" ends "mid" and "cid", but "_" is no name's
    (b"id:7ac4", []),                        # the run starts the buffer
    ("\u0100id:7ac4", []),   # after a character over U+00FF
    (b"x_cid:foo4@bar.net", [(2, 18)]),      # three: the walk back reads them (RFC 2392)
    (b"cid:foo4@bar.net", [(0, 16)]),
    ("\u0100cid:foo4@bar.net", [(1, 17)]),
    (b"http://a.b/ id:x cid:y@z.example", [(0, 11), (17, 32)]),
    (b"trace_id:7ac4 url:http://a.b/c", [(14, 30)]),   # URL: stands before http (a PREFIX)
])
def test_a_colon_after_two_characters_of_a_name_decided_without_the_walk_back(data, expected):
    # no name found without "//" is two characters long: the one before those two
    # decides (compiled, with the prefilter); both cores, and the plain walk, agree
    assert _spans(data) == expected
    if "cython" in TWINS:
        fast, plain = _with_and_without_prefilter(data)
        assert fast == plain


@pytest.mark.twins
def test_a_slashless_name_of_two_characters_is_still_read():
    # with such a name the two characters before the colon do not decide: read as ever
    blob = known_blob({"ws": K_KNOWN | K_SLASHLESS, "http": K_KNOWN})
    assert _spans(b"see ws:abc") == []               # not a name of the policy's
    assert _spans(b"see ws:abc", blob) == [(4, 10)]
    assert _spans(b"x_ws:abc", blob) == [(2, 8)]
    assert _spans(b"ws:abc", blob) == [(0, 6)]


# ---- the walk's setup, made once per (table, blob) pair --------------------------------

def _without_x(table):
    # "x" neither PLAIN nor BARE: a URL's walk (16 octets at a time or not) stops before it
    from urlsift._layout import T_BARE, T_PLAIN
    return _table_without(table, {ord("x")}, T_PLAIN | T_BARE)


@pytest.mark.twins
def test_each_table_and_blob_of_a_call_is_its_own_whatever_came_before():
    # the compiled core keeps what it reads from the last (table, blob) pair between
    # calls: a call with another pair, or with the first again, must read its own
    data = b"see http://abcdefghijklmnopqrstuvwxyz/ ok ws:abc"
    ws = known_blob({"ws": K_KNOWN | K_SLASHLESS, "http": K_KNOWN})
    cut = _without_x(TABLE)
    calls = [(TABLE, KNOWN, [(4, 38)]),          # "http://a...z/"; "ws" is no name
             (cut, KNOWN, [(4, 34)]),            # "http://a...w": "x" ends it
             (TABLE, ws, [(4, 38), (42, 48)]),   # "ws:abc" with a blob that knows it
             (cut, ws, [(4, 34), (42, 48)]),
             (bytes(bytearray(TABLE)), KNOWN, [(4, 38)]),     # an equal copy: the same
             (TABLE, KNOWN, [(4, 38)])]
    for twin in TWINS.values():
        for table, blob, expected in calls * 2:
            got = list(twin.scan(data, 0, -1, table, blob, MAX_WRAPPER, MAX_LENGTH))
            assert [(got[i], got[i + 1]) for i in range(0, len(got), 3)] == expected


@pytest.mark.twins
def test_a_scan_after_a_larger_one_gives_its_own_triples_only():
    # the compiled core keeps the last call's triple buffer for the next: what a call
    # returns is what its own text holds, whatever the calls before it found
    many = b"see http://a.example/x ok\n" * 5000          # 5 000 URLs, 15 000 numbers
    for twin in TWINS.values():
        def scan(data):
            return list(twin.scan(data, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH))
        assert len(scan(many)) == 15000
        assert scan(b"no link here") == []
        assert scan(b"one: ftp://b.example/") == [5, 21, 0]
        assert len(scan(many * 3)) == 45000                  # larger than the kept one
        assert scan(b"x") == []


@compiled
def test_walks_on_two_threads_with_two_tables_read_their_own():
    # the walk runs without the GIL: a call with another table, made meanwhile on
    # another thread, must not change the setup a running walk reads
    from concurrent.futures import ThreadPoolExecutor
    scan = TWINS["cython"]
    data = b"see http://abcdefghijklmnopqrstuvwxyz/ ok\n" * 20000
    tables = [TABLE, _without_x(TABLE)]
    ends = [38, 34]

    def run(k: int) -> bool:
        table = tables[k % 2]
        got = scan.scan(data, 0, -1, table, KNOWN, MAX_WRAPPER, MAX_LENGTH)
        return len(got) == 3 * 20000 and got[1] - got[0] == ends[k % 2] - 4
    with ThreadPoolExecutor(2) as pool:
        assert all(pool.map(run, range(16)))


# ---- the walk back to a scheme's start, 16 octets at a time ----------------------------

@pytest.mark.twins
def test_the_walk_back_to_the_scheme_starts_where_octet_by_octet():
    # the run of scheme characters before "://" is read 16 octets at a time (SSE2) where
    # the table's SCHEME octets are RFC 1738's: every run length from 1 to 40, every
    # octet before it (the run's end: a SCHEME octet of no other class, space, quote, an
    # octet over 0x7F, the last match's end, an ellipsis: can...http://), at every offset
    # of a 16-octet block; and a table with "_" among the SCHEME octets (octet by octet)
    from urlsift._layout import T_SCHEME
    wider = bytes(b | T_SCHEME if i == ord("_") else b for i, b in enumerate(TABLE))
    schemes = b"Https+x-y.z0123456789abcdefghijklmnopqrstuvwxyz"
    befores = [b"", b" ", b'"', b"_", b"\xc3\xa9", b"\xff", b"http://a.b/ ", b"..", b"9",
               b"+", b"<", b"\x00", b"can...", b"x..y", b"see ..", b"a.b.c"]
    for table in (TABLE, wider):
        for length in range(1, 41):
            for before in befores:
                for pad in (0, 5, 15, 16, 17):
                    data = b"." * pad + before + schemes[-length:] + b"://host.example/p x"
                    fast, plain = _with_and_without_prefilter(data, table)
                    assert fast == plain, (length, before, pad)
                    assert fast == list(TWINS["python"].scan(
                        data, 0, -1, table, KNOWN, MAX_WRAPPER, MAX_LENGTH)), (length, before, pad)


@pytest.mark.twins
@pytest.mark.parametrize("data, expected", [
    (b"xhttps://a.example/", [(0, 19)]),            # the run is the scheme, whole
    (b"say:https://a.example/", [(4, 22)]),         # ":" is no scheme character
    (b"0123456789abcdef+http://a.example/", [(10, 34)]),   # from its first letter on
    (b"\xc3\xa9http://a.example/", [(2, 19)]),     # after a letter over U+007F
    (b"see...http://a.example/", [(6, 23)]),        # after an ellipsis (its last "..")
    (b"a.b.http://a.example/", [(0, 21)]),          # "." alone is a scheme character
])
def test_the_scheme_of_a_url_with_slashes_is_the_run_before_its_colon(data, expected):
    # RFC 1738 section 5: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]; the URL
    # starts at the run's first letter
    assert _spans(data) == expected


@pytest.mark.twins
def test_a_url_walked_on_after_a_soft_break_or_a_letter_ends_where_octet_by_octet():
    # past a QP soft line break (RFC 2045 section 6.7) the URL's ASCII run is walked 16
    # octets at a time again, past a letter over U+007F one octet at a time: every tail
    # of 1 to 40 octets, ended by every kind of octet, against the plain walk and the twin
    from urlsift.text.rules import TEXT_OCTETS
    scan = TWINS["cython"]
    enders = [b"", b" ", b"\n", b"(a)", b")", b"]((", b'"', b"<", b"\x7f", b"\xc3\xa9z",
              b"\xe9", b"=\nx", b"=\r\nx", b".", b"?!"]
    line = b"see http://www.example.com/" + b"p" * 45          # a QP line of 72
    for middle in (b"=\n", b"=\r\n", b"\xc3\xa9", b"\xd0\xb6"):       # é, ж
        for length in range(1, 41):
            for end in enders:
                data = line + middle + (b"abcdefghijklmnopqrstuvwxyz0123456789-~%/" * 2)[:length] + end
                was = scan._set_prefilter(True)
                try:
                    fast = list(scan.scan(data, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH,
                                          TEXT_OCTETS))
                    scan._set_prefilter(False)
                    plain = list(scan.scan(data, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH,
                                           TEXT_OCTETS))
                finally:
                    scan._set_prefilter(was)
                twin = list(TWINS["python"].scan(data, 0, -1, TABLE, KNOWN, MAX_WRAPPER,
                                                 MAX_LENGTH, TEXT_OCTETS))
                assert fast == plain == twin, (middle, length, end)
                # the URL runs over the break or the letter (its end: past the middle)
                assert fast[1] > len(line) + len(middle), (middle, length, end)


# ---- the last four characters before a colon, hashed -----------------------------------

@pytest.mark.twins
@pytest.mark.parametrize("glue", [b"", b" ", b"x", b"hot", b"9", b"_", b"make", b"\xc3\xa9",
                                  b"http://a.b/"])
def test_every_name_read_in_one_look_up_is_read_as_through_the_trie(glue):
    # the compiled walk back reads the last four characters before a colon from a hash
    # of the trie's paths of four, then walks the trie on: every known name, in both
    # cases, whole, glued to a word, a digit, or after the last match, with the text a
    # slashless name wants (news:comp.lang, mailto:a@b.example, file:/x) -- the same
    # spans as the trie alone (_set_prefilter(False)) and the twin
    for name in sorted(SCHEME_ATTRIBUTES):
        for case in (name, name.upper()):
            for rest in (b"comp.lang.c", b"a@b.example", b"/etc/x", b"<a@b>", b"1"):
                data = b"see " + glue + case.encode() + b":" + rest + b" ok"
                fast, plain = _with_and_without_prefilter(data)
                assert fast == plain, data
                assert fast == list(TWINS["python"].scan(
                    data, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)), data


@pytest.mark.twins
def test_a_blob_with_more_paths_of_four_than_the_hash_holds_is_read_through_the_trie():
    # 2 400 names of four letters and more: the compiled core keeps no hash of them
    # (more than half its slots), and walks the trie for each; the same spans
    letters = "abcdefghijklmnopqrstuvwxyz"
    names = {"q" + a + b + c: K_KNOWN | K_SLASHLESS for a in letters[:20]
             for b in letters[:12] for c in letters[:10]}
    names["http"] = K_KNOWN
    blob = known_blob(names)
    # names whole; not glued to a word (no K_GLUE); "qzzz" is none
    assert _spans(b"see qabc:x qtlj:y xqabc:z qzzz:w", blob) == [(4, 10), (11, 17)]


@pytest.mark.twins
def test_a_wrapped_url_walked_four_octets_a_branch_ends_where_the_twin_ends():
    # inside <...> and <URL:...> (RFC 1738 appendix) the run of wrapper characters is
    # read four octets a branch: every run length from 1 to 40, ended by every kind of
    # octet, with a line break and a reply-quote inside, against the plain walk and the
    # twin
    enders = [b">", b" >", b"\n>", b"\n x>", b"\n> x>", b"<", b"\x7f>", b"\xc3\xa9>", b"\x00>",
              b"", b"\n\n>", b"-\n x>", b'">', b"^>"]
    for head in (b"see <http://", b"see <URL:http://", b"see <mailto:", b"<news:"):
        for length in range(1, 41):
            for end in enders:
                data = head + (b"abcdefghijklmnopqrstuvwxyz0123456789-~%/" * 2)[:length] + end
                fast, plain = _with_and_without_prefilter(data)
                assert fast == plain, (head, length, end)
                assert fast == list(TWINS["python"].scan(
                    data, 0, -1, TABLE, KNOWN, MAX_WRAPPER, MAX_LENGTH)), (head, length, end)


@pytest.mark.twins
@pytest.mark.parametrize("data, expected", [
    (b"see <http://a.example/abcdefghijklmnopqrstuvwxyz> ok", [(4, 49)]),
    (b"<URL:http://a.example/abcdefghijklmnopqrstuvwxyz/0123456789>", [(0, 60)]),
    (b"<http://a.example/abcdefghij\n  klmnopqrstuvwxyz>", [(0, 48)]),    # a line break
    (b"<http://a.example/abcdefghijklmn<opqrstuvwxyz>", [(1, 32)]),   # "<": no wrapper,
                                                                      # the bare URL before it
])
def test_a_long_wrapped_url_is_the_wrapper_whole(data, expected):
    # the RFC 1738 appendix's wrappers: from "<" to ">", white space inside taken out
    assert _spans(data) == expected


# ---- the prefilter's pairs by SSSE3 look-ups, by SSE2 compares, and octet by octet -----

def _three_ways(data, blob):
    # the blocks with SSSE3's look-ups (where the CPU has them), with SSE2's compares,
    # and the plain walk (no prefilter)
    return scan_three_ways(data, blob)


def _all_agree(data, blob):
    # the three ways of the compiled walk and the pure twin give the same triples
    looked, compared, plain = _three_ways(data, blob)
    twin = list(TWINS["python"].scan(data, 0, -1, TABLE, blob, MAX_WRAPPER, MAX_LENGTH))
    return looked == compared == plain == twin


# 8 pairs (the most one look-up holds: sw ot lr nr di le oe xa; cid's is mid's) and 9
# (the compares then)
_EIGHT = {name: K_KNOWN | K_SLASHLESS for name in
          ("news", "mailto", "url", "urn", "mid", "cid", "tel", "geo", "fax")}
_NINE = dict(_EIGHT, sip=K_KNOWN | K_SLASHLESS)


@pytest.mark.twins
@pytest.mark.parametrize("blob", [KNOWN, known_blob(_EIGHT), known_blob(_NINE)],
                         ids=["policy", "8 pairs", "9 pairs"])
def test_the_pairs_looked_up_find_what_the_compares_and_the_plain_walk_find(blob):
    # every name's last two letters (either case) before a colon at every offset of
    # two blocks, among 0 to 15 other colons in the same block (one look-up decides
    # them all), after octets over 0x7F whose low four bits are a pair's letter's
    words = [b"geo:1,2", b"TEL:+1", b"fax:2", b"sip:a@b", b"news:a.b", b"NeWs:a", b"URN:x:y", b"cid:a@b",
             b"mid:a@b", b"xmailto:a@b", b"e:b", b"ws:x", b"\xe5\xf7:x", b"\xe4\xe9:x",
             b"o:a", b"a://b"]
    for word in words:
        for at in range(0, 34):
            for others in (0, 1, 3, 15):
                fill = (b"a:b " * 8)[:others * 4] if others else b"." * 16
                data = (fill + b"." * 36)[:at] + word + b" " + fill + b"  "
                assert _all_agree(data, blob), (word, at, others)


@pytest.mark.twins
@given(texts, st.integers(min_value=0, max_value=20))
def test_the_pairs_looked_up_agree_with_the_compares_on_any_text(text, pad):
    data = ("p" * pad + text).encode()
    looked, compared, plain = _three_ways(data, KNOWN)
    assert looked == compared == plain


@compiled
def test_the_look_ups_are_turned_off_and_on_again():
    scan = TWINS["cython"]
    was = scan._set_ssse3(False)
    try:
        assert scan._set_ssse3(True) is False          # it was off
        assert scan._set_ssse3(was) in (True, False)   # on where the CPU has SSSE3
    finally:
        scan._set_ssse3(was)
