"""Fuzz target: ``resolve`` with both rules ("draft" and "rfc3986").

Asserts: both cores agree (today resolve runs above the core, so this guards a move
into it); the only errors are URLSyntaxError (``missing-scheme`` for a base that is
not absolute, ``control-char``); with RFC 3986 an absolute result, resolved
again, comes to a fixed point at once (§5.2.2: a reference with a scheme is taken as
it is, its dot segments removed; the first time may remove those an empty reference
kept from the base path), and an empty reference gives the base without its
fragment (§5.2.2, "R.path == ''"); with either rule the result is absolute.

Input: base and partial, separated by one 0xFF octet.
"""
from __future__ import annotations

import sys

import _common
from _common import Input, on_both, require

with _common.instrumented():
    from urlsift.model.partial import resolve


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris's name
    base, partial = Input(data).texts(2)
    results = {}
    for rules in ("draft", "rfc3986"):
        got = results[rules] = on_both(resolve, base, partial, rules=rules)
        if got[0] == "raised":
            require(got[1] == "URLSyntaxError", "resolve raised something else", base, partial,
                    rules, got[:3])
            continue
        out = got[1]
        require(isinstance(out, str) and ":" in out, "resolve gave no absolute URL", base,
                partial, rules, out)
    # (the two rules do not refuse the same inputs: with a partial that has a scheme the
    # draft rules return it without looking at the base, RFC 3986 asks for an absolute
    # base first; see fuzz/README.md, "left open")
    r = results["rfc3986"]
    if r[0] == "ok":
        # the result's path may keep the base's dot segments (an empty reference: T.path
        # = Base.path); resolved as an absolute reference they go, and then it is fixed
        again = on_both(resolve, base, r[1], rules="rfc3986")
        third = on_both(resolve, base, again[1], rules="rfc3986") if again[0] == "ok" else None
        require(again[0] == "ok" and third == again, "rfc3986: an absolute result does not "
                "resolve to a fixed point", base, partial, r[1], again[:3], third)
        empty = on_both(resolve, base, "", rules="rfc3986")
        require(empty == ("ok", base.partition("#")[0]) or empty[0] == "raised",
                "rfc3986: the empty reference is not the base without its fragment", base,
                empty[:3])


if __name__ == "__main__":
    _common.main(TestOneInput, sys.argv)
