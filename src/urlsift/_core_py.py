"""Pure-Python twin of the Cython core (``ext/urlsift/_core_c.pyx``).

Same functions, same results, on every input: the test suite runs every core test
against both, and a hypothesis test compares them on random text. Keep the two
files in step, function by function; the Cython one is the fast one, this one is
the readable one and the fallback when the extension is not built.

Nothing here is policy: no scheme knows anything yet. Those decisions live in the
Python modules above the core.
"""
from __future__ import annotations

import codecs
from array import array
from typing import Iterable, Union

from ._fields import (FRAGMENT_END, FRAGMENT_START, HOST_END, HOST_START, NFIELDS,
                      PASSWORD_END, PASSWORD_START, PATH_END, PATH_START, PORT_END,
                      PORT_START, PROBLEM_CODE, PROBLEM_POS, SCHEME_END, SEARCH_END,
                      SEARCH_START, USER_END, USER_START)
from ._layout import CODE_INDEX
from .charclass import ALPHA, HEX, SCHEME, TABLE, UNRESERVED, UNSAFE
from .errors import URLSyntaxError

Text = Union[str, bytes, bytearray, memoryview]

_MISSING_SCHEME = CODE_INDEX["missing-scheme"]
_UPPERCASE_SCHEME = CODE_INDEX["uppercase-scheme"]
_CONTROL = CODE_INDEX["control-char"]
_NON_ASCII = CODE_INDEX["non-ascii"]
_UNSAFE = CODE_INDEX["unsafe-char"]
_BAD_ESCAPE = CODE_INDEX["bad-escape"]

_HEXVAL = {c: int(chr(c), 16) for c in range(256) if TABLE[c] & HEX}


# ---- input handling ------------------------------------------------------------

def _as_bytes(s: object) -> bytes:
    """The octets of ``s``: UTF-8 for str (lossless for surrogateescape text).

    A lone surrogate outside U+DC80-U+DCFF (those stand for the octets 0x80-0xFF that
    surrogateescape decoding made of undecodable bytes) has no octets at all: it is
    refused with code ``lone-surrogate`` and its position, the same from both cores.
    """
    if isinstance(s, str):
        try:
            return s.encode("utf-8", "surrogateescape")
        except UnicodeEncodeError as exc:
            raise URLSyntaxError(
                "lone-surrogate", exc.start,
                f"lone surrogate U+{ord(s[exc.start]):04X} has no UTF-8 form "
                "(only U+DC80-U+DCFF stand for raw octets)", s) from None
    if isinstance(s, (bytes, bytearray, memoryview)):
        return bytes(s)
    raise TypeError(f"expected str or a bytes-like object, not {type(s).__name__}")


#: the ``encoding`` and ``errors`` names checked already (each on its own: the two
#: lookups are independent), so that a caller asking for the same non-default name on
#: every URL pays a set lookup, not a codec lookup; bounded, as names are the caller's
#: to spell (a name past the bound is looked up every time)
CHECKED_ENCODINGS: set[str] = set()
CHECKED_ERRORS: set[str] = set()
_MAX_CHECKED = 64


def _check_codec_args(encoding: object, errors: object) -> None:
    """The same errors from both cores for a bad ``encoding``/``errors`` (checked
    before any decoding, whether or not a byte would need them)."""
    for name, value in (("encoding", encoding), ("errors", errors)):
        if not isinstance(value, str):
            raise TypeError(f"{name} must be str, not {type(value).__name__}")
        if "\0" in value:
            raise ValueError(f"{name} holds a NUL character: {value!r}")
    if encoding not in CHECKED_ENCODINGS:
        codecs.lookup(str(encoding))       # LookupError: unknown encoding: ...
        _remember(CHECKED_ENCODINGS, encoding)
    if errors not in CHECKED_ERRORS:
        codecs.lookup_error(str(errors))   # LookupError: unknown error handler name '...'
        _remember(CHECKED_ERRORS, errors)


def _remember(checked: set[str], name: object) -> None:
    if type(name) is str and len(checked) < _MAX_CHECKED:
        checked.add(name)


def _check_safe(safe: object) -> None:
    if not isinstance(safe, str):
        raise TypeError(f"safe must be str, not {type(safe).__name__}")


def _char_position(s: object, data: bytes, pos: int) -> int:
    """Turn an octet offset in ``data`` back into a position in the caller's ``s``."""
    if isinstance(s, str):
        return len(data[:pos].decode("utf-8", "surrogateescape"))
    return pos


def _bad_escape(s: object, data: bytes, pos: int) -> URLSyntaxError:
    where = _char_position(s, data, pos)
    bad = data[pos:pos + 3].decode("utf-8", "backslashreplace")
    return URLSyntaxError("bad-escape", where, f"malformed escape {bad!r}", s)


