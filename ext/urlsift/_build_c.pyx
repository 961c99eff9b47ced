# cython: language_level=3
"""Cython ``_build`` core (built as ``urlsift._build_c``); twin of ``src/urlsift/_build_py.py``.

The scanner's triples made into objects: ``build`` fills ``Match`` tuples in place
(allocated untracked, no per-object Python call), ``join_urls`` writes the command's
lines of URLs straight into one bytes object; the ``_records`` core copies URLs with
the same helpers (``_build_c.pxd``). Read the twin first.

Every span is checked against the input before it is read, and the octets of a span
are read once, into the object being made, and then checked there: a writer that
changes a mapped file during the scan can change what a URL says (an OSError says the
input changed), never make a copy overrun or a str lie about being ASCII.
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython cimport array
from libc.stdint cimport uint8_t, uint16_t, uint32_t, int64_t
from libc.string cimport memcpy

from cpython.mem cimport PyMem_Malloc, PyMem_Free

from urlsift._scan_c cimport _Input, table_ptr, utf8_at
from urlsift import _scan_py as _twin
from urlsift import _build_py as _twin_build

cdef extern from "Python.h":
    void *PyUnicode_DATA(object s)
    int PyUnicode_KIND(object s)
    void PyUnicode_WRITE(int kind, void *data, Py_ssize_t index, Py_UCS4 value) nogil
    bint PyUnicode_IS_ASCII(object s)
    object PyUnicode_DecodeUTF8(const char *s, Py_ssize_t size, const char *errors)
    object PyUnicode_Substring(object s, Py_ssize_t start, Py_ssize_t end)

cdef int WRAPPED = _twin.WRAPPED
cdef int PREFIX = _twin.PREFIX
cdef int WHITESPACE = _twin.WHITESPACE
cdef int HYPHEN_BREAK = _twin.HYPHEN_BREAK
cdef int TRIM_SHIFT = _twin.TRIM_SHIFT
cdef int ANGLE = _twin.ANGLE
cdef int HIGH_SHIFT = _twin.HIGH_SHIFT
cdef int64_t TRIM_MASK = _twin.TRIM_MASK
cdef int64_t ENCODED = _twin.ENCODED
cdef int64_t SOFT_BREAK = _twin.SOFT_BREAK
cdef int64_t JOINED = _twin.JOINED
cdef const char *HEX = b"0123456789ABCDEF"
cdef Py_ssize_t N_EDITS = _twin.N_EDITS
cdef Py_ssize_t EDITS_NON_ASCII = _twin.EDITS_NON_ASCII
# What the copy of a URL leaves out of its span (``url_span``'s ``drop``)
cdef enum:
    DROP_NONE = 0
    DROP_SPACE = 1     # white space inside a wrapper
    DROP_LT = 2        # the "<" of news:<id>
    DROP_QUOTES = 3    # white space and the ">" of reply-quote prefixes inside a wrapper
    DROP_SOFT = 4      # "=" + LF or CR LF inside a bare URL (JOINED: QP soft line breaks)
cdef uint8_t T_SPACE = _twin.T_SPACE


cdef extern from "Python.h":
    object PyUnicode_New(Py_ssize_t size, Py_UCS4 maxchar)
    ctypedef struct PyTypeObject
    # a GC object neither zeroed nor tracked (what PyTuple_New uses); every slot is set below
    object _PyObject_GC_NewVar "(PyObject *)_PyObject_GC_NewVar"(PyTypeObject *t, Py_ssize_t n)
    void PyTuple_SET_ITEM(object t, Py_ssize_t i, object o)
    ctypedef struct PyObject
    PyObject *PyTuple_GET_ITEM(object t, Py_ssize_t i)
    object PyList_New(Py_ssize_t n)
    void PyList_SET_ITEM(object l, Py_ssize_t i, object o)
    object PyLong_FromLong(long v)
    void Py_INCREF(object o)
    void PyObject_GC_UnTrack(object o)
    void PyObject_GC_Track(object o)

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define URLSIFT_PREFETCH(p) __builtin_prefetch((const void *)(p), 0, 0)
    #else
    #define URLSIFT_PREFETCH(p) ((void)0)
    #endif
    """
    void URLSIFT_PREFETCH(const void *p) noexcept nogil

