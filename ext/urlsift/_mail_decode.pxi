# Included by _mail_c.pyx: content-transfer-encodings undone (twin: _mail_decode_py.py),
# quoted-printable (RFC 2045 section 6.7) and base64 (RFC 2045 section 6.8), each as
# email decodes a body (binascii), so that the walk and the standard library read the
# same text.

cdef extern from *:
    """
    #include <string.h>
    /* s[0:n] copied to q up to its first "=" (n when there is none); that offset. With
       SSE2 16 octets at a time, each block stored whole before it is looked at (q has
       room for n octets; what is past the "=" is written over later): a
       quoted-printable line has an "=" every few dozen octets, where a memchr and a
       memcpy a run cost two calls. */
    static size_t urlsift_copy_to_equals(const unsigned char *s, size_t n, char *q) {
        size_t i = 0;
        const unsigned char *k;
    #ifdef URLSIFT_MAIL_SSE2
        const __m128i eq = _mm_set1_epi8('=');
        __m128i v;
        unsigned int m;
        for (; i + 16 <= n; i += 16) {
            v = _mm_loadu_si128((const __m128i *)(s + i));
            _mm_storeu_si128((__m128i *)(q + i), v);
            m = (unsigned int)_mm_movemask_epi8(_mm_cmpeq_epi8(v, eq));
            if (m) return i + (size_t)__builtin_ctz(m);
        }
    #endif
        k = (const unsigned char *)memchr(s + i, '=', n - i);
        if (k == NULL) k = s + n;
        memcpy(q + i, s + i, (size_t)(k - s) - i);
        return (size_t)(k - s);
    }
    """
    size_t copy_to_equals "urlsift_copy_to_equals"(cbuf s, size_t n, char *q) nogil


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
    CR or the line end follows), ``==`` one ``=``, any other ``=`` stays; blanks between
    an ``=`` and the line end are deleted first (rule 3), so that it is a soft break."""
    cdef Py_ssize_t i = 0, k, j
    cdef char *q
    grow_reserve(out, n)
    q = out.p + out.n                      # a local pointer: the loop keeps it in a register
    while i < n:
        k = i + <Py_ssize_t>copy_to_equals(s + i, n - i, q)   # the run up to the next
        q += k - i                                         # "=" stands as it is
        i = k + 1
        if i >= n:
            break
        j = i
        while j < n and (s[j] == SPACE or s[j] == TAB):
            j += 1
        if j > i and (j >= n or s[j] == LF or s[j] == CR):
            i = j                          # transport padding before a soft break
            if i >= n:
                break
        if s[i] == LF or s[i] == CR:
            if s[i] != LF:
                while i < n and s[i] != LF:
                    i += 1
            if i < n:
                i += 1
        elif s[i] == EQUALS:
            q[0] = EQUALS
            q += 1
            i += 1
        elif i + 1 < n and hexval(s[i]) >= 0 and hexval(s[i + 1]) >= 0:
            q[0] = <char>(hexval(s[i]) * 16 + hexval(s[i + 1]))
            q += 1
            i += 2
        else:
            q[0] = EQUALS
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
    if c == PLUS:
        return 62
    if c == SLASH:
        return 63
    return -1


# RFC 2045 section 6.8, Table 1: the value of each octet of the base64 alphabet, -1 for
# the others (filled from b64val when the module loads)
cdef signed char B64[256]
for _c in range(256):
    B64[_c] = b64val(_c)
del _c


cdef int b64_decode(cbuf s, Py_ssize_t n, Grow *out) except -1 nogil:
    """A base64 body (RFC 2045 section 6.8) decoded as mail clients decode it (the
    twin's ``decode_base64``): the lines joined; an ``=`` ends the quantum it is in (the
    octets it completed kept) and decoding goes on after it; a last quantum of one
    sextet makes no octet. 0 and the octets appended to ``out``; FB for an octet
    outside the alphabet."""
    cdef Py_ssize_t i = 0
    cdef unsigned int acc = 0
    cdef int v, bits = 0
    cdef unsigned char c
    cdef char *q
    grow_reserve(out, n // 4 * 3 + 3)
    q = out.p + out.n
    while i < n:
        if bits == 0 and i + 4 <= n:
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
                continue
        c = s[i]
        i += 1
        if c == LF or c == CR:
            continue
        if c == EQUALS:
            bits = 0                       # the quantum ends; its leftover bits are padding
            continue
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
