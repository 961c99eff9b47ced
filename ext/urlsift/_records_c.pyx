# cython: language_level=3
"""Cython ``_records`` core (built as ``urlsift._records_c``); twin of
``src/urlsift/_records_py.py`` (read its docstrings: the results are the same).

The scanner's records handed to the sinks as plain arrays, never formatted here: lines
laid out by a sink's layout, the URLs as an Arrow string column's data and offsets, the
line of each record, a part of each URL (the tokenizer's walk, ``_core_c.pxd``). URLs are copied with the ``_build`` core's helpers, each span
checked against the input before it is read, the output sized from the spans.
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize
from cpython cimport array
from libc.stdint cimport uint8_t, uint16_t, uint32_t, int32_t, int64_t
from libc.stdlib cimport calloc, free, malloc
from libc.string cimport memchr, memcmp, memcpy

from urlsift._scan_c cimport _Input, table_ptr
from urlsift._build_c cimport clip_triples, url_span, copy_url, copy_encoded
from urlsift._core_c cimport tokenize_into
from urlsift import _records_py as _twin
from urlsift import _layout

cdef int F_URL = _layout.F_URL
cdef int F_LINE = _layout.F_LINE
cdef int F_OFFSET = _layout.F_OFFSET
# A record's fields (``_layout.RECORD``) as constants the C compiler folds into the
# index arithmetic of the loops; checked against the layout when the module loads.
cdef enum:
    W = 3
    START = 0
    END = 1
    FLAGS = 2
if (_layout.RECORD_WIDTH, _layout.R_START, _layout.R_END, _layout.R_FLAGS) != (W, START, END,
                                                                                FLAGS):
    raise ImportError("urlsift._records_c was built for another record layout: rebuild it")
DEF MAX_LAYOUT = 16
cdef array.array _LONGS = array.array("q")
cdef array.array _INTS = array.array("i")


cdef Py_ssize_t _newlines(_Input inp, Py_ssize_t i, Py_ssize_t stop) noexcept:
    """How many newlines lie in ``[i, stop)`` of the input."""
    cdef Py_ssize_t total = 0
    cdef const uint8_t *d
    cdef const void *hit
    if inp.kind == 1:
        d = <const uint8_t *>inp.data
        while i < stop:
            hit = memchr(d + i, 10, stop - i)
            if hit == NULL:
                break
            total += 1
            i = <const uint8_t *>hit - d + 1
        return total
    while i < stop:                   # a str of 2- or 4-byte characters
        if inp.kind == 2:
            total += (<const uint16_t *>inp.data)[i] == 10
        else:
            total += (<const uint32_t *>inp.data)[i] == 10
        i += 1
    return total


cdef inline Py_ssize_t _decimal(uint8_t *dst, int64_t v) noexcept:
    """``v`` (>= 0) in decimal at ``dst``; the number of digits."""
    cdef uint8_t tmp[24]
    cdef Py_ssize_t k = 0, i
    while True:
        tmp[k] = 48 + v % 10
        k += 1
        v //= 10
        if v == 0:
            break
    for i in range(k):
        dst[i] = tmp[k - 1 - i]
    return k


cdef inline bint _stopped(const uint8_t *p, Py_ssize_t n, const uint8_t *stop) noexcept:
    """True when one of the octets ``p[:n]`` has an entry in ``stop``."""
    cdef Py_ssize_t i
    for i in range(n):
        if stop[p[i]]:
            return True
    return False


cdef int64_t ENCODED = _layout.ENCODED
cdef int64_t WRAPPED_OR_ANGLE = _layout.WRAPPED | _layout.ANGLE


cdef inline bint _encoded(int64_t f) noexcept:
    """``_build_c.encoded``, here: the loops below ask it of every record."""
    return (f & ENCODED) != 0 and (f & WRAPPED_OR_ANGLE) == 0


cdef inline Py_ssize_t _room(const int64_t *t, Py_ssize_t u0, Py_ssize_t u1) noexcept:
    """``_build_c.room``: at most three octets per octet of an ENCODED span."""
    return 3 * (u1 - u0) if _encoded(t[FLAGS]) else u1 - u0


cdef inline Py_ssize_t _copy(uint8_t *dst, _Input inp, const int64_t *t, Py_ssize_t u0,
                             Py_ssize_t u1, int squeeze, const uint8_t *T) noexcept:
    """The URL of the record at ``t`` into ``dst``, as ``join_urls`` copies it; the
    common case (octets, nothing to leave out or encode) copied here, not through the
    ``_build`` core's function."""
    if _encoded(t[FLAGS]):
        return copy_encoded(dst, inp, u0, u1, squeeze)
    if squeeze == 0 and inp.kind == 1:
        memcpy(dst, <const uint8_t *>inp.data + u0, u1 - u0)
        return u1 - u0
    return copy_url(dst, inp, u0, u1, squeeze, T)