#: How many matches ahead build asks for a span's octets: a piece scanned on another
#: thread (or long before) is no longer in this core's cache.
DEF AHEAD = 8


cdef object _span_text(const void *data, int kind, Py_ssize_t s, Py_ssize_t e, object text):
    """buf[s:e] as a str, each unit read once and checked in the copy. ``text`` is the
    str the data belongs to, or None for octets: those are UTF-8, and as the scanner
    reports ASCII and whole UTF-8 letters only, anything else means the input changed."""
    cdef object out = PyUnicode_New(e - s, 127)
    cdef uint8_t *dst = <uint8_t *>PyUnicode_DATA(out)
    cdef Py_ssize_t i
    cdef uint32_t c, seen = 0
    if kind == 1:
        memcpy(dst, <const uint8_t *>data + s, e - s)
        for i in range(e - s):
            seen |= dst[i]
    else:
        for i in range(e - s):
            c = (<const uint16_t *>data)[s + i] if kind == 2 else (<const uint32_t *>data)[s + i]
            seen |= c
            dst[i] = <uint8_t>c
    if seen < 128:
        return out
    if text is not None:                # a str: its characters as they are
        return PyUnicode_Substring(text, s, e)
    try:                                # the copy's octets, not the input's again
        return PyUnicode_DecodeUTF8(<const char *>dst, e - s, NULL)
    except UnicodeDecodeError:
        raise OSError(f"the input changed while it was read (no UTF-8 in {s}..{e})") from None


cdef inline bint _dropped(uint8_t c, int drop, const uint8_t *T) noexcept nogil:
    return ((drop == DROP_SPACE and (T[c] & T_SPACE) != 0) or (drop == DROP_LT and c == 60)
            or (drop == DROP_QUOTES and ((T[c] & T_SPACE) != 0 or c == 62)))


cdef object _squeeze(str raw, Py_ssize_t a, Py_ssize_t b, int drop, const uint8_t *T):
    """raw[a:b] without what ``drop`` says (white space, or "<"); raw is ASCII."""
    cdef const uint8_t *src = <const uint8_t *>PyUnicode_DATA(raw)
    cdef Py_ssize_t i, k = 0
    for i in range(a, b):
        if not _dropped(src[i], drop, T):
            k += 1
    cdef object out = PyUnicode_New(k, 127)
    cdef uint8_t *dst = <uint8_t *>PyUnicode_DATA(out)
    k = 0
    for i in range(a, b):
        if not _dropped(src[i], drop, T):
            dst[k] = src[i]
            k += 1
    return out


cdef inline object _new(object cls, object url, Py_ssize_t s, Py_ssize_t e, object raw,
                        bint wrapped, bint hyphen, object edits):
    # A tuple subclass without __dict__, allocated untracked and filled in place: every
    # item is a str, int, bool, None or a tuple of str, so no cycle can go through the
    # match and the collector need not see it (CPython untracks such tuples too).
    cdef object t = _PyObject_GC_NewVar(<PyTypeObject *>cls, 8)
    cdef object vs = PyLong_FromLong(s)
    cdef object ve = PyLong_FromLong(e)
    cdef object w = True if wrapped else False
    cdef object h = True if hyphen else False
    cdef object none = None
    Py_INCREF(url)
    PyTuple_SET_ITEM(t, 0, url)
    Py_INCREF(vs)
    PyTuple_SET_ITEM(t, 1, vs)
    Py_INCREF(ve)
    PyTuple_SET_ITEM(t, 2, ve)
    Py_INCREF(raw)
    PyTuple_SET_ITEM(t, 3, raw)
    Py_INCREF(w)
    PyTuple_SET_ITEM(t, 4, w)
    Py_INCREF(h)
    PyTuple_SET_ITEM(t, 5, h)
    Py_INCREF(edits)
    PyTuple_SET_ITEM(t, 6, edits)
    Py_INCREF(none)
    PyTuple_SET_ITEM(t, 7, none)
    return t


