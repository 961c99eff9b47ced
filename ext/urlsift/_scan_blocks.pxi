# Included by _scan_c.pyx (first, before the walk that calls it): the walk's loops that
# read 16 octets at a time (SSE2, as memchr does; x86-64 always has it), in C: the
# prefilter (the next colon that may end a scheme), the run of scheme characters before
# "://", and a bare URL's run of plain octets; with their setup from the policy table.
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
    typedef struct {
        const uint8_t *pairs;
        int np;
    #ifdef URLSIFT_SSE2
        __m128i last[16], before[16];
        int nx;                     /* -1: PLAIN is not "!" to "~" less nx octets x[];
                                       -2: not worked out yet (urlsift_prefilter_plain) */
        __m128i x[16];
        const uint8_t *T;           /* the table and its PLAIN bit, for that */
        uint8_t plain;
        int scheme16;               /* 1: the table's SCHEME octets are RFC 1738's
                                       (urlsift_scheme_start reads 16 at a time) */
    #endif
    } urlsift_prefilter;
    static void urlsift_prefilter_init(urlsift_prefilter *f, const uint8_t *pairs, int np,
                                       const uint8_t *T, uint8_t plain) {
        int k;
        f->pairs = pairs;
        f->np = np < 0 ? 0 : (np > 16 ? 16 : np);
    #ifdef URLSIFT_SSE2
        for (k = 0; k < f->np; k++) {
            f->last[k] = _mm_set1_epi8((char)pairs[2 * k]);
            f->before[k] = _mm_set1_epi8((char)pairs[2 * k + 1]);
        }
        /* the compares of a URL's walk: made by setup_for once per table, else when
           the first URL is walked (urlsift_prefilter_plain) */
        f->nx = -2;
        f->T = T;
        f->plain = plain;
        f->scheme16 = 0;
    #endif
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
    /* the table's PLAIN octets as a range less a few: a block of 16 is then told from
       compares (SSE2 has no table look-up); any other table: one at a time. And are
       its SCHEME octets RFC 1738's (then the run of them before a colon is read 16
       at a time: urlsift_scheme_start)? A few dozen instructions, once per table
       (setup_for) */
    static void urlsift_prefilter_plain(urlsift_prefilter *f, uint8_t scheme) {
    #ifdef URLSIFT_SSE2
        uint64_t in[4], out;                    /* bit k: octet k is PLAIN */
        int w;
        urlsift_table_set(f->T, scheme, in);
        /* "+", "-", ".", digits; upper and lower case letters (RFC 1738 section 2.1) */
        f->scheme16 = in[0] == (((uint64_t)1 << 43) | ((uint64_t)3 << 45) | ((uint64_t)0x3FF << 48))
            && in[1] == (((uint64_t)0x3FFFFFF << 1) | ((uint64_t)0x3FFFFFF << 33))
            && !in[2] && !in[3];
        urlsift_table_set(f->T, f->plain, in);
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
    #endif
    }
    /* Where the run of SCHEME characters that ends at d[p - 1] starts, lo at the
       earliest: the walk back from a colon to its scheme's start; *dots: 0 when the
       run has no "." (no ".." for after_ellipsis to look for), 1 when it may. With f
       (NULL: octet by octet, the reference) and a table whose SCHEME octets are RFC
       1738's, the 16 octets before p are classified at once: a run's length is 4 or 5
       ("http", "https") at random, and octet by octet its end was a mispredicted
       branch a URL */
    static inline Py_ssize_t urlsift_scheme_start(const uint8_t *d, Py_ssize_t p,
                                                  Py_ssize_t lo, const uint8_t *T,
                                                  uint8_t scheme, const urlsift_prefilter *f,
                                                  int *dots) {
        *dots = 1;
    #ifdef URLSIFT_SSE2
        if (f != NULL && f->scheme16 && p >= 16 && p > lo) {
            __m128i c = _mm_loadu_si128((const __m128i *)(d + p - 16));
            __m128i l = _mm_or_si128(c, _mm_set1_epi8(0x20));
            /* (x - first) < count unsigned, as signed compares after -128 */
            __m128i letter = _mm_cmplt_epi8(_mm_sub_epi8(l, _mm_set1_epi8((char)('a' + 128))),
                                            _mm_set1_epi8((char)(-128 + 26)));
            __m128i digit = _mm_cmplt_epi8(_mm_sub_epi8(c, _mm_set1_epi8((char)('0' + 128))),
                                           _mm_set1_epi8((char)(-128 + 10)));
            __m128i dot = _mm_cmpeq_epi8(c, _mm_set1_epi8('.'));
            __m128i sign = _mm_or_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8('+')),
                                        _mm_or_si128(_mm_cmpeq_epi8(c, _mm_set1_epi8('-')), dot));
            /* bit k: d[p - 16 + k] is no SCHEME octet, or before lo */
            unsigned no = ~(unsigned)_mm_movemask_epi8(_mm_or_si128(letter,
                                                       _mm_or_si128(digit, sign))) & 0xFFFF;
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
    /* never inlined: inside walk(), its blocks ran 5-8% faster or slower on colon-dense
       text (e:b, mail headers) with every change to the walk around it, code that the
       blocks never reach; a call per candidate costs less than that */
    #if defined(__GNUC__)
    __attribute__((noinline))
    #endif
    static Py_ssize_t urlsift_next_candidate(const uint8_t *d, Py_ssize_t i, Py_ssize_t stop,
                                             Py_ssize_t n, const urlsift_prefilter *f) {
        int k;
    #ifdef URLSIFT_SSE2
        const __m128i colon = _mm_set1_epi8(':'), slash = _mm_set1_epi8('/');
        const __m128i lower = _mm_set1_epi8(0x20);
    #endif
        while (i < stop) {
    #ifdef URLSIFT_SSE2
            if (i >= 2 && i + 17 <= n && i + 16 <= stop) {
                __m128i c = _mm_loadu_si128((const __m128i *)(d + i));
                int hits = _mm_movemask_epi8(_mm_cmpeq_epi8(c, colon));
                if (!hits) {
                    if (i + 33 <= n && i + 32 <= stop && !_mm_movemask_epi8(_mm_cmpeq_epi8(
                            _mm_loadu_si128((const __m128i *)(d + i + 16)), colon))) {
                        /* no colon in 32 octets: colons are sparse here, and libc's
                           memchr skips a long way faster; blocks again from the next */
                        const uint8_t *hit = (const uint8_t *)memchr(d + i + 32, ':',
                                                                     (size_t)(stop - i - 32));
                        if (hit == NULL) return -1;
                        i = hit - d;
                        continue;
                    }
                    i += 16;
                    continue;
                }
                {
                    __m128i next = _mm_loadu_si128((const __m128i *)(d + i + 1));
                    int first = hits & _mm_movemask_epi8(_mm_cmpeq_epi8(next, slash));
                    if (first) {
                        /* a ":/" (most URLs): the answer unless a colon before it is one */
                        first &= -first;
                        if (!(hits & (first - 1))) return i + urlsift_ctz((unsigned)first);
                        hits &= first | (first - 1);
                    }
                    {
                        __m128i p1 = _mm_or_si128(_mm_loadu_si128((const __m128i *)(d + i - 1)), lower);
                        __m128i p2 = _mm_or_si128(_mm_loadu_si128((const __m128i *)(d + i - 2)), lower);
                        __m128i cand = _mm_setzero_si128();
                        for (k = 0; k < f->np; k++)
                            cand = _mm_or_si128(cand, _mm_and_si128(_mm_cmpeq_epi8(p1, f->last[k]),
                                                                    _mm_cmpeq_epi8(p2, f->before[k])));
                        hits &= _mm_movemask_epi8(cand) | first;
                    }
                    if (hits) return i + urlsift_ctz((unsigned)hits);
                }
                i += 16;
                continue;
            }
    #endif
            {
                const uint8_t *hit = (const uint8_t *)memchr(d + i, ':', (size_t)(stop - i));
                if (hit == NULL) return -1;
                i = hit - d;
                if (urlsift_candidate(d, i, n, f->pairs, f->np)) return i;
                i++;
            }
        }
        (void)k;
        return -1;
    }
    /* The walk of a bare URL over octets (ascii_walk for uint8_t), in C so that its
       loop is the same tight one wherever the compiler inlines it: Cython's loop
       lost instructions on every octet when url_end stopped being inlined (URL-dense
       text slower). The run of PLAIN octets is the hot loop (4 at a time was
       fewer instructions but one more mispredicted exit a URL: slower); with f (the
       walk's prefilter, NULL: none) and SSE2, 16 at a time where the table allows:
       the compares below, two chains of them so that they overlap. */
    static inline Py_ssize_t urlsift_ascii_walk(const uint8_t *d, const uint8_t *T,
                                                Py_ssize_t e, Py_ssize_t lim, Py_ssize_t *br,
                                                uint8_t plain, uint8_t bare, uint8_t scheme,
                                                const urlsift_prefilter *f) {
        for (;;) {
    #ifdef URLSIFT_SSE2
            if (f != NULL && f->nx == -2 && e + 16 <= lim)   /* a walk's own: not shared */
                urlsift_prefilter_plain((urlsift_prefilter *)f, scheme);
            if (f != NULL && f->nx >= 0) {
                const __m128i bang = _mm_set1_epi8('!'), del = _mm_set1_epi8(127);
                while (e + 16 <= lim) {
                    __m128i c = _mm_loadu_si128((const __m128i *)(d + e));
                    /* below "!" (signed: octets over 0x7F too) or DEL: no PLAIN octet */
                    __m128i no = _mm_or_si128(_mm_cmplt_epi8(c, bang), _mm_cmpeq_epi8(c, del));
                    __m128i no2 = _mm_setzero_si128();
                    unsigned m;
                    int k;
                    for (k = 0; k + 1 < f->nx; k += 2) {
                        no = _mm_or_si128(no, _mm_cmpeq_epi8(c, f->x[k]));
                        no2 = _mm_or_si128(no2, _mm_cmpeq_epi8(c, f->x[k + 1]));
                    }
                    if (k < f->nx)
                        no = _mm_or_si128(no, _mm_cmpeq_epi8(c, f->x[k]));
                    m = (unsigned)_mm_movemask_epi8(_mm_or_si128(no, no2));
                    if (m) {
                        e += urlsift_ctz(m);
                        goto stopped;
                    }
                    e += 16;
                }
            }
    #endif
            while (e < lim && (T[d[e]] & plain))
                e++;
    #ifdef URLSIFT_SSE2
        stopped:
    #endif
            if (e >= lim || !(T[d[e]] & bare))
                return e;
            switch (d[e]) {
            case '(': br[0]++; break;
            case ')': br[1]++; break;
            case '[': br[2]++; break;
            case ']':
                /* "](" closing no "[": Markdown's [URL](URL) (the twin) */
                if (br[3] >= br[2] && e + 1 < lim && d[e + 1] == '(')
                    return e;
                br[3]++;
                break;
            }
            e++;
        }
    }
    """
    ctypedef struct Prefilter "urlsift_prefilter":
        pass
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
        const Prefilter *f) noexcept nogil
