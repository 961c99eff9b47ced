# cython: language_level=3
"""Scanning a buffer on worker threads, ahead of the thread that builds the matches.

``Pipeline`` cuts an octet buffer into pieces of about ``block`` octets at split points
(the rule of ``urlsift.text.files``) and scans them with the ``_scan`` walk on
``workers`` threads. A worker holds the GIL only to start and to end: it never waits
for the thread that builds the matches to let go of it (with ``concurrent.futures``
each piece cost the scanner two such waits of up to ``sys.getswitchinterval()``).

The pieces go round a ring of slots. A piece is claimed together with a free slot, so
a claimed piece is always scanned; ``take()`` hands the pieces back in order as
``(triples, start, stop)`` and, while the next one is still being scanned, scans a
later one itself. The results are those of scanning the pieces one after the other.
Twin: ``urlsift._pipe_py`` (the same pieces, scanned in ``take()``).
"""
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_SIMPLE
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_GET_SIZE
from cpython cimport array
from cpython.pythread cimport (PyThread_type_lock, PyThread_allocate_lock, PyThread_free_lock,
                               PyThread_acquire_lock, PyThread_release_lock, WAIT_LOCK,
                               NOWAIT_LOCK)
from libc.stdint cimport uint8_t, int64_t
from libc.stdlib cimport calloc, free
from libc.string cimport memcpy

import array as _array_mod
import threading

from urlsift._scan_c cimport Out, known_ptr, scan_octets, boundary_octets
from urlsift._scan_py import check_octets

cdef array.array _Q = _array_mod.array("q")


cdef struct Slot:
    Out out                    # the piece's triples (the buffer is kept from piece to piece)
    Py_ssize_t start, stop     # the piece
    PyThread_type_lock ready   # held until the piece is scanned: take() waits on it
    PyThread_type_lock free    # held from the claim of a piece until take() returns it