cdef inline uint8_t _byte(const void *data, int kind, Py_ssize_t i) noexcept nogil:
    if kind == 1:
        return (<const uint8_t *>data)[i]
    if kind == 2:
        return <uint8_t>(<const uint16_t *>data)[i]
    return <uint8_t>(<const uint32_t *>data)[i]


cdef int url_span(int64_t s, int64_t e, int64_t f, Py_ssize_t n, Py_ssize_t *a,
                          Py_ssize_t *b, int *squeeze) except -1:
    """Where the cleaned URL of a triple lies (as ``build`` cuts it) and what its copy
    leaves out (``squeeze``: DROP_*); ValueError unless ``0 <= s <= a <= b <= e <= n``
    (the triples may come from a caller)."""
    cdef int low = f & 0xFF
    cdef int64_t cut = (f >> TRIM_SHIFT) & TRIM_MASK
    squeeze[0] = DROP_NONE
    if low & ANGLE:
        a[0] = s
        b[0] = e - 1
        squeeze[0] = DROP_LT
    elif low & WRAPPED:
        a[0] = s + (5 if low & PREFIX else 1)
        b[0] = e - 1
        squeeze[0] = (DROP_QUOTES if cut > 0 else DROP_SPACE) if (low & WHITESPACE) != 0 \
            else DROP_NONE
    else:
        a[0] = s + (4 if low & PREFIX else 0)
        b[0] = e - cut
        if f & JOINED:
            squeeze[0] = DROP_SOFT
    if not (0 <= s <= a[0] <= b[0] <= e <= n):
        raise ValueError(f"span ({s}, {e}) with flags {f} does not fit the input")
    return 0


cdef str triple_raw(const void *data, int kind, Py_ssize_t n, const int64_t *t,
                    Py_ssize_t *u0, Py_ssize_t *u1, int *squeeze, object text):
    """The raw span of the triple at ``t`` over ``data`` (``n`` units of ``kind``
    octets; ``text``: the str they are, None for UTF-8 octets), checked, read once;
    where its URL lies in it (``u0``, ``u1``, ``squeeze``)."""
    url_span(t[0], t[1], t[2], n, u0, u1, squeeze)
    cdef str raw = _span_text(data, kind, t[0], t[1], text)
    if (t[2] & (WRAPPED | ANGLE)) and not PyUnicode_IS_ASCII(raw):
        raise OSError(f"the input changed while it was read (a non-ASCII character in "
                      f"{t[0]}..{t[1]})")
    return raw


cdef Py_ssize_t edits_index(str url, int64_t f) noexcept:
    """The twin's edits_index: by the low byte and the high flags, trimmed or not
    (beyond the ``=`` of a SOFT_BREAK), non-ASCII or not."""
    return (((((f >> HIGH_SHIFT) & 7) << 8) | (f & 255)) * 2
            + (((f >> TRIM_SHIFT) & TRIM_MASK) > (1 if f & SOFT_BREAK else 0))
            + (0 if PyUnicode_IS_ASCII(url) else EDITS_NON_ASCII))


cdef bint encoded(int64_t f) noexcept:
    """Is the triple with flags ``f`` a bare one with octets to write %HH (ENCODED)?
    Over octets, its strings come from triple_octets, not triple_raw/triple_url."""
    return (f & ENCODED) != 0 and (f & (WRAPPED | ANGLE)) == 0


cdef inline Py_ssize_t soft_break(const uint8_t *d, Py_ssize_t i, Py_ssize_t b) noexcept nogil:
    """The length of the QP soft line break at ``d[i]`` ("=" LF: 2, "=" CR LF: 3) within
    ``d[:b]``, or 0: what a JOINED URL leaves out (the twin's unbreak)."""
    if d[i] != 61 or i + 1 >= b:
        return 0
    if d[i + 1] == 10:
        return 2
    return 3 if i + 2 < b and d[i + 1] == 13 and d[i + 2] == 10 else 0