def _is_escape_at(data: bytes, j: int) -> bool:
    return j + 2 < len(data) and (TABLE[data[j + 1]] & HEX) != 0 and (TABLE[data[j + 2]] & HEX) != 0


def _source_index(data: bytes, octet: int) -> int:
    """Where in ``data`` (the input's octets) the ``octet``-th decoded octet was written:
    each escape is three input octets for one, anything else one for one (a malformed
    escape kept by ``strict=False`` included). Only the error path walks this."""
    i = o = 0
    while o < octet:
        i += 3 if data[i] == 0x25 and _is_escape_at(data, i) else 1
        o += 1
    return i


def _undecodable(s: object, start: int, end: int, exc: UnicodeDecodeError,
                 encoding: str) -> URLSyntaxError:
    """The error for octets ``exc`` could not decode, written at ``s[start:end]``
    (positions in the caller's ``s``: characters for str, octets for bytes)."""
    octets = exc.object[exc.start:exc.end]
    written = s[start:end] if isinstance(s, str) else bytes(s[start:end])  # type: ignore[index]
    return URLSyntaxError(
        "undecodable", start,
        lambda: f"{written!r} is the octet{'s' if len(octets) > 1 else ''} "
                f"{octets.hex(' ').upper()}, not {encoding} text ({exc.reason})", s)


def _decoded(s: object, octets: bytes, encoding: str, errors: str) -> str:
    """``octets`` (all of ``s`` unquoted) as ``encoding`` text; octets that are not
    refused with code ``undecodable`` and where they stand in ``s``."""
    try:
        return octets.decode(encoding, errors)
    except UnicodeDecodeError as exc:
        data = _as_bytes(s)
        a, b = _source_index(data, exc.start), _source_index(data, exc.end)
        if isinstance(s, str):
            a, b = _char_position(s, data, a), _char_position(s, data, b)
        raise _undecodable(s, a, b, exc, encoding) from exc


# ---- %hex codec (RFC 1738 §2.2) ---------------------------------------------------

def unquote_to_bytes(s: Text, *, strict: bool = True) -> bytes:
    """Decode every ``%hex`` escape of ``s`` into its octet (RFC 1738 §2.2).

    ``str`` input is taken as UTF-8 (``surrogateescape``, so text decoded that way
    comes back byte for byte). A malformed escape (``%``, ``%4``, ``%zz``) raises
    :class:`~urlsift.URLSyntaxError` with code ``bad-escape`` and its position;
    with ``strict=False`` it is kept literally.

    >>> unquote_to_bytes("caf%C3%A9")
    b'caf\\xc3\\xa9'
    >>> unquote_to_bytes("50%zz", strict=False)
    b'50%zz'
    """
    data = _as_bytes(s)
    if b"%" not in data:
        return data
    out = bytearray()
    i = 0
    while True:
        j = data.find(b"%", i)
        if j < 0:
            out += data[i:]
            return bytes(out)
        out += data[i:j]
        if _is_escape_at(data, j):
            out.append(_HEXVAL[data[j + 1]] * 16 + _HEXVAL[data[j + 2]])
            i = j + 3
        elif strict:
            raise _bad_escape(s, data, j)
        else:
            out.append(0x25)
            i = j + 1


def unquote(s: Text, encoding: str = "utf-8", errors: str = "strict", *,
            strict: bool = True) -> str:
    """Decode ``%hex`` escapes; the octets are read as ``encoding`` text.

    ``errors`` is about that text decoding only, as in :meth:`bytes.decode`;
    ``strict`` is about malformed escapes, as in :func:`unquote_to_bytes`.
    Unlike :func:`urllib.parse.unquote` the default is ``errors="strict"``: octets
    that are not ``encoding`` text (``%E9`` alone in UTF-8: a truncated sequence, a
    lone continuation octet, an overlong form, a surrogate) raise
    :class:`~urlsift.URLSyntaxError` with code ``undecodable`` and the position of
    the escape that starts them (the codec's ``UnicodeDecodeError`` is its
    ``__cause__``). ``errors="surrogateescape"`` gives the lossless form instead:
    each such octet as U+DC80-U+DCFF (``unquote_to_bytes`` gives the octets).

    >>> unquote("marie%2Dclaude")
    'marie-claude'
    >>> unquote("%E9t%E9", encoding="latin-1")
    'été'
    >>> unquote("100%", strict=False)
    '100%'
    >>> unquote("caf%E9")
    Traceback (most recent call last):
    urlsift.errors.URLSyntaxError: '%E9' is the octet E9, not utf-8 text (unexpected end of data) at position 3 (undecodable)
    >>> unquote("caf%E9", errors="surrogateescape")
    'caf\udce9'
    """
    if encoding != "utf-8" or errors != "strict":
        _check_codec_args(encoding, errors)
    if not isinstance(s, str):
        return _decoded(s, unquote_to_bytes(s, strict=strict), encoding, errors)
    if "%" not in s:
        return s
    if s.isascii() and encoding.lower().replace("_", "-") in ("utf-8", "utf8"):
        # Decoding the whole buffer equals decoding each run of escapes on its
        # own: an ASCII octet always ends an incomplete UTF-8 sequence.
        return _decoded(s, unquote_to_bytes(s, strict=strict), "utf-8", errors)
    return _unquote_runs(s, encoding, errors, strict)


