"""Fuzz target: the line table of the command's ``--unique`` and ``--host``
(``urlsift._lines_py.LineTable`` and its compiled twin).

Asserts: both twins give the same result for every call in a sequence (``count``,
``first_seen``, ``sift`` with a question that depends on the line) and the same counts
at the end; ``first_seen`` gives each line once, in the order first met; ``sift`` gives
exactly the lines its question kept; the counts are those of the lines given.

Input: the payload cut into blobs at each ``\\x01`` (its newlines are the lines), one
choice byte per blob for the call.
"""
from __future__ import annotations

from collections import Counter

import _common
from _common import require

with _common.instrumented():
    from urlsift import _select

TWINS = {k: _select.twins("_lines")[k] for k in _common.KINDS}
OPS = ("count", "first_seen", "sift")


def _keep(line: bytes) -> bool:
    return sum(line) % 3 != 0


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris's name
    tables = {k: m.LineTable() for k, m in TWINS.items()}
    given: Counter[bytes] = Counter()
    order: list[bytes] = []
    for part in data.split(b"\x01")[:64]:
        op = OPS[part[0] % len(OPS)] if part else "count"
        blob = part[1:]
        lines = blob.split(b"\n")[:-1]
        results = {}
        for kind, t in tables.items():
            results[kind] = t.sift(blob, _keep) if op == "sift" else getattr(t, op)(blob)
        require(len(set(results.values())) == 1, "the twins differ", op, blob, results)
        got = next(iter(results.values()))
        if op == "first_seen":
            new = [x for x in dict.fromkeys(lines) if x not in given]
            require(got == b"".join(x + b"\n" for x in new), "first_seen", blob, got)
        elif op == "sift":
            require(got == b"".join(x + b"\n" for x in lines if _keep(x)), "sift", blob, got)
        for x in lines:
            if x not in given:
                order.append(x)
            given[x] += 1
    for t in tables.values():
        require(t.counts() == [(x, given[x]) for x in order], "counts", t.counts())


if __name__ == "__main__":
    _common.main(TestOneInput)