cdef Py_ssize_t encode_octets(const uint8_t *d, Py_ssize_t a, Py_ssize_t b, bint soft,
                              uint8_t *dst) noexcept nogil:
    """The URL of the octets ``d[a:b]`` of an ENCODED span into ``dst`` (room for
    ``3 * (b - a)``): a UTF-8 sequence as it is, an octet that starts none as ``%HH``
    (RFC 1738 §2.2; the twin's ``urlsift.percent`` handler), and with ``soft`` each
    ``=`` + LF or CR LF left out (the twin's unbreak: those are ASCII, never inside a
    sequence or a triplet). The number of octets written."""
    cdef Py_ssize_t i = a, o = 0, k
    cdef uint32_t cp
    cdef uint8_t c
    while i < b:
        c = d[i]
        if c < 128:
            k = soft_break(d, i, b) if soft else 0
            if k:
                i += k
            else:
                dst[o] = c
                o += 1
                i += 1
            continue
        k = utf8_at(d, i, b, &cp)
        if k:
            memcpy(dst + o, d + i, k)
            o += k
            i += k
        else:
            dst[o] = 37
            dst[o + 1] = HEX[c >> 4]
            dst[o + 2] = HEX[c & 15]
            o += 3
            i += 1
    return o


cdef str latin1_text(const uint8_t *d, Py_ssize_t n):
    """``d[:n]`` read as UTF-8, an octet that starts no sequence as its ISO-8859-1
    character (the twin's ``urlsift.latin1`` handler): ``raw`` of an ENCODED span."""
    cdef Py_ssize_t i = 0, count = 0
    cdef uint32_t cp, top = 0
    cdef int k
    while i < n:
        k = utf8_at(d, i, n, &cp) if d[i] >= 128 else 0
        if k == 0:
            cp = d[i]
            k = 1
        if cp > top:
            top = cp
        count += 1
        i += k
    cdef object out = PyUnicode_New(count, top)
    cdef int kind = PyUnicode_KIND(out)
    cdef void *data = PyUnicode_DATA(out)
    i = count = 0
    while i < n:
        k = utf8_at(d, i, n, &cp) if d[i] >= 128 else 0
        if k == 0:
            cp = d[i]
            k = 1
        PyUnicode_WRITE(kind, data, count, cp)
        count += 1
        i += k
    return out


cdef tuple triple_octets(const uint8_t *data, Py_ssize_t n, const int64_t *t):
    """(url, raw) of an ENCODED triple over octets: its span copied once, and both made
    from the copy (latin1_text, encode_octets)."""
    cdef Py_ssize_t u0, u1, m = t[1] - t[0], k
    cdef int squeeze
    url_span(t[0], t[1], t[2], n, &u0, &u1, &squeeze)
    cdef uint8_t *copy = <uint8_t *>PyMem_Malloc(4 * m + 1)
    if copy == NULL:
        raise MemoryError()
    try:
        memcpy(copy, data + t[0], m)
        raw = latin1_text(copy, m)
        k = encode_octets(copy, u0 - t[0], u1 - t[0], squeeze == DROP_SOFT, copy + m)
        url = PyUnicode_DecodeUTF8(<const char *>copy + m, k, NULL)
        return url, raw
    finally:
        PyMem_Free(copy)


cdef str triple_url(str raw, const int64_t *t, Py_ssize_t u0, Py_ssize_t u1, int squeeze,
                    const uint8_t *T):
    """The URL of the triple at ``t``, cut from its ``raw`` span (see triple_raw)."""
    cdef int64_t s = t[0]
    if squeeze == DROP_SOFT:          # QP soft line breaks (rare): the twin's unbreak
        return _twin_build.unbreak(PyUnicode_Substring(raw, u0 - s, len(raw) - (t[1] - u1)))
    if u0 == s and u1 == t[1]:
        return raw
    if squeeze:
        return _squeeze(raw, u0 - s, u1 - s, squeeze, T)
    # what is cut at either end is ASCII ("URL:", trimmed punctuation): as many
    # characters as octets, while a UTF-8 letter inside counts once in raw
    return PyUnicode_Substring(raw, u0 - s, len(raw) - (t[1] - u1))


