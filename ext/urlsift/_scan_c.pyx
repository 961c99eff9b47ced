# cython: language_level=3
"""Cython text scanner (built as ``urlsift._scan_c``); twin of ``src/urlsift/_scan_py.py``.

Read the twin first: this is the same walk over a C array, with ``memchr`` finding the
colons and the GIL released. ``str`` input is walked in place (its 1-, 2- or 4-byte
representation), so offsets are characters and nothing is re-encoded. The policy table
and the known scheme names come from :mod:`urlsift.text.rules`; the flag and table bit
values are read from the twin, so the two cannot drift. Turning the triples into
objects is the ``_build`` core's work; it shares ``_Input`` and ``table_ptr`` (the .pxd).
"""
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_SIMPLE
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython cimport array
from libc.stdint cimport uint8_t, uint16_t, uint32_t, int64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memchr, memcpy

import array as _array_mod
from urlsift import _scan_py as _twin

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

cdef extern from "Python.h":
    bint Py_UNICODE_ISALNUM(Py_UCS4 ch) nogil
    int PyUnicode_KIND(object s)
    void *PyUnicode_DATA(object s)
    Py_ssize_t PyUnicode_GET_LENGTH(object s)

ctypedef fused char_t:
    uint8_t
    uint16_t
    uint32_t

cdef int WRAPPED = _twin.WRAPPED
cdef int PREFIX = _twin.PREFIX
cdef int WHITESPACE = _twin.WHITESPACE
cdef int HYPHEN_BREAK = _twin.HYPHEN_BREAK
cdef int TRUNCATED = _twin.TRUNCATED
cdef int CUT_NON_ASCII = _twin.CUT_NON_ASCII
cdef int CUT_UNSAFE = _twin.CUT_UNSAFE
cdef int TRIM_SHIFT = _twin.TRIM_SHIFT
cdef int QUOTED = _twin.QUOTED
cdef int64_t ENCODED = _twin.ENCODED
cdef int64_t SOFT_BREAK = _twin.SOFT_BREAK
cdef int64_t JOINED = _twin.JOINED
cdef int64_t TRIM_MASK = _twin.TRIM_MASK
cdef Py_ssize_t QP_MIN_LINE = _twin.QP_MIN_LINE
cdef Py_ssize_t QP_MAX_LINE = _twin.QP_MAX_LINE
cdef uint8_t T_BARE = _twin.T_BARE
cdef uint8_t T_TRIM = _twin.T_TRIM
cdef uint8_t T_SCHEME = _twin.T_SCHEME
cdef uint8_t T_SPACE = _twin.T_SPACE
cdef uint8_t T_WRAP = _twin.T_WRAP
cdef uint8_t T_SPLIT = _twin.T_SPLIT
cdef uint8_t T_ALPHA = _twin.T_ALPHA
cdef uint8_t T_PLAIN = _twin.T_PLAIN
DEF GLUE_REACH = 32              # the twin's GLUE_REACH (checked at import below)
cdef Py_ssize_t GLUE_MIN = _twin.GLUE_MIN
cdef Py_ssize_t MAX_ANGLE = _twin.MAX_ANGLE
cdef int ANGLE = _twin.ANGLE
assert _twin.GLUE_REACH == GLUE_REACH
DEF N_SYMBOLS = 40               # the twin's N_SYMBOLS (checked below)
DEF MAX_PAIRS = 16               # the twin's MAX_PAIRS (next_candidate's room)
assert _twin.MAX_PAIRS == MAX_PAIRS
cdef int NO_PREFILTER = _twin.NO_PREFILTER
assert _twin.N_SYMBOLS == N_SYMBOLS
cdef Py_ssize_t HEAD = _twin._HEAD
cdef uint8_t K_KNOWN = _twin.K_KNOWN
cdef uint8_t K_SLASHLESS = _twin.K_SLASHLESS
cdef uint8_t K_ANGLE = _twin.K_ANGLE
cdef uint8_t K_GLUE = _twin.K_GLUE
cdef uint8_t K_URL = _twin.K_URL
cdef uint8_t K_SHAPE_ALWAYS = _twin.K_SHAPE_ALWAYS
cdef uint8_t SHAPE_MASK = _twin.SHAPE_MASK
cdef uint8_t SHAPE_GROUP = _twin.SHAPE_GROUP
cdef uint8_t SHAPE_ADDRESS = _twin.SHAPE_ADDRESS
cdef uint8_t SHAPE_PATH = _twin.SHAPE_PATH
DEF N_UNSPACED = 10              # len(_twin.UNSPACED)
cdef uint32_t UNSPACED[N_UNSPACED]
assert len(_twin.UNSPACED) == N_UNSPACED
for _i in range(N_UNSPACED):
    UNSPACED[_i] = _twin.UNSPACED[_i]
from urlsift._marks import MARKS as _MARKS
DEF MAX_MARKS = 2048             # room for the ranges of urlsift._marks (about 600 numbers)
cdef uint32_t MARKS[MAX_MARKS]
cdef Py_ssize_t N_MARKS = len(_MARKS)
assert N_MARKS <= MAX_MARKS and N_MARKS % 2 == 0
for _i in range(N_MARKS):
    MARKS[_i] = _MARKS[_i]


