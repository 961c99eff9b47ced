# The scanner's walk over octets, exported (``__pyx_capi__``) for the ``_pipe`` core,
# which runs it on worker threads without the GIL; and the input view and the table
# check, shared with the ``_build`` core.
from cpython.buffer cimport Py_buffer
from libc.stdint cimport uint8_t, uint32_t, int64_t

cdef struct Out:
    # the growing list of (start, end, flags) triples of one walk
    int64_t *data
    Py_ssize_t n
    Py_ssize_t cap
    int failed
    bint lent          # data is the result array's memory, not to be realloc'd: grow
                       # copies the triples into memory of the walk's own (scan())

cdef void scan_octets(const uint8_t *d, Py_ssize_t n, Py_ssize_t start, Py_ssize_t stop,
                      const uint8_t *T, const uint8_t *known, Py_ssize_t m,
                      Py_ssize_t max_wrapper, Py_ssize_t max_length, const uint8_t *O,
                      Out *o) noexcept nogil
cdef Py_ssize_t boundary_octets(const uint8_t *d, Py_ssize_t pos, Py_ssize_t stop,
                                const uint8_t *T) noexcept nogil

cdef const uint8_t *table_ptr(bytes table) except NULL
cdef const uint8_t *known_ptr(bytes known) except NULL

cdef class _Input:
    # a borrowed view of str data (its 1-, 2- or 4-byte form) or of a buffer
    cdef Py_buffer view
    cdef bint has_view
    cdef const void *data
    cdef int kind
    cdef Py_ssize_t n
    cdef object keep
    cdef void close(self)


# The length of the UTF-8 sequence at d[i] (RFC 3629), shared by the walk and by the
# _build core, which writes the octets of an ENCODED span that start none as %HH.
cdef inline int utf8_at(const uint8_t *d, Py_ssize_t i, Py_ssize_t lim,
                        uint32_t *cp) noexcept nogil:
    """Length of the UTF-8 sequence at ``d[i]`` ending by ``lim`` (its code point in
    ``cp``), or 0 when it is not one (the twin's utf8_at: no overlong, no surrogate)."""
    cdef uint32_t b0 = d[i], lo = 0x80, hi = 0xBF, c
    cdef int k, j
    # RFC 3629 §4: the lead octet says the length; E0, ED, F0, F4 narrow the second octet
    if 0xC2 <= b0 <= 0xDF:
        k = 2
    elif 0xE0 <= b0 <= 0xEF:
        k = 3
        lo = 0xA0 if b0 == 0xE0 else 0x80
        hi = 0x9F if b0 == 0xED else 0xBF
    elif 0xF0 <= b0 <= 0xF4:
        k = 4
        lo = 0x90 if b0 == 0xF0 else 0x80
        hi = 0x8F if b0 == 0xF4 else 0xBF
    else:
        return 0
    c = b0 & (0x7F >> k)
    if i + k > lim:
        return 0
    for j in range(1, k):
        b0 = d[i + j]
        if b0 < lo or b0 > hi:
            return 0
        lo = 0x80
        hi = 0xBF
        c = (c << 6) | (b0 & 0x3F)
    cp[0] = c
    return k
