# Included by _scan_c.pyx: where a bare URL ends (twin: _scan_py): the run of characters
# that may continue it, the trims at its end (RFC 1738 appendix: punctuation after a
# URL is not part of it), IRI letters (RFC 3987) and marks, character references, and
# quoted-printable soft line breaks (RFC 2045 section 6.7) it runs over.

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
    # CJK text's punctuation (、。「」（）：) told without a call: neither letter, digit
    # nor mark (four calls into Python's tables said so; a test compares every one)
    if (0x3000 <= c <= 0x3004) or (0x3008 <= c <= 0x3011) or (0xFF01 <= c <= 0xFF0F) or (
            0xFF1A <= c <= 0xFF20):
        return 0
    if not (Py_UNICODE_ISALNUM(<Py_UCS4>c) or is_mark(c)):
        return 0
    if before < 128 and ((48 <= before <= 57) or (65 <= before <= 90) or (97 <= before <= 122)):
        for a in range(0, N_UNSPACED, 2):
            if UNSPACED[a] <= c <= UNSPACED[a + 1]:
                return 0
    return k


cdef inline Py_ssize_t ascii_walk(const char_t *d, const uint8_t *T, Py_ssize_t e,
                                  Py_ssize_t lim, Py_ssize_t *br,
                                  const Prefilter *f) noexcept nogil:
    """Where the walk of a bare URL from ``e`` stops (at ``lim`` at most) over ASCII
    characters that may continue it; ``br`` counts ( ) [ ] for the trim; ``f``: the
    walk's prefilter (its blocks of PLAIN octets; NULL: octet by octet)."""
    cdef uint32_t c
    cdef uint8_t k
    if char_t is uint8_t:       # (compile-time) the octets' loop, in C above
        return ascii_walk_octets(d, T, e, lim, br, T_PLAIN, T_BARE, T_SCHEME, f)
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
                     Py_ssize_t max_length, Py_ssize_t *br, const Prefilter *f,
                     int64_t *flags_out) noexcept nogil:
    """The walk end of a bare URL whose scheme ends at ``colon`` (flags in
    ``flags_out``; ``br``: the ( ) [ ] it counted), over ASCII only, or -1: the twin's
    _bare up to its first non-ASCII character (url_end goes on from there). Kept apart
    from the IRI walk: with it, the compiled walk of an ASCII log was slower."""
    cdef Py_ssize_t lim = n if colon + 1 + max_length > n else colon + 1 + max_length
    br[0] = br[1] = br[2] = br[3] = 0
    cdef Py_ssize_t e = ascii_walk(d, T, colon + 1, lim, br, f)
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
                         Py_ssize_t e, Py_ssize_t max_length, Py_ssize_t *br, bint octets,
                         const uint8_t *O, const Prefilter *f,
                         int64_t *flags_out) noexcept nogil:
    """``bare`` where a non-ASCII letter, digit or mark goes on (letter_at), an octet
    that is no UTF-8 but is in ``O`` (the ``octets`` table; NULL: none; ENCODED), and,
    when ``O`` says so at ``=``, a QP soft line break (soft_join; JOINED): the twin's
    _bare whole. url_end calls it only where ``bare`` stopped at a non-ASCII character
    or at a line break after ``=``: at ``e``, with the brackets ``br`` it counted up to
    there, so the URL's ASCII head is not walked again; from the colon when ``e`` < 0
    (``bare`` found nothing: its end, trimmed away, is not known). ``f``: the blocks
    of the ASCII walk, as in ``bare``, from the colon and after a soft break (a QP
    mail's URL goes on for a line after each)."""
    cdef Py_ssize_t lim = n if colon + 1 + max_length > n else colon + 1 + max_length
    cdef Py_ssize_t u, end
    cdef uint32_t c, cp
    cdef int64_t extra = 0
    cdef bint joined                # the next ASCII run's blocks: after a soft break a
                                    # line's worth; between letters over U+007F a few
                                    # octets, walked faster one at a time (CJK text)
    if e < 0:
        br[0] = br[1] = br[2] = br[3] = 0
        e = ascii_walk(d, T, colon + 1, lim, br, f)
    while e < lim:
        c = d[e]
        u = 0
        joined = False
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
                joined = True
        if u == 0:
            break
        if joined:                      # (two calls: the one with NULL has no blocks)
            e = ascii_walk(d, T, e + u, lim, br, f)
        else:
            e = ascii_walk(d, T, e + u, lim, br, NULL)
    end = finish(d, n, T, text_start(d, n, colon), e, lim, br, flags_out, True)
    flags_out[0] |= extra
    return end


cdef inline Py_ssize_t url_end(const char_t *d, Py_ssize_t n, const uint8_t *T, Py_ssize_t colon,
                               Py_ssize_t max_length, bint octets, const uint8_t *O,
                               const Prefilter *f, int64_t *flags_out) noexcept nogil:
    """The twin's _bare: ``bare`` (``f``: its blocks, as there), and where it stopped at
    a non-ASCII character, at a line break right after ``=`` (a QP soft line break), or
    found nothing, ``bare_iri`` on from there (from the colon again when it found
    nothing, which is rare). One walk doing both made the ASCII walk of a log slower (code generation of the hot loop)."""
    cdef Py_ssize_t br[4]
    cdef Py_ssize_t end = bare(d, n, T, colon, max_length, br, f, flags_out)
    if end < 0 or (end < n and (d[end] >= 128 or (      # (no branch: see walk's)
            ((d[end] == 10) | (d[end] == 13)) & (d[end - 1] == 61)))):
        return iri_end(d, n, T, colon, end, max_length, br, octets, O, f, flags_out)
    return end


cdef inline Py_ssize_t iri_end(const char_t *d, Py_ssize_t n, const uint8_t *T,
                               Py_ssize_t colon, Py_ssize_t e, Py_ssize_t max_length,
                               Py_ssize_t *br, bint octets, const uint8_t *O,
                               const Prefilter *f, int64_t *flags_out) noexcept nogil:
    """bare_iri, over octets through a pointer: never inlined (rare and large), so the
    walks that call it stay small enough to be."""
    if char_t is uint8_t:
        return BARE_IRI_OCTETS(d, n, T, colon, e, max_length, br, octets, O, f, flags_out)
    return bare_iri(d, n, T, colon, e, max_length, br, octets, O, f, flags_out)


ctypedef Py_ssize_t (*IriWalk)(const uint8_t *, Py_ssize_t, const uint8_t *, Py_ssize_t,
                               Py_ssize_t, Py_ssize_t, Py_ssize_t *, bint, const uint8_t *,
                               const Prefilter *, int64_t *) noexcept nogil
#: bare_iri over octets, called through this pointer: the IRI walk is rare and large, and
#: inlined into url_end it kept url_end (the hot walk of every URL) out of walk() (URL-
#: dense text slower at the same instruction count)
cdef IriWalk BARE_IRI_OCTETS = bare_iri[uint8_t]
