# Included by _scan_c.pyx after _scan_blocks.pxi: URL-dense text read 64 octets at a
# time. A window of 64 is classified once into bit masks (as simdjson's stage 1 and
# Hyperscan's shufti do): its colons, the ones with "//" after them, the octets that are
# no SCHEME one and those that are no PLAIN one. The common "//" URL of such a window
# is then taken by bit scans: its scheme's start below its colon, its end above it, no
# call a URL. Whatever else a window holds (a colon without "//", a "<" or "." before a
# scheme, an end that is trimmed, cut, a bracket, an IRI letter or a QP soft break, a
# URL longer than the next window) is handed back to the walk at its colon, which
# decides it as before: the answers are the walk's (the tests compare them).

cdef extern from *:
    """
    #ifdef URLSIFT_SSSE3
    /* the window's setup (urlsift_window_make): the octets that end a URL's run of
       PLAIN ones (the prefilter's look-ups) and the table's bits it reads */
    typedef struct urlsift_window urlsift_window;
    struct urlsift_window {
        int on;                     /* 1: the CPU has SSSE3 and the table allows */
        __m128i lo_stop, hi_stop;
        const uint8_t *T;
        uint8_t alpha, trim, bare, wrap;
        int64_t cut_unsafe;
    };
    /* the octets that are no SCHEME one of RFC 1738 (letters, digits, "+", "-", ".")
       or are a ".", as pshufb reads them: one group of high halves a bit (0-1 and
       8-F: none; 2: "+", "-"; 3; 4 and 6; 5 and 7). A "." ends the run the window
       reads: a run with one goes back to the walk (after_ellipsis) */
    static const uint8_t urlsift_lo_scheme[16] = {
        1 | 2 | 8, 1 | 2, 1 | 2, 1 | 2, 1 | 2, 1 | 2, 1 | 2, 1 | 2, 1 | 2, 1 | 2,
        1 | 2 | 4, 1 | 4 | 16, 1 | 2 | 4 | 16, 1 | 4 | 16, 1 | 2 | 4 | 16, 1 | 2 | 4 | 16};
    static const uint8_t urlsift_hi_scheme[16] = {1, 1, 2, 4, 8, 16, 8, 16,
                                                  1, 1, 1, 1, 1, 1, 1, 1};
    /* a window's masks: bit k is the octet at w0 + k */
    typedef struct {
        uint64_t colon, noscheme, noplain;
    } urlsift_masks;
    /* the masks of the 64 octets from d */
    __attribute__((target("ssse3")))
    static inline void urlsift_classify(const uint8_t *d, const urlsift_window *w,
                                        urlsift_masks *m) {
        const __m128i lo_s = _mm_loadu_si128((const __m128i *)urlsift_lo_scheme);
        const __m128i hi_s = _mm_loadu_si128((const __m128i *)urlsift_hi_scheme);
        const __m128i zero = _mm_setzero_si128(), nib = _mm_set1_epi8(15);
        uint64_t colon = 0, scheme = 0, plain = 0;
        int b;
        for (b = 0; b < 4; b++) {
            __m128i c = _mm_loadu_si128((const __m128i *)(d + 16 * b));
            __m128i lo = _mm_and_si128(c, nib);
            __m128i hi = _mm_and_si128(_mm_srli_epi16(c, 4), nib);
            colon |= (uint64_t)(unsigned)_mm_movemask_epi8(
                _mm_cmpeq_epi8(c, _mm_set1_epi8(':'))) << (16 * b);
            scheme |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(
                _mm_shuffle_epi8(lo_s, lo), _mm_shuffle_epi8(hi_s, hi)), zero)) << (16 * b);
            plain |= (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(_mm_and_si128(
                _mm_shuffle_epi8(w->lo_stop, lo), _mm_shuffle_epi8(w->hi_stop, hi)),
                zero)) << (16 * b);
        }
        m->colon = colon;
        m->noscheme = ~scheme;
        m->noplain = ~plain;
    }
    /* bits lo to 63 */
    #define URLSIFT_FROM(lo) (~(uint64_t)0 << (lo))
    /* Where the run of SCHEME octets other than "." before the colon at bit k of cur
       starts (w0 its window's start, prev the window before, or NULL; lim: the walk's
       last match's end, where a run stops), -1 when it goes on past both windows */
    static inline Py_ssize_t urlsift_window_scheme(const urlsift_masks *cur,
                                                   const urlsift_masks *prev,
                                                   Py_ssize_t w0, int k, Py_ssize_t lim) {
        uint64_t stops = cur->noscheme & (((uint64_t)1 << k) - 1);
        if (lim > w0)
            stops |= ((uint64_t)1 << (lim - w0)) - 1;
        if (stops)
            return w0 + 64 - __builtin_clzll(stops);
        if (lim == w0)
            return w0;
        if (prev == NULL)
            return -1;
        stops = prev->noscheme;
        if (lim > w0 - 64)
            stops |= ((uint64_t)1 << (lim - (w0 - 64))) - 1;
        return stops ? w0 - __builtin_clzll(stops) : -1;
    }
    /* The common "//" URLs from pos on, window after window, written to out (*on
       triples' entries so far, cap its room); lim: the walk's last match's end.
       Returns where the walk goes on: a colon it hands back, or the start of the
       window after the first that held no URL (or that the buffer ends in). The
       masks of the window after the current one are made with it, so that a URL's
       end there is a bit scan too, with no branch on where it lies. In a section of
       its own: before the walk's functions, where the others lie, it moved them, and
       text without windows (CJK, mail) ran slower */
    __attribute__((noinline, target("ssse3"), section(".text.urlsift_window")))
    static Py_ssize_t urlsift_window_walk(const uint8_t *d, Py_ssize_t n, Py_ssize_t pos,
                                          Py_ssize_t stop, Py_ssize_t lim,
                                          Py_ssize_t max_length, const urlsift_window *w,
                                          int64_t *out, Py_ssize_t *on, Py_ssize_t cap) {
        urlsift_masks m[3];
        urlsift_masks *prev = NULL, *cur = &m[0], *next = &m[1], *t;
        const uint8_t *T = w->T;
        Py_ssize_t w0 = pos, p, low, e, at = *on;
        uint64_t cand, ends;
        uint16_t two;                   /* the two octets after a colon */
        int k, found, bad;
        uint8_t c;
        if (w0 + 128 > n || w0 + 64 > stop)
            return pos;
        urlsift_classify(d + w0, w, cur);
        /* no colon, or a first one without "//": the walk's, for one window's masks */
        if (!cur->colon)
            return w0 + 64;
        p = w0 + __builtin_ctzll(cur->colon);
        memcpy(&two, d + p + 1, 2);
        if (two != 0x2F2F)
            return p;
        urlsift_classify(d + w0 + 64, w, next);
        for (;;) {
            found = 0;
            cand = cur->colon & URLSIFT_FROM(pos - w0);
            while (cand) {
                k = __builtin_ctzll(cand);
                p = w0 + k;
                memcpy(&two, d + p + 1, 2);
                low = urlsift_window_scheme(cur, prev, w0, k, lim);
                ends = k == 63 ? 0 : cur->noplain & URLSIFT_FROM(k + 1);
                e = ends ? w0 + __builtin_ctzll(ends) : w0 + 64 + __builtin_ctzll(next->noplain | ((uint64_t)1 << 63));
                c = d[e];
                /* no "//"; no scheme it can tell; an end the walk would trim, cut, walk
                   on from or hand to the IRI walk: the walk's (| and &: no branch on
                   a URL's end, a space or a line's end at random) */
                bad = (two != 0x2F2F) | (low < 0) | (low == p) | (e - p - 1 >= max_length) | (e <= p + 3)
                    | (c >= 128) | ((T[c] & w->bare) != 0) | ((T[d[e - 1]] & w->trim) != 0)
                    | (((c == 10) | (c == 13)) & (d[e - 1] == '=')) | (at + 3 > cap)
                    | (e >= w0 + 127) | (w0 + 128 > stop && e >= w0 + 64);
                /* a "<" before the scheme (a wrapper), a "." (the run goes on) */
                if (bad || !(T[d[low]] & w->alpha)
                        || (low > lim && ((d[low - 1] == '<') | (d[low - 1] == '.')))) {
                    *on = at;
                    return p;
                }
                out[at] = low;
                out[at + 1] = e;
                out[at + 2] = ((T[c] & w->wrap) != 0) & (c != '"') & (c != ']') ? w->cut_unsafe : 0;
                at += 3;
                pos = lim = e;
                found = 1;
                cand = e - w0 >= 64 ? 0 : cur->colon & URLSIFT_FROM(e - w0);
            }
            w0 += 64;
            if (!found || w0 + 128 > n || w0 + 64 > stop) {
                *on = at;
                return w0 > pos ? w0 : pos;
            }
            t = prev != NULL ? prev : &m[2];
            prev = cur;
            cur = next;
            next = t;
            urlsift_classify(d + w0 + 64, w, next);
            pos = pos > w0 ? pos : w0;      /* past a URL that ended in the last */
        }
    }
    /* the window's setup from the prefilter's (urlsift_prefilter_plain made it) and
       the table's bits: on where a URL's run is told by the look-ups and the table's
       SCHEME octets are RFC 1738's */
    static void urlsift_window_make(urlsift_window *w, const urlsift_prefilter *f,
                                    const uint8_t *T, uint8_t alpha, uint8_t trim,
                                    uint8_t bare, uint8_t wrap, int64_t cut_unsafe) {
        w->on = f->walk == urlsift_walk_ssse3 && f->scheme16;
        w->lo_stop = f->lo_stop;
        w->hi_stop = f->hi_stop;
        w->T = T;
        w->alpha = alpha;
        w->trim = trim;
        w->bare = bare;
        w->wrap = wrap;
        w->cut_unsafe = cut_unsafe;
    }
    #else
    typedef struct urlsift_window urlsift_window;
    struct urlsift_window { int on; };
    static Py_ssize_t urlsift_window_walk(const uint8_t *d, Py_ssize_t n, Py_ssize_t pos,
                                          Py_ssize_t stop, Py_ssize_t lim,
                                          Py_ssize_t max_length, const urlsift_window *w,
                                          int64_t *out, Py_ssize_t *on, Py_ssize_t cap) {
        (void)d; (void)n; (void)stop; (void)lim; (void)max_length; (void)w; (void)out;
        (void)on; (void)cap;
        return pos;
    }
    static void urlsift_window_make(urlsift_window *w, const urlsift_prefilter *f,
                                    const uint8_t *T, uint8_t alpha, uint8_t trim,
                                    uint8_t bare, uint8_t wrap, int64_t cut_unsafe) {
        (void)f; (void)T; (void)alpha; (void)trim; (void)bare; (void)wrap; (void)cut_unsafe;
        w->on = 0;
    }
    #endif
    """
    ctypedef struct Window "urlsift_window":
        int on
    Py_ssize_t window_walk "urlsift_window_walk" (
        const uint8_t *d, Py_ssize_t n, Py_ssize_t pos, Py_ssize_t stop, Py_ssize_t lim,
        Py_ssize_t max_length, const Window *w, int64_t *out, Py_ssize_t *on,
        Py_ssize_t cap) noexcept nogil
    void window_make "urlsift_window_make" (
        Window *w, const Prefilter *f, const uint8_t *T, uint8_t alpha, uint8_t trim,
        uint8_t bare, uint8_t wrap, int64_t cut_unsafe) noexcept nogil


cdef bint WINDOW = True         # off: no windows (the walk alone; tests compare the two)


def _set_window(bint on):
    """Let the walk read URL-dense text by windows of 64 octets (the default) or not
    (off: for tests and measures); returns what it was."""
    global WINDOW
    was = WINDOW
    WINDOW = on
    return was

