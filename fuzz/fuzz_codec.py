"""Fuzz target: the %hex codec (``quote``, ``unquote``, ``unquote_to_bytes``).

Asserts: both cores agree on every call (results, or the same exception and message);
``unquote(quote(x)) == x`` for text and ``unquote_to_bytes(quote(b)) == b`` for octets
(when ``safe`` keeps no "%", which would leave escapes in); ``quote`` writes only
unreserved characters, the safe ones and ``%XX`` (RFC 1738 §2.2); lenient decoding
equals a one-line reference (valid escapes decoded, others kept); strict decoding
raises ``bad-escape`` exactly when there is a malformed escape, at its position.

Input: one choice byte (text or octets, strict), one for ``safe``, one for the
encoding and error handler, then the payload.
"""
from __future__ import annotations

import re
import sys

import _common
from _common import Input, on_twins, require

with _common.instrumented():
    from urlsift.charclass import UNRESERVED, TABLE

SAFES = ["", "/", "/:@", "~", "%", "\u00e9", "/?#[]@!$&'()*+,;=", "\x00", "abc", " ", "\U0001f600"]
ENCODINGS = ["utf-8", "latin-1", "ascii", "UTF8", "utf-16", "cp1252"]
ERRORS = ["strict", "replace", "surrogateescape", "ignore", "backslashreplace"]
_ESCAPE = re.compile(rb"%([0-9A-Fa-f]{2})")
_MALFORMED = re.compile(rb"%(?![0-9A-Fa-f]{2})")


def _reference(data: bytes) -> bytes:
    """Lenient unquote_to_bytes written the obvious way: valid escapes decoded."""
    return _ESCAPE.sub(lambda m: bytes([int(m[1], 16)]), data)


def _quoted_ok(out: str, safe: str) -> bool:
    keep = {c for c in safe if ord(c) < 128}
    i = 0
    while i < len(out):
        c = out[i]
        if c == "%" and "%" not in keep:
            if not re.fullmatch(r"%[0-9A-F]{2}", out[i:i + 3]):
                return False
            i += 3
            continue
        if not (ord(c) < 128 and (TABLE[ord(c)] & UNRESERVED or c in keep)):
            return False
        i += 1
    return True


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris's name
    inp = Input(data)
    mode = inp.byte()
    safe = inp.pick(SAFES)
    codec = inp.byte()
    encoding, errors = ENCODINGS[codec % len(ENCODINGS)], ERRORS[codec // 16 % len(ERRORS)]
    as_bytes, strict = mode & 1, bool(mode & 2)
    x = inp.rest() if as_bytes else inp.text()
    if as_bytes and mode & 4:
        x = bytearray(x)

    quoted = on_twins("_core", "quote", x, safe)
    on_twins("_core", "unquote", x, encoding, errors, strict=strict)
    lenient = on_twins("_core", "unquote_to_bytes", x, strict=False)
    strictly = on_twins("_core", "unquote_to_bytes", x, strict=True)

    octets = bytes(x) if as_bytes else None
    if octets is None:
        try:
            octets = x.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError:       # a lone surrogate outside U+DC80-DCFF
            require(quoted[0] == lenient[0] == "raised" and quoted[4] == "lone-surrogate",
                    "codec: a lone surrogate was not refused", x, quoted[:5])
            return
    require(lenient == ("ok", _reference(octets)), "unquote_to_bytes(strict=False) is not "
            "the reference decoding", x, lenient[:3])
    bad = _MALFORMED.search(octets)
    if bad is None:
        require(strictly == lenient, "unquote_to_bytes: strict and lenient differ without a "
                "malformed escape", x, strictly[:3])
    else:
        where = bad.start() if as_bytes else len(octets[:bad.start()].decode("utf-8", "surrogateescape"))
        require(strictly[0] == "raised" and strictly[4] == "bad-escape" and strictly[3] == where,
                "unquote_to_bytes(strict=True): no bad-escape at the first malformed escape",
                x, where, strictly[:5])

    require(quoted[0] == "ok", "quote raised", x, quoted[:3])
    require(_quoted_ok(quoted[1], safe), "quote wrote a character it must encode", x, safe, quoted[1])
    if "%" not in safe:
        back = on_twins("_core", "unquote_to_bytes", quoted[1])
        require(back == ("ok", octets), "unquote_to_bytes(quote(x)) != x", x, safe, back[:3])
        if not as_bytes:
            text = on_twins("_core", "unquote", quoted[1], "utf-8", "surrogateescape")
            require(text == ("ok", x), "unquote(quote(x)) != x", x, safe, text[:3])


if __name__ == "__main__":
    _common.main(TestOneInput, sys.argv)
