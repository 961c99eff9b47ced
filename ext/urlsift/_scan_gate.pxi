# Included by _scan_c.pyx after _scan_blocks.pxi: the prefilter's blocks with the gate.
# A colon after a gated pair (gated_pairs, _scan_find.pxi) whose 4th and 5th octets
# before are letters is no candidate: slashless would find no URL there (pidfile:,
# Makefile:; gated_slashless passes them over). These blocks drop such colons in the
# block, without a branch (each such candidate was a mispredicted branch or more). The
# walk turns to them from the first colon gated_slashless passes over: in the plain
# blocks, the gate's instructions on every block with a colon made e:b (colons, no
# pair) slower, and asking it only where a block's pairs hit was a mispredicted branch.

cdef extern from *:
    """
    #ifdef URLSIFT_SSSE3
    /* the pairs by SSSE3's look-ups (URLSIFT_PAIRS_SSSE3), less the lanes of a gated
       pair (f->gated: its bit among the look-ups') whose 4th and 5th octets before are
       ASCII letters ((c | 0x20) - 'a' <= 25, unsigned, for both: their max), the 5th
       not before i0, where the prefilter was asked from (never before the walk's last
       match, where a run back stops): in a call's first block, the lanes from
       i0 + 5 - i on (urlsift_from5) */
    static const uint8_t urlsift_from5[21] = {0, 0, 0, 0, 0, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255};
    #define URLSIFT_PAIRS_GATED(f, p1, p2, out) do {                                    \
            __m128i m_ = _mm_and_si128(                                                 \
                URLSIFT_NIBBLES((f)->lo_last, (f)->hi_last, p1),                        \
                URLSIFT_NIBBLES((f)->lo_before, (f)->hi_before, p2));                   \
            if (i >= 5) {                                                               \
                const __m128i a_ = _mm_set1_epi8('a');                                  \
                Py_ssize_t s_ = i - i0 < 5 ? i - i0 : 5;                                \
                __m128i v_ = _mm_max_epu8(                                              \
                    _mm_sub_epi8(_mm_or_si128(_mm_loadu_si128(                          \
                        (const __m128i *)(d + i - 4)), lower), a_),                     \
                    _mm_sub_epi8(_mm_or_si128(_mm_loadu_si128(                          \
                        (const __m128i *)(d + i - 5)), lower), a_));                    \
                m_ = _mm_andnot_si128(_mm_and_si128(_mm_and_si128(_mm_cmpeq_epi8(       \
                    _mm_subs_epu8(v_, _mm_set1_epi8(25)), _mm_setzero_si128()),         \
                    _mm_loadu_si128((const __m128i *)(urlsift_from5 + s_))),            \
                    _mm_set1_epi8((char)(f)->gated)), m_);                              \
            }                                                                           \
            out = ~_mm_movemask_epi8(_mm_cmpeq_epi8(m_, _mm_setzero_si128())) & 0xFFFF; \
        } while (0)
    URLSIFT_NEXT_CANDIDATE(urlsift_next_gated_blocks, inline __attribute__((target("ssse3"))),
                           URLSIFT_PAIRS_GATED)
    /* The blocks with the gate pay on every block with a colon: where they find no
       candidate in URLSIFT_GATE_SPAN octets, gated words are not dense here, and the
       plain blocks go on (and are the walk's again, at *mode) */
    #define URLSIFT_GATE_SPAN 512
    URLSIFT_NOINLINE __attribute__((target("ssse3")))
    static Py_ssize_t urlsift_next_gated(const uint8_t *d, Py_ssize_t i, Py_ssize_t stop,
                                         Py_ssize_t n, const urlsift_prefilter *f,
                                         void *mode) {
        Py_ssize_t lim = stop - i <= URLSIFT_GATE_SPAN ? stop : i + URLSIFT_GATE_SPAN;
        Py_ssize_t p = urlsift_next_gated_blocks(d, i, lim, n, f, mode);
        if (p >= 0 || lim == stop)
            return p;
        *(urlsift_next_fn *)mode = f->next;
        return f->next(d, lim, stop, n, f, mode);
    }
    #endif
    /* the gated pairs (bit k: pair k) and the blocks with the gate, where SSSE3's are
       f's (the pairs at most 8: a bit of the look-ups each) */
    static void urlsift_prefilter_gate(urlsift_prefilter *f, int gated) {
        f->gated = gated;
        f->next_gated = NULL;
    #ifdef URLSIFT_SSSE3
        if (gated && f->next == urlsift_next_ssse3)
            f->next_gated = urlsift_next_gated;
    #endif
    }
    """
    void prefilter_gate "urlsift_prefilter_gate" (Prefilter *f, int gated) noexcept nogil
