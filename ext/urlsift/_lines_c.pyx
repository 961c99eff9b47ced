# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""URL lines counted and sifted by their octets: the compiled twin of
``src/urlsift/_lines_py.py`` (read its docstrings; the results are the same).

A line is looked up in a hash table of the distinct lines met (open addressing, linear
probing, at most half full), hashed by CPython's own hash of bytes (SipHash with the
process's random key, as a dict: crafted collisions cost what they cost a dict), its
octets kept in one arena; no Python object is made for a line met before.
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from libc.stdint cimport int64_t, uint8_t
from libc.string cimport memchr, memcmp, memcpy

cdef extern from *:
    """
    #if PY_VERSION_HEX >= 0x030E0000
    #define urlsift_hash_bytes(p, n) Py_HashBuffer((p), (n))
    #else
    #define urlsift_hash_bytes(p, n) _Py_HashBytes((p), (n))
    #endif
    """
    Py_hash_t hash_bytes "urlsift_hash_bytes"(const void *p, Py_ssize_t n)

# a line's verdict (the twin's UNDECIDED, KEPT, LEFT)
cdef enum:
    UNDECIDED = 0
    KEPT = 1
    LEFT = 2

# what a pass over a blob writes: nothing, the lines met first, the lines kept
cdef enum:
    COUNT = 0
    FIRST = 1
    SIFT = 2

cdef struct Entry:
    Py_hash_t hash
    Py_ssize_t off              # where its octets start in the arena
    Py_ssize_t len
    int64_t count
    int verdict


cdef class LineTable:
    """See ``urlsift._lines_py.LineTable``."""

    cdef Entry *entries         # in the order first met
    cdef Py_ssize_t n, cap
    cdef Py_ssize_t *slots      # entry index + 1 (0: empty), a power of two of them
    cdef Py_ssize_t mask
    cdef uint8_t *arena
    cdef Py_ssize_t used, room

    def __cinit__(self):
        cdef Py_ssize_t k
        self.cap = 64
        self.entries = <Entry *>PyMem_Malloc(self.cap * sizeof(Entry))
        self.mask = 127
        self.slots = <Py_ssize_t *>PyMem_Malloc((self.mask + 1) * sizeof(Py_ssize_t))
        self.room = 4096
        self.arena = <uint8_t *>PyMem_Malloc(self.room)
        if self.entries == NULL or self.slots == NULL or self.arena == NULL:
            raise MemoryError()
        self.n = self.used = 0
        for k in range(self.mask + 1):
            self.slots[k] = 0

    def __dealloc__(self):
        PyMem_Free(self.entries)
        PyMem_Free(self.slots)
        PyMem_Free(self.arena)

    def __len__(self):
        return self.n

    cdef int _grow_slots(self) except -1:
        cdef Py_ssize_t size = (self.mask + 1) * 2, k, i
        cdef Py_ssize_t *slots = <Py_ssize_t *>PyMem_Malloc(size * sizeof(Py_ssize_t))
        if slots == NULL:
            raise MemoryError()
        for k in range(size):
            slots[k] = 0
        for i in range(self.n):
            k = <Py_ssize_t>(<size_t>self.entries[i].hash & <size_t>(size - 1))
            while slots[k] != 0:
                k = (k + 1) & (size - 1)
            slots[k] = i + 1
        PyMem_Free(self.slots)
        self.slots = slots
        self.mask = size - 1
        return 0

    cdef Py_ssize_t _find(self, const uint8_t *p, Py_ssize_t length, bint add) except -2:
        """The index of the entry of line ``p[:length]``; -1 when it is none and not
        ``add``ed (a new entry's count is 0, its verdict UNDECIDED)."""
        cdef Py_hash_t h = hash_bytes(p, length)
        cdef Py_ssize_t k = <Py_ssize_t>(<size_t>h & <size_t>self.mask), i
        cdef Entry *e
        cdef void *grown
        while self.slots[k] != 0:
            i = self.slots[k] - 1
            e = &self.entries[i]
            if e.hash == h and e.len == length and memcmp(self.arena + e.off, p, length) == 0:
                return i
            k = (k + 1) & self.mask
        if not add:
            return -1
        if self.n == self.cap:
            grown = PyMem_Realloc(self.entries, self.cap * 2 * sizeof(Entry))
            if grown == NULL:
                raise MemoryError()
            self.entries = <Entry *>grown
            self.cap *= 2
        while self.used + length > self.room:
            grown = PyMem_Realloc(self.arena, self.room * 2)
            if grown == NULL:
                raise MemoryError()
            self.arena = <uint8_t *>grown
            self.room *= 2
        memcpy(self.arena + self.used, p, length)
        e = &self.entries[self.n]
        e.hash = h
        e.off = self.used
        e.len = length
        e.count = 0
        e.verdict = UNDECIDED
        self.used += length
        self.slots[k] = self.n + 1
        self.n += 1
        if self.n * 2 > self.mask + 1:
            self._grow_slots()
        return self.n - 1

    cdef bytes _line(self, Py_ssize_t i):
        return PyBytes_FromStringAndSize(<char *>self.arena + self.entries[i].off,
                                         self.entries[i].len)

    cdef bytes _pass(self, bytes blob, int mode, object keep):
        """One pass over the lines of ``blob``, each counted: COUNT writes nothing, FIRST
        the lines met for the first time, SIFT the lines ``keep`` keeps (asked once a
        distinct line; it may raise, and the line stays undecided then)."""
        cdef const uint8_t *p = <const uint8_t *>PyBytes_AS_STRING(blob)
        cdef Py_ssize_t size = PyBytes_GET_SIZE(blob), a = 0, e, i, o = 0
        cdef const uint8_t *nl
        cdef bint write
        cdef bytes out = PyBytes_FromStringAndSize(NULL, 0 if mode == COUNT else size)
        cdef uint8_t *dst = <uint8_t *>PyBytes_AS_STRING(out)
        while a < size:
            nl = <const uint8_t *>memchr(p + a, 10, size - a)
            if nl == NULL:
                break
            e = nl - p
            i = self._find(p + a, e - a, True)
            if mode == SIFT and self.entries[i].verdict == UNDECIDED:
                write = keep(PyBytes_FromStringAndSize(<char *>p + a, e - a))
                self.entries[i].verdict = KEPT if write else LEFT
            write = (mode == FIRST and self.entries[i].count == 0) or (
                mode == SIFT and self.entries[i].verdict == KEPT)
            self.entries[i].count += 1
            if write:
                memcpy(dst + o, p + a, e + 1 - a)
                o += e + 1 - a
            a = e + 1
        return out if o == PyBytes_GET_SIZE(out) else out[:o]

    def count(self, bytes blob not None):
        self._pass(blob, COUNT, None)

    def first_seen(self, bytes blob not None):
        return self._pass(blob, FIRST, None)

    def sift(self, bytes blob not None, keep):
        return self._pass(blob, SIFT, keep)

    def counts(self):
        return [(self._line(i), self.entries[i].count) for i in range(self.n)]