def join_positions(array.array arr, buf, bytes table, tuple layout, Py_ssize_t base,
                   list state, Py_ssize_t first=0, Py_ssize_t last=-1, bytes stop=None):
    """One line per record ``first`` to ``last`` laid out by ``layout`` (the twin's
    docstring says the rest); sized from the spans, the input read once."""
    cdef const uint8_t *T = table_ptr(table)
    cdef Py_ssize_t k, j, u0, u1, size = 0, o = 0, fixed = 0, url_at
    cdef Py_ssize_t pos, s, nitems = len(layout)
    cdef int kinds[MAX_LAYOUT]
    cdef const char *lits[MAX_LAYOUT]
    cdef Py_ssize_t lens[MAX_LAYOUT]
    cdef bint lines = _twin.check_layout(layout)
    cdef const uint8_t *stops = NULL
    cdef int64_t line
    cdef int squeeze
    cdef bytes out
    cdef uint8_t *dst
    if stop is not None:
        if len(stop) != 256:
            raise ValueError("stop must have 256 entries")
        stops = <const uint8_t *>PyBytes_AS_STRING(stop)
    for j in range(nitems):
        item = layout[j]
        if isinstance(item, bytes):
            kinds[j] = -1
            lits[j] = PyBytes_AS_STRING(item)
            lens[j] = len(<bytes>item)
            fixed += lens[j]
        else:
            kinds[j] = item
            fixed += 20 if item != F_URL else 0      # a number: at most 20 digits
    clip_triples(arr, "join_positions", &first, &last)
    cdef _Input inp = _Input(buf)
    cdef const int64_t *a = <const int64_t *>arr.data.as_voidptr
    if not inp.has_view:            # a str: its characters made UTF-8 by the twin
        inp.close()
        return _twin.join_positions(arr, buf, table, layout, base, state, first, last, stop)
    pos = _twin.counted_to(state, base) if lines else 0    # without lines: not counted
    line = state[1]
    try:
        for k in range(first, last):
            url_span(a[W * k + START], a[W * k + END], a[W * k + FLAGS], inp.n, &u0, &u1,
                     &squeeze)
            size += fixed + _room(a + W * k, u0, u1)
        out = PyBytes_FromStringAndSize(NULL, size)
        dst = <uint8_t *>PyBytes_AS_STRING(out)
        for k in range(first, last):
            s = a[W * k + START]
            url_span(s, a[W * k + END], a[W * k + FLAGS], inp.n, &u0, &u1, &squeeze)
            if lines and s > pos:
                line += _newlines(inp, pos, s)
                pos = s
            for j in range(nitems):
                if kinds[j] < 0:
                    memcpy(dst + o, lits[j], lens[j])
                    o += lens[j]
                elif kinds[j] == F_URL:
                    url_at = o
                    o += _copy(dst + o, inp, a + W * k, u0, u1, squeeze, T)
                    if stops != NULL and _stopped(dst + url_at, o - url_at, stops):
                        return None     # the sink writes this batch itself
                elif kinds[j] == F_LINE:
                    o += _decimal(dst + o, line)
                else:
                    o += _decimal(dst + o, base + s)
        if lines:
            state[0] = pos + base
            state[1] = line
        return out[:o]
    finally:
        inp.close()


def url_column(array.array arr, buf, bytes table, Py_ssize_t first=0, Py_ssize_t last=-1):
    """(data, offsets): the URLs of records ``first`` to ``last`` one after the other in
    UTF-8, and array('i') of where each starts and the last ends."""
    cdef const uint8_t *T = table_ptr(table)
    cdef Py_ssize_t k, u0, u1, size = 0, o = 0
    cdef int squeeze
    cdef bytes out
    cdef uint8_t *dst
    cdef array.array offsets
    cdef int32_t *offs
    clip_triples(arr, "url_column", &first, &last)
    cdef _Input inp = _Input(buf)
    cdef const int64_t *a = <const int64_t *>arr.data.as_voidptr
    if not inp.has_view:
        inp.close()
        return _twin.url_column(arr, buf, table, first, last)
    try:
        for k in range(first, last):
            url_span(a[W * k + START], a[W * k + END], a[W * k + FLAGS], inp.n, &u0, &u1,
                     &squeeze)
            size += _room(a + W * k, u0, u1)
        if size > 0x7FFFFFFF:
            raise ValueError("a batch of URLs longer than an Arrow string column holds")
        offsets = array.clone(_INTS, last - first + 1, zero=False)
        offs = <int32_t *>offsets.data.as_voidptr
        out = PyBytes_FromStringAndSize(NULL, size)
        dst = <uint8_t *>PyBytes_AS_STRING(out)
        offs[0] = 0
        for k in range(first, last):
            url_span(a[W * k + START], a[W * k + END], a[W * k + FLAGS], inp.n, &u0, &u1,
                     &squeeze)
            o += _copy(dst + o, inp, a + W * k, u0, u1, squeeze, T)
            offs[k - first + 1] = <int32_t>o
        return (out if o == size else out[:o]), offsets
    finally:
        inp.close()


