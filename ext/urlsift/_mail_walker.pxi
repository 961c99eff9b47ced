# Included by _mail_c.pyx: the walker's state and output (twin: _mail_walker_py.py).
# The output grows in C buffers (Grow); segment and message records are int64 runs
# laid out as _mail_records.pxi names them. Lines end at LF (RFC 5322 section 2.1).

cdef struct Grow:
    char *p
    Py_ssize_t n
    Py_ssize_t cap


cdef int grow_reserve(Grow *g, Py_ssize_t k) except -1 nogil:
    cdef Py_ssize_t cap
    cdef char *q
    if g.n + k > g.cap:
        cap = max(2 * g.cap, g.n + k, 4096)
        q = <char *>realloc(g.p, cap)
        if q == NULL:
            with gil:
                raise MemoryError()
        g.p = q
        g.cap = cap
    return 0


cdef inline int grow_add(Grow *g, const void *s, Py_ssize_t k) except -1 nogil:
    if g.n + k > g.cap:
        grow_reserve(g, k)
    if k:
        memcpy(g.p + g.n, s, k)
    g.n += k
    return 0


cdef inline int grow_byte(Grow *g, unsigned char c) except -1 nogil:
    if g.n + 1 > g.cap:
        grow_reserve(g, 1)
    g.p[g.n] = <char>c
    g.n += 1
    return 0


# -- octets and lines ---------------------------------------------------------------------

cdef extern from *:
    """
    #include <string.h>
    /* the walk's 16-octet loops (urlsift_find_from_line, urlsift_copy_to_equals): where
       the compiler has SSE2, with a plain loop beside each for the rest */
    #if defined(__SSE2__) && (defined(__GNUC__) || defined(__clang__))
    #define URLSIFT_MAIL_SSE2 1
    #include <emmintrin.h>
    #endif
    /* Where s[0:k] (k > 0) first stands in b[0:n], or NULL: glibc's memmem (two-way,
       vectorized) where there is one, else memchr for its first octet and memcmp. */
    static const void *urlsift_find_octets(const unsigned char *b, size_t n,
                                           const unsigned char *s, size_t k) {
    #if defined(__GLIBC__) || defined(__APPLE__) || defined(__FreeBSD__)
        return memmem(b, n, s, k);
    #else
        const unsigned char *h;
        while (n >= k && (h = memchr(b, s[0], n - k + 1)) != NULL) {
            if (memcmp(h, s, k) == 0) return h;
            n -= (size_t)(h + 1 - b);
            b = h + 1;
        }
        return NULL;
    #endif
    }
    """
    const void *find_octets "urlsift_find_octets"(cbuf b, size_t n, cbuf s, size_t k) nogil



# what makes email turn a header value into a Header object, or controls: 1 for each
# octet but tab, LF, CR and the printable ASCII (a table: header values are checked
# octet by octet, and a look-up is one test where the ranges were four)
cdef unsigned char BAD_OCTET[256]
for _c in range(256):
    BAD_OCTET[_c] = not (_c == TAB or _c == LF or _c == CR or (SPACE <= _c <= 126))
del _c


cdef inline bint is_bad_octet(unsigned char c) noexcept nogil:
    return BAD_OCTET[c] != 0


cdef inline bint is_blank_octet(unsigned char c) noexcept nogil:
    # str.strip() of a value without bad octets: space, tab, CR, LF
    return c == SPACE or c == TAB or c == CR or c == LF


cdef inline unsigned char lower(unsigned char c) noexcept nogil:
    return c + 32 if 65 <= c <= 90 else c


cdef inline bint is_letter(unsigned char c) noexcept nogil:
    return (65 <= c <= 90) or (97 <= c <= 122)


cdef inline Py_ssize_t line_end(cbuf b, Py_ssize_t p, Py_ssize_t stop) noexcept nogil:
    cdef const void *k = memchr(b + p, LF, stop - p) if p < stop else NULL
    return stop if k == NULL else (<cbuf>k - b) + 1


cdef inline bint is_blank(cbuf b, Py_ssize_t p, Py_ssize_t e) noexcept nogil:
    return (e - p == 1 and b[p] == LF) or (e - p == 2 and b[p] == CR and b[p + 1] == LF)


