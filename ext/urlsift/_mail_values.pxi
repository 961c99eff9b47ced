# Included by _mail_c.pyx: the URLs of an HTML attribute's value as segments (twin:
# _mail_values_py.py): one URL (href, src, action, background...), the image candidates
# of a srcset, the tokens of a ping, the url() and @import strings of CSS (a style
# attribute, a <style> block); the HTML room hands each value here, its references
# undone. Each is cut as the email path's reader cuts it, on octets, and falls back (FB)
# where that reader's str rules would read an octet otherwise or the URL Standard's
# clean-up would change a URL.


#: white space of the CSS reader (a bytes pattern's \s), what ends an unquoted url(...)
#: string, what str.split() splits a ping at (the rest of its white space: str_only)
cdef const char *CSS_SPACE = "\t\n\x0b\f\r "
cdef const char *CSS_UNQUOTED_END = ")(\"'\t\n\x0b\f\r "
cdef const char *SPLIT_SPACE = "\t\n\x0b\f\r "


cdef int url_value(_Walk w, Py_ssize_t index, cbuf v, Py_ssize_t vn, int64_t la, int64_t lb,
                   int kind, Py_ssize_t at, Py_ssize_t *seg) except -1 nogil:
    """The URL ``v[:vn]`` as a segment of ``kind`` (part offset ``at``) when it starts
    with a scheme, FB when the URL Standard's clean-up would change it: ``seg[0]`` its
    segment; -2 for one without a scheme, -1 for none."""
    seg[0] = -1
    if strip_value(&v, &vn) == FB:
        return FB
    if vn == 0:
        return 0
    if not has_scheme(v, vn):
        seg[0] = -2                            # relative: nothing to be relative to
        return 0
    seg[0] = w.segs.n // (NSEG * 8)
    w.segment(index, v, 0, vn, la, lb, kind, at, -1, -1)
    grow_byte(&w.out, 0)
    return 0


cdef int strip_value(cbuf *v, Py_ssize_t *n) noexcept nogil:
    """FB when the URL Standard's clean-up would change the value ``v[0][:n[0]]``: a C0
    control or space at either end, a tab or newline anywhere (the only ones it takes
    from inside), a non-ASCII octet at either end, a ``\\``, a special scheme without
    its ``//`` (``http:host``); the email path reads it, with its edit."""
    cdef cbuf s = v[0]
    cdef Py_ssize_t k = n[0], colon
    cdef const void *hit
    if k == 0:
        return 0
    if s[0] <= SPACE or s[k - 1] <= SPACE or s[0] >= 0x80 or s[k - 1] >= 0x80:
        return FB
    if (memchr(s, TAB, k) != NULL or memchr(s, LF, k) != NULL or memchr(s, CR, k) != NULL
            or memchr(s, BACKSLASH, k) != NULL):
        return FB
    hit = memchr(s, COLON, k)
    if hit == NULL:
        return 0
    colon = <cbuf>hit - s
    if colon > 0 and special_scheme(s, colon) and not (
            colon + 2 < k and s[colon + 1] == SLASH and s[colon + 2] == SLASH):
        return FB
    return 0


cdef bint special_scheme(cbuf s, Py_ssize_t k) noexcept nogil:
    """``s[:k]`` is a special scheme of the URL Standard (section 4.1), any case."""
    return (eq_lower(s, 0, k, "http") or eq_lower(s, 0, k, "https") or eq_lower(s, 0, k, "ftp")
            or eq_lower(s, 0, k, "file") or eq_lower(s, 0, k, "ws") or eq_lower(s, 0, k, "wss"))


cdef bint has_scheme(cbuf v, Py_ssize_t n) noexcept nogil:
    """``v[:n]`` starts with ``scheme:`` (RFC 3986 section 3.1)."""
    cdef Py_ssize_t i
    if n == 0 or not is_letter(v[0]):
        return False
    for i in range(1, n):
        if v[i] == COLON:
            return True
        if not (is_letter(v[i]) or 48 <= v[i] <= 57 or v[i] == PLUS or v[i] == DOT or v[i] == DASH):
            return False
    return False


cdef bint css_url(cbuf d, Py_ssize_t a, Py_ssize_t e) noexcept nogil:
    """CSS ``d[a:e]`` may hold a URL: ``url(``, ``@import`` (any case) or an ``&``."""
    cdef Py_ssize_t p
    for p in range(a, e):
        if d[p] == AMP:
            return True
        if e - p >= 4 and eq_lower(d, p, p + 4, "url("):
            return True
        if e - p >= 7 and eq_lower(d, p, p + 7, "@import"):
            return True
    return False


