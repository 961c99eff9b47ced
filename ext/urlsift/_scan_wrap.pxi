# Included by _scan_c.pyx: wrapped URLs (RFC 1738 appendix: "<URL:...>" and "<...>",
# white space and a hyphen-break inside removed; reply-quote prefixes left out), as the
# twin's wrapper reads them.

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
                if char_t is uint8_t:       # (four at a time)
                    i = run_octets(d, i, lim, T, T_WRAP)
                else:
                    while i < lim and (cls(T, d[i]) & T_WRAP):
                        i += 1
                prev = d[i - 1]
                continue
        i += 1
    if st != 2 or count == 0 or (count == 2 and c1 == 47 and c2 == 47):
        return -1
    flags_out[0] = flags
    return i + 1
