"""mbox_blocks: pieces of whole messages, cut at every block size exactly where the
messages are cut one at a time (mbox_messages, like mailbox.mbox: a message begins at
each line that starts with "From ")."""
from __future__ import annotations

import io

from hypothesis import assume, given
from hypothesis import strategies as st

from urlsift.mail import spool

pytestmark = []

LINES = st.sampled_from([b"From a@b Mon Jan  1 00:00:00 2024\n", b"From \n", b"From", b"From x",
                         b">From a\n", b"text\n", b"\n", b"\r\n", b"Fro", b"m ", b"x" * 30 + b"\n",
                         b"\nFrom ", b"F", b"rom z\n"])
SPOOLS = st.lists(LINES, max_size=40).map(b"".join)


def _messages(stream: io.BytesIO, base: int = 0) -> list:
    # blank lines before the first From line are no message; mbox_messages drops them
    # only when nothing follows (end of the piece), so they are left out on both sides
    return [(None if off is None else base + off, data)
            for _, off, data in spool.mbox_messages(stream, "s")
            if off is not None or data.strip()]


@given(SPOOLS, st.integers(1, 48))
def test_blocks_hold_whole_messages_at_any_block_size(data, block):
    pieces = list(spool.mbox_blocks(io.BytesIO(data), block=block))
    assert b"".join(piece for _, piece in pieces) == data      # nothing lost, nothing twice
    at = 0
    for base, piece in pieces:
        assert base == at and piece
        assert at == 0 or piece.startswith(b"From ")             # cut just before a From line
        at += len(piece)
    by_piece = [m for base, piece in pieces for m in _messages(io.BytesIO(piece), base)]
    assert by_piece == _messages(io.BytesIO(data))


def _outcomes(stream: io.BytesIO, limit: int, base: int = 0) -> list:
    return [(None if off is None else base + off,
             str(data) if isinstance(data, Exception) else data)
            for _, off, data in spool.mbox_messages(stream, "s", limit)
            if off is not None or isinstance(data, Exception) or data.strip()]


@given(SPOOLS, st.integers(1, 48), st.integers(35, 90))
def test_blocks_pass_over_what_is_too_large_as_the_messages_do(data, block, limit):
    # a message over ``limit`` is reported and passed over; what follows it (the rest of
    # the block that ended it) is cut at its own From lines like any other part
    assume(max(len(line) for line in data.split(b"\n")) < limit)
    got = []
    for base, piece in spool.mbox_blocks(io.BytesIO(data), limit, block=block):
        if isinstance(piece, Exception):
            got.append((base, str(piece)))
        else:
            got.extend(_outcomes(io.BytesIO(piece), limit, base))
    assert got == _outcomes(io.BytesIO(data), limit)