cdef extern from *:
    """
    #include <string.h>
    /* Where the line that ends at b[e] starts: just after the last LF or NUL before
       b[e - 1], looking back at most max octets; -1 when it is longer. glibc's memrchr
       (vectorized) where there is one, else an octet at a time. */
    static Py_ssize_t urlsift_line_start(const unsigned char *b, Py_ssize_t e, Py_ssize_t max) {
        Py_ssize_t lo = e - 1 - max > 0 ? e - 1 - max : 0, j = -1;
    #if defined(__GLIBC__)
        const unsigned char *lf = memrchr(b + lo, 10, (size_t)(e - 1 - lo));
        const unsigned char *nul = memrchr(b + lo, 0, (size_t)(e - 1 - lo));
        if (lf != NULL) j = lf - b;
        if (nul != NULL && nul - b > j) j = nul - b;
    #else
        Py_ssize_t i;
        for (i = e - 2; i >= lo; i--) {
            if (b[i] == 10 || b[i] == 0) { j = i; break; }
        }
    #endif
        if (j >= 0) return j + 1;
        return e <= max ? 0 : -1;          /* the buffer's first line, if short enough */
    }
    """
    Py_ssize_t line_start "urlsift_line_start"(const uint8_t *b, Py_ssize_t e,
                                               Py_ssize_t max) nogil


cdef inline bint is_mark(uint32_t c) noexcept nogil:
    """The twin's is_mark: ``c`` within one of the MARKS ranges (a binary search)."""
    cdef Py_ssize_t lo = 0, hi = N_MARKS // 2, mid
    while lo < hi:
        mid = (lo + hi) // 2
        if c > MARKS[2 * mid + 1]:
            lo = mid + 1
        elif c < MARKS[2 * mid]:
            hi = mid
        else:
            return True
    return False

cdef array.array _Q = _array_mod.array("q")


# Out (the growing triple list) is declared in _scan_c.pxd, shared with _pipe_c.


cdef bint grow(Out *o) noexcept nogil:
    """Room for more triples (False, o.failed set, when there is no memory)."""
    cdef int64_t *d = <int64_t *>realloc(o.data, (o.cap * 2 + 48) * sizeof(int64_t))
    if d == NULL:
        o.failed = 1
        return False
    o.data = d
    o.cap = o.cap * 2 + 48
    return True


cdef inline void emit(Out *o, int64_t a, int64_t b, int64_t f) noexcept nogil:
    # four stores: the walk made room before the candidate (each emits one triple at
    # most), so the compiler inlines this into the walk (with its realloc it did not,
    # and URL-dense text paid a call per URL)
    o.data[o.n] = a
    o.data[o.n + 1] = b
    o.data[o.n + 2] = f
    o.n += 3


cdef inline uint8_t cls(const uint8_t *T, uint32_t c) noexcept nogil:
    return T[c] if c < 256 else 0


include "_scan_find.pxi"
include "_scan_shapes.pxi"
include "_scan_wrap.pxi"
include "_scan_bare.pxi"
include "_scan_walk.pxi"


cdef class _Input:
    """A borrowed view of str data or of a buffer, released on close() (attributes: the .pxd)."""

    def __cinit__(self, buf):
        self.has_view = False
        self.keep = buf
        if isinstance(buf, str):
            self.kind = PyUnicode_KIND(buf)
            self.data = PyUnicode_DATA(buf)
            self.n = PyUnicode_GET_LENGTH(buf)
        else:
            PyObject_GetBuffer(buf, &self.view, PyBUF_SIMPLE)
            self.has_view = True
            self.kind = 1
            self.data = self.view.buf
            self.n = self.view.len

    cdef void close(self):
        if self.has_view:
            PyBuffer_Release(&self.view)
            self.has_view = False

    def __dealloc__(self):
        self.close()


cdef inline void clip(Py_ssize_t n, Py_ssize_t *start, Py_ssize_t *stop) noexcept nogil:
    if stop[0] < 0 or stop[0] > n:
        stop[0] = n
    if start[0] < 0:
        start[0] = 0


cdef object _checked = None     # the last blob known_ptr checked (held: its id stays its)


cdef const uint8_t *known_ptr(bytes known) except NULL:
    """The octets of a ``known`` blob, checked to be a trie walk() can follow blindly
    (ValueError if not); the check runs once per blob, not once per scan call."""
    global _checked
    cdef Trie t
    if known is not _checked:
        if not trie_open(<const uint8_t *>PyBytes_AS_STRING(known), PyBytes_GET_SIZE(known),
                         &t, True):
            raise ValueError(_twin.NOT_A_TRIE)
        _checked = known
    return <const uint8_t *>PyBytes_AS_STRING(known)