cdef class Pipeline:
    """``Pipeline(buf, block, window, table, known, max_wrapper, max_length, workers,
    depth=0, octets=None)``: the pieces of ``buf`` scanned on ``workers`` threads
    (``octets`` as ``scan`` takes it); ``take()`` the next one, or None after the
    last; ``close()`` stops the workers (always call it).

    >>> from urlsift.text.rules import TABLE, KNOWN
    >>> p = Pipeline(b"a http://x.example/ b\\n" * 3, 8, 64, TABLE, KNOWN, 8192, 65536, 1)
    >>> [(list(t), a, b) for t, a, b in iter(p.take, None)]
    [([2, 19, 0], 0, 22), ([24, 41, 0], 22, 44), ([46, 63, 0], 44, 66)]
    >>> p.close()
    """
    cdef Py_buffer view
    cdef bint has_view
    cdef const uint8_t *d
    cdef Py_ssize_t n, block, window, m, max_wrapper, max_length
    cdef bytes table, known         # kept alive for T and K
    cdef object octets              # and for O
    cdef const uint8_t *T
    cdef const uint8_t *K
    cdef const uint8_t *O
    cdef Slot *slots
    cdef Py_ssize_t depth
    cdef PyThread_type_lock claim   # guards cursor, claimed, stopping and the slots' claims
    cdef Py_ssize_t cursor          # where the next piece starts
    cdef Py_ssize_t claimed         # pieces claimed so far
    cdef Py_ssize_t taken           # pieces handed back by take()
    cdef bint stopping
    cdef list threads

    def __cinit__(self, buf, Py_ssize_t block, Py_ssize_t window, bytes table not None,
                  bytes known not None, Py_ssize_t max_wrapper, Py_ssize_t max_length,
                  int workers, Py_ssize_t depth=0, octets=None):
        cdef Py_ssize_t i
        if PyBytes_GET_SIZE(table) != 256:
            raise ValueError("the policy table must have 256 entries")
        check_octets(octets)
        self.octets = octets
        self.O = NULL
        if octets is not None:
            self.O = <const uint8_t *>PyBytes_AS_STRING(octets)
        if block < 1 or window < 1 or workers < 1:
            raise ValueError("block, window and workers must be positive")
        self.threads = []
        PyObject_GetBuffer(buf, &self.view, PyBUF_SIMPLE)
        self.has_view = True
        self.d = <const uint8_t *>self.view.buf
        self.n = self.view.len
        self.block, self.window = block, window
        self.table, self.known = table, known
        self.T = <const uint8_t *>PyBytes_AS_STRING(table)
        self.K = known_ptr(known)
        self.m = PyBytes_GET_SIZE(known)
        self.max_wrapper, self.max_length = max_wrapper, max_length
        # each worker scans one piece, the taker one more, and two wait to be taken
        self.depth = max(depth, workers + 3)
        self.slots = <Slot *>calloc(self.depth, sizeof(Slot))
        self.claim = PyThread_allocate_lock()
        if self.slots == NULL or self.claim == NULL:
            raise MemoryError("Pipeline: no memory for the slots")
        for i in range(self.depth):
            self.slots[i].ready = PyThread_allocate_lock()
            self.slots[i].free = PyThread_allocate_lock()
            if self.slots[i].ready == NULL or self.slots[i].free == NULL:
                raise MemoryError("Pipeline: no memory for the locks")
            PyThread_acquire_lock(self.slots[i].ready, WAIT_LOCK)    # nothing scanned yet
        try:
            for i in range(workers):
                t = threading.Thread(target=self._work, daemon=True, name=f"urlsift-scan-{i}")
                t.start()
                self.threads.append(t)
        except BaseException:
            self.close()
            raise

    cdef Py_ssize_t _cut(self, Py_ssize_t a) noexcept nogil:
        """Where the piece starting at ``a`` ends: the first split point at or after
        ``a + block``, looked for a window at a time; the end of the buffer if none."""
        cdef Py_ssize_t pos = a + self.block, r
        while pos < self.n:
            r = boundary_octets(self.d, pos, min(pos + self.window, self.n), self.T)
            if r >= 0:
                return r
            pos += self.window
        return self.n

    cdef Slot *_claim(self) noexcept nogil:
        """Claim the next piece together with its slot, or NULL: none left, stopping, or
        its slot still holds a piece not taken."""
        cdef Slot *slot = NULL
        PyThread_acquire_lock(self.claim, WAIT_LOCK)
        if not self.stopping and self.cursor < self.n:
            slot = &self.slots[self.claimed % self.depth]
            if PyThread_acquire_lock(slot.free, NOWAIT_LOCK):
                slot.start = self.cursor
                slot.stop = self._cut(self.cursor)
                self.cursor = slot.stop
                self.claimed += 1
            else:
                slot = NULL
        PyThread_release_lock(self.claim)
        return slot

    cdef void _scan(self, Slot *slot) noexcept nogil:
        slot.out.n = 0
        scan_octets(self.d, self.n, slot.start, slot.stop, self.T, self.K, self.m,
                    self.max_wrapper, self.max_length, self.O, &slot.out)
        PyThread_release_lock(slot.ready)

    cdef bint _more(self) noexcept nogil:
        cdef bint more
        PyThread_acquire_lock(self.claim, WAIT_LOCK)
        more = not self.stopping and self.cursor < self.n
        PyThread_release_lock(self.claim)
        return more

    def _work(self):
        """A worker: claim, scan, repeat; wait for the slot when the ring is full."""
        cdef Slot *slot
        cdef Slot *next_slot
        with nogil:
            while True:
                slot = self._claim()
                if slot != NULL:
                    self._scan(slot)
                    continue
                if not self._more():
                    break
                # the ring is full: wait until take() frees the slot of the next piece
                next_slot = &self.slots[self.claimed % self.depth]
                PyThread_acquire_lock(next_slot.free, WAIT_LOCK)
                PyThread_release_lock(next_slot.free)

    def take(self):
        """The next piece as ``(array('q') of triples, start, stop)``, or None at the end."""
        cdef Slot *slot
        cdef Slot *other
        cdef array.array arr
        cdef Py_ssize_t start, stop
        cdef bint done
        if not self.has_view:                 # closed
            return None
        with nogil:
            PyThread_acquire_lock(self.claim, WAIT_LOCK)    # claimed and cursor move together
            done = self.taken >= self.claimed and (self.stopping or self.cursor >= self.n)
            PyThread_release_lock(self.claim)
        if done:
            return None
        slot = &self.slots[self.taken % self.depth]
        with nogil:
            while not PyThread_acquire_lock(slot.ready, NOWAIT_LOCK):
                other = self._claim()             # scan a later piece while this one is
                if other != NULL:                 # being scanned, or this one if unclaimed
                    self._scan(other)
                else:
                    PyThread_acquire_lock(slot.ready, WAIT_LOCK)
                    break
        if slot.out.failed:
            self.close()
            raise MemoryError("scan: no memory for the match list")
        arr = array.clone(_Q, slot.out.n, False)
        if slot.out.n:
            memcpy(arr.data.as_voidptr, slot.out.data, slot.out.n * sizeof(int64_t))
        start, stop = slot.start, slot.stop
        self.taken += 1
        PyThread_release_lock(slot.free)
        return arr, start, stop

    def close(self):
        """Stop the workers and wait for them; release the buffer. Idempotent."""
        cdef Py_ssize_t i
        if self.claim != NULL:
            with nogil:
                PyThread_acquire_lock(self.claim, WAIT_LOCK)
                self.stopping = True
                PyThread_release_lock(self.claim)
            for i in range(self.depth):       # wake a worker waiting for a slot:
                if self.slots[i].free != NULL:  # each lock is left released, once
                    PyThread_acquire_lock(self.slots[i].free, NOWAIT_LOCK)
                    PyThread_release_lock(self.slots[i].free)
        for t in self.threads:
            t.join()
        self.threads = []
        if self.has_view:
            PyBuffer_Release(&self.view)
            self.has_view = False

    def __dealloc__(self):
        # the workers hold a reference to this object while they run: none runs here
        cdef Py_ssize_t i
        if self.has_view:
            PyBuffer_Release(&self.view)
        if self.slots != NULL:
            for i in range(self.depth):
                free(self.slots[i].out.data)
                if self.slots[i].ready != NULL:
                    PyThread_free_lock(self.slots[i].ready)
                if self.slots[i].free != NULL:
                    PyThread_free_lock(self.slots[i].free)
            free(self.slots)
        if self.claim != NULL:
            PyThread_free_lock(self.claim)