cdef int css_values(_Walk w, Py_ssize_t index, cbuf v, Py_ssize_t vn, int64_t la, int64_t lb,
                    int kind, Py_ssize_t at) except -1 nogil:
    """The ``url(...)`` and ``@import`` strings of the CSS ``v[:vn]`` laid out
    (``url_value``); FB for CSS with an octet past 0x7F or 0x1C-0x1F (``str_only``)."""
    cdef Py_ssize_t p = 0, ua, ue, seg
    if not css_url(v, 0, vn):
        return 0
    if str_only(v, vn):
        return FB
    while True:
        p = css_string(v, p, vn, &ua, &ue)
        if p < 0:
            return 0
        if url_value(w, index, v + ua, ue - ua, la, lb, kind, at, &seg) == FB:
            return FB


cdef Py_ssize_t css_string(cbuf v, Py_ssize_t p, Py_ssize_t n, Py_ssize_t *ua,
                           Py_ssize_t *ue) noexcept nogil:
    """The next ``url(...)`` or ``@import`` string at or after ``v[p]`` (the twin's
    ``_CSS_STRING``, its matches one after another): its span in ``ua``/``ue``, and the
    offset after the match; -1 when there is none. A quoted string runs to its closing
    quote (none: no match there), an unquoted one while no white space, quote or
    parenthesis."""
    cdef Py_ssize_t q
    cdef const void *hit
    while p < n:
        q = -1
        if n - p >= 4 and eq_lower(v, p, p + 4, "url("):
            q = past(v, n, p + 4, CSS_SPACE, True)
        elif n - p >= 7 and eq_lower(v, p, p + 7, "@import"):
            q = past(v, n, p + 7, CSS_SPACE, True)
        if 0 <= q < n:
            if v[q] == DQUOTE or v[q] == QUOTE:
                hit = memchr(v + q + 1, v[q], n - q - 1) if q + 1 < n else NULL
                if hit != NULL:
                    ua[0], ue[0] = q + 1, <cbuf>hit - v
                    return ue[0] + 1
            elif v[p] == 117 or v[p] == 85:          # url( takes an unquoted one too
                ue[0] = past(v, n, q, CSS_UNQUOTED_END, False)
                if ue[0] > q:
                    ua[0] = q
                    return ue[0]
        p += 1
    return -1


cdef int srcset_values(_Walk w, Py_ssize_t index, cbuf v, Py_ssize_t n, int64_t la,
                       int64_t lb, Py_ssize_t at) except -1 nogil:
    """The URLs of the image candidates of the ``srcset`` ``v[:n]`` laid out (the twin's
    ``srcset_spans``: HTML section 4.8.4.3.10 as the email path reads it)."""
    cdef Py_ssize_t i = 0, j, e, seg
    cdef bint inside
    while True:
        i = past(v, n, i, ",\t\n\f\r ", True)
        if i >= n:
            return 0
        j = past(v, n, i, "\t\n\f\r ", False)
        e = j
        while v[e - 1] == COMMA:               # v[i] is none: e stays past i
            e -= 1
        if url_value(w, index, v + i, e - i, la, lb, C_K_SRCSET, at, &seg) == FB:
            return FB
        i = j
        if e < j:
            continue                           # its commas ended the candidate
        inside = False                         # the descriptors: to a comma outside ()
        while i < n:
            i += 1
            if inside:
                inside = v[i - 1] != 41        # ")"
            elif v[i - 1] == 40:               # "("
                inside = True
            elif v[i - 1] == COMMA:
                break


cdef int ping_values(_Walk w, Py_ssize_t index, cbuf v, Py_ssize_t n, int64_t la,
                     int64_t lb, Py_ssize_t at) except -1 nogil:
    """The tokens of the ``ping`` ``v[:n]`` laid out as URLs (``str.split()``'s, the
    email path's; FB for a value ``str_only``)."""
    cdef Py_ssize_t i = 0, j, seg
    if str_only(v, n):
        return FB
    while True:
        i = past(v, n, i, SPLIT_SPACE, True)
        if i >= n:
            return 0
        j = past(v, n, i, SPLIT_SPACE, False)
        if url_value(w, index, v + i, j - i, la, lb, C_K_PING, at, &seg) == FB:
            return FB
        i = j


cdef bint str_only(cbuf v, Py_ssize_t n) noexcept nogil:
    """``v[:n]`` has an octet past 0x7F or in 0x1C-0x1F: ``str`` rules (white space,
    case) read such text otherwise than its octets say."""
    cdef Py_ssize_t p
    for p in range(n):
        if v[p] >= 0x80 or 0x1C <= v[p] <= 0x1F:
            return True
    return False
