# cython: language_level=3
"""Cython core: character table, %hex codec, tokenizer (built as ``urlsift._core_c``).

Twin of ``src/urlsift/_core_py.py``: same functions, same results. Read that file
first; this one is the same walk over C arrays. The character table is not
written here: it is copied from ``urlsift.charclass.TABLE`` at import.
Text that is not ASCII goes through the twin's slow paths, so the rare cases
share one implementation.
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_SIMPLE
from libc.string cimport memchr, memcpy
from libc.stdint cimport uint16_t, uint8_t
from cpython cimport array
import array
from cpython.mem cimport PyMem_Malloc, PyMem_Free

from urlsift import _core_py
from urlsift._layout import CODE_INDEX, FIELDS
from urlsift.charclass import TABLE as _PY_TABLE
from urlsift import charclass as _cc

# the names the twin has checked (one set each for both cores: the check is the twin's)
cdef set _CHECKED_ENCODINGS = _core_py.CHECKED_ENCODINGS
cdef set _CHECKED_ERRORS = _core_py.CHECKED_ERRORS
from urlsift.errors import URLSyntaxError

cdef extern from "Python.h":
    ctypedef unsigned char Py_UCS1
    ctypedef unsigned short Py_UCS2
    int PyUnicode_KIND(object s)
    void *PyUnicode_DATA(object s)
    Py_ssize_t PyUnicode_GET_LENGTH(object s)
    int PyUnicode_IS_ASCII(object s)
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    object PyUnicode_DecodeUTF8(const char *s, Py_ssize_t size, const char *errors)
    object PyUnicode_DecodeASCII(const char *s, Py_ssize_t size, const char *errors)
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)

# The tokenizer's record by name (generated from urlsift._layout.URL_FIELDS)
include "_fields.pxi"

# ---- the table, copied once from the single Python definition ------------------
# Escapes of strings up to this many octets are decoded on the stack.
cdef enum:
    STACK = 512

cdef uint16_t TABLE[256]
for _i in range(256):
    TABLE[_i] = _PY_TABLE[_i]

cdef uint16_t C_HEX = _cc.HEX
cdef uint16_t C_SCHEME = _cc.SCHEME
cdef uint16_t C_ALPHA = _cc.ALPHA
cdef uint16_t C_UNSAFE = _cc.UNSAFE
cdef uint16_t C_UNRESERVED = _cc.UNRESERVED

cdef int MISSING_SCHEME = CODE_INDEX["missing-scheme"]
cdef int UPPERCASE_SCHEME = CODE_INDEX["uppercase-scheme"]
cdef int CONTROL = CODE_INDEX["control-char"]
cdef int NON_ASCII = CODE_INDEX["non-ascii"]
cdef int UNSAFE_CHAR = CODE_INDEX["unsafe-char"]
cdef int BAD_ESCAPE = CODE_INDEX["bad-escape"]
assert NFIELDS == len(FIELDS)   # _fields.pxi is current (tools/gen_fields.py)

# Characters the tokenizer must look at: delimiters of the common Internet scheme
# syntax, "%" (an escape to check) and everything that is a problem wherever it
# stands (unsafe, control). Other ASCII characters are skipped in a tight loop.
cdef uint8_t ATTENTION[128]
for _i in range(128):
    ATTENTION[_i] = (_i < 0x20 or _i == 0x7F or chr(_i) in "#/?@:[]%"
                     or (_PY_TABLE[_i] & _cc.UNSAFE) != 0)
# the same for a one-byte string, indexed by the byte itself (non-ASCII: look at it)
cdef uint8_t ATTENTION8[256]
for _i in range(256):
    ATTENTION8[_i] = ATTENTION[_i] if _i < 128 else 1

cdef array.array _OFFSETS_TEMPLATE = array.array("q")

cdef uint8_t HEXVAL[256]
for _i in range(256):
    HEXVAL[_i] = int(chr(_i), 16) if _PY_TABLE[_i] & _cc.HEX else 0


cdef inline bint is_hex(Py_UCS4 c) noexcept nogil:
    return c < 128 and (TABLE[c] & C_HEX) != 0


# ---- %hex codec (RFC 1738 §2.2) ---------------------------------------------------

cdef Py_ssize_t decode_into(const unsigned char *src, Py_ssize_t n, unsigned char *dst,
                            bint strict) noexcept nogil:
    """Decode escapes of src[:n] into dst; return the length, or -(1 + position)."""
    cdef const unsigned char *p = <const unsigned char *>memchr(src, 0x25, n)
    if p == NULL:
        memcpy(dst, src, n)
        return n
    cdef Py_ssize_t i = p - src, o = p - src
    cdef unsigned char c
    memcpy(dst, src, i)
    while i < n:
        c = src[i]
        if c != 0x25:
            dst[o] = c
            o += 1
            i += 1
        elif i + 2 < n and is_hex(src[i + 1]) and is_hex(src[i + 2]):
            dst[o] = HEXVAL[src[i + 1]] * 16 + HEXVAL[src[i + 2]]
            o += 1
            i += 3
        elif strict:
            return -(1 + i)
        else:
            dst[o] = 0x25
            o += 1
            i += 1
    return o


cdef bytes _unquote_buffer(object s, const unsigned char *src, Py_ssize_t n, bint strict):
    if memchr(src, 0x25, n) == NULL:
        return PyBytes_FromStringAndSize(<const char *>src, n)
    cdef unsigned char stackbuf[STACK]
    cdef unsigned char *dst = stackbuf
    cdef bytearray heap
    cdef Py_ssize_t m
    if n > STACK:
        heap = bytearray(n)
        dst = <unsigned char *><char *>heap
    m = decode_into(src, n, dst, strict)   # no nogil: releasing costs more than a URL
    if m < 0:
        data = PyBytes_FromStringAndSize(<const char *>src, n)
        raise _core_py._bad_escape(s, data, -m - 1)
    return PyBytes_FromStringAndSize(<const char *>dst, m)


def unquote_to_bytes(s, *, bint strict=True):
    """Decode every ``%hex`` escape of ``s`` into its octet."""
    cdef Py_buffer view
    if isinstance(s, str):
        if PyUnicode_IS_ASCII(s):
            return _unquote_buffer(s, <const unsigned char *>PyUnicode_DATA(s),
                                   PyUnicode_GET_LENGTH(s), strict)
        return _core_py.unquote_to_bytes(s, strict=strict)
    if isinstance(s, bytes):
        return _unquote_buffer(s, <const unsigned char *>PyBytes_AS_STRING(s), len(<bytes>s), strict)
    if isinstance(s, memoryview) and not (<memoryview>s).c_contiguous:
        s = s.tobytes()                # the twin's bytes(s): a strided view's own octets
        return _unquote_buffer(s, <const unsigned char *>PyBytes_AS_STRING(s), len(<bytes>s), strict)
    if isinstance(s, (bytearray, memoryview)):
        PyObject_GetBuffer(s, &view, PyBUF_SIMPLE)
        try:
            return _unquote_buffer(s, <const unsigned char *>view.buf, view.len, strict)
        finally:
            PyBuffer_Release(&view)
    raise TypeError(f"expected str or a bytes-like object, not {type(s).__name__}")


def unquote(s, encoding="utf-8", errors="strict", *, bint strict=True):
    """Decode ``%hex`` escapes and the octets they stand for as ``encoding`` text."""
    cdef Py_ssize_t n, m
    cdef const unsigned char *src
    cdef unsigned char stackbuf[STACK]
    cdef unsigned char *dst = stackbuf
    cdef bytearray heap
    if (encoding != "utf-8" or errors != "strict") and not (
            type(encoding) is str and type(errors) is str
            and encoding in _CHECKED_ENCODINGS and errors in _CHECKED_ERRORS):
        _core_py._check_codec_args(encoding, errors)   # the twin's errors, word for word
    if not isinstance(s, str):
        return _core_py._decoded(s, unquote_to_bytes(s, strict=strict), encoding, errors)
    if not PyUnicode_IS_ASCII(s) or not (encoding == "utf-8" or _is_utf8_name(<str>encoding)):
        return _core_py.unquote(s, encoding, errors, strict=strict)
    src = <const unsigned char *>PyUnicode_DATA(s)
    n = PyUnicode_GET_LENGTH(s)
    if memchr(src, 0x25, n) == NULL:
        return s
    if n > STACK:
        heap = bytearray(n)
        dst = <unsigned char *><char *>heap
    m = decode_into(src, n, dst, strict)   # no nogil: releasing costs more than a URL
    if m < 0:
        raise _core_py._bad_escape(s, s.encode("ascii"), -m - 1)
    try:
        return _utf8_text(dst, m, <str>errors)
    except UnicodeDecodeError:   # the twin's error (what, where), word for word
        return _core_py._decoded(s, PyBytes_FromStringAndSize(<const char *>dst, m), "utf-8",
                                 errors)


cdef object _utf8_text(const unsigned char *src, Py_ssize_t n, str errors):
    """``src[:n].decode("utf-8", errors)``, without the codec machinery for valid input.

    Valid UTF-8 is decoded here into code points (the common case: a short URL
    part); anything invalid goes to CPython's decoder, so ``errors`` behaves
    exactly as in :meth:`bytes.decode`.
    """
    cdef Py_UCS4 stackchars[STACK]
    cdef Py_UCS4 *chars = stackchars
    cdef Py_ssize_t k
    cdef Py_UCS4 maxchar = 0
    if n > STACK:
        chars = <Py_UCS4 *>PyMem_Malloc(n * sizeof(Py_UCS4))
        if chars == NULL:
            raise MemoryError()
    try:
        k = utf8_decode(src, n, chars, &maxchar)
        if k >= 0:
            if maxchar < 128:
                return PyUnicode_DecodeASCII(<const char *>src, n, NULL)
            return PyUnicode_FromKindAndData(4, chars, k)
    finally:
        if chars != stackchars:
            PyMem_Free(chars)
    if errors == "strict":
        return PyUnicode_DecodeUTF8(<const char *>src, n, NULL)
    errors_b = errors.encode("ascii")
    return PyUnicode_DecodeUTF8(<const char *>src, n, <char *>errors_b)


cdef Py_ssize_t utf8_decode(const unsigned char *s, Py_ssize_t n, Py_UCS4 *out,
                            Py_UCS4 *maxchar) noexcept nogil:
    """Strict UTF-8 (RFC 3629 table: no overlongs, no surrogates, at most U+10FFFF).

    Returns the number of code points, or -1 at the first invalid sequence.
    """
    cdef Py_ssize_t i = 0, k = 0
    cdef unsigned int c, c1, c2, c3, lo, hi
    cdef Py_UCS4 cp, mx = 0
    while i < n:
        c = s[i]
        if c < 0x80:
            cp = c
            i += 1
        elif 0xC2 <= c <= 0xDF:
            if i + 1 >= n or not (0x80 <= s[i + 1] <= 0xBF):
                return -1
            cp = ((c & 0x1F) << 6) | (s[i + 1] & 0x3F)
            i += 2
        elif 0xE0 <= c <= 0xEF:
            lo = 0xA0 if c == 0xE0 else 0x80
            hi = 0x9F if c == 0xED else 0xBF
            if i + 2 >= n:
                return -1
            c1 = s[i + 1]
            c2 = s[i + 2]
            if not (lo <= c1 <= hi and 0x80 <= c2 <= 0xBF):
                return -1
            cp = ((c & 0x0F) << 12) | ((c1 & 0x3F) << 6) | (c2 & 0x3F)
            i += 3
        elif 0xF0 <= c <= 0xF4:
            lo = 0x90 if c == 0xF0 else 0x80
            hi = 0x8F if c == 0xF4 else 0xBF
            if i + 3 >= n:
                return -1
            c1 = s[i + 1]
            c2 = s[i + 2]
            c3 = s[i + 3]
            if not (lo <= c1 <= hi and 0x80 <= c2 <= 0xBF and 0x80 <= c3 <= 0xBF):
                return -1
            cp = ((c & 0x07) << 18) | ((c1 & 0x3F) << 12) | ((c2 & 0x3F) << 6) | (c3 & 0x3F)
            i += 4
        else:
            return -1
        if cp > mx:
            mx = cp
        out[k] = cp
        k += 1
    maxchar[0] = mx
    return k


cdef bint _is_utf8_name(str encoding):
    return encoding.lower().replace("_", "-") in ("utf-8", "utf8")


def quote(s, safe=""):
    """Encode every octet that is not unreserved (RFC 1738 §2.2) or in ``safe``."""
    if type(safe) is not str:
        _core_py._check_safe(safe)     # the twin's error, word for word
    cdef bytes data = _core_py._as_bytes(s)
    cdef uint8_t keep[256]
    cdef Py_ssize_t i, n = len(data), o = 0, extra = 0
    cdef const unsigned char *src = <const unsigned char *>PyBytes_AS_STRING(data)
    cdef unsigned char c
    cdef Py_UCS4 ch
    for i in range(256):
        keep[i] = (TABLE[i] & C_UNRESERVED) != 0
    for ch in <str>safe:
        if ch < 128:
            keep[ch] = 1
    for i in range(n):
        if not keep[src[i]]:
            extra += 2
    out = PyUnicode_New(n + extra, 127)
    cdef unsigned char *dst = <unsigned char *>PyUnicode_DATA(out)
    for i in range(n):
        c = src[i]
        if keep[c]:
            dst[o] = c
            o += 1
        else:
            dst[o] = 0x25
            dst[o + 1] = b"0123456789ABCDEF"[c >> 4]
            dst[o + 2] = b"0123456789ABCDEF"[c & 15]
            o += 3
    return out


# ---- tokenizer (RFC 1738 §3.1 common Internet scheme syntax, §5 genericurl) -------

cdef inline int char_problem(Py_UCS4 c) noexcept nogil:
    if c < 0x20 or c == 0x7F:
        return CONTROL
    if c >= 0x80:
        return NON_ASCII
    if (TABLE[c] & C_UNSAFE) != 0 and c != 0x25:
        return UNSAFE_CHAR
    return 0


cdef inline void close_authority(Py_ssize_t *r, Py_ssize_t start, Py_ssize_t end,
                                 Py_ssize_t last_at, Py_ssize_t colon_user,
                                 Py_ssize_t colon_host) noexcept nogil:
    cdef Py_ssize_t host_start = start
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


ctypedef fused text_t:
    Py_UCS1
    Py_UCS2
    Py_UCS4


cdef void walk(const text_t *data, Py_ssize_t n, Py_ssize_t *r) noexcept nogil:
    """The walk of ``_core_py.tokenize``, filling r[0:NFIELDS]; one copy per character width."""
    cdef Py_ssize_t i = 0, k, upper_at = -1, prob_pos = -1
    cdef int prob_code = 0, state, p
    cdef Py_ssize_t auth_start = -1, last_at = -1, colon_user = -1, colon_host = -1, first_colon = -1
    cdef bint in_brackets = False, hier
    cdef Py_UCS4 c
    for k in range(NFIELDS):
        r[k] = -1
    while i < n:
        c = data[i]
        if c < 128 and (TABLE[c] & C_SCHEME) != 0:
            pass
        elif c < 128 and (TABLE[c] & C_ALPHA) != 0:
            if upper_at < 0:
                upper_at = i
        else:
            break
        i += 1
    if i > 0 and i < n and data[i] == 0x3A:
        r[SCHEME_END] = i
        if upper_at >= 0:
            prob_pos = upper_at
            prob_code = UPPERCASE_SCHEME
        i += 1
    else:
        prob_pos = 0
        prob_code = MISSING_SCHEME
        i = 0

    if i + 1 < n and data[i] == 0x2F and data[i + 1] == 0x2F:
        state = 1
        auth_start = i + 2
        i += 2
        hier = True
    else:
        state = 0
        r[PATH_START] = i
        hier = False

    while i < n:
        if text_t is Py_UCS1:
            # most characters of a URL: nothing to do (one table load a character)
            while ATTENTION8[data[i]] == 0:
                i += 1
                if i == n:
                    break
            if i == n:
                break
        c = data[i]
        if c < 128 and not ATTENTION[c]:   # most characters of a URL: nothing to do
            i += 1
            continue
        if c == 0x25:                      # "%": an escape in every state
            if i + 2 < n and is_hex(data[i + 1]) and is_hex(data[i + 2]):
                i += 3
                continue
            if prob_code == 0:
                prob_pos = i
                prob_code = BAD_ESCAPE
            i += 1
            continue
        if c == 0x2F and state != 1:       # "/" only ends the login
            i += 1
            continue
        if c == 0x23 and state != 3:
            if state == 1:
                close_authority(r, auth_start, i, last_at, colon_user, colon_host)
            elif state == 0:
                r[PATH_END] = i
            elif state == 2:
                r[SEARCH_END] = i
            state = 3
            r[FRAGMENT_START] = i + 1
            i += 1
            continue
        if state == 1:
            if c == 0x2F or c == 0x3F:
                close_authority(r, auth_start, i, last_at, colon_user, colon_host)
                if c == 0x2F:
                    state = 0
                    r[PATH_START] = i
                else:
                    state = 2
                    r[SEARCH_START] = i + 1
                i += 1
                continue
            if c == 0x40:
                last_at = i
                colon_user = first_colon
                colon_host = -1
                in_brackets = False
            elif c == 0x3A:
                if first_colon < 0:
                    first_colon = i
                if colon_host < 0 and not in_brackets:
                    colon_host = i
            elif c == 0x5B:
                if i == (last_at + 1 if last_at >= 0 else auth_start):
                    in_brackets = True
            elif c == 0x5D:
                in_brackets = False
        elif state == 0 and hier and c == 0x3F:
            r[PATH_END] = i
            state = 2
            r[SEARCH_START] = i + 1
            i += 1
            continue
        if prob_code == 0:
            if c == 0x25:
                if not (i + 2 < n and is_hex(data[i + 1])
                        and is_hex(data[i + 2])):
                    prob_pos = i
                    prob_code = BAD_ESCAPE
            else:
                p = char_problem(c)
                if p:
                    prob_pos = i
                    prob_code = p
        i += 1

    if state == 1:
        close_authority(r, auth_start, n, last_at, colon_user, colon_host)
    elif state == 0:
        r[PATH_END] = n
    elif state == 2:
        r[SEARCH_END] = n
    else:
        r[FRAGMENT_END] = n
    r[PROBLEM_POS] = prob_pos
    r[PROBLEM_CODE] = prob_code


cdef void tokenize_into(int kind, void *data, Py_ssize_t n, Py_ssize_t *r) noexcept nogil:
    """Tokenize a str's buffer of any kind (1, 2 or 4 bytes per character) into r[0:NFIELDS]."""
    if kind == 1:
        walk(<const Py_UCS1 *>data, n, r)
    elif kind == 2:
        walk(<const Py_UCS2 *>data, n, r)
    else:
        walk(<const Py_UCS4 *>data, n, r)


