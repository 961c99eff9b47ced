"""Fuzz target: ``parse``, ``is_valid``, ``check``, ``validate_many``, strict and lenient.

Asserts: both cores agree (the URL object's class, text, parts, problems, warnings and
normalized form; or the same URLSyntaxError at the same position); ``is_valid`` and
``validate_many`` say what ``parse`` does; ``check(s)`` is empty exactly when ``s`` is
strictly valid, and a strict refusal names its first problem; a strictly valid URL is
leniently valid without problems; for a valid ``s``, ``str(parse(s)) == s`` (without a
``URL:`` prefix), ``u.raw == s``, and parsing ``str(u)`` again, or unpickling ``u``,
gives the same object (not re-parsed: a lenient URL whose scheme is "URL", whose text
reads as the RFC 1738 appendix's prefix again).

Input: the whole of it is the URL (UTF-8, other octets as lone surrogates).
"""
from __future__ import annotations

import pickle
import sys

import _common
from _common import Input, on_both, require

with _common.instrumented():
    from urlsift.model.parsing import check, is_valid, parse, validate_many


def facts(u: object) -> tuple:
    """What a URL object says about itself, as plain data."""
    return (type(u).__name__, str(u), u.raw, u.parts(), u.effective_port,
            tuple(map(tuple, u.problems)), tuple(map(tuple, u.warnings)), u.normalized())


def _reparsed_ok(s: str, text: str, strict: bool, got: tuple) -> None:
    """Parsing ``str(u)`` again gives ``u`` (its raw text aside)."""
    again = on_both(parse, text, strict=strict, shape=facts)
    shift = len(s) - len(text)     # problem positions count the prefix
    moved = tuple((p[0] + shift, *p[1:]) for p in again[1][5]) if again[0] == "ok" else ()
    require(again[0] == "ok" and again[1][:2] == got[1][:2] and again[1][3:5] == got[1][3:5]
            and moved == got[1][5] and again[1][6:] == got[1][6:],
            "parse(str(parse(s))) differs", s, strict, again[:2], got[1])


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris's name
    s = Input(data).text()
    text = s[4:] if s.startswith("URL:") else s
    problems = on_both(check, s, shape=lambda ps: [tuple(p) for p in ps])
    require(problems[0] == "ok", "check raised", s, problems[:3])
    found = problems[1]
    require(found == sorted(found, key=lambda p: p[0]), "check: problems out of order", s, found)
    require(all(0 <= p[0] <= len(s) for p in found), "check: position outside the text", s, found)
    parsed = {}
    for strict in (True, False):
        got = parsed[strict] = on_both(parse, s, strict=strict, shape=facts)
        valid = on_both(is_valid, s, strict=strict)
        many = on_both(validate_many, [s, s], strict=strict)
        require(valid == ("ok", got[0] == "ok"), "is_valid disagrees with parse", s, strict,
                valid[:3], got[:3])
        require(many == ("ok", [valid[1], valid[1]]), "validate_many disagrees with is_valid",
                s, strict, many[:3])
        if got[0] == "ok":
            kind, as_text, raw = got[1][:3]
            require(as_text == text and raw == s, "str(parse(s)) != s", s, strict, got[1][:3])
            if not as_text.startswith("URL:"):  # scheme "URL" (lenient) reads as the prefix
                _reparsed_ok(s, text, strict, got)
            copy = on_both(lambda: pickle.loads(pickle.dumps(parse(s, strict=strict))), shape=facts)
            require(copy == got, "an unpickled URL differs", s, strict, copy[:2])
        else:
            require(got[1] == "URLSyntaxError", "parse raised something else than URLSyntaxError",
                    s, strict, got[:3])
            require(0 <= got[3] <= len(s), "URLSyntaxError position outside the text", s, got[:5])
    strict_ok, lenient_ok = parsed[True][0] == "ok", parsed[False][0] == "ok"
    require(strict_ok == (found == []), "check(s) is empty but parse refuses, or the reverse",
            s, found, parsed[True][:3])
    if strict_ok:
        require(lenient_ok and parsed[False][1][5] == (), "strictly valid but not leniently "
                "valid without problems", s, parsed[False][:3])
    else:
        require((parsed[True][3], parsed[True][4]) == found[0][:2],
                "the strict refusal is not the first problem of check(s)", s, parsed[True][:5],
                found)
    if lenient_ok:
        require(list(parsed[False][1][5]) == found, "a lenient URL's problems are not check(s)",
                s, parsed[False][1][5], found)


if __name__ == "__main__":
    _common.main(TestOneInput, sys.argv)
