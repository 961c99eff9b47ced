# Included by _scan_c.pyx: the text around a candidate (twin: _scan_py): an ellipsis or
# glued word before a scheme, the shapes a scheme's rest must fit (news groups,
# addresses, paths), news:<id>/mid:<id> angle ids, and whether a known scheme ends at
# the colon.

cdef extern from *:
    """
    /* fits for a group (news) or an address of 1 to 16 octets, the 16 from d[a] at
       once (SSE2), where f's table's SCHEME octets are RFC 1738's (f->scheme16, as
       urlsift_scheme_start): 1 or 0; -1 where it cannot (no f, another table, a longer
       value, fewer than 16 octets left). Glued text's hotnews:ok: the value's length
       is random, and the two loops' ends in fits were mispredicted branches a colon */
    static inline int urlsift_fits16(const uint8_t *d, Py_ssize_t n, Py_ssize_t a,
                                     Py_ssize_t m, const uint8_t *T, uint8_t alpha,
                                     int group, const urlsift_prefilter *f) {
    #ifdef URLSIFT_SSE2
        if (f != NULL && f->scheme16 && m >= 1 && m <= 16 && a + 16 <= n) {
            __m128i c = _mm_loadu_si128((const __m128i *)(d + a));
            unsigned lanes = (1u << m) - 1, ok, at;
            /* the '@' neither first nor last (the twin's range(a + 1, b - 1)) */
            at = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(c, _mm_set1_epi8('@')))
                 & lanes & ~(1u | (1u << (m - 1)));
            if (!group)
                return at != 0;
            /* SCHEME (urlsift_scheme16) or "_" */
            ok = (unsigned)_mm_movemask_epi8(_mm_or_si128(
                urlsift_scheme16(c, _mm_cmpeq_epi8(c, _mm_set1_epi8('.'))),
                _mm_cmpeq_epi8(c, _mm_set1_epi8('_'))));
            return ((m == 1) & (d[a] == '*')) | (((ok & lanes) == lanes) & ((T[d[a]] & alpha) != 0))
                   | (at != 0);
        }
    #endif
        (void)d; (void)n; (void)a; (void)m; (void)T; (void)alpha; (void)group; (void)f;
        return -1;
    }
    """
    int fits16 "urlsift_fits16" (const uint8_t *d, Py_ssize_t n, Py_ssize_t a, Py_ssize_t m,
                                 const uint8_t *T, uint8_t alpha, int group,
                                 const Prefilter *f) noexcept nogil


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


cdef bint fits(const char_t *d, Py_ssize_t n, const uint8_t *T, uint8_t shape, Py_ssize_t a,
               Py_ssize_t b, const Prefilter *f) noexcept nogil:
    """The twin's _fits: has ``d[a:b]`` (after a slashless scheme's colon) its shape?
    (``f``: the walk's prefilter, for fits16; NULL: octet by octet)"""
    cdef Py_ssize_t i
    cdef bint at = False, group
    cdef uint32_t c
    cdef int quick
    if shape == SHAPE_PATH:
        return a < b and d[a] == 47
    if char_t is uint8_t:
        if shape == SHAPE_GROUP or shape == SHAPE_ADDRESS:
            quick = fits16(d, n, a, b - a, T, T_ALPHA, shape == SHAPE_GROUP, f)
            if quick >= 0:
                return quick
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
