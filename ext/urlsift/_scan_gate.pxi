# Included by _scan_c.pyx after _scan_blocks.pxi: the prefilter's blocks with the gate.
# A colon after a gated pair (gated_pairs, _scan_find.pxi) whose 4th and 5th octets
# before are letters is no candidate: slashless would find no URL there (pidfile:,
# Makefile:; gated_slashless passes them over). These blocks drop such colons in the
# block, without a branch (each such candidate was a mispredicted branch or more). The
# walk turns to them from the first colon gated_slashless passes over: in the plain
# blocks, the gate's instructions on every block with a colon made e:b (colons, no
# pair) slower, and asking it only where a block's pairs hit was a mispredicted branch.
# They stop at a colon with "//" after it, not at every ":/" (glued text's
# hashtag:/var/x, which the walk passes over); 32 octets at a time where the CPU has AVX2.

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
                           URLSIFT_PAIRS_GATED, 2)
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
    #include <immintrin.h>
    /* AVX2's blocks where the CPU has it: -1 not asked yet, 0 off (_set_avx2) */
    static int urlsift_avx2 = -1;
    /* the lanes of a call's first block of 32 whose 5th octet before is not before i0,
       as urlsift_from5 */
    static const uint8_t urlsift_from5_32[37] = {0, 0, 0, 0, 0,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255,
        255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255, 255};
    /* (the low nibble's look-up of c itself: pshufb reads its low 4 bits, and 0 for
       an octet over 127, which ends no pair) */
    #define URLSIFT_NIBBLES32(lo, hi, c)                                                \
        _mm256_and_si256(_mm256_shuffle_epi8(lo, c),                                    \
                         _mm256_shuffle_epi8(hi, _mm256_and_si256(_mm256_srli_epi16(c, 4), low4)))
    #define URLSIFT_LOAD32(p) _mm256_loadu_si256((const __m256i *)(p))
    /* 0xFF where c is an ASCII letter: c | 0x20 moved to 128 + (c | 0x20) - 'a', a
       letter below 128 + 26 (signed: below -102); three steps from the load */
    #define URLSIFT_ALPHA32(c)                                                          \
        _mm256_cmpgt_epi8(_mm256_set1_epi8(-102),                                       \
                          _mm256_add_epi8(_mm256_or_si256(c, lower), _mm256_set1_epi8((char)(128 - 'a'))))
    /* the gate's tables of 32 octets (pshufb's in both halves), made once a call */
    typedef struct {
        __m256i lo_last, hi_last, lo_before, hi_before, gated;
    } urlsift_gate32;
    __attribute__((always_inline, target("avx2")))
    static inline void urlsift_gate32_make(urlsift_gate32 *g, const urlsift_prefilter *f) {
        g->lo_last = _mm256_broadcastsi128_si256(f->lo_last);
        g->hi_last = _mm256_broadcastsi128_si256(f->hi_last);
        g->lo_before = _mm256_broadcastsi128_si256(f->lo_before);
        g->hi_before = _mm256_broadcastsi128_si256(f->hi_before);
        g->gated = _mm256_set1_epi8((char)f->gated);
    }
    /* The candidates of the block of 32 at d + i (i >= 5): bit k for the colon at
       i + k, the first with "//" after it (its bit in *slashes, 0: none) the last of
       them; the same look-ups and the same gate as the SSSE3 blocks in each half of
       16, gate the lanes' gated pairs (g->gated; in a call's first block, none in the
       lanes whose 5th octet before is before it: URLSIFT_GATE32_FIRST) */
    #define URLSIFT_GATE32_FIRST(g) \
        _mm256_and_si256(URLSIFT_LOAD32(urlsift_from5_32), (g).gated)
    __attribute__((always_inline, target("avx2")))
    static inline uint32_t urlsift_gate32_block(const uint8_t *d, Py_ssize_t i, __m256i gate,
                                                const urlsift_gate32 *g, uint32_t *slashes) {
        const __m256i lower = _mm256_set1_epi8(0x20), low4 = _mm256_set1_epi8(15);
        __m256i m;
        uint32_t hits = (uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(
            URLSIFT_LOAD32(d + i), _mm256_set1_epi8(':'))), first, pairs;
        *slashes = 0;
        if (!hits)
            return 0;
        first = hits & (uint32_t)_mm256_movemask_epi8(_mm256_and_si256(
            _mm256_cmpeq_epi8(URLSIFT_LOAD32(d + i + 1), _mm256_set1_epi8('/')),
            _mm256_cmpeq_epi8(URLSIFT_LOAD32(d + i + 2), _mm256_set1_epi8('/'))));
        if (first) {                /* a "://": the colons after it left for later */
            first &= -first;
            hits &= first | (first - 1);
            *slashes = first;
        }
        m = _mm256_and_si256(
            URLSIFT_NIBBLES32(g->lo_last, g->hi_last, URLSIFT_LOAD32(d + i - 1)),
            URLSIFT_NIBBLES32(g->lo_before, g->hi_before, URLSIFT_LOAD32(d + i - 2)));
        m = _mm256_andnot_si256(_mm256_and_si256(_mm256_and_si256(
            URLSIFT_ALPHA32(URLSIFT_LOAD32(d + i - 4)),
            URLSIFT_ALPHA32(URLSIFT_LOAD32(d + i - 5))), gate), m);
        pairs = ~(uint32_t)_mm256_movemask_epi8(_mm256_cmpeq_epi8(m, _mm256_setzero_si256()));
        return hits & (pairs | first);
    }
    /* The blocks with the gate 32 octets at a time (AVX2); the last blocks of the
       span (or of the buffer) by the SSSE3 ones. Half the blocks: in glued text nearly
       every block of 16 holds a colon, each a pass over the look-ups and a branch. In
       its own section, as the windows' walk: where it lay, it moved the walk's code */
    __attribute__((noinline, target("avx2"), section(".text.urlsift_gate32")))
    static Py_ssize_t urlsift_next_gated_avx2(const uint8_t *d, Py_ssize_t i, Py_ssize_t stop,
                                              Py_ssize_t n, const urlsift_prefilter *f,
                                              void *mode) {
        Py_ssize_t lim = stop - i <= URLSIFT_GATE_SPAN ? stop : i + URLSIFT_GATE_SPAN;
        urlsift_gate32 g;
        __m256i gate;
        urlsift_gate32_make(&g, f);
        gate = URLSIFT_GATE32_FIRST(g);
        while (i >= 5 && i < lim && i + 34 <= n && i + 32 <= stop) {
            uint32_t first, hits = urlsift_gate32_block(d, i, gate, &g, &first);
            if (hits) return i + urlsift_ctz(hits);
            gate = g.gated;
            i += 32;
        }
        /* past the span without a candidate: gated words are not dense here, the plain
           blocks go on (and are the walk's again); the last octets before stop or n
           by the plain blocks too (a colon there ungated: slashless passes it over).
           (Calls in tail position only: no frame, no register saved) */
        if (i >= lim && lim < stop)
            *(urlsift_next_fn *)mode = f->next;
        return f->next(d, i, stop, n, f, mode);
    }
    #endif
    /* _set_avx2: AVX2's gated blocks on only where the CPU has AVX2 (and SSSE3's are
       on); returns what it was. Setups made after it read it */
    static int urlsift_set_avx2(int on) {
    #ifdef URLSIFT_SSSE3
        int was = urlsift_avx2 != 0;
        urlsift_avx2 = on && __builtin_cpu_supports("avx2");
        return was;
    #else
        (void)on;
        return 0;
    #endif
    }
    /* the gated pairs (bit k: pair k) and the blocks with the gate, where SSSE3's are
       f's (the pairs at most 8: a bit of the look-ups each); of 32 with AVX2 */
    static void urlsift_prefilter_gate(urlsift_prefilter *f, int gated) {
        f->gated = gated;
        f->next_gated = NULL;
    #ifdef URLSIFT_SSSE3
        if (gated && f->next == urlsift_next_ssse3) {
            if (urlsift_avx2 < 0)
                urlsift_avx2 = __builtin_cpu_supports("avx2") != 0;
            f->next_gated = urlsift_avx2 ? urlsift_next_gated_avx2 : urlsift_next_gated;
        }
    #endif
    }
    """
    void prefilter_gate "urlsift_prefilter_gate" (Prefilter *f, int gated) noexcept nogil
    int set_avx2 "urlsift_set_avx2" (int on) noexcept nogil
