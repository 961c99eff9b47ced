# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""URL lines counted and sifted by their octets: the compiled twin of
``src/urlsift/_lines_py.py`` (read its docstrings; the results are the same).

A line is looked up in a hash table of the distinct lines met (open addressing, linear
probing, at most half full). Lines are hashed by a keyed multiply-and-fold hash (wyhash's
step, 16 octets at a time, a key drawn at random once a process): a third of the cost of
CPython's SipHash on a URL. It is no defence against crafted collisions by itself, so a
lookup that probes more than ``PROBE_LIMIT`` slots turns the table over to CPython's own
hash of bytes (SipHash with the process's random key, as a dict) for good: crafted lines
cost a lookup at most ``PROBE_LIMIT`` probes before that, and what they cost a dict after.
Each entry is kept in one arena, its header (hash, count, verdict) with its octets after
it, in the order first met; no Python object is made for a line met before. The table is
read between the scan's pieces, which push it out of the cache: a few lines are hashed
ahead and their slots fetched before they are looked up, and a line met again costs its
slot and its entry, not a third read for its octets.
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython.mem cimport PyMem_Free, PyMem_Malloc, PyMem_Realloc
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.string cimport memchr, memcmp, memcpy
from os import urandom

include "_keyed_hash.pxi"

cdef extern from *:
    """
    #if defined(__GNUC__) || defined(__clang__)
    #define urlsift_prefetch(p) __builtin_prefetch(p)
    #else
    #define urlsift_prefetch(p) ((void)0)
    #endif

    /* wyhash's folded multiply: the two halves of the 128-bit product xored. Where the
       compiler has no 128-bit integer, the line table keeps to SipHash (URLSIFT_FOLD 0). */
    #if defined(__SIZEOF_INT128__)
    #define URLSIFT_FOLD 1
    static inline uint64_t urlsift_fold(uint64_t a, uint64_t b) {
        __uint128_t r = (__uint128_t)a * b;
        return (uint64_t)r ^ (uint64_t)(r >> 64);
    }
    #else
    #define URLSIFT_FOLD 0
    static inline uint64_t urlsift_fold(uint64_t a, uint64_t b) { return a ^ b; }
    #endif
    static inline uint64_t urlsift_r8(const uint8_t *p) { uint64_t v; memcpy(&v, p, 8); return v; }
    static inline uint64_t urlsift_r4(const uint8_t *p) { uint32_t v; memcpy(&v, p, 4); return v; }

    /* The line p[:n] hashed with key k[0], k[1]: wyhash's reading of a short input (a
       line of up to 16 octets in two overlapping words; of 1-3 octets, its first, middle
       and last), and of a longer one 16 octets a fold, its last 16 octets read last. */
    static uint64_t urlsift_line_hash(const uint8_t *p, size_t n, const uint64_t *k) {
        uint64_t a = 0, b = 0, seed = k[0] ^ n;
        if (n <= 16) {
            if (n >= 4) {
                size_t m = (n >> 3) << 2;
                a = (urlsift_r4(p) << 32) | urlsift_r4(p + m);
                b = (urlsift_r4(p + n - 4) << 32) | urlsift_r4(p + n - 4 - m);
            } else if (n > 0) {
                a = ((uint64_t)p[0] << 16) | ((uint64_t)p[n >> 1] << 8) | p[n - 1];
            }
        } else {
            size_t i = n;
            while (i > 16) {
                seed = urlsift_fold(urlsift_r8(p) ^ k[1], urlsift_r8(p + 8) ^ seed);
                p += 16;
                i -= 16;
            }
            a = urlsift_r8(p + i - 16);
            b = urlsift_r8(p + i - 8);
        }
        return urlsift_fold(k[1] ^ n, urlsift_fold(a ^ k[1], b ^ seed));
    }
    """
    void prefetch "urlsift_prefetch"(const void *p) nogil
    bint FOLD "URLSIFT_FOLD"
    uint64_t line_hash "urlsift_line_hash"(const uint8_t *p, size_t n, const uint64_t *k) nogil

# the lines hashed and their slots fetched ahead of their lookups
cdef enum:
    AHEAD = 8

# The fast hash's key, drawn once a process (as CPython draws SipHash's).
cdef uint64_t KEY[2]
KEY[0] = int.from_bytes(urandom(8), "little")
KEY[1] = int.from_bytes(urandom(8), "little") | 1

# How many slots a lookup may probe before the table turns to SipHash (a half-full
# table's longest run is far shorter for lines the hash spreads: tens of slots in a
# million); _set_probe_limit changes it for the tests.
cdef Py_ssize_t PROBE_LIMIT = 64


def _set_probe_limit(Py_ssize_t limit):
    """Set the probe limit of the tables made from now on; return the old one."""
    global PROBE_LIMIT
    old = PROBE_LIMIT
    PROBE_LIMIT = limit
    return old

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


cdef struct Out:
    uint8_t *buf                # the runs of lines written, copied into the table's
    Py_ssize_t o, room          # scratch (kept from pass to pass: no fresh pages)


cdef int _out_add(Out *out, const uint8_t *p, Py_ssize_t a, Py_ssize_t e) except -1:
    """Copy the run of lines ``p[a:e]`` after what ``out`` holds."""
    cdef void *grown
    if a >= e:
        return 0
    if out.o + (e - a) > out.room:
        grown = PyMem_Realloc(out.buf, max(out.room * 2, out.o + (e - a)))
        if grown == NULL:
            raise MemoryError()
        out.buf = <uint8_t *>grown
        out.room = max(out.room * 2, out.o + (e - a))
    memcpy(out.buf + out.o, p + a, e - a)
    out.o += e - a
    return 0


cdef class LineTable:
    """See ``urlsift._lines_py.LineTable``."""

    cdef uint8_t *arena         # the entries in the order first met, each with its octets
    cdef Py_ssize_t used, room, n
    cdef Py_ssize_t *slots      # an entry's offset in the arena + 1 (0: empty), a power
    cdef Py_ssize_t mask        # of two of them, at most half of them used
    cdef bint siphash           # hashed by CPython's hash of bytes (after a long probe)
    cdef Out out
    cdef Py_ssize_t probe_limit

    def __cinit__(self):
        cdef Py_ssize_t k
        self.siphash = not FOLD
        self.probe_limit = PROBE_LIMIT
        self.mask = 127
        self.slots = <Py_ssize_t *>PyMem_Malloc((self.mask + 1) * sizeof(Py_ssize_t))
        self.room = 8192
        self.arena = <uint8_t *>PyMem_Malloc(self.room)
        if self.slots == NULL or self.arena == NULL:
            raise MemoryError()
        self.n = self.used = 0
        self.out.buf = NULL
        self.out.room = 0
        for k in range(self.mask + 1):
            self.slots[k] = 0

    def __dealloc__(self):
        PyMem_Free(self.slots)
        PyMem_Free(self.arena)
        PyMem_Free(self.out.buf)

    def __len__(self):
        return self.n

    @property
    def hashing(self):
        """"fold" (the fast keyed hash) or "siphash" (CPython's, after a long probe)."""
        return "siphash" if self.siphash else "fold"

    cdef inline Py_hash_t _hash(self, const uint8_t *p, Py_ssize_t length) noexcept:
        if self.siphash:
            return keyed_hash(p, length)
        return <Py_hash_t>line_hash(p, <size_t>length, KEY)

    cdef int _to_siphash(self) except -1:
        """Every entry hashed again with SipHash and the slots laid out anew: a lookup
        probed more than the limit (lines crafted to collide, or a hash that fails them)."""
        cdef Py_ssize_t off = 0
        cdef Entry *e
        self.siphash = True
        while off < self.used:
            e = _at(self.arena, off)
            e.hash = keyed_hash(_octets(e), e.len)
            off += _size(e.len)
        return self._place(self.mask + 1)

    cdef int _grow_slots(self) except -1:
        return self._place((self.mask + 1) * 2)

    cdef int _place(self, Py_ssize_t size) except -1:
        """The entries laid out anew in ``size`` slots (a power of two)."""
        cdef Py_ssize_t k, off = 0
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
        """The arena offset of the entry of line ``p[:length]`` (hash ``h``, made by
        ``_hash``: the caller makes its hashes again if ``siphash`` turned on meanwhile);
        -1 when it is none and not ``add``ed (a new entry's count is 0, its verdict
        UNDECIDED)."""
        cdef Py_ssize_t k = <Py_ssize_t>(<size_t>h & <size_t>self.mask), off, probes = 0
        cdef Entry *e
        cdef void *grown
        while self.slots[k] != 0:
            off = self.slots[k] - 1
            e = _at(self.arena, off)
            if e.hash == h and e.len == length and memcmp(_octets(e), p, length) == 0:
                return off
            k = (k + 1) & self.mask
            probes += 1
            if probes > self.probe_limit and not self.siphash:
                self._to_siphash()
                h = keyed_hash(p, length)
                k = <Py_ssize_t>(<size_t>h & <size_t>self.mask)
                probes = 0
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
        first, so that the table's misses of one line overlap those of the next. The lines
        written are copied a run of them at once, and ``blob`` itself is given back when
        it is written whole (--host keeping every line of a piece: no copy)."""
        cdef const uint8_t *p = <const uint8_t *>PyBytes_AS_STRING(blob)
        cdef Py_ssize_t size = PyBytes_GET_SIZE(blob), a = 0, off, k, got, b, e
        cdef Py_ssize_t run = 0, run_end = 0      # the lines written, not copied yet
        cdef Py_ssize_t starts[AHEAD]
        cdef Py_ssize_t ends[AHEAD]
        cdef Py_hash_t hashes[AHEAD]
        cdef const uint8_t *nl
        cdef Entry *entry
        cdef bint write, slow
        self.out.o = 0
        while a < size:
            got = 0
            while got < AHEAD and a < size:
                nl = <const uint8_t *>memchr(p + a, 10, size - a)
                if nl == NULL:
                    a = size
                    break
                starts[got] = a
                ends[got] = nl - p
                hashes[got] = self._hash(p + a, ends[got] - a)
                prefetch(&self.slots[<size_t>hashes[got] & <size_t>self.mask])
                a = ends[got] + 1
                got += 1
            for k in range(got):       # then the entries those slots name
                off = self.slots[<size_t>hashes[k] & <size_t>self.mask]
                if off != 0:
                    prefetch(self.arena + off - 1)
            slow = self.siphash
            for k in range(got):
                b, e = starts[k], ends[k]
                if self.siphash != slow:     # turned to SipHash by the lookup before
                    hashes[k] = self._hash(p + b, e - b)
                off = self._find(p + b, e - b, hashes[k], True)
                entry = _at(self.arena, off)
                if mode == SIFT and entry.verdict == UNDECIDED:
                    write = keep(PyBytes_FromStringAndSize(<char *>p + b, e - b))
                    entry = _at(self.arena, off)
                    entry.verdict = KEPT if write else LEFT
                write = (mode == FIRST and entry.count == 0) or (
                    mode == SIFT and entry.verdict == KEPT)
                entry.count += 1
                if not write:
                    continue
                if b != run_end:        # a line left out before this one: copy the run
                    _out_add(&self.out, p, run, run_end)
                    run = b
                run_end = e + 1
        if run == 0 and run_end == size:
            return blob
        _out_add(&self.out, p, run, run_end)
        return PyBytes_FromStringAndSize(<char *>self.out.buf, self.out.o)

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
