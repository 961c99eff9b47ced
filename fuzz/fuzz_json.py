"""Fuzz target: the JSON-escape core (``urlsift._json_py`` and its compiled twin).

Asserts: both twins read the same runs and list the same escapes; the text they write is
the one the reference (:func:`urlsift.text.jsonescapes.unescape_json`) writes; every
offset of it maps back to the same place in both, a start never after an end, and the
runs and escapes lie inside the text in order.

Input: the payload is the text.
"""
from __future__ import annotations

import _common
from _common import require

with _common.instrumented():
    from urlsift import _select
    from urlsift.text.jsonescapes import unescape_json
    from urlsift.text.rules import TABLE

TWINS = {k: _select.twins("_json")[k] for k in _common.KINDS}


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris's name
    results = {kind: m.unescape(data, TABLE) for kind, m in TWINS.items()}
    require(len({(r[0], r[1].tobytes(), r[2].tobytes()) for r in results.values()}) == 1,
            "the twins differ", data, results)
    new, runs, escapes = next(iter(results.values()))
    require(new == unescape_json(data)[0], "not the reference's text", data, new)
    require(list(runs[0::4]) == sorted(runs[0::4]) and all(
        0 <= runs[i] < runs[i + 1] <= len(data) for i in range(0, len(runs), 4)), "runs", runs)
    for q in range(len(new) + 1):
        starts = {m.old_offset(escapes, q, False) for m in TWINS.values()}
        ends = {m.old_offset(escapes, q, True) for m in TWINS.values()}
        require(len(starts) == 1 and len(ends) == 1, "old_offset differs", data, q)
        require(0 <= min(starts) <= min(ends) <= len(data), "offsets", data, q, starts, ends)


if __name__ == "__main__":
    _common.main(TestOneInput)