cdef inline Py_ssize_t strip_eol(cbuf b, Py_ssize_t a, Py_ssize_t e) noexcept nogil:
    while e > a and (b[e - 1] == LF or b[e - 1] == CR):
        e -= 1
    return e


cdef bint any_bad(cbuf b, Py_ssize_t a, Py_ssize_t e) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(a, e):
        if is_bad_octet(b[i]):
            return True
    return False


cdef bint eq_lower(cbuf b, Py_ssize_t a, Py_ssize_t e, const char *s) noexcept nogil:
    """``b[a:e].lower() == s`` (``s`` lower case, NUL-terminated)."""
    cdef Py_ssize_t i = 0
    while a + i < e:
        if s[i] == 0 or lower(b[a + i]) != <unsigned char>s[i]:
            return False
        i += 1
    return s[i] == 0


cdef bint eq_lower_n(cbuf b, Py_ssize_t a, Py_ssize_t e, cbuf s, Py_ssize_t k) noexcept nogil:
    """``b[a:e].lower() == s[:k]``."""
    cdef Py_ssize_t i
    if e - a != k:
        return False
    for i in range(k):
        if lower(b[a + i]) != s[i]:
            return False
    return True


cdef bint starts(cbuf b, Py_ssize_t p, Py_ssize_t e, const char *s, Py_ssize_t k) noexcept nogil:
    return e - p >= k and memcmp(b + p, s, k) == 0


cdef inline void strip_span(cbuf b, Py_ssize_t *a, Py_ssize_t *e) noexcept nogil:
    while a[0] < e[0] and is_blank_octet(b[a[0]]):
        a[0] += 1
    while e[0] > a[0] and is_blank_octet(b[e[0] - 1]):
        e[0] -= 1


# -- the walker -----------------------------------------------------------------------------

cdef struct Field:
    Py_ssize_t na, ne, va, ve


cdef class _Walk:
    """The spool being walked and what the walk is told (header names, charsets, depth,
    ``unescape``), the output it builds, and its scratch buffers; kept from piece to
    piece by a caller that walks many (``MailPipeline``)."""
    cdef cbuf b
    cdef object buf, unescape, headers_b, charsets_b
    cdef cbuf headers
    cdef Py_ssize_t nheaders
    cdef cbuf charsets
    cdef Py_ssize_t ncharsets
    cdef int max_depth
    cdef Grow out, segs, msgs, names
    cdef Grow fields          # Field records of the header block being read
    cdef Grow dec             # a decoded body
    cdef Grow esc             # an HTML value with its references undone
    cdef bint esc_slow        # esc came from the caller's unescape
    cdef Grow lab             # the label being made
    cdef int64_t recent[NRECENT][2]   # the last labels written: (start, end) in names
    cdef int nrecent

    def __dealloc__(self):
        free(self.out.p)
        free(self.segs.p)
        free(self.msgs.p)
        free(self.names.p)
        free(self.fields.p)
        free(self.dec.p)
        free(self.esc.p)
        free(self.lab.p)

    cdef void reset(self) noexcept nogil:
        """Empty the output for the next piece (the buffers are kept)."""
        self.out.n = self.segs.n = self.msgs.n = self.names.n = 0
        self.nrecent = 0

    cdef void undo(self, Py_ssize_t o, Py_ssize_t s, Py_ssize_t nm) noexcept nogil:
        """Drop what a message that falls back wrote (and the labels it wrote)."""
        cdef int i, k = 0
        self.out.n = o
        self.segs.n = s
        self.names.n = nm
        for i in range(self.nrecent):
            if self.recent[i][0] < nm:
                self.recent[k][0] = self.recent[i][0]
                self.recent[k][1] = self.recent[i][1]
                k += 1
        self.nrecent = k

    cdef int64_t label(self, int64_t *lb) except -1 nogil:
        """Where the label in ``self.lab`` is in ``names`` (``lb[0]``: its end): one of
        the last :data:`LABEL_CACHE` written, else written now."""
        cdef int i
        cdef int64_t a
        for i in range(self.nrecent - 1, -1, -1):
            a = self.recent[i][0]
            if self.recent[i][1] - a == self.lab.n and \
                    memcmp(self.names.p + a, self.lab.p, self.lab.n) == 0:
                lb[0] = self.recent[i][1]
                return a
        a = self.names.n
        grow_add(&self.names, self.lab.p, self.lab.n)
        if self.nrecent == NRECENT:
            for i in range(NRECENT - 1):
                self.recent[i][0] = self.recent[i + 1][0]
                self.recent[i][1] = self.recent[i + 1][1]
            self.nrecent -= 1
        self.recent[self.nrecent][0] = a
        self.recent[self.nrecent][1] = self.names.n
        self.nrecent += 1
        lb[0] = self.names.n
        return a

    cdef int segment(self, Py_ssize_t index, cbuf d, Py_ssize_t a, Py_ssize_t e, int64_t la,
                     int64_t lb, int kind, Py_ssize_t part_offset, Py_ssize_t where,
                     Py_ssize_t anchor) except -1 nogil:
        """Append ``d[a:e]`` to ``out``, and its segment record."""
        cdef int64_t rec[NSEG]
        rec[SEG_MESSAGE] = index
        rec[SEG_START] = self.out.n
        grow_add(&self.out, d + a, e - a)
        rec[SEG_END] = self.out.n
        rec[SEG_SRC] = where
        rec[SEG_KIND] = kind
        rec[SEG_LABEL_START] = la
        rec[SEG_LABEL_END] = lb
        rec[SEG_PART_OFFSET] = part_offset
        rec[SEG_ANCHOR] = anchor
        grow_add(&self.segs, rec, sizeof(rec))
        return 0


