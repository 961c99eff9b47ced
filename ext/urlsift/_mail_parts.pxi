# Included by _mail_c.pyx: the bodies and parameters of MIME entities, read as the
# standard library reads them (binascii's decoders, email.message's _parseparam).

# -- quoted-printable and base64, as binascii decodes them ------------------------------

cdef inline int hexval(unsigned char c) noexcept nogil:
    if 48 <= c <= 57:
        return c - 48
    if 65 <= c <= 70:
        return c - 55
    if 97 <= c <= 102:
        return c - 87
    return -1


cdef int qp_decode(cbuf s, Py_ssize_t n, Grow *out) except -1 nogil:
    """``binascii.a2b_qp(s[:n])`` (RFC 2045 section 6.7) appended to ``out``: ``=XX``
    (hex, either case) is an octet, ``=`` at a line end a soft break (up to the LF when a
    CR or the line end follows), ``==`` one ``=``, any other ``=`` stays."""
    cdef Py_ssize_t i = 0, k
    cdef const unsigned char *eq
    cdef char *q
    grow_reserve(out, n)
    q = out.p + out.n                      # a local pointer: the loop keeps it in a register
    while i < n:
        eq = <const unsigned char *>memchr(s + i, 61, n - i)
        k = n if eq == NULL else eq - s
        memcpy(q, s + i, k - i)            # the run up to the next "=" stands as it is
        q += k - i
        i = k + 1
        if i >= n:
            break
        if s[i] == 10 or s[i] == 13:
            if s[i] != 10:
                while i < n and s[i] != 10:
                    i += 1
            if i < n:
                i += 1
        elif s[i] == 61:
            q[0] = 61
            q += 1
            i += 1
        elif i + 1 < n and hexval(s[i]) >= 0 and hexval(s[i + 1]) >= 0:
            q[0] = <char>(hexval(s[i]) * 16 + hexval(s[i + 1]))
            q += 1
            i += 2
        else:
            q[0] = 61
            q += 1
    out.n = q - out.p
    return 0


cdef inline int b64val(unsigned char c) noexcept nogil:
    if 65 <= c <= 90:
        return c - 65
    if 97 <= c <= 122:
        return c - 71
    if 48 <= c <= 57:
        return c + 4
    if c == 43:
        return 62
    if c == 47:
        return 63
    return -1


# RFC 2045 section 6.8, Table 1: the value of each octet of the base64 alphabet, -1 for
# the others (filled from b64val when the module loads)
cdef signed char B64[256]
for _c in range(256):
    B64[_c] = b64val(_c)
del _c


