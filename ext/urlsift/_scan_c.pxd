# The scanner's walk over octets, exported (``__pyx_capi__``) for the ``_pipe`` core,
# which runs it on worker threads without the GIL; and the input view and the table
# check, shared with the ``_build`` core.
from cpython.buffer cimport Py_buffer
from libc.stdint cimport uint8_t, int64_t

cdef struct Out:
    # the growing list of (start, end, flags) triples of one walk
    int64_t *data
    Py_ssize_t n
    Py_ssize_t cap
    int failed

cdef void scan_octets(const uint8_t *d, Py_ssize_t n, Py_ssize_t start, Py_ssize_t stop,
                      const uint8_t *T, const uint8_t *known, Py_ssize_t m,
                      Py_ssize_t max_wrapper, Py_ssize_t max_length, Out *o) noexcept nogil
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