cdef _Walk new_walk(bytes headers, bytes charsets, int max_depth, unescape):
    """A walker for the spools of one caller (what stays from piece to piece)."""
    cdef _Walk w = _Walk()
    # the header names as given, then a lower-case copy of them (for the comparisons)
    w.headers_b = headers + headers.lower()
    w.headers = <cbuf>(<char *>w.headers_b)
    w.nheaders = len(headers)
    w.charsets_b = charsets.lower()
    w.charsets = <cbuf>(<char *>w.charsets_b)
    w.ncharsets = len(charsets)
    w.max_depth = max_depth
    w.unescape = unescape
    return w


cdef tuple walked(_Walk w):
    """What walk returns, from the walker's buffers."""
    return walk_result(&w.out, &w.segs, &w.msgs, &w.names)


cdef tuple walk_result(const Grow *out, const Grow *segs, const Grow *msgs,
                       const Grow *names):
    """``(out, segs, msgs, names)`` as a walk returns them (a bytearray, two
    ``array('q')`` and a bytearray), copied from a walk's four buffers: the walker's
    (walked) or a pipeline slot's (MailPipeline.take)."""
    return (PyByteArray_FromStringAndSize(out.p, out.n), int64_array(segs.p, segs.n),
            int64_array(msgs.p, msgs.n), PyByteArray_FromStringAndSize(names.p, names.n))


cdef carray.array _INT64 = array("q")      # what int64_array clones


cdef carray.array int64_array(const void *p, Py_ssize_t size):
    """An ``array('q')`` of the ``size`` octets of int64 records at ``p``, copied once
    (``array('q', bytes)`` copies them twice: into the bytes, then into the array)."""
    cdef carray.array arr = carray.clone(_INT64, size // sizeof(int64_t), False)
    if size:
        memcpy(arr.data.as_voidptr, p, size)
    return arr


cdef inline bint in_set(unsigned char c, const char *s) noexcept nogil:
    while s[0]:
        if <unsigned char>s[0] == c:
            return True
        s += 1
    return False


cdef Py_ssize_t past(cbuf d, Py_ssize_t n, Py_ssize_t p, const char *stops, bint inside) noexcept nogil:
    """The offset after the run at ``d[p]`` of octets in (``inside``) or not in
    ``stops`` (NUL-terminated), ``n`` at the latest."""
    while p < n and in_set(d[p], stops) == inside:
        p += 1
    return p