cdef inline tuple _tokenize(str s):
    cdef Py_ssize_t r[NFIELDS]
    tokenize_into(PyUnicode_KIND(s), PyUnicode_DATA(s), PyUnicode_GET_LENGTH(s), r)
    return (r[SCHEME_END], r[USER_START], r[USER_END], r[PASSWORD_START], r[PASSWORD_END],
            r[HOST_START], r[HOST_END], r[PORT_START], r[PORT_END], r[PATH_START], r[PATH_END],
            r[SEARCH_START], r[SEARCH_END], r[FRAGMENT_START], r[FRAGMENT_END],
            r[PROBLEM_POS], r[PROBLEM_CODE])


def tokenize(s):
    """Offsets of the parts of a URL and its first character-level problem."""
    if not isinstance(s, str):
        raise TypeError(f"expected str, not {type(s).__name__}")
    return _tokenize(<str>s)


def tokenize_many(urls):
    """:func:`tokenize` for every string of ``urls``, in one call."""
    cdef list items = urls if type(urls) is list else list(urls)
    cdef Py_ssize_t n = len(items), k
    cdef array.array out = array.clone(_OFFSETS_TEMPLATE, n * NFIELDS, zero=False)
    cdef long long *r = out.data.as_longlongs
    cdef Py_ssize_t tmp[NFIELDS]
    cdef int j
    for k in range(n):
        s = items[k]
        if not isinstance(s, str):
            raise TypeError(f"expected str, not {type(s).__name__}")
        tokenize_into(PyUnicode_KIND(s), PyUnicode_DATA(s), PyUnicode_GET_LENGTH(s), tmp)
        for j in range(NFIELDS):
            r[k * NFIELDS + j] = tmp[j]
    return out


# One text for both twins: the public docstrings (with their examples) are the twin's.
for _name in ("unquote_to_bytes", "unquote", "quote", "tokenize", "tokenize_many"):
    globals()[_name].__doc__ = getattr(_core_py, _name).__doc__
