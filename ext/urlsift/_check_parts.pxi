# Part of the ``_check`` core (included by ``_check_c.pyx``): the walk's state ``W`` and
# the checks of one part of a URL against a character table of ``urlsift._grammar``
# (RFC 1738 §5: uchar, xchar, hsegment, fsegment, ...), the host (hostname or
# hostnumber, §5), the port (digits, 0-65535), a news/nntp group and an opaque part.
# Twin: the functions of the same names in ``src/urlsift/_check_py.py``.

cdef struct W:
    int kind
    void *data
    Py_ssize_t n
    const uint8_t *tables
    const uint8_t *runs     # cfg._runs: the characters a one-byte run may skip over
    const uint8_t *lenient
    int mode
    PyObject *out       # a list in COLLECT mode, else NULL
    int worst
    bint stop
    int pick            # COLLECT: 1 keep the first problem, 2 the first fatal (in best)
    Py_ssize_t best[5]  # the kept problem: position, code, part, start, end (code -1: none)


cdef inline unsigned int at(W *w, Py_ssize_t i) noexcept:
    # an int, not Py_UCS4: Cython would treat arithmetic on Py_UCS4 as str operations
    return <unsigned int>PyUnicode_READ(w.kind, w.data, i)


cdef int add(W *w, Py_ssize_t pos, int code, int part, Py_ssize_t a, Py_ssize_t b) except -1:
    if w.out != NULL:
        (<list>w.out).extend((pos, code, part, a, b))
    if w.pick and (w.best[1] < 0 or pos < w.best[0]) and (w.pick == 1 or not w.lenient[code]):
        # the first by position; on a tie the first found, as min() over the flat list
        w.best[0] = pos
        w.best[1] = code
        w.best[2] = part
        w.best[3] = a
        w.best[4] = b
    if w.lenient[code]:
        if w.worst < 1:
            w.worst = 1
        if w.mode == STOP_ANY:
            w.stop = True
    else:
        w.worst = 2
        if w.mode != COLLECT:
            w.stop = True
    return 0


cdef inline bint is_hex(unsigned int c) noexcept:
    return (0x30 <= c <= 0x39) or (0x41 <= c <= 0x46) or (0x61 <= c <= 0x66)


cdef inline bint is_alpha(unsigned int c) noexcept:
    return (0x41 <= c <= 0x5A) or (0x61 <= c <= 0x7A)


cdef inline bint is_digit(unsigned int c) noexcept:
    return 0x30 <= c <= 0x39


cdef Py_ssize_t find(W *w, unsigned int ch, Py_ssize_t a, Py_ssize_t b) noexcept:
    cdef Py_ssize_t i
    cdef const char *p
    if w.kind == 1:     # ch is an ASCII delimiter: a byte search
        if a < b:
            p = <const char *>memchr(<const char *>w.data + a, <int>ch, <size_t>(b - a))
            if p != NULL:
                return p - <const char *>w.data
        return b
    for i in range(a, b):
        if at(w, i) == ch:
            return i
    return b


cdef int part(W *w, Py_ssize_t a, Py_ssize_t b, int table, int prt, int fallback) except -1:
    """Walk [a, b) with a membership table; report every character it refuses."""
    cdef const uint8_t *tab = w.tables + table * 256
    cdef const uint8_t *p1
    cdef const uint8_t *run
    cdef Py_ssize_t i = a
    cdef unsigned int c
    if w.kind == 1:
        # fast path for the usual one-byte text: run over allowed characters
        # ("%" is checked below: the tables hold it where escapes are allowed)
        p1 = <const uint8_t *>w.data
        run = w.runs + table * 256
        while i < b and run[p1[i]]:
            i += 1
    while i < b:
        if w.stop:
            return 0
        c = at(w, i)
        if c < 0x20 or c == 0x7F:
            add(w, i, C_CONTROL, prt, a, b)
        elif c >= 0x80:
            add(w, i, C_NON_ASCII, prt, a, b)
        elif c == 0x25:
            if i + 2 < w.n and is_hex(at(w, i + 1)) and is_hex(at(w, i + 2)) and i + 2 < b:
                if not tab[0x25]:
                    add(w, i, fallback, prt, a, b)
                i += 3
                continue
            add(w, i, C_BAD_ESCAPE, prt, a, b)
        elif tab[c]:
            pass
        elif UNSAFE_SET[c]:
            add(w, i, C_UNSAFE, prt, a, b)
        else:
            add(w, i, fallback, prt, a, b)
        i += 1
    return 0