cdef object _match(_Input inp, const int64_t *t, Py_ssize_t offset, object cls, tuple edits,
                   const uint8_t *T):
    """The ``cls`` tuple (url, start, end, raw, wrapped, hyphen_break, edits, None) of the
    triple at ``t``; offsets shifted by ``offset``."""
    cdef int64_t f = t[2]
    cdef Py_ssize_t u0, u1
    cdef int squeeze
    cdef int low = f & 0xFF
    cdef str raw, url
    if encoded(f) and inp.has_view:
        url, raw = triple_octets(<const uint8_t *>inp.data, inp.n, t)
    else:
        raw = triple_raw(inp.data, inp.kind, inp.n, t, &u0, &u1, &squeeze,
                         None if inp.has_view else inp.keep)
        url = triple_url(raw, t, u0, u1, squeeze, T)
    return _new(cls, url, t[0] + offset, t[1] + offset, raw, low & WRAPPED, low & HYPHEN_BREAK,
                <object>PyTuple_GET_ITEM(edits, edits_index(url, f)))


cdef inline void _prefetch(_Input inp, const int64_t *a, Py_ssize_t k, Py_ssize_t last) noexcept:
    """Ask for the octets of the span AHEAD triples on (see AHEAD)."""
    cdef int64_t s
    if k + AHEAD < last:
        s = a[3 * (k + AHEAD)]
        if 0 <= s < inp.n:
            URLSIFT_PREFETCH(<const uint8_t *>inp.data + s * inp.kind)
            URLSIFT_PREFETCH(<const uint8_t *>inp.data + s * inp.kind + 64)


cdef int clip_triples(array.array arr, str name, Py_ssize_t *first,
                       Py_ssize_t *last) except -1:
    """Check that ``arr`` holds triples (array('q')); clip ``first``/``last`` to them."""
    cdef Py_ssize_t total = len(arr) // 3
    if arr.ob_descr.typecode != b"q":
        raise TypeError(f"{name} needs an array('q')")
    if last[0] < 0 or last[0] > total:
        last[0] = total
    if first[0] < 0:
        first[0] = 0
    if first[0] > last[0]:
        first[0] = last[0]
    return 0


cdef Py_ssize_t _range(array.array arr, object cls, tuple edits, Py_ssize_t *first,
                       Py_ssize_t *last) except -1:
    """Check build's arguments; clip ``first``/``last`` to the triples of ``arr``."""
    clip_triples(arr, "build", first, last)
    if not issubclass(cls, tuple) or cls.__itemsize__ != tuple.__itemsize__ or cls.__dictoffset__:
        raise TypeError("build needs a tuple subclass without __dict__")
    if len(edits) != N_EDITS:
        raise ValueError(f"edits must have {N_EDITS} entries")
    return 0


def build(array.array arr, buf, Py_ssize_t offset, type cls not None, tuple edits, bytes table,
          Py_ssize_t first=0, Py_ssize_t last=-1):
    """``cls`` tuples (url, start, end, raw, wrapped, hyphen_break, edits, None) for the
    triples ``first`` to ``last`` of ``arr`` over ``buf``; offsets shifted by ``offset``."""
    cdef const uint8_t *T = table_ptr(table)
    _range(arr, cls, edits, &first, &last)
    cdef _Input inp = _Input(buf)
    cdef const int64_t *a = <const int64_t *>arr.data.as_voidptr
    cdef Py_ssize_t k
    cdef object m
    cdef list out = PyList_New(last - first)     # filled in place: no append, no resize
    # Untracked while it fills: each Match allocated counts toward a young collection
    # (every 700), which would walk this list each time. It holds only matches, no cycle.
    PyObject_GC_UnTrack(out)
    try:
        for k in range(first, last):
            _prefetch(inp, a, k, last)
            m = _match(inp, a + 3 * k, offset, cls, edits, T)
            Py_INCREF(m)
            PyList_SET_ITEM(out, k - first, m)
        PyObject_GC_Track(out)
        return out
    finally:
        inp.close()


