# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""URL lines counted and sifted by their octets: the compiled twin of
``src/urlsift/_lines_py.py`` (read its docstrings; the results are the same).

A line is looked up in a hash table of the distinct lines met (open addressing, linear
probing, at most half full), hashed by CPython's own hash of bytes (SipHash with the
process's random key, as a dict: crafted collisions cost what they cost a dict). Each
entry is kept in one arena, its header (hash, count, verdict) with its octets after it,
in the order first met; no Python object is made for a line met before. The table is
read between the scan's pieces, which push it out of the cache: a few lines are hashed
ahead and their slots fetched before they are looked up, and a line met again costs its
slot and its entry, not a third read for its octets.
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
    #if defined(__GNUC__) || defined(__clang__)
    #define urlsift_prefetch(p) __builtin_prefetch(p)
    #else
    #define urlsift_prefetch(p) ((void)0)
    #endif
    """
    Py_hash_t hash_bytes "urlsift_hash_bytes"(const void *p, Py_ssize_t n)
    void prefetch "urlsift_prefetch"(const void *p) nogil

# the lines hashed and their slots fetched ahead of their lookups
cdef enum:
    AHEAD = 8

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

# An entry's header; its line's octets follow it in the arena (one cache line holds the
# header and a short URL: a line met again costs its slot and that line).
cdef struct Entry:
    Py_hash_t hash
    int64_t count
    Py_ssize_t len
    int verdict


# an entry's size in the arena: its header and its octets, rounded up to 8 octets
cdef inline Py_ssize_t _size(Py_ssize_t length) noexcept nogil:
    return (<Py_ssize_t>sizeof(Entry) + length + 7) & ~(<Py_ssize_t>7)


cdef inline Entry *_at(uint8_t *arena, Py_ssize_t off) noexcept nogil:
    return <Entry *>(arena + off)


cdef inline uint8_t *_octets(Entry *e) noexcept nogil:
    return (<uint8_t *>e) + sizeof(Entry)


cdef class LineTable:
    """See ``urlsift._lines_py.LineTable``."""

    cdef uint8_t *arena         # the entries in the order first met, each with its octets
    cdef Py_ssize_t used, room, n
    cdef Py_ssize_t *slots      # an entry's offset in the arena + 1 (0: empty), a power
    cdef Py_ssize_t mask        # of two of them, at most half of them used

    def __cinit__(self):
        cdef Py_ssize_t k
        self.mask = 127
        self.slots = <Py_ssize_t *>PyMem_Malloc((self.mask + 1) * sizeof(Py_ssize_t))
        self.room = 8192
        self.arena = <uint8_t *>PyMem_Malloc(self.room)
        if self.slots == NULL or self.arena == NULL:
            raise MemoryError()
        self.n = self.used = 0
        for k in range(self.mask + 1):
            self.slots[k] = 0

    def __dealloc__(self):
        PyMem_Free(self.slots)
        PyMem_Free(self.arena)

    def __len__(self):
        return self.n

    cdef int _grow_slots(self) except -1:
        cdef Py_ssize_t size = (self.mask + 1) * 2, k, off = 0
        cdef Py_ssize_t *slots = <Py_ssize_t *>PyMem_Malloc(size * sizeof(Py_ssize_t))
        cdef Entry *e
        if slots == NULL:
            raise MemoryError()
        for k in range(size):
            slots[k] = 0
        while off < self.used:
            e = _at(self.arena, off)
            k = <Py_ssize_t>(<size_t>e.hash & <size_t>(size - 1))
            while slots[k] != 0:
                k = (k + 1) & (size - 1)
            slots[k] = off + 1
            off += _size(e.len)
        PyMem_Free(self.slots)
        self.slots = slots
        self.mask = size - 1
        return 0

    cdef Py_ssize_t _find(self, const uint8_t *p, Py_ssize_t length, Py_hash_t h,
                          bint add) except -2:
        """The arena offset of the entry of line ``p[:length]`` (hash ``h``); -1 when it
        is none and not ``add``ed (a new entry's count is 0, its verdict UNDECIDED)."""
        cdef Py_ssize_t k = <Py_ssize_t>(<size_t>h & <size_t>self.mask), off
        cdef Entry *e
        cdef void *grown
        while self.slots[k] != 0:
            off = self.slots[k] - 1
            e = _at(self.arena, off)
            if e.hash == h and e.len == length and memcmp(_octets(e), p, length) == 0:
                return off
            k = (k + 1) & self.mask
        if not add:
            return -1
        while self.used + _size(length) > self.room:
            grown = PyMem_Realloc(self.arena, self.room * 2)
            if grown == NULL:
                raise MemoryError()
            self.arena = <uint8_t *>grown
            self.room *= 2
        off = self.used
        e = _at(self.arena, off)
        e.hash = h
        e.count = 0
        e.len = length
        e.verdict = UNDECIDED
        memcpy(_octets(e), p, length)
        self.used += _size(length)
        self.slots[k] = off + 1
        self.n += 1
        if self.n * 2 > self.mask + 1:
            self._grow_slots()
        return off

    cdef bytes _pass(self, bytes blob, int mode, object keep):
        """One pass over the lines of ``blob``, each counted: COUNT writes nothing, FIRST
        the lines met for the first time, SIFT the lines ``keep`` keeps (asked once a
        distinct line; it may raise, and the line stays undecided then). The lines are
        taken AHEAD at a time: their hashes made and their slots fetched into the cache
        first, so that the table's misses of one line overlap those of the next."""
        cdef const uint8_t *p = <const uint8_t *>PyBytes_AS_STRING(blob)
        cdef Py_ssize_t size = PyBytes_GET_SIZE(blob), a = 0, o = 0, off, k, got, b, e
        cdef Py_ssize_t starts[AHEAD]
        cdef Py_ssize_t ends[AHEAD]
        cdef Py_hash_t hashes[AHEAD]
        cdef const uint8_t *nl
        cdef Entry *entry
        cdef bint write
        cdef bytes out = PyBytes_FromStringAndSize(NULL, 0 if mode == COUNT else size)
        cdef uint8_t *dst = <uint8_t *>PyBytes_AS_STRING(out)
        while a < size:
            got = 0
            while got < AHEAD and a < size:
                nl = <const uint8_t *>memchr(p + a, 10, size - a)
                if nl == NULL:
                    a = size
                    break
                starts[got] = a
                ends[got] = nl - p
                hashes[got] = hash_bytes(p + a, ends[got] - a)
                prefetch(&self.slots[<size_t>hashes[got] & <size_t>self.mask])
                a = ends[got] + 1
                got += 1
            for k in range(got):
                b, e = starts[k], ends[k]
                off = self._find(p + b, e - b, hashes[k], True)
                entry = _at(self.arena, off)
                if mode == SIFT and entry.verdict == UNDECIDED:
                    write = keep(PyBytes_FromStringAndSize(<char *>p + b, e - b))
                    entry = _at(self.arena, off)
                    entry.verdict = KEPT if write else LEFT
                write = (mode == FIRST and entry.count == 0) or (
                    mode == SIFT and entry.verdict == KEPT)
                entry.count += 1
                if write:
                    memcpy(dst + o, p + b, e + 1 - b)
                    o += e + 1 - b
        return out if o == PyBytes_GET_SIZE(out) else out[:o]

    def count(self, bytes blob not None):
        self._pass(blob, COUNT, None)

    def first_seen(self, bytes blob not None):
        return self._pass(blob, FIRST, None)

    def sift(self, bytes blob not None, keep):
        return self._pass(blob, SIFT, keep)

    def counts(self):
        cdef Py_ssize_t off = 0
        cdef Entry *e
        cdef list out = []
        while off < self.used:
            e = _at(self.arena, off)
            out.append((PyBytes_FromStringAndSize(<char *>_octets(e), e.len), e.count))
            off += _size(e.len)
        return out
