"""Fuzz target: ``equivalent`` and ``normalized`` (docs/design.md#equivalence).

Asserts: both cores agree; ``normalized`` is idempotent (the module promises it) and a
URL is equivalent to its normalized form; ``equivalent(a, b)`` is symmetric and is
``normalized(a) == normalized(b)``; a URL is equivalent to itself; ``parse(s,
strict=False).normalized()`` is ``normalized(s)`` and ``==`` between parsed URLs
follows ``equivalent`` (not for a ``URL:`` prefix, which parse strips and normalized
takes as the scheme "url": fuzz/README.md, "left open"). The only errors are URLSyntaxError (``control-char``,
``missing-scheme``).

Input: two URLs separated by one 0xFF octet.
"""
from __future__ import annotations

import sys

import _common
from _common import Input, on_both, require

with _common.instrumented():
    from urlsift.model.equivalence import equivalent, normalized
    from urlsift.model.parsing import parse


def _normalized_ok(s: str) -> tuple:
    got = on_both(normalized, s)
    if got[0] == "raised":
        require(got[1] == "URLSyntaxError", "normalized raised something else", s, got[:3])
        return got
    n = got[1]
    twice = on_both(normalized, n)
    require(twice == got, "normalized is not idempotent", s, n, twice[:3])
    require(on_both(equivalent, s, n) == ("ok", True), "a URL is not equivalent to its "
            "normalized form", s, n)
    require(on_both(equivalent, s, s) == ("ok", True), "a URL is not equivalent to itself", s)
    if not s.startswith("URL:"):   # parse strips the RFC 1738 prefix, normalized does not
        parsed = on_both(lambda: parse(s, strict=False).normalized())
        require(parsed == got or parsed[0] == "raised", "URL.normalized() != normalized(s)", s,
                parsed[:3], n)
    return got


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris's name
    a, b = Input(data).texts(2)
    na, nb = _normalized_ok(a), _normalized_ok(b)
    ab, ba = on_both(equivalent, a, b), on_both(equivalent, b, a)
    if na[0] == nb[0] == "ok":
        require(ab == ba == ("ok", na[1] == nb[1]), "equivalent is not normalized(a) == "
                "normalized(b), or not symmetric", a, b, ab[:3], ba[:3])
        if not (a.startswith("URL:") or b.startswith("URL:")):   # (see above)
            eq = on_both(lambda: parse(a, strict=False) == parse(b, strict=False))
            require(eq == ab or eq[0] == "raised", "URL == URL disagrees with equivalent", a, b,
                    eq[:3], ab[:3])
    else:
        require(ab[0] == ba[0] == "raised", "equivalent accepts what normalized refuses", a, b,
                ab[:3], ba[:3])


if __name__ == "__main__":
    _common.main(TestOneInput, sys.argv)