def _decode_run(s: str, run: bytearray, at: int, encoding: str, errors: str) -> str:
    """One run of escapes, written from ``s[at]`` on (three characters an octet)."""
    try:
        return run.decode(encoding, errors)
    except UnicodeDecodeError as exc:
        raise _undecodable(s, at + 3 * exc.start, at + 3 * exc.end, exc, encoding) from exc


def _unquote_runs(s: str, encoding: str, errors: str, strict: bool) -> str:
    """urllib.parse's semantics: literal text kept, each run of escapes decoded."""
    parts: list[str] = []
    run = bytearray()
    at = 0                  # where the run's first escape stands in s
    i, n = 0, len(s)
    while i < n:
        j = s.find("%", i)
        if j < 0:
            j = n
        if j > i:
            if run:
                parts.append(_decode_run(s, run, at, encoding, errors))
                run.clear()
            parts.append(s[i:j])
        if j == n:
            break
        if j + 2 < n and ord(s[j + 1]) < 256 and ord(s[j + 2]) < 256 \
                and TABLE[ord(s[j + 1])] & HEX and TABLE[ord(s[j + 2])] & HEX:
            if not run:
                at = j
            run.append(int(s[j + 1:j + 3], 16))
            i = j + 3
        elif strict:
            raise URLSyntaxError("bad-escape", j, f"malformed escape {s[j:j + 3]!r}", s)
        else:
            if run:
                parts.append(_decode_run(s, run, at, encoding, errors))
                run.clear()
            parts.append("%")
            i = j + 1
    if run:
        parts.append(_decode_run(s, run, at, encoding, errors))
    return "".join(parts)


def quote(s: Text, safe: str = "") -> str:
    """Encode every octet except the unreserved ones and those in ``safe``.

    Unreserved is RFC 1738's ``alpha | digit | safe | extra`` (§2.2, §5): letters,
    digits and ``$-_.+!*'(),``. Everything else, reserved characters included unless
    listed in ``safe``, becomes ``%XX`` with upper-case hex; ``str`` is encoded as
    UTF-8. (``urllib.parse.quote`` differs: it keeps ``~`` and ``/`` and encodes
    ``$+!*'(),``.)

    >>> quote("/pub/a b", safe="/")
    '/pub/a%20b'
    >>> quote("é~")
    '%C3%A9%7E'
    """
    _check_safe(safe)
    data = _as_bytes(s)
    keep = {ord(c) for c in safe if ord(c) < 128}
    out: list[str] = []
    for c in data:
        if TABLE[c] & UNRESERVED or c in keep:
            out.append(chr(c))
        else:
            out.append("%%%02X" % c)
    return "".join(out)


# ---- tokenizer (RFC 1738 §3.1 common Internet scheme syntax, §5 genericurl) -------

def _char_problem(c: int) -> int:
    """Problem code of one character wherever it stands, 0 when it may appear."""
    if c < 0x20 or c == 0x7F:
        return _CONTROL
    if c >= 0x80:
        return _NON_ASCII
    if TABLE[c] & UNSAFE and c != 0x25:
        return _UNSAFE
    return 0


#: Where the part of each state of :func:`tokenize`'s walk ends: 0 the opaque schemepart
#: or path, 2 the search, 3 the fragment (1, the authority, is closed by _close_authority).
_PART_END = {0: PATH_END, 2: SEARCH_END, 3: FRAGMENT_END}