def line_numbers(array.array arr, buf, Py_ssize_t base, list state, Py_ssize_t first=0,
                 Py_ssize_t last=-1):
    """array('q') of the 1-based line of each record's start (the twin's docstring)."""
    cdef Py_ssize_t k, s, pos
    cdef int64_t line
    cdef array.array out
    cdef int64_t *dst
    clip_triples(arr, "line_numbers", &first, &last)
    cdef _Input inp = _Input(buf)
    cdef const int64_t *a = <const int64_t *>arr.data.as_voidptr
    pos = _twin.counted_to(state, base)
    line = state[1]
    try:
        out = array.clone(_LONGS, last - first, zero=False)
        dst = <int64_t *>out.data.as_voidptr
        for k in range(first, last):
            s = a[W * k + START]
            if s > pos:
                if s > inp.n:
                    raise ValueError(f"record {k} starts at {s}, past the input's end")
                line += _newlines(inp, pos, s)
                pos = s
            dst[k - first] = line
        state[0] = pos + base
        state[1] = line
        return out
    finally:
        inp.close()


def part_column(bytes data, array.array offsets, Py_ssize_t start_field, Py_ssize_t end_field):
    """(data, offsets, validity) of one part of each URL of a url_column, cut where the
    tokenizer says (the twin's docstring): the walk over each URL's octets in place."""
    _twin.check_fields(start_field, end_field)
    if offsets.ob_descr.typecode != b"i":
        raise TypeError("part_column needs offsets as array('i')")
    cdef Py_ssize_t n = len(offsets) - 1, k, a, b, o = 0
    cdef Py_ssize_t r[17]
    cdef const int32_t *offs = <const int32_t *>offsets.data.as_voidptr
    cdef const uint8_t *d = <const uint8_t *>PyBytes_AS_STRING(data)
    cdef Py_ssize_t size = len(data)
    if n < 0 or (n >= 0 and (offs[0] < 0 or offs[n] > size)):
        raise ValueError("offsets do not fit the data")
    for k in range(n):
        if offs[k + 1] < offs[k]:
            raise ValueError(f"offsets do not fit the data (at {k})")
    cdef bytes out = PyBytes_FromStringAndSize(NULL, offs[n] - offs[0] if n > 0 else 0)
    cdef uint8_t *dst = <uint8_t *>PyBytes_AS_STRING(out)
    cdef array.array starts = array.clone(_INTS, n + 1, zero=False)
    cdef int32_t *st = <int32_t *>starts.data.as_voidptr
    cdef bytes bits = PyBytes_FromStringAndSize(NULL, (n + 7) // 8)
    cdef uint8_t *bt = <uint8_t *>PyBytes_AS_STRING(bits)
    for k in range((n + 7) // 8):
        bt[k] = 0
    st[0] = 0
    for k in range(n):
        tokenize_into(1, <void *>(d + offs[k]), offs[k + 1] - offs[k], r)
        a = 0 if start_field < 0 else r[start_field]
        b = r[end_field]
        if a >= 0 and b >= a:
            memcpy(dst + o, d + offs[k] + a, b - a)
            o += b - a
            bt[k >> 3] |= 1 << (k & 7)
        st[k + 1] = <int32_t>o
    return out[:o], starts, bits


def field_column(array.array arr, Py_ssize_t field, int64_t base=0, Py_ssize_t first=0,
                 Py_ssize_t last=-1):
    """array('q') of field ``field`` of records ``first`` to ``last``, ``base`` added."""
    clip_triples(arr, "field_column", &first, &last)
    if not 0 <= field < W:
        raise ValueError(f"a record has fields 0 to {W - 1}, not {field}")
    cdef const int64_t *a = <const int64_t *>arr.data.as_voidptr
    cdef array.array out = array.clone(_LONGS, last - first, zero=False)
    cdef int64_t *dst = <int64_t *>out.data.as_voidptr
    cdef Py_ssize_t k
    for k in range(first, last):
        dst[k - first] = a[W * k + field] + base
    return out


def segment_column(array.array arr, Py_ssize_t field, array.array starts, int64_t shift=0,
                   Py_ssize_t first=0, Py_ssize_t last=-1):
    """array('q'): for each record, the index of the last of ``starts`` (ascending) at or
    before its field ``field`` plus ``shift`` (bisect_right - 1; -1 before the first)."""
    clip_triples(arr, "segment_column", &first, &last)
    if not 0 <= field < W:
        raise ValueError(f"a record has fields 0 to {W - 1}, not {field}")
    if starts.typecode != "q":
        raise TypeError("segment_column needs starts as an array('q')")
    cdef const int64_t *a = <const int64_t *>arr.data.as_voidptr
    cdef const int64_t *s = <const int64_t *>starts.data.as_voidptr
    cdef Py_ssize_t n = len(starts), k, lo, hi, mid
    cdef int64_t x
    cdef array.array out = array.clone(_LONGS, last - first, zero=False)
    cdef int64_t *dst = <int64_t *>out.data.as_voidptr
    for k in range(first, last):
        x = a[W * k + field] + shift
        lo, hi = 0, n                   # bisect_right: the first start above x
        while lo < hi:
            mid = (lo + hi) >> 1
            if s[mid] <= x:
                lo = mid + 1
            else:
                hi = mid
        dst[k - first] = lo - 1
    return out


def without_same_urls(keep, checks, cuts, buf, spans, Py_ssize_t stride, Py_ssize_t field,
                      bytes table, same):
    """See the twin: each checked URL copied as ``join_urls`` copies it and compared
    with its span's octets; ``same`` asked only where they differ."""
    cdef const int64_t[::1] kp = keep
    cdef const int64_t[::1] ck = checks
    cdef const int64_t[::1] sp = spans
    cdef const uint8_t *T = table_ptr(table)
    cdef _Input inp = _Input(buf)
    cdef const uint8_t *o = <const uint8_t *>inp.data
    cdef Py_ssize_t total = kp.shape[0] // W, i, k, h, a, e, u0, u1, m, room, size = 0
    cdef Py_ssize_t dropped = 0
    cdef int squeeze
    cdef uint8_t *url = NULL
    cdef uint8_t *drop = NULL
    try:
        drop = <uint8_t *>calloc(total + 1, 1)
        if drop == NULL:
            raise MemoryError()
        for i in range(0, ck.shape[0] - 1, 2):
            k, h = ck[i], ck[i + 1]
            if not (0 <= k < total and 0 <= h and 0 <= field
                    and h * stride + field + 1 < sp.shape[0]):
                raise ValueError(f"check {i // 2}: record {k} or span {h} out of range")
            url_span(kp[W * k + START], kp[W * k + END], kp[W * k + FLAGS], inp.n, &u0, &u1,
                     &squeeze)
            room = _room(&kp[W * k], u0, u1)
            if room > size:
                free(url)
                size = room
                url = <uint8_t *>malloc(size)
                if url == NULL:
                    raise MemoryError()
            m = _copy(url, inp, &kp[W * k], u0, u1, squeeze, T)
            a, e = sp[h * stride + field], sp[h * stride + field + 1]
            if not (0 <= a <= e <= inp.n):
                raise ValueError(f"span {h}: {a}..{e} out of the text")
            if (m == e - a and memcmp(url, o + a, m) == 0) or same(
                    PyBytes_FromStringAndSize(<char *>url, m),
                    PyBytes_FromStringAndSize(<const char *>o + a, e - a)):
                dropped += not drop[k]
                drop[k] = 1
        if not dropped:
            return keep, cuts
        return _kept(kp, drop, total - dropped), _moved(cuts, drop, total)
    finally:
        free(url)
        free(drop)
        inp.close()


cdef array.array _kept(const int64_t[::1] kp, const uint8_t *drop, Py_ssize_t n):
    """The records of ``kp`` not marked in ``drop`` (``n`` of them)."""
    cdef array.array kept = array.clone(_LONGS, W * n, False)
    cdef int64_t *d = <int64_t *>kept.data.as_voidptr
    cdef Py_ssize_t k, o = 0
    for k in range(kp.shape[0] // W):
        if not drop[k]:
            memcpy(d + o, &kp[W * k], W * sizeof(int64_t))
            o += W
    return kept


cdef array.array _moved(cuts, const uint8_t *drop, Py_ssize_t total):
    """``cuts`` with each count of kept records less those ``drop`` marks before it."""
    cdef array.array moved = array.array("q", cuts)
    cdef int64_t *c = <int64_t *>moved.data.as_voidptr
    cdef Py_ssize_t i, k = 0, before = 0
    for i in range(1, len(moved), 2):
        if c[i] < k:                # the counts grow from cut to cut; else count again
            k, before = 0, 0
        while k < c[i] and k < total:
            before += drop[k]
            k += 1
        c[i] -= before
    return moved
