"""Fuzz target: the tokenizer (``urlsift.tokenize``, ``tokenize_many``, ``tokenize_offsets``).

Asserts: both cores give the same offsets; every present part lies inside the text,
after the scheme's ":" and after the part before it (user, password, host, port, path,
search, fragment: RFC 1738 §3.1 order); an absent part is (-1, -1); the problem is a
known code at a position inside the text, or none at all; the bulk entry points give
what one call per URL gives.

Input: the whole of it is the URL (UTF-8, other octets as lone surrogates).
"""
from __future__ import annotations

import sys

import _common
from _common import Input, on_both, on_twins, require

with _common.instrumented():
    from urlsift._fields import NFIELDS, PROBLEM_CODE, PROBLEM_POS, SCHEME_END
    from urlsift._layout import CODES, FIELDS
    from urlsift.model.tokens import PARTS, tokenize, tokenize_many, tokenize_offsets


def _offsets_ok(s: str, t: tuple) -> None:
    """The layout of one URL's offsets (urlsift._layout.FIELDS)."""
    n = len(s)
    require(len(t) == NFIELDS, "tokenize: wrong number of fields", t)
    scheme_end = t[SCHEME_END]
    require(scheme_end == -1 or (0 <= scheme_end < n and s[scheme_end] == ":"),
            "tokenize: scheme_end is not a ':' in the text", s, t)
    last = scheme_end + 1 if scheme_end >= 0 else 0
    for part in PARTS[1:]:
        a, b = t[FIELDS.index(part + "_start")], t[FIELDS.index(part + "_end")]
        if a < 0:
            require(a == b == -1, f"tokenize: {part} half absent", s, t)
            continue
        require(last <= a <= b <= n, f"tokenize: {part} outside the text or out of order", s, t)
        last = b
    pos, code = t[PROBLEM_POS], t[PROBLEM_CODE]
    require(0 <= code < len(CODES), "tokenize: unknown problem code", s, t)
    require((code == 0) == (pos == -1), "tokenize: problem position without code", s, t)
    require(pos == -1 or 0 <= pos <= n, "tokenize: problem outside the text", s, t)


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris's name
    s = Input(data).text()
    core = on_twins("_core", "tokenize", s)
    public = on_both(tokenize, s, shape=tuple)
    require(core[0] == "ok" and public[0] == "ok", "tokenize raised", s, core[:3], public[:3])
    t = core[1]
    _offsets_ok(s, t)
    require(public[1] == (s, t), "tokenize: public Tokens differ from the core", s, public[1])
    urls = [s, s[: len(s) // 2], ""]
    many = on_twins("_core", "tokenize_many", urls, shape=list)
    require(many[0] == "ok", "tokenize_many raised", many[:3])
    singles = [v for u in urls for v in tokenize(u).offsets]
    require(many[1] == singles, "tokenize_many differs from tokenize one by one", urls)
    flat = on_both(tokenize_offsets, urls, shape=list)
    require(flat[1] == singles, "tokenize_offsets differs from tokenize", urls)
    listed = on_both(lambda: tokenize_many(iter(urls)), shape=lambda ts: [tuple(x) for x in ts])
    require(listed[1] == [tuple(tokenize(u)) for u in urls], "tokenize_many(iterable) differs", urls)


if __name__ == "__main__":
    _common.main(TestOneInput, sys.argv)