cdef Py_ssize_t copy_url(uint8_t *dst, _Input inp, Py_ssize_t u0, Py_ssize_t u1,
                                 int squeeze, const uint8_t *T) noexcept:
    """The URL at ``[u0, u1)`` into ``dst`` (white space squeezed out of a wrapper, QP
    soft line breaks out of a JOINED URL: octets only); the number of octets written."""
    cdef Py_ssize_t i, o = 0, k
    cdef uint8_t c
    cdef const uint8_t *d
    if inp.kind == 1 and not squeeze:
        memcpy(dst, <const uint8_t *>inp.data + u0, u1 - u0)
        return u1 - u0
    if squeeze == DROP_SOFT:          # the twin's unbreak: "=" LF, "=" CR LF, left to right
        d = <const uint8_t *>inp.data
        i = u0
        while i < u1:
            k = soft_break(d, i, u1)
            if k:
                i += k
            else:
                dst[o] = d[i]
                o += 1
                i += 1
        return o
    for i in range(u0, u1):
        c = _byte(inp.data, inp.kind, i)
        if not _dropped(c, squeeze, T):
            dst[o] = c
            o += 1
    return o


def join_urls(array.array arr, buf, bytes table, Py_ssize_t first=0, Py_ssize_t last=-1):
    """The URLs of triples ``first`` to ``last``, each followed by a newline, as one bytes
    object: ``build``'s ``url``s without building a Match (the command's fast path).

    The output is sized from the spans alone (an upper bound: white space squeezed out of
    a wrapper only shortens it) and the input is read once, while copying."""
    cdef const uint8_t *T = table_ptr(table)
    cdef _Input inp = _Input(buf)
    cdef const int64_t *a = <const int64_t *>arr.data.as_voidptr
    cdef Py_ssize_t k, u0, u1, size = 0, o = 0
    cdef int squeeze
    cdef bytes out
    cdef uint8_t *dst
    clip_triples(arr, "join_urls", &first, &last)
    if not inp.has_view:            # a str: its characters made UTF-8 by the twin
        inp.close()
        return _twin_build.join_urls(arr, buf, table, first, last)
    try:
        for k in range(first, last):
            url_span(a[3 * k], a[3 * k + 1], a[3 * k + 2], inp.n, &u0, &u1, &squeeze)
            size += _room(a + 3 * k, u0, u1) + 1
        out = PyBytes_FromStringAndSize(NULL, size)
        dst = <uint8_t *>PyBytes_AS_STRING(out)
        for k in range(first, last):
            url_span(a[3 * k], a[3 * k + 1], a[3 * k + 2], inp.n, &u0, &u1, &squeeze)
            if encoded(a[3 * k + 2]):
                o += copy_encoded(dst + o, inp, u0, u1, squeeze)
            else:
                o += copy_url(dst + o, inp, u0, u1, squeeze, T)
            dst[o] = 10
            o += 1
        return out if o == size else out[:o]
    finally:
        inp.close()


cdef Py_ssize_t copy_encoded(uint8_t *dst, _Input inp, Py_ssize_t u0, Py_ssize_t u1,
                                     int squeeze) noexcept:
    """The URL of an ENCODED triple (spanning ``[u0, u1)``) into ``dst`` as UTF-8, as
    triple_octets makes it; at most three octets per octet (an octet written %HH)."""
    return encode_octets(<const uint8_t *>inp.data, u0, u1, squeeze == DROP_SOFT, dst)


cdef inline Py_ssize_t _room(const int64_t *t, Py_ssize_t u0, Py_ssize_t u1) noexcept:
    """Room for the URL of the triple at ``t`` (spanning ``[u0, u1)``) in a line."""
    return 3 * (u1 - u0) if encoded(t[2]) else u1 - u0