cdef bint host_ok_1(const uint8_t *p, Py_ssize_t hs, Py_ssize_t end, const uint8_t *lab) noexcept:
    """One pass over a one-byte host: True when it is a clean hostname or hostnumber
    (the usual cases; ``lab``: the host table without "."). Anything else goes
    through the full checks, which report the problems in the twin's order."""
    cdef Py_ssize_t i = hs, ls
    while True:
        ls = i
        while i < end and lab[p[i]]:
            i += 1
        if i < end and p[i] != 0x2E:
            return False
        if i == ls or p[ls] == 0x2D or p[i - 1] == 0x2D:
            return False
        if i == end:
            break
        i += 1
    # ls is the top label's start: a hostname's begins with a letter
    return is_alpha(p[ls]) or quad_ok_1(p, hs, end)


cdef bint quad_ok_1(const uint8_t *p, Py_ssize_t hs, Py_ssize_t end) noexcept:
    """True for a hostnumber: four labels of digits, each 0-255 and at most 3 long."""
    cdef Py_ssize_t i, ls = hs, nlabels = 0, v = 0
    for i in range(hs, end + 1):
        if i == end or p[i] == 0x2E:
            nlabels += 1
            if i == ls or i - ls > 3 or v > 255:
                return False
            ls = i + 1
            v = 0
        elif is_digit(p[i]) and i - ls < 3:   # a fourth digit: too long (and v can't overflow)
            v = v * 10 + (p[i] - 0x30)
        else:
            return False
    return nlabels == 4


cdef int host(W *w, Py_ssize_t hs, Py_ssize_t he, bint required) except -1:
    """host = hostname | hostnumber (RFC 1738 §5), hostnumber parts 0-255."""
    cdef Py_ssize_t end, i, j, ls, nlabels, last_start, v
    cdef bint all_digits, lab_digits
    cdef unsigned int c
    cdef const uint8_t *tab = w.tables + T_HOST * 256
    if hs == he:
        if required:
            add(w, hs, C_MISSING_HOST, P_HOST, hs, he)
        return 0
    if at(w, hs) == 0x5B:
        add(w, hs, C_IPV6, P_HOST, hs, he)
        if he - hs < 3 or at(w, he - 1) != 0x5D:
            add(w, he - 1, C_BAD_HOST, P_HOST, hs, he)
        else:
            part(w, hs + 1, he - 1, T_IPV6, P_HOST, C_BAD_HOST)
        return 0
    end = he
    if he - hs > 1 and at(w, he - 1) == 0x2E:
        add(w, he - 1, C_TRAILING_DOT, P_HOST, hs, he)
        end = he - 1
    if w.kind == 1 and host_ok_1(<const uint8_t *>w.data, hs, end, w.runs + NTABLES * 256):
        return 0
    for i in range(hs, end):
        if w.stop:
            return 0
        c = at(w, i)
        if c < 0x20 or c == 0x7F:
            add(w, i, C_CONTROL, P_HOST, hs, he)
        elif c >= 0x80:
            add(w, i, C_NON_ASCII, P_HOST, hs, he)
        elif not tab[c]:
            add(w, i, C_BAD_HOST, P_HOST, hs, he)
    if w.stop:
        return 0
    ls = hs
    nlabels = 0
    all_digits = True
    last_start = hs
    i = hs
    while i <= end:
        if i == end or at(w, i) == 0x2E:
            nlabels += 1
            last_start = ls
            if i == ls:
                add(w, i, C_BAD_HOST, P_HOST, hs, he)
            else:
                if at(w, ls) == 0x2D:
                    add(w, ls, C_BAD_HOST, P_HOST, hs, he)
                elif at(w, i - 1) == 0x2D:
                    add(w, i - 1, C_BAD_HOST, P_HOST, hs, he)
                lab_digits = True
                for v in range(ls, i):
                    if not is_digit(at(w, v)):
                        lab_digits = False
                        break
                if not lab_digits:
                    all_digits = False
            ls = i + 1
        i += 1
    if w.stop:
        return 0
    if all_digits and nlabels == 4:
        ls = hs
        for i in range(hs, end + 1):
            if i == end or at(w, i) == 0x2E:
                v = 0
                if i - ls <= 3:
                    for j in range(ls, i):
                        v = v * 10 + (at(w, j) - 0x30)
                if i - ls > 3 or v > 255:
                    add(w, ls, C_BAD_HOST, P_HOST, hs, he)
                ls = i + 1
    elif last_start < end and is_digit(at(w, last_start)):
        add(w, last_start, C_BAD_HOST, P_HOST, hs, he)
    return 0


