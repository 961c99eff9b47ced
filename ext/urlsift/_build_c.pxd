# The strings of one triple, exported (``__pyx_capi__``) for the ``_mail`` core, which
# makes the mail matches straight from the scanner's triples, as ``build`` does; and the
# URL copies of ``join_urls`` for the ``_records`` core's lines and columns.
from libc.stdint cimport uint8_t, int64_t
from urlsift._scan_c cimport _Input
from cpython cimport array

cdef str triple_raw(const void *data, int kind, Py_ssize_t n, const int64_t *t,
                    Py_ssize_t *u0, Py_ssize_t *u1, int *squeeze, object text)
cdef Py_ssize_t edits_index(str url, int64_t f) noexcept
cdef bint encoded(int64_t f) noexcept
cdef tuple triple_octets(const uint8_t *data, Py_ssize_t n, const int64_t *t)
cdef str triple_url(str raw, const int64_t *t, Py_ssize_t u0, Py_ssize_t u1, int squeeze,
                    const uint8_t *T)
cdef int url_span(int64_t s, int64_t e, int64_t f, Py_ssize_t n, Py_ssize_t *a,
                  Py_ssize_t *b, int *squeeze) except -1
cdef Py_ssize_t copy_url(uint8_t *dst, _Input inp, Py_ssize_t u0, Py_ssize_t u1,
                         int squeeze, const uint8_t *T) noexcept
cdef Py_ssize_t copy_encoded(uint8_t *dst, _Input inp, Py_ssize_t u0, Py_ssize_t u1,
                             int squeeze) noexcept
cdef int clip_triples(array.array arr, str name, Py_ssize_t *first, Py_ssize_t *last) except -1