cdef const uint8_t *table_ptr(bytes table) except NULL:
    if PyBytes_GET_SIZE(table) != 256:
        raise ValueError("the policy table must have 256 entries")
    return <const uint8_t *>PyBytes_AS_STRING(table)


cdef const uint8_t *octets_ptr(object octets) except? NULL:
    """The ``octets`` table's entries, or NULL for None (the twin's check_octets)."""
    if octets is None:
        return NULL
    if not isinstance(octets, bytes) or PyBytes_GET_SIZE(octets) != 256:
        raise ValueError("the octets table must be None or have 256 entries")
    return <const uint8_t *>PyBytes_AS_STRING(octets)


cdef class _Setups:
    """The walk's setup for one (table, known blob) pair (setup_make, everything made
    now), in memory of its own: a scan holds the object while its walk, without the
    GIL, reads it, so another thread's pair never changes or frees it."""
    cdef Setup *S
    cdef object table, known        # held: their ids stay theirs

    def __cinit__(self, bytes table not None, bytes known not None):
        # calloc: aligned for the SSE2 compares (a Python object may not be)
        self.S = <Setup *>calloc(1, sizeof(Setup))
        if self.S == NULL:
            raise MemoryError("scan: no memory for the walk's setup")
        self.table = table
        self.known = known
        setup_make(<const uint8_t *>PyBytes_AS_STRING(table),
                   <const uint8_t *>PyBytes_AS_STRING(known), PyBytes_GET_SIZE(known),
                   self.S, True)

    def __dealloc__(self):
        if self.S != NULL:
            free(<void *>self.S.t.tails)
        free(self.S)


cdef _Setups _last_setup = None


cdef _Setups setup_for(bytes table, bytes known):
    """The setup for ``table`` and ``known`` (checked by table_ptr, known_ptr): the
    last one's when the pair is the same objects (bytes do not change), so the compares
    and two_decide are made once per table and blob, not once a call."""
    global _last_setup
    cdef _Setups box = _last_setup
    if box is None or box.table is not table or box.known is not known:
        box = _Setups(table, known)
        _last_setup = box
    return box


def scan(buf, Py_ssize_t start, Py_ssize_t stop, bytes table not None, bytes known not None,
         Py_ssize_t max_wrapper, Py_ssize_t max_length, octets=None):
    """Flat (start, end, flags) triples of the URLs whose colon lies in ``[start, stop)``;
    ``octets``: see the twin."""
    cdef const uint8_t *T = table_ptr(table)
    cdef const uint8_t *K = known_ptr(known)
    cdef const uint8_t *O = octets_ptr(octets)
    cdef _Setups box = setup_for(table, known)     # held until the walk is done
    cdef Setup *S = box.S
    cdef _Input inp = _Input(buf)
    cdef Out o
    cdef array.array result
    o.data = NULL
    o.n = o.cap = 0
    o.failed = 0
    try:
        clip(inp.n, &start, &stop)
        with nogil:
            if inp.kind == 1:
                walk(<const uint8_t *>inp.data, inp.n, start, stop, T, S,
                     max_wrapper, max_length, inp.has_view, O, &o)
            elif inp.kind == 2:
                walk(<const uint16_t *>inp.data, inp.n, start, stop, T, S,
                     max_wrapper, max_length, False, O, &o)
            else:
                walk(<const uint32_t *>inp.data, inp.n, start, stop, T, S,
                     max_wrapper, max_length, False, O, &o)
        if o.failed:
            raise MemoryError("scan: no memory for the match list")
        result = array.clone(_Q, o.n, False)
        if o.n:
            memcpy(result.data.as_voidptr, o.data, o.n * sizeof(int64_t))
        return result
    finally:
        free(o.data)
        inp.close()


def count_newlines(buf, Py_ssize_t start, Py_ssize_t stop):
    """How many ``\\n`` lie in ``buf[start:stop]`` (``stop < 0``: to the end)."""
    cdef _Input inp = _Input(buf)
    cdef Py_ssize_t r
    try:
        clip(inp.n, &start, &stop)
        with nogil:
            if inp.kind == 1:
                r = count_nl(<const uint8_t *>inp.data, start, stop)
            elif inp.kind == 2:
                r = count_nl(<const uint16_t *>inp.data, start, stop)
            else:
                r = count_nl(<const uint32_t *>inp.data, start, stop)
        return r
    finally:
        inp.close()


def next_boundary(buf, Py_ssize_t pos, Py_ssize_t stop, bytes table):
    """The first split point in ``(pos, stop]`` (after ``\\n``, else after a T_SPLIT), or -1."""
    cdef const uint8_t *T = table_ptr(table)
    cdef _Input inp = _Input(buf)
    cdef Py_ssize_t r
    try:
        clip(inp.n, &pos, &stop)
        with nogil:
            if inp.kind == 1:
                r = boundary(<const uint8_t *>inp.data, pos, stop, T)
            elif inp.kind == 2:
                r = boundary(<const uint16_t *>inp.data, pos, stop, T)
            else:
                r = boundary(<const uint32_t *>inp.data, pos, stop, T)
        return r
    finally:
        inp.close()