cdef int b64_decode(cbuf s, Py_ssize_t n, Grow *out) except -1 nogil:
    """A base64 body (RFC 2045 section 6.8) decoded as ``email`` does when it is clean:
    the lines joined, padded with ``=`` to a multiple of 4, then only alphabet octets
    and at most two ``=`` at the end (``validate=True``). 0 and the octets appended to
    ``out``; FB when ``email`` would have to read it leniently."""
    cdef Py_ssize_t i = 0, count = 0, pads = 0, total
    cdef unsigned int acc = 0
    cdef int v, bits = 0
    cdef unsigned char c
    cdef char *q
    grow_reserve(out, n // 4 * 3 + 3)
    q = out.p + out.n
    while i < n:
        if bits == 0 and pads == 0 and i + 4 <= n:
            # four alphabet octets, three octets out: the body of every line
            v = B64[s[i]] | B64[s[i + 1]] | B64[s[i + 2]] | B64[s[i + 3]]
            if v >= 0:
                v = (B64[s[i]] << 18) | (B64[s[i + 1]] << 12) | (B64[s[i + 2]] << 6) \
                    | B64[s[i + 3]]
                q[0] = <char>(v >> 16)
                q[1] = <char>((v >> 8) & 0xFF)
                q[2] = <char>(v & 0xFF)
                q += 3
                i += 4
                count += 4
                continue
        c = s[i]
        i += 1
        if c == 10 or c == 13:
            continue
        count += 1                         # what is left without CR and LF
        if c == 61:
            pads += 1
            continue
        if pads:
            return FB                      # "=" before the end
        v = B64[c]
        if v < 0:
            return FB
        acc = (acc << 6) | v
        bits += 6
        if bits >= 8:
            bits -= 8
            q[0] = <char>((acc >> bits) & 0xFF)
            q += 1
    out.n = q - out.p
    total = count + ((4 - count % 4) % 4)
    if pads + (total - count) > 2:
        return FB
    return 0


def decode_qp(bytes body):
    """``binascii.a2b_qp(body)``, by the walk's own decoder (for the tests)."""
    cdef Grow g = Grow(NULL, 0, 0)
    try:
        qp_decode(<cbuf>(<char *>body), len(body), &g)
        return PyBytes_FromStringAndSize(g.p, g.n)
    finally:
        free(g.p)


def decode_base64(bytes body):
    """``urlsift._mail_py.decode_base64(body)``, by the walk's own decoder."""
    cdef Grow g = Grow(NULL, 0, 0)
    try:
        if b64_decode(<cbuf>(<char *>body), len(body), &g) == FB:
            return None
        return PyBytes_FromStringAndSize(g.p, g.n)
    finally:
        free(g.p)


# -- parameters (RFC 2045 section 5.1, as email.message reads them) ---------------------

cdef int unquote_span(cbuf b, Py_ssize_t *a, Py_ssize_t *e) noexcept nogil:
    """A parameter value ``b[a:e]`` as RFC 2045 section 5.1 has it, as a span: the
    content of a quoted-string; FB when it holds a backslash (an escape)."""
    cdef Py_ssize_t i
    if e[0] - a[0] > 1 and b[a[0]] == 34 and b[e[0] - 1] == 34:
        a[0] += 1
        e[0] -= 1
        for i in range(a[0], e[0]):
            if b[i] == 92:
                return FB
    return 0


cdef int params(cbuf b, Py_ssize_t a, Py_ssize_t e, Py_ssize_t *main_end,
                Py_ssize_t *bd, Py_ssize_t *cs) noexcept nogil:
    """The parameters of a Content-Type value ``b[a:e]`` as ``email.message``'s
    ``_parseparam`` cuts them (a ``;`` inside quotes does not cut): ``main_end`` where
    the type ends, ``bd``/``cs`` the spans of the first ``boundary``/``charset`` (-1
    when absent). FB for RFC 2231 parameters (``name*=``) and escapes in quotes."""
    cdef Py_ssize_t p, s, end, q, quotes, na, ne, va, ve, i
    cdef bint star
    bd[0] = bd[1] = cs[0] = cs[1] = -1
    p = a
    while p < e and b[p] != 59:
        p += 1
    main_end[0] = p
    s = p                         # at ";" or e
    while s < e and b[s] == 59:
        s += 1
        # the parameter ends at the next ";" outside quotes ("end > 0": an empty one is cut)
        end = s
        quotes = 0
        while True:
            while end < e and b[end] != 59:
                end += 1
            if end >= e or end == s:
                break
            quotes = 0
            for i in range(s, end):
                if b[i] == 34:
                    quotes += 1
                    if i > s and b[i - 1] == 92:
                        quotes -= 1
            if quotes % 2 == 0:
                break
            end += 1
            if end >= e:
                end = e
                break
        if end > e:
            end = e
        # name=value
        q = s
        while q < end and b[q] != 61:
            q += 1
        na, ne = s, q
        strip_span(b, &na, &ne)
        star = False
        for i in range(na, ne):
            if b[i] == 42:
                star = True
        if star:
            return FB
        if q < end:
            va, ve = q + 1, end
            strip_span(b, &va, &ve)
            if unquote_span(b, &va, &ve) == FB:
                return FB
            if bd[0] < 0 and eq_lower(b, na, ne, "boundary"):
                bd[0], bd[1] = va, ve
            elif cs[0] < 0 and eq_lower(b, na, ne, "charset"):
                cs[0], cs[1] = va, ve
        s = end
    return 0


cdef bint charset_ok(cbuf b, Py_ssize_t a, Py_ssize_t e, cbuf pats, Py_ssize_t npats) noexcept nogil:
    """``b[a:e]`` (lower-cased) is one of the NUL-terminated names of ``pats``, or starts
    with one ending in ``*``."""
    cdef Py_ssize_t p = 0, k, i
    cdef bint ok
    while p < npats:
        k = 0
        while p + k < npats and pats[p + k] != 0:
            k += 1
        if k:
            if pats[p + k - 1] == 42:                  # "name*": a prefix
                ok = e - a >= k - 1
                i = 0
                while ok and i < k - 1:
                    ok = lower(b[a + i]) == pats[p + i]
                    i += 1
            else:
                ok = eq_lower_n(b, a, e, pats + p, k)
            if ok:
                return True
        p += k + 1
    return False
