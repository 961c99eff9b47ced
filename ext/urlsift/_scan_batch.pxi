# Included by _scan_c.pyx after _scan_gate.pxi: the blocks with the gate, 32 octets at a
# time, handing the walk a batch of candidates a call. In glued text (hotnews:, pidfile:,
# a "://" URL every few hundred octets) most blocks hold a colon and a candidate is
# one in a hundred octets or so: the single blocks returned at each, the exit of their
# loop a mispredicted branch. These read on past the first candidate to the first
# "://" (whose URL the walk takes next) or the span's end and write each candidate's
# offset into the walk's batch (a block's first without a branch); the walk takes them
# one after the other itself (walk, batch_goes_on), the blocks' call only past the batch
# or where it may no longer hold (urlsift_batch_next).
# A candidate the gate would not have dropped is never dropped: the gate drops a colon
# whose 5th octet before is not before where the blocks began (i0), the walk's last
# match's end or past it; after a match inside the batch (the walk comes back past the
# last candidate + 1: a match ends 2 octets or more past its colon) a colon less than
# 5 octets past its end may have been dropped for a run that the match cuts short, so
# the batch is read again from there.

cdef extern from *:
    """
    /* The walk's hold on the blocks: the function it calls (first: the blocks write
       the plain one there through their last argument, see urlsift_next_fn) and the
       batch the blocks with the gate leave it */
    #define URLSIFT_BATCH 64
    typedef struct {
        urlsift_next_fn next;
        Py_ssize_t nb, ib;          /* cand[ib, nb): the batch's candidates not given out */
        Py_ssize_t last;            /* the last one given out */
        Py_ssize_t upto;            /* the batch's blocks end here: no candidate between
                                       its last and upto; 0: none to go on from */
        Py_ssize_t cand[URLSIFT_BATCH];
    } urlsift_mode;
    static void urlsift_mode_init(urlsift_mode *m, urlsift_next_fn next) {
        m->next = next;
        m->nb = m->ib = m->upto = 0;
        m->last = -2;
    }
    /* the batches on (_set_batch); setups made after it read it */
    static int urlsift_batch = 1;
    static int urlsift_set_batch(int on) {
        int was = urlsift_batch;
        urlsift_batch = on != 0;
        return was;
    }
    /* a colon in d[i, i + 5)? (8 octets as a word: a zero octet of x ^ ':' in the low
       five, where a false one is only ever above a true one; near n: as if there were
       one, the batch read again) */
    static inline int urlsift_colon5(const uint8_t *d, Py_ssize_t i, Py_ssize_t n) {
        uint64_t x;
        if (i + 8 > n)
            return 1;
        memcpy(&x, d + i, 8);
        x ^= 0x3A3A3A3A3A3A3A3AULL;
        return ((x - 0x0101010101010101ULL) & ~x & 0x8080808080ULL) != 0;
    }
    #ifdef URLSIFT_SSSE3
    /* the next of the batch at or past i (a match's end or the last + 1); -1: none */
    static inline Py_ssize_t urlsift_batch_next(const uint8_t *d, Py_ssize_t i, Py_ssize_t n,
                                                urlsift_mode *m) {
        if (i != m->last + 1 && urlsift_colon5(d, i, n)) {
            m->nb = m->upto = 0;    /* from i again: a colon the gate dropped may be one */
            return -1;
        }
        while (m->ib < m->nb) {
            Py_ssize_t p = m->cand[m->ib++];
            if (p >= i)
                return m->last = p;
        }
        return -1;
    }
    /* The blocks with the gate of 32, a batch a call (the batch's next first, where it
       holds): as urlsift_next_gated_avx2 */
    __attribute__((noinline, target("avx2"), section(".text.urlsift_gate32")))
    static Py_ssize_t urlsift_next_batch_avx2(const uint8_t *d, Py_ssize_t i, Py_ssize_t stop,
                                              Py_ssize_t n, const urlsift_prefilter *f,
                                              void *mode) {
        urlsift_mode *m = (urlsift_mode *)mode;
        Py_ssize_t lim, end, k = 0, upto;
        urlsift_gate32 g;
        __m256i gate;
        if (i < m->upto) {
            Py_ssize_t p = urlsift_batch_next(d, i, n, m);
            if (p >= 0)
                return p;
            if (i < m->upto)
                i = m->upto;        /* the batch's blocks hold no more */
        }
        lim = stop - i <= URLSIFT_GATE_SPAN ? stop : i + URLSIFT_GATE_SPAN;
        /* the blocks from i >= 5 while i < lim, i + 34 <= n and i + 32 <= stop: one
           bound (end) a block */
        end = i < 5 ? i : lim;
        if (end > n - 33)
            end = n - 33;
        if (end > stop - 31)
            end = stop - 31;
        urlsift_gate32_make(&g, f);
        gate = URLSIFT_GATE32_FIRST(g);
        while (i < end && k <= URLSIFT_BATCH - 32) {
            uint32_t first, hits = urlsift_gate32_block(d, i, gate, &g, &first);
            gate = g.gated;
            /* the block's first candidate written whatever (tzcnt of 0: 32), counted
               if there is one; the others (rare) one by one */
            m->cand[k] = i + urlsift_ctz64((uint64_t)hits | ((uint64_t)1 << 32));
            k += hits != 0;
            hits &= hits - 1;
            while (hits) {
                m->cand[k++] = i + urlsift_ctz(hits);
                hits &= hits - 1;
            }
            if (first) {            /* the walk takes its URL next: the batch ends */
                i += urlsift_ctz(first) + 1;
                break;
            }
            i += 32;
        }
        upto = i;
        if (k) {
            m->nb = k;
            m->ib = 1;
            m->upto = upto;
            return m->last = m->cand[0];
        }
        m->nb = m->upto = 0;
        if (i >= lim && lim < stop)
            m->next = f->next;      /* as urlsift_next_gated_avx2 */
        return f->next(d, i, stop, n, f, mode);
    }
    #endif
    /* the batches where the blocks with the gate are AVX2's (setup_make, after
       urlsift_prefilter_gate) */
    static void urlsift_prefilter_batch(urlsift_prefilter *f) {
    #ifdef URLSIFT_SSSE3
        if (urlsift_batch && f->next_gated == urlsift_next_gated_avx2)
            f->next_gated = urlsift_next_batch_avx2;
    #else
        (void)f;
    #endif
    }
    """
    bint colon5 "urlsift_colon5" (const uint8_t *d, Py_ssize_t i, Py_ssize_t n) noexcept nogil
    enum: URLSIFT_BATCH
    ctypedef struct Mode "urlsift_mode":
        NextFn next
        Py_ssize_t nb, ib, last
        Py_ssize_t cand[URLSIFT_BATCH]     # (an array in the struct, as the C says)
    void mode_init "urlsift_mode_init" (Mode *m, NextFn next) noexcept nogil
    void prefilter_batch "urlsift_prefilter_batch" (Prefilter *f) noexcept nogil
    int set_batch "urlsift_set_batch" (int on) noexcept nogil