def tokenize(s: str) -> tuple:
    """Offsets of the parts of a URL and its first character-level problem.

    One left-to-right walk. See ``urlsift._layout.FIELDS`` for the result.
    """
    if not isinstance(s, str):
        raise TypeError(f"expected str, not {type(s).__name__}")
    n = len(s)
    r = [-1] * NFIELDS
    r[PROBLEM_CODE] = 0
    i, prob_pos, prob_code = _scheme(s, r)

    hier = i + 1 < n and s[i] == "/" and s[i + 1] == "/"
    # state: 0 opaque schemepart / path, 1 authority, 2 search, 3 fragment (_PART_END)
    state = 1 if hier else 0
    # colon_user, colon_host: the first ":" before the last "@", after it (not in [...])
    auth_start = last_at = colon_user = colon_host = first_colon = -1
    in_brackets = False
    if hier:
        auth_start = i = i + 2
    else:
        r[PATH_START] = i

    while i < n:
        c = ord(s[i])
        if c == 0x23 and state != 3:        # "#": the fragment delimiter
            if state == 1:
                _close_authority(r, s, auth_start, i, last_at, colon_user, colon_host)
            else:
                r[_PART_END[state]] = i
            state = 3
            r[FRAGMENT_START] = i + 1
            i += 1
            continue
        if state == 1:
            if c == 0x2F or c == 0x3F:      # "/" or "?" ends the login
                _close_authority(r, s, auth_start, i, last_at, colon_user, colon_host)
                if c == 0x2F:
                    state = 0
                    r[PATH_START] = i
                else:
                    state = 2
                    r[SEARCH_START] = i + 1
                i += 1
                continue
            if c == 0x40:                   # "@"
                last_at = i
                colon_user = first_colon
                colon_host = -1
                in_brackets = False
            elif c == 0x3A:                 # ":"
                if first_colon < 0:
                    first_colon = i
                if colon_host < 0 and not in_brackets:
                    colon_host = i
            elif c == 0x5B:                 # "[" opening an IPv6 literal host
                if i == (last_at + 1 if last_at >= 0 else auth_start):
                    in_brackets = True
            elif c == 0x5D:
                in_brackets = False
        elif state == 0 and hier and c == 0x3F:   # "?" starts the search
            r[PATH_END] = i
            state = 2
            r[SEARCH_START] = i + 1
            i += 1
            continue
        if prob_code == 0:                  # character-level check, in the same walk
            prob_code = _problem_at(s, i, c)
            if prob_code:
                prob_pos = i
        i += 1

    if state == 1:
        _close_authority(r, s, auth_start, n, last_at, colon_user, colon_host)
    else:
        r[_PART_END[state]] = n
    r[PROBLEM_POS] = prob_pos
    r[PROBLEM_CODE] = prob_code
    return tuple(r)


def _scheme(s: str, r: list) -> tuple[int, int, int]:
    """The scheme (RFC 1738 §5: ``1*[ lowalpha | digit | "+" | "-" | "." ] ":"``, an
    uppercase letter noted): its end written into ``r``; where the rest starts, and the
    problem (position, code) the scheme gives (0: none)."""
    n = len(s)
    i = 0
    upper_at = -1
    while i < n:
        c = ord(s[i])
        if c < 128 and TABLE[c] & SCHEME:
            pass
        elif c < 128 and TABLE[c] & ALPHA:
            if upper_at < 0:
                upper_at = i
        else:
            break
        i += 1
    if i > 0 and i < n and s[i] == ":":
        r[SCHEME_END] = i
        if upper_at >= 0:
            return i + 1, upper_at, _UPPERCASE_SCHEME
        return i + 1, -1, 0
    return 0, 0, _MISSING_SCHEME


def _problem_at(s: str, i: int, c: int) -> int:
    """The character-level problem of ``s[i]`` (code point ``c``), 0 for none: a ``%``
    not followed by two hex digits (§2.2), else what :func:`_char_problem` says."""
    if c == 0x25:
        n = len(s)
        if not (i + 2 < n and ord(s[i + 1]) < 128 and ord(s[i + 2]) < 128
                and TABLE[ord(s[i + 1])] & HEX and TABLE[ord(s[i + 2])] & HEX):
            return _BAD_ESCAPE
        return 0
    return _char_problem(c)


def _close_authority(r: list, s: str, start: int, end: int, last_at: int,
                     colon_user: int, colon_host: int) -> None:
    """Fill user, password, host and port from the login ``s[start:end]``."""
    host_start = start
    if last_at >= 0:
        host_start = last_at + 1
        r[USER_START] = start
        if colon_user >= 0:
            r[USER_END] = colon_user
            r[PASSWORD_START] = colon_user + 1
            r[PASSWORD_END] = last_at
        else:
            r[USER_END] = last_at
    r[HOST_START] = host_start
    if colon_host >= 0:
        r[HOST_END] = colon_host
        r[PORT_START] = colon_host + 1
        r[PORT_END] = end
    else:
        r[HOST_END] = end


def tokenize_many(urls: Iterable[str]) -> array:
    """:func:`tokenize` for every string of ``urls``, in one call.

    The offsets come back flat, ``NFIELDS`` (17) per URL, in one ``array('q')``:
    no Python object per URL (the offsets of URL ``k`` are ``[17*k : 17*k+17]``).

    >>> tokenize_many(["http://a/b", "x:y"])[17:19]
    array('q', [1, -1])
    """
    out = array("q")
    for u in urls:
        out.extend(tokenize(u))
    return out
