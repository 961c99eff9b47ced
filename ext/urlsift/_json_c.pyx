# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""JSON-escaped runs read, and matches mapped back (twin of ``src/urlsift/_json_py.py``,
whose docstring says what a run is, what each escape is read as, and how the *runs* and
*escapes* arrays are laid out; :mod:`urlsift.text.jsonescapes` says why)."""
from cpython cimport array as carray
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from libc.stdint cimport int64_t, uint8_t, uint32_t
from libc.stdlib cimport free, malloc
from libc.string cimport memchr, memcpy

from array import array

from urlsift._scan_py import T_BARE as _T_BARE

cdef uint8_t T_BARE = _T_BARE

# the octets a run is read by, named
cdef enum:
    BACKSLASH = 0x5C    # "\" starts an escape (RFC 8259 §7)
    SOLIDUS = 0x2F      # "/", escaped as "\/" by the encoders that escape it
    COLON = 0x3A        # the ":" after the scheme, where a run starts
    QUOTE = 0x22        # '"': "\"" right after a run closes it
    LETTER_U = 0x75     # "u" of "\uXXXX"

cdef const char *HEX = b"0123456789ABCDEF"


cdef inline int hexval(uint8_t c) noexcept nogil:
    if 0x30 <= c <= 0x39:
        return c - 0x30
    c |= 0x20
    if 0x61 <= c <= 0x66:
        return c - 0x61 + 10
    return -1


cdef inline int64_t hex4(const uint8_t *d, Py_ssize_t p, Py_ssize_t n) noexcept nogil:
    """The value of "\\uXXXX" at ``d[p]``, or -1."""
    cdef int64_t v = 0
    cdef int h, i
    if p + 6 > n or d[p] != BACKSLASH or d[p + 1] != LETTER_U:
        return -1
    for i in range(2, 6):
        h = hexval(d[p + i])
        if h < 0:
            return -1
        v = v * 16 + h
    return v


cdef inline Py_ssize_t slash_at(const uint8_t *d, Py_ssize_t p, Py_ssize_t n) noexcept nogil:
    """The width of an escaped "/" at ``d[p]`` ("\\/" 2, "\\u002f" 6), or 0."""
    if p + 2 <= n and d[p] == BACKSLASH and d[p + 1] == SOLIDUS:
        return 2
    if (p + 6 <= n and d[p] == BACKSLASH and d[p + 1] == LETTER_U and d[p + 2] == 0x30
            and d[p + 3] == 0x30 and d[p + 4] == 0x32 and (d[p + 5] | 0x20) == 0x66):
        return 6
    return 0


cdef inline Py_ssize_t char_at(const uint8_t *d, Py_ssize_t p, Py_ssize_t n,
                               uint32_t *cp) noexcept nogil:
    """The width of "\\uXXXX" at ``d[p]`` that is a character (a surrogate pair: 12), its
    code point in ``cp``; 0 when there is none (a lone surrogate included)."""
    cdef int64_t v = hex4(d, p, n), low
    if v < 0 or 0xDC00 <= v <= 0xDFFF:
        return 0
    if v < 0xD800 or v > 0xDBFF:
        cp[0] = <uint32_t>v
        return 6
    low = hex4(d, p + 6, n)
    if low < 0xDC00 or low > 0xDFFF:
        return 0
    cp[0] = <uint32_t>(0x10000 + ((v - 0xD800) << 10) + low - 0xDC00)
    return 12


cdef inline Py_ssize_t put_char(uint8_t *o, uint32_t cp, const uint8_t *T) noexcept nogil:
    """Write what a character read from "\\uXXXX" is in a URL: itself when bare, else its
    UTF-8 octets as %HH (RFC 1738 §2.2); the count written."""
    cdef uint8_t u[4]
    cdef int k, i
    if cp < 128 and T[cp] & T_BARE:
        o[0] = <uint8_t>cp
        return 1
    if cp < 0x80:
        u[0] = <uint8_t>cp
        k = 1
    elif cp < 0x800:
        u[0] = 0xC0 | (cp >> 6)
        u[1] = 0x80 | (cp & 0x3F)
        k = 2
    elif cp < 0x10000:
        u[0] = 0xE0 | (cp >> 12)
        u[1] = 0x80 | ((cp >> 6) & 0x3F)
        u[2] = 0x80 | (cp & 0x3F)
        k = 3
    else:
        u[0] = 0xF0 | (cp >> 18)
        u[1] = 0x80 | ((cp >> 12) & 0x3F)
        u[2] = 0x80 | ((cp >> 6) & 0x3F)
        u[3] = 0x80 | (cp & 0x3F)
        k = 4
    for i in range(k):
        o[3 * i] = 0x25                 # "%"
        o[3 * i + 1] = HEX[u[i] >> 4]
        o[3 * i + 2] = HEX[u[i] & 15]
    return 3 * k


cdef inline Py_ssize_t run_start(const uint8_t *d, Py_ssize_t p, Py_ssize_t n) noexcept nogil:
    """The width of ":" and two escaped "/" at ``d[p]``, or 0."""
    cdef Py_ssize_t w1, w2
    if d[p] != COLON:
        return 0
    w1 = slash_at(d, p + 1, n)
    if w1 == 0:
        return 0
    w2 = slash_at(d, p + 1 + w1, n)
    return 1 + w1 + w2 if w2 else 0


cdef struct Quads:
    # a growing array of int64 quadruples
    int64_t *data
    Py_ssize_t n
    Py_ssize_t cap


cdef int quads_add(Quads *q, int64_t a, int64_t b, int64_t c, int64_t d) except -1:
    cdef int64_t *grown
    if q.n + 4 > q.cap:
        q.cap = q.cap * 2 + 64
        grown = <int64_t *>malloc(q.cap * sizeof(int64_t))
        if grown == NULL:
            raise MemoryError()
        if q.n:
            memcpy(grown, q.data, q.n * sizeof(int64_t))
        free(q.data)
        q.data = grown
    q.data[q.n] = a
    q.data[q.n + 1] = b
    q.data[q.n + 2] = c
    q.data[q.n + 3] = d
    q.n += 4
    return 0


cdef carray.array quads_array(Quads *q):
    cdef carray.array out = carray.clone(array("q"), q.n, False)
    if q.n:
        memcpy(out.data.as_voidptr, q.data, q.n * sizeof(int64_t))
    return out


def unescape(bytes text, bytes table):
    """``text`` with every JSON-escaped run read, its runs and its escapes (the twin's
    docstring says how each is laid out). ``table``: the scanner's policy table."""
    if PyBytes_GET_SIZE(table) != 256:
        raise ValueError("the policy table must have 256 entries")
    cdef const uint8_t *d = <const uint8_t *>PyBytes_AS_STRING(text)
    cdef const uint8_t *T = <const uint8_t *>PyBytes_AS_STRING(table)
    cdef Py_ssize_t n = PyBytes_GET_SIZE(text)
    cdef Quads runs, escapes
    runs.data = escapes.data = NULL
    runs.n = runs.cap = escapes.n = escapes.cap = 0
    cdef uint8_t *o = NULL
    cdef Py_ssize_t p = 0, done = 0, w = 0, s, k, size
    cdef int64_t grown = 0
    cdef uint32_t cp
    cdef const void *hit
    try:
        while p < n:
            hit = memchr(d + p, COLON, n - p)
            if hit == NULL:
                break
            p = <const uint8_t *>hit - d
            w = run_start(d, p, n)
            if w == 0:
                p += 1
                continue
            if o == NULL:
                # an escape is read as at most 1.5 times its width ("\uXXXX": 9 octets)
                o = <uint8_t *>malloc(n + n // 2 + 16)
                if o == NULL:
                    raise MemoryError()
            memcpy(o + done + grown, d + done, p - done)
            s = p
            quads_add(&runs, s, 0, s + grown, 0)
            o[p + grown] = COLON
            p += 1
            while True:             # the run's octets and escapes
                if p < n and (d[p] >= 0x80 or T[d[p]] & T_BARE):
                    o[p + grown] = d[p]
                    p += 1
                    continue
                w = slash_at(d, p, n) if p + 1 < n and d[p] == BACKSLASH else 0
                if w:
                    size = 1
                    o[p + grown] = SOLIDUS
                else:
                    w = char_at(d, p, n, &cp) if p + 1 < n and d[p] == BACKSLASH else 0
                    if w == 0:
                        break
                    size = put_char(o + p + grown, cp, T)
                quads_add(&escapes, p, p + grown, w, size)
                grown += size - w
                p += w
            if p + 1 < n and d[p] == BACKSLASH and d[p + 1] == QUOTE:
                quads_add(&escapes, p, p + grown, 2, 1)
                o[p + grown] = QUOTE
                grown -= 1
                p += 2
            k = runs.n - 4
            runs.data[k + 1] = p
            runs.data[k + 3] = p + grown
            done = p
        if runs.n == 0:
            return text, quads_array(&runs), quads_array(&escapes)
        memcpy(o + done + grown, d + done, n - done)
        return (PyBytes_FromStringAndSize(<char *>o, n + grown), quads_array(&runs),
                quads_array(&escapes))
    finally:
        free(o)
        free(runs.data)
        free(escapes.data)


cdef inline int64_t offset_back(const int64_t *E, Py_ssize_t count, int64_t q,
                                bint is_end) noexcept nogil:
    # the twin's old_offset: the last escape read at or before q, by bisection
    cdef Py_ssize_t lo = 0, hi = count, mid
    while lo < hi:
        mid = (lo + hi) >> 1
        if E[4 * mid + 1] <= q:
            lo = mid + 1
        else:
            hi = mid
    if lo == 0:
        return q
    E = E + 4 * (lo - 1)
    if q == E[1]:
        return E[0]
    if q < E[1] + E[3]:
        return E[0] + E[2] if is_end else E[0]
    return E[0] + E[2] + q - E[1] - E[3]


def old_offset(carray.array escapes, int64_t q, bint is_end):
    """Where offset ``q`` of the rewritten text falls in the text as written (the twin's)."""
    return offset_back(<const int64_t *>escapes.data.as_longlongs, len(escapes) // 4, q, is_end)


cdef extern from "Python.h":
    ctypedef struct PyTypeObject
    ctypedef struct PyObject
    PyObject *PyTuple_GET_ITEM(object t, Py_ssize_t i)
    object _PyObject_GC_NewVar "(PyObject *)_PyObject_GC_NewVar"(PyTypeObject *t, Py_ssize_t n)
    void PyTuple_SET_ITEM(object t, Py_ssize_t i, object o)
    void Py_INCREF(object o)


cdef inline void put(object t, Py_ssize_t i, object o):
    Py_INCREF(o)
    PyTuple_SET_ITEM(t, i, o)


def remap(list matches, carray.array escapes, bytes text, int64_t shift, int64_t last_end,
          str edit):
    """``matches`` of the rewritten text as matches of ``text`` (the twin's ``remap``)."""
    cdef const int64_t *E = <const int64_t *>escapes.data.as_longlongs
    cdef Py_ssize_t count = len(escapes) // 4, k = 0, i, n = len(matches)
    cdef int64_t s, e
    cdef object m, t, cls
    cdef tuple edits
    cdef list out = []
    for i in range(n):
        m = matches[i]
        s = offset_back(E, count, <object>PyTuple_GET_ITEM(m, 1), False)
        e = offset_back(E, count, <object>PyTuple_GET_ITEM(m, 2), True)
        if s + shift < last_end:
            continue
        while k < count and E[4 * k] < s:
            k += 1
        # a tuple subclass filled in place, as the build core makes Match objects
        cls = type(m)
        t = _PyObject_GC_NewVar(<PyTypeObject *>cls, 8)
        put(t, 0, <object>PyTuple_GET_ITEM(m, 0))
        put(t, 1, s + shift)
        put(t, 2, e + shift)
        if k < count and E[4 * k] < e:
            put(t, 3, text[s:e].decode("utf-8", "replace"))
            edits = <tuple>PyTuple_GET_ITEM(m, 6)
            put(t, 6, edits + (edit,))
        else:
            put(t, 3, <object>PyTuple_GET_ITEM(m, 3))
            put(t, 6, <object>PyTuple_GET_ITEM(m, 6))
        put(t, 4, <object>PyTuple_GET_ITEM(m, 4))
        put(t, 5, <object>PyTuple_GET_ITEM(m, 5))
        put(t, 7, <object>PyTuple_GET_ITEM(m, 7))
        out.append(t)
    return out
