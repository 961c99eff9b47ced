"""Fuzz target: ``scan`` and ``extract`` on str and on bytes, and scanning in pieces.

Asserts:

- both cores agree on ``scan`` and ``extract`` of the bytes, a bytearray, a memoryview
  and the str the bytes decode to;
- spans lie inside the input, are not empty, in order and do not overlap; ``raw`` is
  the span as it stands, ``url`` is printable ASCII; bytes, bytearray and memoryview
  give the same matches; the str gives the same URLs as its UTF-8 octets, at the
  offsets those characters have among the octets;
- pieces (``urlsift.text.files``): the same bytes cut at a fuzzer-chosen offset give
  the matches of one pass -- cut into pieces at split points (``scan_buffer``, what
  ``extract`` does with a large buffer), read as a stream in blocks (``extract_file``
  on a file object, line numbers included), and scanned by the core's ``Pipeline``
  (both twins, one or two workers). The limits are made small for this (wrapper and
  URL length, so the stream's lookahead is a few dozen octets, not 72 KiB), so that
  a fuzz input of a few hundred octets holds many pieces.

Input: seven choice bytes (block: 2, wrapper limit, length limit, window: 2, workers),
then the text.
"""
from __future__ import annotations

import io
import sys
from unittest import mock

import _common
from _common import Input, on_both, on_twins, require, spans_ok

with _common.instrumented():
    import urlsift
    from urlsift import _select
    from urlsift.text import files
    from urlsift.text.extraction import extract, scan
    from urlsift.text.rules import KNOWN, TABLE


def _urls_ok(ms: list, x: object, n: int, what: str) -> None:
    spans_ok([(m[1], m[2]) for m in ms], n, what)
    for m in ms:
        stands = x[m[1]:m[2]]
        if not isinstance(stands, str):
            stands = bytes(stands).decode("utf-8", "replace")    # spans hold whole UTF-8 letters
        require(m[3] == stands, f"{what}: raw is not the span as it stands", m, stands)
        require(m[0].isprintable() and m[0], f"{what}: url not printable", m)
        require(m[0].isascii() == ("non-ascii" not in m[6]), f"{what}: non-ascii not said", m)


def _one_pass(data: bytes, wrapper: int, length: int) -> list:
    """Matches of one scan of the whole buffer with these limits, with line numbers."""
    arr = _select.cores.scan.scan(data, 0, -1, TABLE, KNOWN, wrapper, length)
    ms = [m for chunk in files.match_lists(arr, data, 0, 0) for m in chunk]
    return [(*m[:7], data.count(b"\n", 0, m[1]) + 1) for m in ms]


def _streamed(data: bytes, block: int, wrapper: int, length: int) -> list:
    with mock.patch.multiple(files, MAX_WRAPPER=wrapper, MAX_LENGTH=length,
                             LOOKAHEAD=wrapper + length + 16):
        return [tuple(m) for m in urlsift.extract_file(io.BytesIO(data), block_size=block,
                                                       line_numbers=True)]


def _pipeline(kind: str, data: bytes, block: int, window: int, wrapper: int, length: int,
              workers: int) -> list:
    """The triples the Pipeline's pieces give, each piece's matches inside the previous
    piece's last match dropped (``files._kept``): what ``_mapped`` makes of them."""
    pipe = _select.twins("_pipe")[kind].Pipeline(data, block, window, TABLE, KNOWN, wrapper,
                                                 length, workers)
    out, last_end, pos = [], 0, 0
    try:
        for arr, a, b in iter(pipe.take, None):
            require(a == pos and a < b <= len(data), "Pipeline: pieces not consecutive",
                    (a, b), pos)
            pos = b
            first, last_end = files._kept(arr, last_end)
            out.extend(arr[3 * first:])
    finally:
        pipe.close()
    require(pos == len(data), "Pipeline: pieces do not cover the buffer", pos, len(data))
    return out


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris's name
    inp = Input(data)
    block = inp.number(1, 512)
    wrapper, length = 1 + inp.byte() % 64, 1 + inp.byte() % 128
    window = inp.number(1, 256)
    workers = 1 + inp.byte() % 2
    data = inp.rest()
    text = data.decode("utf-8", "surrogateescape")
    n = len(data)

    whole = on_both(lambda: list(extract(data)), shape=lambda ms: [tuple(m) for m in ms])
    require(whole[0] == "ok", "extract(bytes) raised", data, whole[:3])
    _urls_ok(whole[1], data, n, "extract(bytes)")
    for other in (bytearray(data), memoryview(data)):
        got = on_both(lambda: [tuple(m) for m in extract(other)])
        require(got == whole, f"extract({type(other).__name__}) differs from bytes", data)
    triples = on_both(scan, data, shape=list)
    require(triples[0] == "ok" and [(t[0], t[1]) for t in zip(triples[1][::3], triples[1][1::3])]
            == [(m[1], m[2]) for m in whole[1]], "scan spans are not extract's", data)

    chars = on_both(lambda: [tuple(m) for m in extract(text)])
    require(chars[0] == "ok", "extract(str) raised", text, chars[:3])
    _urls_ok(chars[1], text, len(text), "extract(str)")
    octet = [len(text[:m[1]].encode("utf-8", "surrogateescape")) for m in chars[1]]
    require([(m[0], o) for m, o in zip(chars[1], octet)] == [(m[0], m[1]) for m in whole[1]],
            "extract(str) and extract(its UTF-8 octets) find different URLs", text,
            chars[1], whole[1])
    on_both(lambda: list(scan(text)))

    # pieces at split points, as extract cuts a large buffer
    pieces = on_both(lambda: [tuple(m) for ms in files.scan_buffer(data, n, block) for m in ms])
    require(pieces == whole, "scan_buffer in pieces differs from one pass", data, block,
            pieces[1:2], whole[1])

    # a stream read in blocks, small limits
    one = on_both(_one_pass, data, wrapper, length)
    streamed = on_both(_streamed, data, block, wrapper, length)
    require(streamed == one, "extract_file on a stream differs from one pass", data,
            (block, wrapper, length), streamed[1:2], one[1:2])

    # the core's Pipeline, each twin
    flat = on_twins("_scan", "scan", data, 0, -1, TABLE, KNOWN, wrapper, length, shape=list)
    for kind in _common.KINDS:
        got = _common.outcome(_pipeline, kind, data, block, window, wrapper, length, workers)
        require(got[:2] == flat[:2], f"the {kind} Pipeline's pieces differ from one pass", data,
                (block, window, wrapper, length, workers), got[:3], flat[:2])


if __name__ == "__main__":
    _common.main(TestOneInput, sys.argv)
