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
from libc.stdlib cimport malloc, realloc, free
from libc.string cimport memchr, memcpy

import array as _array_mod
from urlsift import _scan_py as _twin

cdef extern from *:
    """
    /* The prefilter of walk(): the next colon in d[i, stop) that may end a URL's scheme:
       one with '/' after it, or after one of the np pairs (pairs[2k] the last character
       of a name, pairs[2k+1] the one before it, in lower case). Any other colon cannot
       (walk() would skip it after reading the trie), so it is skipped 16 octets at a
       time with SSE2 (as memchr does; x86-64 always has it), octet by octet elsewhere.
       The plain walk (memchr for every colon) is the reference; tests compare them. */
    #include <stdint.h>
    #include <string.h>
    #if defined(__SSE2__) || defined(_M_X64)
    #include <emmintrin.h>
    #define URLSIFT_SSE2 1
    #if defined(_MSC_VER)
    #include <intrin.h>
    static inline int urlsift_ctz(unsigned x) { unsigned long r; _BitScanForward(&r, x); return (int)r; }
    #else
    #define urlsift_ctz __builtin_ctz
    #endif
    #endif
    static inline int urlsift_candidate(const uint8_t *d, Py_ssize_t p, Py_ssize_t n,
                                        const uint8_t *pairs, int np) {
        uint8_t a, b;
        int k;
        if (p + 1 < n && d[p + 1] == '/') return 1;
        if (p < 2) return 0;
        a = d[p - 1] | 0x20; b = d[p - 2] | 0x20;
        for (k = 0; k < np; k++)
            if (a == pairs[2 * k] && b == pairs[2 * k + 1]) return 1;
        return 0;
    }
    /* the pairs as the blocks compare them, made once per walk */
    typedef struct {
        const uint8_t *pairs;
        int np;
    #ifdef URLSIFT_SSE2
        __m128i last[16], before[16];
    #endif
    } urlsift_prefilter;
    static void urlsift_prefilter_init(urlsift_prefilter *f, const uint8_t *pairs, int np) {
        int k;
        f->pairs = pairs;
        f->np = np < 0 ? 0 : (np > 16 ? 16 : np);
    #ifdef URLSIFT_SSE2
        for (k = 0; k < f->np; k++) {
            f->last[k] = _mm_set1_epi8((char)pairs[2 * k]);
            f->before[k] = _mm_set1_epi8((char)pairs[2 * k + 1]);
        }
    #endif
    }
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
       fewer instructions but one more mispredicted exit a URL: slower). */
    static inline Py_ssize_t urlsift_ascii_walk(const uint8_t *d, const uint8_t *T,
                                                Py_ssize_t e, Py_ssize_t lim, Py_ssize_t *br,
                                                uint8_t plain, uint8_t bare) {
        for (;;) {
            while (e < lim && (T[d[e]] & plain))
                e++;
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
    Py_ssize_t ascii_walk_octets "urlsift_ascii_walk" (
        const uint8_t *d, const uint8_t *T, Py_ssize_t e, Py_ssize_t lim, Py_ssize_t *br,
        uint8_t plain, uint8_t bare) noexcept nogil
    ctypedef struct Prefilter "urlsift_prefilter":
        pass
    void prefilter_init "urlsift_prefilter_init" (Prefilter *f, const uint8_t *pairs,
                                                  int np) noexcept nogil
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


cdef bint PREFILTER = True     # off: every colon is walked (the reference; tests compare)


def _set_prefilter(bint on):
    """Turn the prefilter of the walk on or off (for tests); returns what it was."""
    global PREFILTER
    was = PREFILTER
    PREFILTER = on
    return was


cdef Py_ssize_t find_candidate(const char_t *d, Py_ssize_t i, Py_ssize_t stop, Py_ssize_t n,
                               const Trie *t, const Prefilter *f) noexcept nogil:
    """The next colon in ``d[i:stop]`` that may end a URL's scheme (next_candidate);
    -1 when there is none. Every colon when there is no prefilter."""
    cdef uint32_t a, b
    cdef int k
    if not PREFILTER or t.np < 0:
        return find_colon(d, i, stop)
    if char_t is uint8_t:
        return next_candidate(d, i, stop, n, f)
    else:
        while i < stop:
            if d[i] == 58:
                if i + 1 < n and d[i + 1] == 47:
                    return i
                if i >= 2:
                    a = d[i - 1] | 32
                    b = d[i - 2] | 32
                    for k in range(t.np):
                        if a == t.pairs[2 * k] and b == t.pairs[2 * k + 1]:
                            return i
            i += 1
        return -1


cdef Py_ssize_t find_colon(const char_t *d, Py_ssize_t i, Py_ssize_t stop) noexcept nogil:
    cdef const void *hit
    if char_t is uint8_t:
        if i >= stop:
            return -1
        hit = memchr(d + i, 58, stop - i)
        return -1 if hit == NULL else <const uint8_t *>hit - d
    else:
        while i < stop:
            if d[i] == 58:
                return i
            i += 1
        return -1


cdef struct Trie:
    # the known scheme names read backwards from the colon (the twin's known_blob):
    # symbol of each character, attributes of each node, N_SYMBOLS children per node
    # (2 octets little-endian each; 0: none); nodes == 0: no name is known
    const uint8_t *sym
    const uint8_t *attrs
    const uint8_t *kids
    Py_ssize_t nodes
    const uint8_t *pairs       # the prefilter's pairs (known_blob), np of them
    int np                     # -1: no prefilter (a name too short, too many pairs)


cdef bint trie_open(const uint8_t *known, Py_ssize_t m, Trie *t, bint check) noexcept nogil:
    """Read the trie of a ``known`` blob into ``t``; False (and no name known) when the
    blob is not one (the twin's _trie). With ``check``, every child index is checked
    (known_ptr does, once per blob), so the walk follows them without a bound check."""
    cdef Py_ssize_t nodes, i, k
    t.nodes = 0
    if m < HEAD or known[0] != 85 or known[1] != 83 or known[2] != 75 or known[3] != 49:
        return False                                    # "USK1"
    nodes = known[4] | (<Py_ssize_t>known[5] << 8) | (<Py_ssize_t>known[6] << 16) \
        | (<Py_ssize_t>known[7] << 24)
    if nodes <= 0 or nodes >= 65536 or m <= HEAD + nodes * (1 + 2 * N_SYMBOLS):
        return False
    k = HEAD + nodes * (1 + 2 * N_SYMBOLS)            # the prefilter's count
    if known[k] == NO_PREFILTER and m == k + 1:
        t.np = -1
    elif known[k] <= MAX_PAIRS and m == k + 1 + 2 * known[k]:
        t.np = known[k]
    else:
        return False
    t.pairs = known + k + 1
    k = HEAD + nodes
    if check:
        for i in range(256):
            if known[8 + i] >= N_SYMBOLS:
                return False
        for i in range(nodes * N_SYMBOLS):
            if (known[k + 2 * i] | (<Py_ssize_t>known[k + 2 * i + 1] << 8)) >= nodes:
                return False
    t.sym = known + 8
    t.attrs = known + HEAD
    t.kids = known + k
    t.nodes = nodes
    return True


cdef inline Py_ssize_t suffixes(const char_t *d, Py_ssize_t lo, Py_ssize_t p, const Trie *t,
                                uint8_t *att, uint8_t *seen) noexcept nogil:
    """The twin's _suffixes: ``att[k]`` the attributes of the ``k`` characters before
    the colon at ``p``, for k up to the depth returned; ``seen`` their union."""
    cdef Py_ssize_t depth = 0, k = p - 1, node = 0, x
    cdef uint32_t c
    cdef uint8_t u = 0
    att[0] = 0
    if t.nodes == 0:
        seen[0] = 0
        return 0
    while k >= lo and depth < GLUE_REACH:
        c = d[k]
        if c >= 256:
            break
        x = node * N_SYMBOLS + t.sym[c]
        if t.sym[c] == 0:
            break
        node = t.kids[2 * x] | (<Py_ssize_t>t.kids[2 * x + 1] << 8)
        if node == 0:
            break
        depth += 1
        att[depth] = t.attrs[node]
        u |= att[depth]
        k -= 1
    seen[0] = u
    return depth


cdef Py_ssize_t after_ellipsis(const char_t *d, const uint8_t *T, Py_ssize_t s,
                               Py_ssize_t p) noexcept nogil:
    """The twin's _after_ellipsis: where a scheme starts after the run's last ``..``."""
    cdef Py_ssize_t k = p - 1
    while k > s:                # every other one: a ".." holds one of them
        if d[k] == 46:
            if d[k - 1] != 46:
                if k + 1 < p and d[k + 1] == 46:
                    k += 1
                else:
                    k -= 2
                    continue
            k += 1
            while k < p and not (T[d[k]] & T_ALPHA):
                k += 1
            return k if k < p else s
        k -= 2
    return s


cdef Py_ssize_t glue(const char_t *d, const uint8_t *T, Py_ssize_t s, Py_ssize_t p,
                     const uint8_t *att, Py_ssize_t depth) noexcept nogil:
    """The twin's _glue: where a K_GLUE scheme glued to a word starts, or -1."""
    cdef Py_ssize_t k
    while depth >= GLUE_MIN:
        k = p - depth
        if (att[depth] & K_GLUE) and k > s and (T[d[k - 1]] & T_ALPHA):
            return k
        depth -= 1
    return -1


cdef bint fits(const char_t *d, const uint8_t *T, uint8_t shape, Py_ssize_t a,
               Py_ssize_t b) noexcept nogil:
    """The twin's _fits: has ``d[a:b]`` (after a slashless scheme's colon) its shape?"""
    cdef Py_ssize_t i
    cdef bint at = False, group
    cdef uint32_t c
    if shape == SHAPE_PATH:
        return a < b and d[a] == 47
    for i in range(a + 1, b - 1):
        if d[i] == 64:
            at = True
            break
    if shape == SHAPE_ADDRESS:
        return at
    if shape == SHAPE_GROUP:
        if b - a == 1 and d[a] == 42:
            return True
        group = a < b and cls(T, d[a]) & T_ALPHA
        i = a
        while group and i < b:
            c = d[i]
            group = (cls(T, c) & T_SCHEME) or c == 95
            i += 1
        return group or at
    return True


cdef Py_ssize_t angle_end(const char_t *d, Py_ssize_t n, const uint8_t *T,
                          Py_ssize_t p) noexcept nogil:
    """The twin's ``_angle``: the end of ``<id>`` after the colon at ``p``, or -1."""
    cdef Py_ssize_t j = p + 2, lim = n if p + 2 + MAX_ANGLE > n else p + 2 + MAX_ANGLE
    cdef bint at = False
    cdef uint32_t c
    while j < lim:
        c = d[j]
        if c == 62:
            return j + 1 if at and j > p + 2 else -1
        if not (cls(T, c) & T_BARE):
            return -1
        if c == 64:
            at = True
        j += 1
    return -1


cdef bint known_before(const char_t *d, const uint8_t *T, Py_ssize_t lo, Py_ssize_t colon,
                       const Trie *t) noexcept nogil:
    """The twin's _known_before: is the run before ``colon`` a known scheme?"""
    cdef Py_ssize_t s = colon, depth
    cdef uint8_t att[GLUE_REACH + 1]
    cdef uint8_t seen
    while s > lo and (cls(T, d[s - 1]) & T_SCHEME):
        s -= 1
    while s < colon and not (T[d[s]] & T_ALPHA):
        s += 1
    depth = suffixes(d, lo, colon, t, att, &seen)
    return s < colon and colon - s <= depth and (att[colon - s] & K_KNOWN)


cdef Py_ssize_t quote_prefix_end(const char_t *d, const uint8_t *T, Py_ssize_t i,
                                 Py_ssize_t lim) noexcept nogil:
    """The twin's ``_quote_prefix_end``."""
    cdef Py_ssize_t j = i, k
    cdef uint32_t c
    while j < lim and (d[j] == 62 or d[j] == 32 or d[j] == 9):
        j += 1
    k = j
    while k < lim:
        c = d[k]
        if c == 62:
            return j if k > j else -1
        if c == 10 or c == 13 or not (cls(T, c) & (T_WRAP | T_SPACE)):
            return -1
        k += 1
    return -1


cdef Py_ssize_t wrapper(const char_t *d, Py_ssize_t n, const uint8_t *T, bint slashless,
                        Py_ssize_t lt, Py_ssize_t p, bint is_url,
                        Py_ssize_t max_wrapper, int64_t *flags_out) noexcept nogil:
    cdef int flags = WRAPPED, st, breaks = 0
    cdef Py_ssize_t count = 0, i, j, lim
    cdef uint32_t c, c1 = 0, c2 = 0, prev = 58
    cdef uint8_t t
    if is_url:
        flags |= PREFIX
        st = 0
    else:
        if not ((p + 2 < n and d[p + 1] == 47 and d[p + 2] == 47) or slashless):
            return -1
        st = 2
    lim = n if lt + max_wrapper > n else lt + max_wrapper
    i = p + 1
    while True:
        if i >= lim:
            return -1
        c = d[i]
        if c == 62:
            # first on its line: a reply-quote prefix when the line goes on to a ">"
            j = quote_prefix_end(d, T, i, lim) if breaks == 1 else -1
            if j < 0:
                break
            flags |= QUOTED | WHITESPACE
            i = j
            continue
        t = cls(T, c)
        if t & T_SPACE:
            flags |= WHITESPACE
            if c == 10 or (c == 13 and not (i + 1 < n and d[i + 1] == 10)):
                breaks += 1
                if breaks >= 2:
                    return -1
                if prev == 45:
                    flags |= HYPHEN_BREAK
            i += 1
            continue
        if not (t & T_WRAP):
            return -1
        breaks = 0
        prev = c
        if st == 0:
            if not (t & T_ALPHA):
                return -1
            st = 1
        elif st == 1:
            if c == 58:
                st = 2
            elif not (t & T_SCHEME):
                return -1
        else:
            count += 1
            if count == 1:
                c1 = c
            elif count == 2:
                c2 = c
            else:               # past the two that tell "//": the run of wrapper
                i += 1          # characters in one tight loop ("<" and ">" are none)
                while i < lim and (cls(T, d[i]) & T_WRAP):
                    i += 1
                prev = d[i - 1]
                continue
        i += 1
    if st != 2 or count == 0 or (count == 2 and c1 == 47 and c2 == 47):
        return -1
    flags_out[0] = flags
    return i + 1


# utf8_at (RFC 3629) is in _scan_c.pxd: the _build core reads ENCODED spans with it.


cdef inline int letter_at(uint32_t c, uint32_t before, const uint8_t *octets, Py_ssize_t e,
                   Py_ssize_t lim) noexcept nogil:
    """How many units the character over U+007F at ``e`` adds to a bare URL (the twin's
    letter_at): a letter, digit or mark, not of an UNSPACED script right after an ASCII
    letter or digit; else 0. ``c`` is the character, or with ``octets`` (UTF-8 input)
    the lead octet of a sequence read from there."""
    cdef int k = 1, a
    if octets != NULL:
        k = utf8_at(octets, e, lim, &c)
        if k == 0:
            return 0
    if not (Py_UNICODE_ISALNUM(<Py_UCS4>c) or is_mark(c)):
        return 0
    if before < 128 and ((48 <= before <= 57) or (65 <= before <= 90) or (97 <= before <= 122)):
        for a in range(0, N_UNSPACED, 2):
            if UNSPACED[a] <= c <= UNSPACED[a + 1]:
                return 0
    return k


cdef inline Py_ssize_t ascii_walk(const char_t *d, const uint8_t *T, Py_ssize_t e,
                                  Py_ssize_t lim, Py_ssize_t *br) noexcept nogil:
    """Where the walk of a bare URL from ``e`` stops (at ``lim`` at most) over ASCII
    characters that may continue it; ``br`` counts ( ) [ ] for the trim."""
    cdef uint32_t c
    cdef uint8_t k
    if char_t is uint8_t:       # (compile-time) the octets' loop, in C above
        return ascii_walk_octets(d, T, e, lim, br, T_PLAIN, T_BARE)
    while e < lim:
        c = d[e]
        k = cls(T, c)
        if k & T_PLAIN:             # most characters: no bracket to count
            e += 1
            continue
        if not (k & T_BARE):
            break
        if c == 40:
            br[0] += 1
        elif c == 41:
            br[1] += 1
        elif c == 91:
            br[2] += 1
        elif c == 93:
            if br[3] >= br[2] and e + 1 < lim and d[e + 1] == 40:
                break               # "](" closing no "[": Markdown's [URL](URL) (the twin)
            br[3] += 1
        e += 1
    return e


cdef bint ends_reference(const char_t *d, const uint8_t *T, Py_ssize_t cs,
                         Py_ssize_t semi) noexcept nogil:
    """The twin's _ends_reference: does the ``;`` at ``semi`` close ``&name`` or
    ``&#digits`` (2 to 8 letters or digits) inside the URL?"""
    cdef Py_ssize_t k = semi - 1
    cdef uint32_t c
    while k > cs and semi - k <= 9:
        c = d[k]
        if c == 38:
            return semi - k >= 3
        if c == 35 and k > cs and d[k - 1] == 38:
            return semi - k >= 2
        if not ((48 <= c <= 57) or (65 <= c <= 90) or (97 <= c <= 122)):
            return False
        k -= 1
    return False


cdef inline Py_ssize_t finish(const char_t *d, Py_ssize_t n, const uint8_t *T,
                              Py_ssize_t cs, Py_ssize_t e, Py_ssize_t lim, Py_ssize_t *br,
                              int64_t *flags_out, bint soft) noexcept nogil:
    """The end of a bare URL whose walk stopped at ``e`` (``cs``: where its text
    starts; ``br``: the ( ) [ ] seen): trailing TRIM characters and a ``)``/``]``
    without a partner trimmed, flags TRUNCATED / CUT_* and the trim count; -1 when
    nothing is left. ``soft``: first the ``=`` of a QP soft line break the walk
    stopped at (SOFT_BREAK; ``bare`` passes False: it hands such an end to
    ``bare_iri``, so its compiled copy has no such test)."""
    cdef Py_ssize_t w, op = br[0], cp = br[1], ob = br[2], cb = br[3]
    cdef uint32_t c
    cdef int64_t flags = 0
    if e == lim and lim < n and (cls(T, d[lim]) & T_BARE):
        flags |= TRUNCATED
    w = e
    if soft and e < n and d[e - 1] == 61 and (d[e] == 10 or (
            d[e] == 13 and e + 1 < n and d[e + 1] == 10)):
        e -= 1
        flags |= SOFT_BREAK
    while e > cs:
        c = d[e - 1]
        if cls(T, c) & T_TRIM:
            if c == 59 and ends_reference(d, T, cs, e - 1):
                break               # the ";" of "&gt;": the URL's, written in HTML (the twin)
            e -= 1
        elif c == 41 and op < cp:
            cp -= 1
            e -= 1
        elif c == 93 and ob < cb:
            cb -= 1
            e -= 1
        else:
            break
    if e <= cs:
        return -1
    if e == w and w < n and not flags:
        # nothing trimmed: the character that ended the walk touches the URL (the twin)
        c = d[w]
        if c >= 128:
            flags |= CUT_NON_ASCII
        elif (T[c] & T_WRAP) and c != 34 and c != 93:
            flags |= CUT_UNSAFE
    flags_out[0] = flags | ((w - e) << TRIM_SHIFT)
    return w


cdef inline Py_ssize_t text_start(const char_t *d, Py_ssize_t n, Py_ssize_t colon) noexcept nogil:
    """Where a bare URL's text starts after its colon: after ``//`` if it has one."""
    if colon + 2 < n and d[colon + 1] == 47 and d[colon + 2] == 47:
        return colon + 3
    return colon + 1


cdef inline Py_ssize_t bare(const char_t *d, Py_ssize_t n, const uint8_t *T, Py_ssize_t colon,
                     Py_ssize_t max_length, int64_t *flags_out) noexcept nogil:
    """The walk end of a bare URL whose scheme ends at ``colon`` (flags in
    ``flags_out``), over ASCII only, or -1: the twin's _bare up to its first non-ASCII
    character (url_end goes on from there). Kept apart from the IRI walk: with it, the
    compiled walk of an ASCII log was slower."""
    cdef Py_ssize_t lim = n if colon + 1 + max_length > n else colon + 1 + max_length
    cdef Py_ssize_t br[4]
    br[0] = br[1] = br[2] = br[3] = 0
    cdef Py_ssize_t e = ascii_walk(d, T, colon + 1, lim, br)
    return finish(d, n, T, text_start(d, n, colon), e, lim, br, flags_out, False)


cdef Py_ssize_t soft_join(const char_t *d, Py_ssize_t n, const uint8_t *T, Py_ssize_t e,
                          Py_ssize_t lim) noexcept nogil:
    """The twin's soft_join: the length of the line break at ``e`` (after ``=``) that
    the walk steps over as a QP soft line break (1 LF, 2 CR LF), or 0."""
    cdef Py_ssize_t lb, j, k, q
    cdef uint32_t c
    if d[e] == 10:
        lb = 1
    elif d[e] == 13 and e + 1 < n and d[e + 1] == 10:
        lb = 2
    else:
        return 0
    j = e + lb
    if j >= lim:
        return 0
    if char_t is uint8_t:               # the "=" at e - 1: where does its line start?
        k = line_start(d, e, QP_MAX_LINE)
        if k < 0:
            return 0
    else:
        k = e - 1
        while k > 0 and d[k - 1] != 10 and d[k - 1] != 0:
            if e - k >= QP_MAX_LINE:
                return 0
            k -= 1
    if e - k < QP_MIN_LINE:
        return 0
    c = d[j]
    if c >= 128 or not (T[c] & T_BARE):
        return 0
    if T[c] & T_ALPHA:                  # "http:..." on the next line: a URL of its own
        q = j
        while q < n and q - j <= GLUE_REACH and d[q] < 128 and (T[d[q]] & T_SCHEME):
            q += 1
        if q < n and d[q] == 58:
            return 0
    return lb


cdef Py_ssize_t bare_iri(const char_t *d, Py_ssize_t n, const uint8_t *T, Py_ssize_t colon,
                         Py_ssize_t max_length, bint octets, const uint8_t *O,
                         int64_t *flags_out) noexcept nogil:
    """``bare`` where a non-ASCII letter, digit or mark goes on (letter_at), an octet
    that is no UTF-8 but is in ``O`` (the ``octets`` table; NULL: none; ENCODED), and,
    when ``O`` says so at ``=``, a QP soft line break (soft_join; JOINED): the twin's
    _bare whole. url_end calls it only where ``bare`` stopped at a non-ASCII character
    or at a line break after ``=``."""
    cdef Py_ssize_t lim = n if colon + 1 + max_length > n else colon + 1 + max_length
    cdef Py_ssize_t br[4]
    cdef Py_ssize_t u, end
    cdef uint32_t c, cp
    cdef int64_t extra = 0
    br[0] = br[1] = br[2] = br[3] = 0
    cdef Py_ssize_t e = ascii_walk(d, T, colon + 1, lim, br)
    while e < lim:
        c = d[e]
        u = 0
        if c >= 128:
            if char_t is uint8_t:       # (compile-time: one branch per width)
                u = letter_at(c, d[e - 1], d if octets else NULL, e, lim)
                if u == 0 and octets and O != NULL and O[c] and utf8_at(d, e, lim, &cp) == 0:
                    u = 1               # an octet that is no UTF-8: a Latin-1 letter
                    extra |= ENCODED
            else:
                u = letter_at(c, d[e - 1], NULL, e, lim)
        elif (c == 10 or c == 13) and d[e - 1] == 61 and O != NULL and O[61]:
            u = soft_join(d, n, T, e, lim)
            if u:                       # a QP soft line break inside the URL
                extra |= JOINED
        if u == 0:
            break
        e = ascii_walk(d, T, e + u, lim, br)
    end = finish(d, n, T, text_start(d, n, colon), e, lim, br, flags_out, True)
    flags_out[0] |= extra
    return end


cdef inline Py_ssize_t url_end(const char_t *d, Py_ssize_t n, const uint8_t *T, Py_ssize_t colon,
                               Py_ssize_t max_length, bint octets, const uint8_t *O,
                               int64_t *flags_out) noexcept nogil:
    """The twin's _bare: ``bare``, and where it stopped at a non-ASCII character, at a
    line break right after ``=`` (a QP soft line break), or found nothing, ``bare_iri``
    from the colon again. That walks an IRI's ASCII head twice, which is cheap (IRIs
    are rare; the head short); one walk doing both made the ASCII walk of a log
    slower (code generation of the hot loop)."""
    cdef Py_ssize_t end = bare(d, n, T, colon, max_length, flags_out)
    if end < 0 or (end < n and (d[end] >= 128 or (
            (d[end] == 10 or d[end] == 13) and d[end - 1] == 61))):
        return iri_end(d, n, T, colon, max_length, octets, O, flags_out)
    return end


cdef inline Py_ssize_t iri_end(const char_t *d, Py_ssize_t n, const uint8_t *T,
                               Py_ssize_t colon, Py_ssize_t max_length, bint octets,
                               const uint8_t *O, int64_t *flags_out) noexcept nogil:
    """bare_iri, over octets through a pointer: never inlined (rare and large), so the
    walks that call it stay small enough to be."""
    if char_t is uint8_t:
        return BARE_IRI_OCTETS(d, n, T, colon, max_length, octets, O, flags_out)
    return bare_iri(d, n, T, colon, max_length, octets, O, flags_out)


ctypedef Py_ssize_t (*IriWalk)(const uint8_t *, Py_ssize_t, const uint8_t *, Py_ssize_t,
                               Py_ssize_t, bint, const uint8_t *, int64_t *) noexcept nogil
#: bare_iri over octets, called through this pointer: the IRI walk is rare and large, and
#: inlined into url_end it kept url_end (the hot walk of every URL) out of walk() (URL-
#: dense text slower at the same instruction count)
cdef IriWalk BARE_IRI_OCTETS = bare_iri[uint8_t]


cdef void walk(const char_t *d, Py_ssize_t n, Py_ssize_t start, Py_ssize_t stop,
               const uint8_t *T, const uint8_t *known, Py_ssize_t m,
               Py_ssize_t max_wrapper, Py_ssize_t max_length, bint octets,
               const uint8_t *O, Out *o) noexcept nogil:
    cdef Py_ssize_t pos = start, limit = start, p, low, s, q, end, depth, k
    cdef bint is_url, glued
    cdef int64_t flags = 0
    cdef uint8_t att[GLUE_REACH + 1]
    cdef uint8_t seen, whole
    cdef Trie t
    cdef Prefilter f
    trie_open(known, m, &t, False)     # checked by known_ptr when it was handed over
    prefilter_init(&f, t.pairs, t.np)
    while pos < stop:
        p = find_candidate(d, pos, stop, n, &t, &f)
        if p < 0 or (o.n + 3 > o.cap and not grow(o)):     # room for its triple
            break
        low = p
        if p + 2 < n and d[p + 1] == 47 and d[p + 2] == 47:
            # "//" after the colon: the run before it is the scheme, whole (RFC 1738 §5)
            while low > limit and (cls(T, d[low - 1]) & T_SCHEME):
                low -= 1
            s = low
            while s < p and not (T[d[s]] & T_ALPHA):
                s += 1
            if s < p:
                s = after_ellipsis(d, T, s, p)
                if s == low and s - 1 >= limit and d[s - 1] == 60:
                    end = wrapper(d, n, T, False, s - 1, p, False, max_wrapper, &flags)
                    if end >= 0:
                        emit(o, s - 1, end, flags)
                        pos = limit = end
                        continue
                # url_end spelled out on this, the hot path (every "//" URL): called, it stayed out
                # of line and slowed URL-dense text; the rare IRI walk through its pointer
                end = bare(d, n, T, p, max_length, &flags)
                if end < 0 or (end < n and (d[end] >= 128 or (     # (url_end's test)
                        (d[end] == 10 or d[end] == 13) and d[end - 1] == 61))):
                    end = iri_end(d, n, T, p, max_length, octets, O, &flags)
                if end >= 0:
                    emit(o, s, end, flags)
                    pos = limit = end
                    continue
            pos = p + 1
            continue
        # what the run before the colon ends in, read once (at most GLUE_REACH steps)
        depth = suffixes(d, limit, p, &t, att, &seen)
        if not (seen & (K_SLASHLESS | K_URL)):
            pos = p + 1                 # no "//" and no scheme found without: no URL
            continue
        while low > limit and (cls(T, d[low - 1]) & T_SCHEME):
            low -= 1
        s = low
        while s < p and not (T[d[s]] & T_ALPHA):
            s += 1
        if s == p:
            pos = p + 1
            continue
        whole = att[p - s] if p - s <= depth else 0
        glued = False
        if not (whole & K_KNOWN):
            k = glue(d, T, s, p, att, depth)
            if k >= 0:
                s = k
                whole = att[p - k]
                glued = True
        is_url = (whole & K_URL) != 0
        if s == low and s - 1 >= limit and d[s - 1] == 60:
            end = wrapper(d, n, T, (whole & K_SLASHLESS) != 0, s - 1, p, is_url,
                          max_wrapper, &flags)
            if end >= 0:
                emit(o, s - 1, end, flags)
                pos = limit = end
                continue
        if is_url:
            q = p + 1
            if q < n and (cls(T, d[q]) & T_ALPHA):
                while q < n and (cls(T, d[q]) & T_SCHEME):
                    q += 1
                if q < n and d[q] == 58:
                    end = url_end(d, n, T, q, max_length, octets, O, &flags)
                    if end >= 0:
                        emit(o, s, end, flags | PREFIX)
                        pos = limit = end
                        continue
        if not (whole & K_SLASHLESS) or (low > limit and d[low - 1] == 58
                                        and known_before(d, T, limit, low - 1, &t)):
            pos = p + 1
            continue
        # news:<id> (the angle schemes are among the slashless ones)
        if p + 1 < n and d[p + 1] == 60 and (whole & K_ANGLE):
            end = angle_end(d, n, T, p)
            if end >= 0:
                emit(o, s, end, ANGLE)
                pos = limit = end
                continue
        end = url_end(d, n, T, p, max_length, octets, O, &flags)
        if end >= 0 and (glued or (whole & K_SHAPE_ALWAYS)) and not fits(
                d, T, whole & SHAPE_MASK, p + 1, end - ((flags >> TRIM_SHIFT) & TRIM_MASK)):
            end = -1                    # not a URL of its scheme (Makefile:12, file:x)
        if end >= 0:
            emit(o, s, end, flags)
            pos = limit = end
            continue
        pos = p + 1


cdef Py_ssize_t count_nl(const char_t *d, Py_ssize_t i, Py_ssize_t stop) noexcept nogil:
    cdef Py_ssize_t total = 0
    cdef const void *hit
    if char_t is uint8_t:
        while i < stop:
            hit = memchr(d + i, 10, stop - i)
            if hit == NULL:
                break
            total += 1
            i = (<const uint8_t *>hit - d) + 1
    else:
        while i < stop:
            if d[i] == 10:
                total += 1
            i += 1
    return total


cdef Py_ssize_t boundary(const char_t *d, Py_ssize_t pos, Py_ssize_t stop,
                         const uint8_t *T) noexcept nogil:
    cdef Py_ssize_t i
    cdef const void *hit
    if char_t is uint8_t:
        if pos < stop:
            hit = memchr(d + pos, 10, stop - pos)
            if hit != NULL:
                return (<const uint8_t *>hit - d) + 1
    else:
        for i in range(pos, stop):
            if d[i] == 10:
                return i + 1
    for i in range(pos, stop):
        if cls(T, d[i]) & T_SPLIT:
            return i + 1
    return -1


cdef void scan_octets(const uint8_t *d, Py_ssize_t n, Py_ssize_t start, Py_ssize_t stop,
                      const uint8_t *T, const uint8_t *known, Py_ssize_t m,
                      Py_ssize_t max_wrapper, Py_ssize_t max_length, const uint8_t *O,
                      Out *o) noexcept nogil:
    walk(d, n, start, stop, T, known, m, max_wrapper, max_length, True, O, o)


cdef Py_ssize_t boundary_octets(const uint8_t *d, Py_ssize_t pos, Py_ssize_t stop,
                                const uint8_t *T) noexcept nogil:
    return boundary(d, pos, stop, T)


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


def scan(buf, Py_ssize_t start, Py_ssize_t stop, bytes table not None, bytes known not None,
         Py_ssize_t max_wrapper, Py_ssize_t max_length, octets=None):
    """Flat (start, end, flags) triples of the URLs whose colon lies in ``[start, stop)``;
    ``octets``: see the twin."""
    cdef const uint8_t *T = table_ptr(table)
    cdef const uint8_t *K = known_ptr(known)
    cdef const uint8_t *O = octets_ptr(octets)
    cdef Py_ssize_t m = PyBytes_GET_SIZE(known)
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
                walk(<const uint8_t *>inp.data, inp.n, start, stop, T, K, m,
                     max_wrapper, max_length, inp.has_view, O, &o)
            elif inp.kind == 2:
                walk(<const uint16_t *>inp.data, inp.n, start, stop, T, K, m,
                     max_wrapper, max_length, False, O, &o)
            else:
                walk(<const uint32_t *>inp.data, inp.n, start, stop, T, K, m,
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
