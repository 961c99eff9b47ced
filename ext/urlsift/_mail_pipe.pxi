# Included by _mail_c.pyx: the walk and the scan of its text, piece after piece
# (twin: _mail_pipe_py.py): the pieces of an mbox walked and scanned on worker threads,
# ahead of the thread that traces them (as the _pipe core does for plain text).


cdef struct MSlot:
    cbuf d                       # the piece (kept alive in MailPipeline.pieces)
    Py_ssize_t n
    Grow out, segs, msgs, names  # the walk of the piece (swapped with the worker's walker)
    Out triples                  # its scan
    Anchors anchors              # the texts of its links (anchor_table)
    bint failed                  # the walk raised: the exception is in MailPipeline.errors
    PyThread_type_lock filled    # held while the slot has no piece to walk
    PyThread_type_lock ready     # held until the piece is walked and scanned


cdef inline void _swap(Grow *a, Grow *b) noexcept nogil:
    cdef Grow t = a[0]
    a[0] = b[0]
    b[0] = t


cdef class MailPipeline:
    """``MailPipeline(headers, charsets, max_depth, unescape, table, known, max_wrapper,
    max_length, workers, anchors=True)``: pieces of whole messages (bytes) walked
    (``walk``) and their text scanned on ``workers`` threads (with none, in ``take()``:
    on the caller's thread, the walker's buffers kept from piece to piece all the same).
    ``put(piece)`` hands one over (False when ``depth`` pieces are waiting to be
    taken); ``take()`` gives back the oldest as
    ``((out, segs, msgs, names), triples, anchors)`` (what ``walk``, ``scan`` and
    ``anchor_runs`` give; ``anchors`` None unless asked for), or the exception the walk
    raised; ``close()`` stops the workers (always call it).

    A worker holds the GIL only to start, to end, and when the walk calls ``unescape``
    or raises: it never waits for the thread that traces the matches to let it go.
    Twin: ``urlsift._mail_pipe_py.MailPipeline`` (the same results, walked in ``take()``).

    >>> from urlsift.text.rules import TABLE, KNOWN
    >>> p = MailPipeline(b"", b"ascii\\0", 8, None, TABLE, KNOWN, 8192, 65536, 1)
    >>> p.put(b"From a\\n\\nsee http://a.example/\\n")
    True
    >>> (out, segs, msgs, names), triples, anchors = p.take()
    >>> bytes(out), list(triples), anchors[1:]
    (b'see http://a.example/\\n\\x00', [4, 21, 0], ([], set()))
    >>> p.close()
    """
    cdef MSlot *slots
    cdef Py_ssize_t depth, claimed, put_count, taken
    cdef PyThread_type_lock claim   # guards claimed and stopping
    cdef bint stopping
    cdef bint anchors               # the runs of the links' texts are read too
    cdef list pieces, errors, threads
    cdef bytes headers, charsets, table, known
    cdef int max_depth
    cdef object unescape
    cdef _Walk own                  # with no workers, the walker of take()
    cdef const uint8_t *T
    cdef const uint8_t *K
    cdef Py_ssize_t m, max_wrapper, max_length

    def __cinit__(self, bytes headers not None, bytes charsets not None, int max_depth,
                  unescape, bytes table not None, bytes known not None,
                  Py_ssize_t max_wrapper, Py_ssize_t max_length, int workers,
                  bint anchors=True):
        cdef Py_ssize_t i
        if workers < 0:
            raise ValueError("workers must not be negative")
        self.threads = []
        self.headers, self.charsets, self.max_depth = headers, charsets, max_depth
        self.unescape = unescape
        self.table, self.known = table, known
        self.T = table_ptr(table)
        self.K = known_ptr(known)
        self.m = len(known)
        self.max_wrapper, self.max_length = max_wrapper, max_length
        self.anchors = anchors
        # each worker walks one piece, and two more wait to be taken
        self.depth = workers + 2
        if workers == 0:
            self.own = new_walk(headers, charsets, max_depth, unescape)
        self.pieces = [None] * self.depth
        self.errors = [None] * self.depth
        self.slots = <MSlot *>calloc(self.depth, sizeof(MSlot))
        self.claim = PyThread_allocate_lock()
        if self.slots == NULL or self.claim == NULL:
            raise MemoryError("MailPipeline: no memory for the slots")
        for i in range(self.depth):
            self.slots[i].filled = PyThread_allocate_lock()
            self.slots[i].ready = PyThread_allocate_lock()
            if self.slots[i].filled == NULL or self.slots[i].ready == NULL:
                raise MemoryError("MailPipeline: no memory for the locks")
            PyThread_acquire_lock(self.slots[i].filled, WAIT_LOCK)   # no piece yet
            PyThread_acquire_lock(self.slots[i].ready, WAIT_LOCK)    # nothing walked
        try:
            for i in range(workers):
                t = threading.Thread(target=self._work, daemon=True, name=f"urlsift-mail-{i}")
                t.start()
                self.threads.append(t)
        except BaseException:
            self.close()
            raise

    cdef Py_ssize_t _next(self) noexcept nogil:
        """The number of the next piece to walk, or -1 when stopping."""
        cdef Py_ssize_t k = -1
        PyThread_acquire_lock(self.claim, WAIT_LOCK)
        if not self.stopping:
            k = self.claimed
            self.claimed += 1
        PyThread_release_lock(self.claim)
        return k

    cdef bint _stopping(self) noexcept nogil:
        cdef bint stopping
        PyThread_acquire_lock(self.claim, WAIT_LOCK)
        stopping = self.stopping
        PyThread_release_lock(self.claim)
        return stopping

    cdef int _loop(self, _Walk w, Py_ssize_t *current) except -1 nogil:
        """Claim a piece, wait for it, walk and scan it; until the pipeline stops. The
        number of the piece being walked is in ``current`` (for the error path)."""
        cdef Py_ssize_t k
        cdef MSlot *slot
        while True:
            k = self._next()
            if k < 0:
                return 0
            slot = &self.slots[k % self.depth]
            PyThread_acquire_lock(slot.filled, WAIT_LOCK)      # piece k is put
            if self._stopping():
                return 0
            current[0] = k
            self._walk_slot(w, slot)
            PyThread_release_lock(slot.ready)

    cdef int _walk_slot(self, _Walk w, MSlot *slot) except -1 nogil:
        """Walk the slot's piece with ``w`` and scan the text; the output in the slot."""
        w.reset()
        w.b = slot.d
        cut_spool(w, 0, slot.n, False)
        _swap(&w.out, &slot.out)           # the slot's old buffers go back to the walker
        _swap(&w.segs, &slot.segs)
        _swap(&w.msgs, &slot.msgs)
        _swap(&w.names, &slot.names)
        slot.triples.n = 0
        # no octets table: a part is in its declared charset, and an octet that is no
        # UTF-8 in a UTF-8 part ends the URL, as email's decoding (U+FFFD) does
        scan_octets(<const uint8_t *>slot.out.p, slot.out.n, 0, slot.out.n, self.T,
                    self.K, self.m, self.max_wrapper, self.max_length, NULL, &slot.triples)
        # the runs of the links' texts are read here too, off the thread that traces
        if self.anchors:
            anchor_table(<const int64_t *>slot.segs.p, slot.segs.n // (NSEG * sizeof(int64_t)),
                         <cbuf>slot.out.p, &slot.anchors)
        slot.failed = False
        return 0

    def _work(self):
        """A worker: walks the pieces without the GIL; an exception of the walk is kept
        for ``take()`` (it reads that piece otherwise) and the worker goes on."""
        cdef _Walk w = new_walk(self.headers, self.charsets, self.max_depth, self.unescape)
        cdef Py_ssize_t current = -1
        cdef MSlot *slot
        while True:
            try:
                with nogil:
                    self._loop(w, &current)
                return
            except BaseException as exc:
                slot = &self.slots[current % self.depth]
                self.errors[current % self.depth] = exc
                slot.failed = True
                PyThread_release_lock(slot.ready)

    def put(self, bytes piece not None):
        """Hand over the next piece; False (and nothing done) when the ring is full."""
        cdef MSlot *slot
        if self.put_count - self.taken >= self.depth or self.slots == NULL:
            return False
        slot = &self.slots[self.put_count % self.depth]
        self.pieces[self.put_count % self.depth] = piece
        slot.d = <cbuf>(<char *>piece)
        slot.n = len(piece)
        self.put_count += 1
        PyThread_release_lock(slot.filled)
        return True

    def take(self):
        """The oldest piece put and not taken, walked and scanned (see the class)."""
        cdef MSlot *slot
        cdef Py_ssize_t i
        cdef carray.array arr
        if self.taken >= self.put_count:
            raise ValueError("MailPipeline.take: no piece was put")
        i = self.taken % self.depth
        slot = &self.slots[i]
        if self.own is not None:           # no workers: the piece is walked here
            try:
                with nogil:
                    self._walk_slot(self.own, slot)
            except (MemoryError, KeyboardInterrupt):
                raise
            except Exception as exc:
                self.errors[i] = exc
                slot.failed = True
        else:
            with nogil:
                PyThread_acquire_lock(slot.ready, WAIT_LOCK)
        self.taken += 1
        self.pieces[i] = None
        if slot.failed:
            exc, self.errors[i] = self.errors[i], None
            return exc
        if slot.triples.failed:
            raise MemoryError("scan: no memory for the match list")
        arr = int64_array(slot.triples.data, slot.triples.n * sizeof(int64_t))
        return (walk_result(&slot.out, &slot.segs, &slot.msgs, &slot.names), arr,
                anchors_out(&slot.anchors) if self.anchors else None)

    def close(self):
        """Stop the workers and wait for them. Idempotent."""
        cdef Py_ssize_t i
        if self.claim != NULL:
            with nogil:
                PyThread_acquire_lock(self.claim, WAIT_LOCK)
                self.stopping = True
                PyThread_release_lock(self.claim)
            for i in range(self.depth):      # wake a worker waiting for a piece
                if self.slots[i].filled != NULL:
                    PyThread_acquire_lock(self.slots[i].filled, NOWAIT_LOCK)
                    PyThread_release_lock(self.slots[i].filled)
        for t in self.threads:
            t.join()
        self.threads = []
        self.pieces = [None] * self.depth

    def __dealloc__(self):
        # the workers hold a reference to this object while they run: none runs here
        cdef Py_ssize_t i
        if self.slots != NULL:
            for i in range(self.depth):
                free(self.slots[i].out.p)
                free(self.slots[i].segs.p)
                free(self.slots[i].msgs.p)
                free(self.slots[i].names.p)
                free(self.slots[i].triples.data)
                anchors_free(&self.slots[i].anchors)
                if self.slots[i].filled != NULL:
                    PyThread_free_lock(self.slots[i].filled)
                if self.slots[i].ready != NULL:
                    PyThread_free_lock(self.slots[i].ready)
            free(self.slots)
        if self.claim != NULL:
            PyThread_free_lock(self.claim)
