# Included by _scan_c.pyx (first, before the walk that calls it): the walk's loops that
# read 16 octets at a time (SSE2, as memchr does; x86-64 always has it), in C: the
# prefilter (the next colon that may end a scheme: its pairs by SSSE3 look-ups where the
# CPU has them), the run of scheme characters before "://", and a bare URL's run of
# plain octets; with their setup from the policy table.
# Octet by octet where there is no SSE2, at the ends of a buffer, and with
# _set_prefilter(False) (the reference the tests compare them with).

cdef extern from *:
    """
    /* The prefilter of walk(): the next colon in d[i, stop) that may end a URL's scheme:
       one with "//" after it, or after one of the np pairs (pairs[2k] the last character
       of a name, pairs[2k+1] the one before it, in lower case). Any other colon cannot
       (walk() would skip it after reading the trie: without "//" only a name found
       without them makes a URL, and the run must end in it), so it is skipped 16 octets
       at a time with SSE2 (as memchr does; x86-64 always has it), octet by octet
       elsewhere. The blocks stop at a colon with one "/" after it too, which the walk
       then passes over: looking for the second "/" there made colon-dense text (e:b,
       mail headers) 6-8% slower. The plain walk (memchr for every colon) is the
       reference; tests compare them. */
    #include <stdint.h>
    #include <string.h>
    #if defined(__SSE2__) || defined(_M_X64)
    #include <emmintrin.h>
    #define URLSIFT_SSE2 1
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int urlsift_ctz(unsigned x) { unsigned long r; _BitScanForward(&r, x); return (int)r; }
    static inline int urlsift_ctz64(uint64_t x) { unsigned long r; _BitScanForward64(&r, x); return (int)r; }
    #else
    #define urlsift_ctz __builtin_ctz
    #define urlsift_ctz64 __builtin_ctzll
    #endif
    /* SSSE3's pshufb (a table look-up of 16 octets) where the CPU has it, asked at run
       time (x86-64 only promises SSE2); GCC and clang compile a function for it */
    #if defined(__GNUC__) && (defined(__x86_64__) || defined(__i386__))
    #include <tmmintrin.h>
    #define URLSIFT_SSSE3 1
    #endif
    #endif
    static inline int urlsift_candidate(const uint8_t *d, Py_ssize_t p, Py_ssize_t n,
                                        const uint8_t *pairs, int np) {
        uint8_t a, b;
        int k;
        if (p + 2 < n && d[p + 1] == '/' && d[p + 2] == '/') return 1;
        if (p < 2) return 0;
        a = d[p - 1] | 0x20; b = d[p - 2] | 0x20;
        for (k = 0; k < np; k++)
            if (a == pairs[2 * k] && b == pairs[2 * k + 1]) return 1;
        return 0;
    }
    /* the pairs as the blocks compare them, and the octets a URL's walk passes over 16
       at a time (below), made once per walk */
    typedef struct urlsift_prefilter urlsift_prefilter;
    struct urlsift_prefilter {
        const uint8_t *pairs;
        int np;
        int gated;                  /* bit k: pair k gated (_scan_gate.pxi); 0: none */
    #ifdef URLSIFT_SSE2
        __m128i last[16], before[16];
        int nx;                     /* -1: PLAIN is not "!" to "~" less nx octets x[];
                                       -2: not worked out yet (urlsift_prefilter_plain) */
        __m128i x[16];
        const uint8_t *T;           /* the table and its PLAIN bit, for that */
        uint8_t plain;
        int scheme16;               /* 1: the table's SCHEME octets are RFC 1738's
                                       (urlsift_scheme_start reads 16 at a time) */
        /* the same pairs as pshufb reads them (np <= 8): bit k of lo_last[c & 15] &
           hi_last[c >> 4] says c is pairs[2k], of the before_ ones pairs[2k + 1] */
        __m128i lo_last, hi_last, lo_before, hi_before;
        int nibbles;                /* 1: np <= 8, the four above made */
        /* the octets that end a URL's run of PLAIN ones as pshufb reads them: c is
           none of them when lo_stop[c & 15] & hi_stop[c >> 4] is 0 (plain_nibbles) */
        __m128i lo_stop, hi_stop;
    #endif
        /* the blocks' function (urlsift_prefilter_next) */
        Py_ssize_t (*next)(const uint8_t *, Py_ssize_t, Py_ssize_t, Py_ssize_t,
                           const urlsift_prefilter *, void *);
        Py_ssize_t (*next_gated)(const uint8_t *, Py_ssize_t, Py_ssize_t, Py_ssize_t,
                                 const urlsift_prefilter *, void *);   /* with the gate; or NULL */
        /* a URL's walk 16 octets at a time (urlsift_prefilter_plain; NULL: none, octet
           by octet) */
        Py_ssize_t (*walk)(const uint8_t *, const uint8_t *, Py_ssize_t, Py_ssize_t,
                           Py_ssize_t *, uint8_t, uint8_t, const urlsift_prefilter *);
    };
    static void urlsift_prefilter_next(urlsift_prefilter *f);
    /* the blocks' functions; the last argument: where the walk holds the one it calls
       (an urlsift_next_fn *: the gate's may put the plain one there, _scan_gate.pxi) */
    typedef Py_ssize_t (*urlsift_next_fn)(const uint8_t *, Py_ssize_t, Py_ssize_t, Py_ssize_t,
                                          const urlsift_prefilter *, void *);
    static void urlsift_prefilter_init(urlsift_prefilter *f, const uint8_t *pairs, int np,
                                       const uint8_t *T, uint8_t plain) {
        int k;
        f->pairs = pairs;
        f->np = np < 0 ? 0 : (np > 16 ? 16 : np);
        f->gated = 0;               /* urlsift_prefilter_gate sets them */
        f->next_gated = NULL;
    #ifdef URLSIFT_SSE2
        for (k = 0; k < f->np; k++) {
            f->last[k] = _mm_set1_epi8((char)pairs[2 * k]);
            f->before[k] = _mm_set1_epi8((char)pairs[2 * k + 1]);
        }
        f->nibbles = f->np <= 8;
        if (f->nibbles) {
            uint8_t nib[4][16];
            memset(nib, 0, sizeof nib);
            for (k = 0; k < f->np; k++) {
                nib[0][pairs[2 * k] & 15] |= (uint8_t)(1u << k);
                nib[1][pairs[2 * k] >> 4] |= (uint8_t)(1u << k);
                nib[2][pairs[2 * k + 1] & 15] |= (uint8_t)(1u << k);
                nib[3][pairs[2 * k + 1] >> 4] |= (uint8_t)(1u << k);
            }
            /* the high nibble h of an octet reads the entry of h | 2, that of c | 0x20:
               a pair's octets matched without case with no OR of each block */
            for (k = 0; k < 16; k++) {
                nib[1][k] = nib[1][k | 2];
                nib[3][k] = nib[3][k | 2];
            }
            f->lo_last = _mm_loadu_si128((const __m128i *)nib[0]);
            f->hi_last = _mm_loadu_si128((const __m128i *)nib[1]);
            f->lo_before = _mm_loadu_si128((const __m128i *)nib[2]);
            f->hi_before = _mm_loadu_si128((const __m128i *)nib[3]);
        }
        /* the compares of a URL's walk: made by setup_for once per table, else when
           the first URL is walked (urlsift_prefilter_plain) */
        f->nx = -2;
        f->T = T;
        f->plain = plain;
        f->scheme16 = 0;
    #endif
        f->walk = NULL;
        urlsift_prefilter_next(f);
    }
    #ifdef URLSIFT_SSE2
    /* the octets whose entry in the table T has the bit set, as a 256-bit set (bit k:
       octet k), read 16 entries at a time */
    static void urlsift_table_set(const uint8_t *T, uint8_t bits, uint64_t in[4]) {
        const __m128i zero = _mm_setzero_si128(), bit = _mm_set1_epi8((char)bits);
        int c;
        in[0] = in[1] = in[2] = in[3] = 0;
        for (c = 0; c < 16; c++) {
            __m128i t = _mm_loadu_si128((const __m128i *)(T + 16 * c));
            uint64_t m = (uint64_t)(~_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(t, bit),
                                                                       zero)) & 0xFFFF);
            in[c >> 2] |= m << (16 * (c & 3));
        }
    }
    #endif
    #ifdef URLSIFT_SSE2
    /* The octets of "!".."~" not in the set in[] (bit k: octet k) as compares (x[],
       nx; SSE2 has no table look-up): nx -1 where the set is no such range less at
       most 16 */
    static void urlsift_plain_compares(urlsift_prefilter *f, const uint64_t in[4]) {
        uint64_t out;
        int w;
        f->nx = -1;
        /* none below "!" (33) nor from DEL (127) up */
        if ((in[0] & (((uint64_t)1 << 33) - 1)) || (in[1] >> 63) || in[2] || in[3])
            return;
        f->nx = 0;
        for (w = 0; w < 2; w++) {                  /* the octets of "!".."~" not PLAIN */
            out = ~in[w] & (w == 0 ? ~(((uint64_t)1 << 33) - 1) : ~((uint64_t)1 << 63));
            while (out) {
                if (f->nx == 16) {
                    f->nx = -1;
                    return;
                }
                f->x[f->nx++] = _mm_set1_epi8((char)(64 * w + urlsift_ctz64(out)));
                out &= out - 1;
            }
        }
    }
    /* The octets not in the set in[] as two pshufb look-ups of an octet's nibbles
       (SSSE3, "shufti" as Hyperscan does): the high nibbles whose sixteen octets hold
       the same ones not in the set share a bit (at most 8 such groups, 1 when done;
       any table whose PLAIN octets are "!" to "~" less a few has at most 7), and
       lo_stop[l] has the bit of every group whose octets with low nibble l are out */
    static int urlsift_plain_nibbles(urlsift_prefilter *f, const uint64_t in[4]) {
        uint8_t lo[16], hi[16];
        unsigned group[8], out;
        int h, l, b, ng = 0;
        memset(lo, 0, sizeof lo);
        memset(hi, 0, sizeof hi);
        for (h = 0; h < 16; h++) {
            out = ~(unsigned)(in[h >> 2] >> (16 * (h & 3))) & 0xFFFF;
            if (!out)
                continue;
            for (b = 0; b < ng && group[b] != out; b++)
                ;
            if (b == ng) {
                if (ng == 8)
                    return 0;
                group[ng++] = out;
                for (l = 0; l < 16; l++)
                    if (out >> l & 1)
                        lo[l] |= (uint8_t)(1u << b);
            }
            hi[h] = (uint8_t)(1u << b);
        }
        f->lo_stop = _mm_loadu_si128((const __m128i *)lo);
        f->hi_stop = _mm_loadu_si128((const __m128i *)hi);
        return 1;
    }
    #endif
    static void urlsift_plain_walk(urlsift_prefilter *f, int nibbles);
    /* A URL's walk 16 octets at a time where the table allows (f->walk): by the
       look-ups where the CPU has SSSE3, else by the compares where the PLAIN octets
       are "!" to "~" less a few; any other table: one at a time. And are its SCHEME
       octets RFC 1738's (then the run of them before a colon is read 16 at a time:
       urlsift_scheme_start)? A few dozen instructions, once per table (setup_for) */
    static void urlsift_prefilter_plain(urlsift_prefilter *f, uint8_t scheme) {
    #ifdef URLSIFT_SSE2
        uint64_t in[4];                         /* bit k: octet k is PLAIN */
        urlsift_table_set(f->T, scheme, in);
        /* "+", "-", ".", digits; upper and lower case letters (RFC 1738 section 2.1) */
        f->scheme16 = in[0] == (((uint64_t)1 << 43) | ((uint64_t)3 << 45) | ((uint64_t)0x3FF << 48))
            && in[1] == (((uint64_t)0x3FFFFFF << 1) | ((uint64_t)0x3FFFFFF << 33))
            && !in[2] && !in[3];
        urlsift_table_set(f->T, f->plain, in);
        urlsift_plain_compares(f, in);
        urlsift_plain_walk(f, urlsift_plain_nibbles(f, in));
    #else
        (void)f;
        (void)scheme;
    #endif
    }
    /* Where the run of SCHEME characters that ends at d[p - 1] starts, lo at the
       earliest: the walk back from a colon to its scheme's start; *dots: 0 when the
       run has no "." (no ".." for after_ellipsis to look for), 1 when it may. With f
       (NULL: octet by octet, the reference) and a table whose SCHEME octets are RFC
       1738's, the 16 octets before p are classified at once: a run's length is 4 or 5
       ("http", "https") at random, and octet by octet its end was a mispredicted
       branch a URL */
    #ifdef URLSIFT_SSE2
    /* 0xFF in each lane of c that is an RFC 1738 SCHEME octet (letters, digits,
       "+ - .") or "." is; the one definition for urlsift_scheme_start and
       urlsift_fits16. (x - first) < count unsigned, as signed compares after -128 */
    static inline __m128i urlsift_scheme16(__m128i c, __m128i dot) {
        __m128i l = _mm_or_si128(c, _mm_set1_epi8(0x20));
        __m128i letter = _mm_cmplt_epi8(_mm_sub_epi8(l, _mm_set1_epi8((char)('a' + 128))),
                                        _mm_set1_epi8((char)(-128 + 26)));
        __m128i digit = _mm_cmplt_epi8(_mm_sub_epi8(c, _mm_set1_epi8((char)('0' + 128))),
                                       _mm_set1_epi8((char)(-128 + 10)));
        __m128i sign = _mm_or_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8('+')),
                                    _mm_or_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8('-')), dot));
        return _mm_or_si128(letter, _mm_or_si128(digit, sign));
    }
    #endif
    static inline Py_ssize_t urlsift_scheme_start(const uint8_t *d, Py_ssize_t p,
                                                  Py_ssize_t lo, const uint8_t *T,
                                                  uint8_t scheme, const urlsift_prefilter *f,
                                                  int *dots) {
        *dots = 1;
    #ifdef URLSIFT_SSE2
        if (f != NULL && f->scheme16 && p >= 16 && p > lo) {
            __m128i c = _mm_loadu_si128((const __m128i *)(d + p - 16));
            __m128i dot = _mm_cmpeq_epi8(c, _mm_set1_epi8('.'));
            /* bit k: d[p - 16 + k] is no SCHEME octet, or before lo */
            unsigned no = ~(unsigned)_mm_movemask_epi8(urlsift_scheme16(c, dot)) & 0xFFFF;
            if (lo > p - 16)
                no |= (1u << (lo - (p - 16))) - 1;
            if (no) {
                int k = 32 - __builtin_clz(no);      /* the run: bits k to 15 */
                *dots = (_mm_movemask_epi8(dot) >> k) != 0;
                return p - 16 + k;
            }
            p -= 16;                                 /* longer than 16: on one at a time */
        }
    #endif
        (void)f;
        while (p > lo && (T[d[p - 1]] & scheme))
            p--;
        return p;
    }
    /* Where the run of octets whose entries in T have the bit, from d[e], ends (lim at
       the latest): four look-ups a branch (a wrapper's run, <URL:...>, is a URL long;
       16 at a time, with the table's set handed to the wrapper, made the walk's code
       around its calls slower) */
    static Py_ssize_t urlsift_run(const uint8_t *d, Py_ssize_t e, Py_ssize_t lim,
                                  const uint8_t *T, uint8_t bit) {
        while (e + 4 <= lim && (T[d[e]] & T[d[e + 1]] & T[d[e + 2]] & T[d[e + 3]] & bit))
            e += 4;
        while (e < lim && (T[d[e]] & bit))
            e++;
        return e;
    }
    /* The colon at p when it is a candidate (the octet by octet prefilter, at the
       ends of a buffer and where there are no blocks); else -1 */
    static inline Py_ssize_t urlsift_next_plain(const uint8_t *d, Py_ssize_t *i,
                                                Py_ssize_t stop, Py_ssize_t n,
                                                const urlsift_prefilter *f) {
        const uint8_t *hit = (const uint8_t *)memchr(d + *i, ':', (size_t)(stop - *i));
        if (hit == NULL) {
            *i = stop;
            return -1;
        }
        *i = hit - d + 1;
        return urlsift_candidate(d, hit - d, n, f->pairs, f->np) ? hit - d : -1;
    }
    #ifdef URLSIFT_SSE2
    /* a block's colons after a pair (bit k: the colon at i + k), p1 and p2 the 16
       octets before them: two compares a pair of them in lower case (SSE2) ... */
    #define URLSIFT_PAIRS_SSE2(f, p1, p2, out) do {                                     \
            __m128i cand_ = _mm_setzero_si128(), q1_ = _mm_or_si128(p1, lower),         \
                    q2_ = _mm_or_si128(p2, lower);                                      \
            int k_;                                                                     \
            for (k_ = 0; k_ < (f)->np; k_++)                                            \
                cand_ = _mm_or_si128(cand_, _mm_and_si128(                              \
                    _mm_cmpeq_epi8(q1_, (f)->last[k_]), _mm_cmpeq_epi8(q2_, (f)->before[k_]))); \
            out = _mm_movemask_epi8(cand_);                                             \
        } while (0)
    /* ... or, up to 8 pairs, four pshufb look-ups of the nibbles (SSSE3, as Teddy; the
       high nibbles' tables read without case, see urlsift_prefilter_init) */
    #define URLSIFT_NIBBLES(lo, hi, c)                                                  \
        _mm_and_si128(_mm_shuffle_epi8(lo, _mm_and_si128(c, _mm_set1_epi8(15))),        \
                      _mm_shuffle_epi8(hi, _mm_and_si128(_mm_srli_epi16(c, 4),          \
                                                         _mm_set1_epi8(15))))
    #define URLSIFT_PAIRS_SSSE3(f, p1, p2, out)                                         \
        out = ~_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(                          \
            URLSIFT_NIBBLES((f)->lo_last, (f)->hi_last, p1),                            \
            URLSIFT_NIBBLES((f)->lo_before, (f)->hi_before, p2)), _mm_setzero_si128())) \
            & 0xFFFF
    /* The prefilter of walk() 16 octets at a time, PAIRS the compares of a block's
       colons with the pairs, SLASHES 1 for a ":/" or 2 for a "://" (the blocks with
       the gate) to stop at: a function for each (NAME, its attributes ATTR). Never
       inlined: inside walk(), its blocks ran 5-8% faster or slower on colon-dense
       text (e:b, mail headers) with every change to the walk around it, code that the
       blocks never reach; a call per candidate costs less than that */
    #define URLSIFT_NEXT_CANDIDATE(NAME, ATTR, PAIRS, SLASHES)                          \
    ATTR static Py_ssize_t NAME(const uint8_t *d, Py_ssize_t i, Py_ssize_t stop,        \
                                Py_ssize_t n, const urlsift_prefilter *f, void *mode) { \
        const __m128i colon = _mm_set1_epi8(':'), slash = _mm_set1_epi8('/');           \
        const __m128i lower = _mm_set1_epi8(0x20);  /* (SSE2's pairs, the gate) */     \
        const Py_ssize_t i0 = i;        /* (where the gate may read from) */            \
        (void)i0;                                                                       \
        (void)lower;                                                                    \
        (void)mode;                                                                     \
        while (i < stop) {                                                              \
            if (i >= 2 && i + 16 + (SLASHES) <= n && i + 16 <= stop) {                  \
                __m128i c = _mm_loadu_si128((const __m128i *)(d + i));                  \
                int hits = _mm_movemask_epi8(_mm_cmpeq_epi8(c, colon)), first, pairs;   \
                if (!hits) {                                                            \
                    if (i + 33 <= n && i + 32 <= stop && !_mm_movemask_epi8(_mm_cmpeq_epi8( \
                            _mm_loadu_si128((const __m128i *)(d + i + 16)), colon))) {  \
                        /* no colon in 32 octets: colons are sparse here, and libc's    \
                           memchr skips a long way faster; blocks again from the next */ \
                        const uint8_t *hit = (const uint8_t *)memchr(d + i + 32, ':',   \
                                                         (size_t)(stop - i - 32));      \
                        if (hit == NULL) return -1;                                     \
                        i = hit - d;                                                    \
                        continue;                                                       \
                    }                                                                   \
                    i += 16;                                                            \
                    continue;                                                           \
                }                                                                       \
                first = hits & _mm_movemask_epi8(_mm_cmpeq_epi8(                        \
                    _mm_loadu_si128((const __m128i *)(d + i + 1)), slash));             \
                if ((SLASHES) == 2)                                                     \
                    first &= _mm_movemask_epi8(_mm_cmpeq_epi8(                          \
                        _mm_loadu_si128((const __m128i *)(d + i + 2)), slash));         \
                if (first) {                                                            \
                    /* a ":/" (most URLs): the answer unless a colon before it is one */ \
                    first &= -first;                                                    \
                    if (!(hits & (first - 1))) return i + urlsift_ctz((unsigned)first); \
                    hits &= first | (first - 1);                                        \
                }                                                                       \
                PAIRS(f, _mm_loadu_si128((const __m128i *)(d + i - 1)),                 \
                      _mm_loadu_si128((const __m128i *)(d + i - 2)), pairs);            \
                hits &= pairs | first;                                                  \
                if (hits) return i + urlsift_ctz((unsigned)hits);                       \
                i += 16;                                                                \
                continue;                                                               \
            }                                                                           \
            {                                                                           \
                const uint8_t *hit = (const uint8_t *)memchr(d + i, ':', (size_t)(stop - i)); \
                if (hit == NULL) return -1;                                             \
                i = hit - d;                                                            \
                if (urlsift_candidate(d, i, n, f->pairs, f->np)) return i;              \
                i++;                                                                    \
            }                                                                           \
        }                                                                               \
        return -1;                                                                      \
    }
    #if defined(__GNUC__)
    #define URLSIFT_NOINLINE __attribute__((noinline, aligned(64)))
    #else
    #define URLSIFT_NOINLINE
    #endif
    URLSIFT_NEXT_CANDIDATE(urlsift_next_sse2, URLSIFT_NOINLINE, URLSIFT_PAIRS_SSE2, 1)
    #ifdef URLSIFT_SSSE3
    URLSIFT_NEXT_CANDIDATE(urlsift_next_ssse3,
                           URLSIFT_NOINLINE __attribute__((target("ssse3"))), URLSIFT_PAIRS_SSSE3, 1)
    #endif
    #else
    static Py_ssize_t urlsift_next_sse2(const uint8_t *d, Py_ssize_t i, Py_ssize_t stop,
                                        Py_ssize_t n, const urlsift_prefilter *f, void *mode) {
        Py_ssize_t p;
        (void)mode;
        while (i < stop)
            if ((p = urlsift_next_plain(d, &i, stop, n, f)) >= 0) return p;
        return -1;
    }
    #endif
    /* SSSE3's look-ups where the CPU has them: -1 not asked yet, 0 off (_set_ssse3) */
    static int urlsift_ssse3 = -1;
    /* the prefilter's function for this CPU and f's pairs (prefilter_init) */
    static void urlsift_prefilter_next(urlsift_prefilter *f) {
        f->next = urlsift_next_sse2;
    #ifdef URLSIFT_SSSE3
        if (urlsift_ssse3 < 0)
            urlsift_ssse3 = __builtin_cpu_supports("ssse3") != 0;
        if (urlsift_ssse3 && f->nibbles)
            f->next = urlsift_next_ssse3;
    #endif
    }
    /* The prefilter of walk(): the next candidate colon in d[i, stop), -1 when none
       (urlsift_candidate's, 16 octets at a time where it can): one indirect call to
       the function chosen once per setup (a test of the CPU in the walk made the
       walk's code around it slower) */
    static inline Py_ssize_t urlsift_next_candidate(const uint8_t *d, Py_ssize_t i,
                                                    Py_ssize_t stop, Py_ssize_t n,
                                                    const urlsift_prefilter *f,
                                                    urlsift_next_fn *mode) {
        return (*mode)(d, i, stop, n, f, mode);     /* f->next, or f->next_gated */
    }
    /* _set_ssse3: on only where the CPU has SSSE3; returns what it was. Setups made
       after it read it */
    static int urlsift_set_ssse3(int on) {
    #ifdef URLSIFT_SSSE3
        int was = urlsift_ssse3 != 0;
        urlsift_ssse3 = on && __builtin_cpu_supports("ssse3");
        return was;
    #else
        (void)on;
        return 0;
    #endif
    }
    /* The octet at e that is no PLAIN one but BARE (a bracket) in a URL's walk:
       counted in br (for the trim); 1 when the walk ends there ("](" closing no "[":
       Markdown's [URL](URL), as the twin) */
    static inline int urlsift_bracket(const uint8_t *d, Py_ssize_t e, Py_ssize_t lim,
                                      Py_ssize_t *br) {
        switch (d[e]) {
        case '(': br[0]++; break;
        case ')': br[1]++; break;
        case '[': br[2]++; break;
        case ']':
            if (br[3] >= br[2] && e + 1 < lim && d[e + 1] == '(')
                return 1;
            br[3]++;
            break;
        }
        return 0;
    }
    #ifdef URLSIFT_SSE2
    /* bit k of m: c's octet k is no PLAIN one, by compares (SSE2: below "!", signed,
       so octets over 0x7F too; DEL; the x[], in two chains that overlap) ... */
    #define URLSIFT_STOPS_SSE2(f, c, m) do {                                            \
            __m128i no_ = _mm_or_si128(_mm_cmplt_epi8(c, _mm_set1_epi8('!')),            \
                                       _mm_cmpeq_epi8(c, _mm_set1_epi8(127)));           \
            __m128i no2_ = _mm_setzero_si128();                                         \
            int k_;                                                                     \
            for (k_ = 0; k_ + 1 < (f)->nx; k_ += 2) {                                   \
                no_ = _mm_or_si128(no_, _mm_cmpeq_epi8(c, (f)->x[k_]));                 \
                no2_ = _mm_or_si128(no2_, _mm_cmpeq_epi8(c, (f)->x[k_ + 1]));           \
            }                                                                           \
            if (k_ < (f)->nx)                                                           \
                no_ = _mm_or_si128(no_, _mm_cmpeq_epi8(c, (f)->x[k_]));                 \
            m = (unsigned)_mm_movemask_epi8(_mm_or_si128(no_, no2_));                   \
        } while (0)
    /* ... or by two look-ups of its nibbles, whatever the table (SSSE3) */
    #define URLSIFT_STOPS_SSSE3(f, c, m)                                                \
        m = ~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(                                \
            URLSIFT_NIBBLES((f)->lo_stop, (f)->hi_stop, c), _mm_setzero_si128())) & 0xFFFF
    /* The walk of a bare URL over octets from e (lim at most) by blocks of 16, STOPS
       the test of a block: a function for each (NAME, its attributes ATTR), called
       through f->walk once a URL (the SSSE3 one cannot be inlined into walk(): a call
       per URL is the price of the look-ups). One block, then two at a time: fewer
       mispredicted exits in a URL of 16 to 48 octets (two at a time from the first
       made a log slower); the brackets and the last octets one at a time */
    /* one block of 16 from e: to the stop in it ("stopped"), else past it */
    #define URLSIFT_BLOCK16(STOPS) do {                                                 \
            __m128i c_ = _mm_loadu_si128((const __m128i *)(d + e));                     \
            STOPS(f, c_, m);                                                            \
            if (m) {                                                                    \
                e += urlsift_ctz(m);                                                    \
                goto stopped;                                                           \
            }                                                                           \
            e += 16;                                                                    \
        } while (0)
    #define URLSIFT_WALK_BLOCKS(NAME, ATTR, STOPS)                                      \
    ATTR static Py_ssize_t NAME(const uint8_t *d, const uint8_t *T, Py_ssize_t e,       \
                                Py_ssize_t lim, Py_ssize_t *br, uint8_t plain,          \
                                uint8_t bare, const urlsift_prefilter *f) {             \
        unsigned m, m2;                                                                 \
        for (;;) {                                                                      \
            if (e + 16 <= lim) {                                                        \
                URLSIFT_BLOCK16(STOPS);                                                 \
            }                                                                           \
            while (e + 32 <= lim) {                                                     \
                __m128i c = _mm_loadu_si128((const __m128i *)(d + e));                  \
                __m128i c2 = _mm_loadu_si128((const __m128i *)(d + e + 16));            \
                STOPS(f, c, m);                                                         \
                STOPS(f, c2, m2);                                                       \
                m |= m2 << 16;                                                          \
                if (m) {                                                                \
                    e += urlsift_ctz(m);                                                \
                    goto stopped;                                                       \
                }                                                                       \
                e += 32;                                                                \
            }                                                                           \
            while (e + 16 <= lim) {                                                     \
                URLSIFT_BLOCK16(STOPS);                                                 \
            }                                                                           \
            while (e < lim && (T[d[e]] & plain))                                        \
                e++;                                                                    \
        stopped:                                                                        \
            if (e >= lim || !(T[d[e]] & bare) || urlsift_bracket(d, e, lim, br))        \
                return e;                                                               \
            e++;                                                                        \
        }                                                                               \
    }
    URLSIFT_WALK_BLOCKS(urlsift_walk_sse2, URLSIFT_NOINLINE, URLSIFT_STOPS_SSE2)
    #ifdef URLSIFT_SSSE3
    URLSIFT_WALK_BLOCKS(urlsift_walk_ssse3,
                        URLSIFT_NOINLINE __attribute__((target("ssse3"))), URLSIFT_STOPS_SSSE3)
    #endif
    #endif
    /* a URL's walk for this CPU and table (urlsift_prefilter_plain; nibbles: the
       look-ups' tables are made) */
    static void urlsift_plain_walk(urlsift_prefilter *f, int nibbles) {
        f->walk = NULL;
    #ifdef URLSIFT_SSE2
        if (f->nx >= 0)
            f->walk = urlsift_walk_sse2;
    #ifdef URLSIFT_SSSE3
        if (urlsift_ssse3 < 0)
            urlsift_ssse3 = __builtin_cpu_supports("ssse3") != 0;
        if (urlsift_ssse3 && nibbles)
            f->walk = urlsift_walk_ssse3;
    #endif
    #endif
        (void)nibbles;
    }
    /* The walk of a bare URL over octets (ascii_walk for uint8_t), in C so that its
       loop is the same tight one wherever the compiler inlines it: Cython's loop
       lost instructions on every octet when url_end stopped being inlined (URL-dense
       text slower). The run of PLAIN octets is the hot loop (4 at a time was
       fewer instructions but one more mispredicted exit a URL: slower); with f (the
       walk's prefilter, NULL: none), 16 at a time where the table allows (f->walk),
       else one at a time (the reference) */
    static inline Py_ssize_t urlsift_ascii_walk(const uint8_t *d, const uint8_t *T,
                                                Py_ssize_t e, Py_ssize_t lim, Py_ssize_t *br,
                                                uint8_t plain, uint8_t bare, uint8_t scheme,
                                                const urlsift_prefilter *f) {
    #ifdef URLSIFT_SSE2
        if (f != NULL && f->nx == -2 && e + 16 <= lim)   /* a walk's own: not shared */
            urlsift_prefilter_plain((urlsift_prefilter *)f, scheme);
        if (f != NULL && f->walk != NULL)
            return f->walk(d, T, e, lim, br, plain, bare, f);
    #endif
        for (;;) {
            while (e < lim && (T[d[e]] & plain))
                e++;
            if (e >= lim || !(T[d[e]] & bare) || urlsift_bracket(d, e, lim, br))
                return e;
            e++;
        }
    }
    """
    ctypedef void *NextFn "urlsift_next_fn"
    ctypedef struct Prefilter "urlsift_prefilter":
        NextFn next
        NextFn next_gated
    Py_ssize_t ascii_walk_octets "urlsift_ascii_walk" (
        const uint8_t *d, const uint8_t *T, Py_ssize_t e, Py_ssize_t lim, Py_ssize_t *br,
        uint8_t plain, uint8_t bare, uint8_t scheme, const Prefilter *f) noexcept nogil
    Py_ssize_t run_octets "urlsift_run" (
        const uint8_t *d, Py_ssize_t e, Py_ssize_t lim, const uint8_t *T,
        uint8_t bit) noexcept nogil
    Py_ssize_t scheme_start_octets "urlsift_scheme_start" (
        const uint8_t *d, Py_ssize_t p, Py_ssize_t lo, const uint8_t *T, uint8_t scheme,
        const Prefilter *f, int *dots) noexcept nogil
    void prefilter_init "urlsift_prefilter_init" (Prefilter *f, const uint8_t *pairs,
                                                  int np, const uint8_t *T,
                                                  uint8_t plain) noexcept nogil
    void prefilter_plain "urlsift_prefilter_plain" (Prefilter *f, uint8_t scheme) noexcept nogil
    Py_ssize_t next_candidate "urlsift_next_candidate" (
        const uint8_t *d, Py_ssize_t i, Py_ssize_t stop, Py_ssize_t n,
        const Prefilter *f, NextFn *mode) noexcept nogil
    int set_ssse3 "urlsift_set_ssse3" (int on) noexcept nogil