cdef int port(W *w, Py_ssize_t ps, Py_ssize_t pe) except -1:
    """port = digits (RFC 1738 §5), tightened to 0-65535."""
    cdef Py_ssize_t i, v = 0
    if ps == pe:
        add(w, ps, C_EMPTY_PORT, P_PORT, ps, pe)
        return 0
    for i in range(ps, pe):
        if not is_digit(at(w, i)):
            add(w, i, C_BAD_PORT, P_PORT, ps, pe)
            return 0
        if i - ps < 6:
            v = v * 10 + (at(w, i) - 0x30)
    if pe - ps > 5 or v > 65535:
        add(w, ps, C_BAD_PORT, P_PORT, ps, pe)
    return 0


cdef int group(W *w, Py_ssize_t a, Py_ssize_t b) except -1:
    """group = alpha *[ alpha | digit | "-" | "." | "+" | "_" ]"""
    if a == b:
        add(w, a, C_BAD_GROUP, P_GROUP, a, b)
        return 0
    if not is_alpha(at(w, a)):
        add(w, a, C_BAD_GROUP, P_GROUP, a, b)
        a += 1
    part(w, a, b, T_GROUP, P_GROUP, C_BAD_GROUP)
    return 0


cdef int opaque(W *w, int gid, Py_ssize_t a, Py_ssize_t b) except -1:
    cdef Py_ssize_t q
    if gid == G_MAILTO or gid == G_MID:
        if a == b:
            add(w, a, C_MISSING_ADDRESS, P_ADDRESS, a, b)
        part(w, a, b, T_XCHAR, P_ADDRESS, C_BAD_PATH)
    elif gid == G_NEWS:
        q = find(w, 0x40, a, b)
        if q < b and b - a >= 2 and at(w, a) == 0x3C and at(w, b - 1) == 0x3E:
            # news:<id@host>: the message-id as RFC 822 writes it, brackets and all;
            # "<" and ">" are unsafe (§2.2): reported, and the inside walked as the id
            add(w, a, C_UNSAFE, P_ARTICLE, a, b)
            add(w, b - 1, C_UNSAFE, P_ARTICLE, a, b)
            a += 1
            b -= 1
        if q < b:
            if q == a:
                add(w, a, C_BAD_ARTICLE, P_ARTICLE, a, b)
            part(w, a, q, T_ARTICLE, P_ARTICLE, C_BAD_ARTICLE)
            if not w.stop:
                host(w, q + 1, b, True)
        elif b - a == 1 and at(w, a) == 0x2A:
            pass
        else:
            group(w, a, b)
    else:
        part(w, a, b, T_XCHAR, P_SCHEMEPART, C_BAD_PATH)
    return 0
