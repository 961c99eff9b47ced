# Included by _mail_c.pyx: header fields and parameters (twin: _mail_headers_py.py),
# read as email's compat32 policy reads them: a header block (RFC 5322 section 2.2:
# a field is "name:" and a value that runs over folded lines, section 2.2.3), the
# URL-bearing headers' values, Content-Type parameters (RFC 2045 section 5.1, as
# email.message._parseparam cuts them), a Content-Transfer-Encoding's mechanism (RFC
# 2045 section 6.1, comments and folds around it taken out), whether a charset is in the
# caller's list, and
# the Date value's one fixed form (RFC 5322 section 3.3) as ISO 8601.

cdef inline bint is_name_char(unsigned char c) noexcept nogil:
    # RFC 5322 section 2.2 field name: printable US-ASCII but ":" (033-071, 073-176)
    return (33 <= c <= 57) or (59 <= c <= 126)


cdef int header_block(_Walk w, Py_ssize_t a, Py_ssize_t e, Py_ssize_t *body) except -1 nogil:
    """Fields of the header block at ``a`` into ``w.fields``; ``body[0]``: where the body
    starts (after the blank line, or at the first line that is no field)."""
    cdef cbuf b = w.b
    cdef Py_ssize_t p = a, le, q
    cdef Field fld
    cdef Field *last
    w.fields.n = 0
    while p < e:
        le = line_end(b, p, e)
        if is_blank(b, p, le):
            body[0] = le
            return 0
        if b[p] == SPACE or b[p] == TAB:           # a folded line continues the field
            if w.fields.n == 0:
                return FB                          # first line a continuation: a defect
            last = <Field *>(w.fields.p + w.fields.n - sizeof(Field))
            last.ve = strip_eol(b, p, le)
        else:
            q = p
            while q < le and is_name_char(b[q]):
                q += 1
            if q >= le or b[q] != COLON:           # no "name:": the body starts here
                if starts(b, p, le, "From ", 5):
                    return FB                      # a misplaced envelope line
                body[0] = p
                return 0
            if q == p:
                return FB                          # ":value": email drops it with a defect
            fld.na = p
            fld.ne = q
            q += 1
            while q < le and (b[q] == SPACE or b[q] == TAB):
                q += 1
            fld.va = q
            fld.ve = strip_eol(b, q, le)
            grow_add(&w.fields, &fld, sizeof(Field))
        p = le
    body[0] = e
    return 0


cdef int url_headers(_Walk w, Py_ssize_t index) except -1 nogil:
    """The values of the URL-bearing headers ``w`` reports (in its order), each a
    K_HEADER segment labelled ``header:Name``."""
    cdef Py_ssize_t nf = w.fields.n // sizeof(Field), i, p = 0, k
    cdef Field *f = <Field *>w.fields.p
    cdef cbuf h = w.headers
    cdef int64_t la, lb
    cdef const void *nul
    while p < w.nheaders:
        nul = memchr(h + p, 0, w.nheaders - p)
        k = (<cbuf>nul - h - p) if nul != NULL else w.nheaders - p
        for i in range(nf):
            # the lower-case copy of the header names sits right after them
            if not eq_lower_n(w.b, f[i].na, f[i].ne, w.headers + w.nheaders + p, k):
                continue
            if any_bad(w.b, f[i].va, f[i].ve):
                return FB                          # email makes it a Header object
            w.lab.n = 0
            grow_add(&w.lab, "header:", 7)
            grow_add(&w.lab, h + p, k)
            la = w.label(&lb)
            w.segment(index, w.b, f[i].va, f[i].ve, la, lb, C_K_HEADER, 0, f[i].va, -1)
            grow_byte(&w.out, 0)
        p += k + 1
    return 0


# -- parameters (RFC 2045 section 5.1, as email.message reads them) ---------------------

cdef enum:
    # the twin's QUOTED_SEMICOLONS: the ";" a parameter may hold inside a quoted-string
    # before the message falls back
    C_QUOTED_SEMICOLONS = 8

QUOTED_SEMICOLONS = C_QUOTED_SEMICOLONS

cdef int unquote_span(cbuf b, Py_ssize_t *a, Py_ssize_t *e) noexcept nogil:
    """A parameter value ``b[a:e]`` as RFC 2045 section 5.1 has it, as a span: the
    content of a quoted-string; FB when it holds a backslash (an escape)."""
    cdef Py_ssize_t i
    if e[0] - a[0] > 1 and b[a[0]] == DQUOTE and b[e[0] - 1] == DQUOTE:
        a[0] += 1
        e[0] -= 1
        for i in range(a[0], e[0]):
            if b[i] == BACKSLASH:
                return FB
    return 0


cdef int params(cbuf b, Py_ssize_t a, Py_ssize_t e, Py_ssize_t *main_end,
                Py_ssize_t *bd, Py_ssize_t *cs) noexcept nogil:
    """The parameters of a Content-Type value ``b[a:e]`` as ``email.message``'s
    ``_parseparam`` cuts them (a ``;`` inside quotes does not cut): ``main_end`` where
    the type ends, ``bd``/``cs`` the spans of the first ``boundary``/``charset`` (-1
    when absent). FB for RFC 2231 parameters (``name*=``) and escapes in quotes."""
    cdef Py_ssize_t p, s, end, q, quotes, na, ne, va, ve, i, skipped
    cdef bint star
    bd[0] = bd[1] = cs[0] = cs[1] = -1
    p = a
    while p < e and b[p] != SEMICOLON:
        p += 1
    main_end[0] = p
    s = p                         # at ";" or e
    while s < e and b[s] == SEMICOLON:
        s += 1
        # the parameter ends at the next ";" outside quotes ("end > 0": an empty one is
        # cut); the quotes counted on from the last ";", not again from the start (that
        # was quadratic in a quoted-string left open over many ";")
        end = s
        i = s
        quotes = 0
        skipped = 0
        while True:
            while end < e and b[end] != SEMICOLON:
                end += 1
            if end >= e or end == s:
                break
            while i < end:
                if b[i] == DQUOTE:
                    quotes += 1
                    if i > s and b[i - 1] == BACKSLASH:
                        quotes -= 1
                i += 1
            if quotes % 2 == 0:
                break
            skipped += 1
            if skipped > C_QUOTED_SEMICOLONS:
                return FB                         # the email path repairs it first
            end += 1
            if end >= e:
                end = e
                break
        if end > e:
            end = e
        # name=value
        q = s
        while q < end and b[q] != EQUALS:
            q += 1
        na, ne = s, q
        strip_span(b, &na, &ne)
        star = False
        for i in range(na, ne):
            if b[i] == STAR:
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


cdef enum:
    COMMENT_OPEN = 0x28     # '(' (RFC 822 section 3.4.3)
    COMMENT_CLOSE = 0x29    # ')'


cdef int mechanism_span(cbuf b, Py_ssize_t a, Py_ssize_t e, Py_ssize_t *ma,
                        Py_ssize_t *me) noexcept nogil:
    """The mechanism of the Content-Transfer-Encoding value ``b[a:e]`` (RFC 2045 section
    6.1; the twin's ``mechanism``): ``b[ma[0]:me[0]]``, the one token left when the
    comments (nested, with quoted-pairs) and blanks and folds are taken out; -1 when
    none is left. FB for a second token or a comment never closed."""
    cdef Py_ssize_t i = a
    cdef int depth = 0
    cdef unsigned char c
    ma[0] = me[0] = -1
    while i < e:
        c = b[i]
        if depth:
            if c == BACKSLASH:
                i += 1                            # a quoted-pair: the next octet is text
            elif c == COMMENT_OPEN:
                depth += 1
            elif c == COMMENT_CLOSE:
                depth -= 1
        elif c == COMMENT_OPEN:
            depth = 1
        elif not (c == SPACE or TAB <= c <= CR):
            if ma[0] < 0:
                ma[0] = i
            elif me[0] != i:
                return FB                         # a second token
            me[0] = i + 1
        i += 1
    return FB if depth else 0


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
            if pats[p + k - 1] == STAR:                  # "name*": a prefix
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


# -- the Date value (RFC 5322 section 3.3) -----------------------------------------------

cdef int _digits(cbuf d, Py_ssize_t p, Py_ssize_t k) nogil:
    cdef int v = 0
    cdef Py_ssize_t i
    for i in range(k):
        if not (DIGIT_0 <= d[p + i] <= DIGIT_0 + 9):
            return -1
        v = v * 10 + (d[p + i] - DIGIT_0)
    return v


cdef const char *_MONTH_NAMES = b"JanFebMarAprMayJunJulAugSepOctNovDec"
cdef const char *_DAY_NAMES = b"MonTueWedThuFriSatSun"


cdef inline void _two(char *w, int v) noexcept nogil:
    w[0] = <char>(48 + v // 10)
    w[1] = <char>(48 + v % 10)


cdef object iso_text(cbuf d, Py_ssize_t n):
    """``iso_date`` of the ``n`` octets at ``d``: the str, or None (no bytes made)."""
    cdef Py_ssize_t p = 0, i
    cdef int day, month = 0, year, hour, minute, second, tzh, tzm, dim
    cdef char w[25]
    if n >= 5 and d[3] == COMMA and d[4] == SPACE:
        for i in range(7):
            if memcmp(d, _DAY_NAMES + 3 * i, 3) == 0:
                p = 5
                break
        else:
            return None
    if n - p == 25 and d[p + 1] == SPACE:
        day = _digits(d, p, 1)
        p += 2
    elif n - p == 26 and d[p + 2] == SPACE:
        day = _digits(d, p, 2)
        p += 3
    else:
        return None
    # now "Mon YYYY HH:MM:SS +HHMM", 23 octets
    for i in range(12):
        if memcmp(d + p, _MONTH_NAMES + 3 * i, 3) == 0:
            month = i + 1
            break
    if (month == 0 or d[p + 3] != SPACE or d[p + 8] != SPACE or d[p + 11] != COLON
            or d[p + 14] != COLON or d[p + 17] != SPACE
            or (d[p + 18] != PLUS and d[p + 18] != DASH)):
        return None
    year = _digits(d, p + 4, 4)
    hour = _digits(d, p + 9, 2)
    minute = _digits(d, p + 12, 2)
    second = _digits(d, p + 15, 2)
    tzh = _digits(d, p + 19, 2)
    tzm = _digits(d, p + 21, 2)
    if day < 0 or year < 1000 or hour < 0 or minute < 0 or second < 0 or tzh < 0 or tzm < 0:
        return None
    if month == 2:
        dim = 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    elif month == 4 or month == 6 or month == 9 or month == 11:
        dim = 30
    else:
        dim = 31
    if not 1 <= day <= dim or hour > 23 or minute > 59 or second > 59 or tzh > 23 or tzm > 59:
        return None
    # "YYYY-MM-DDTHH:MM:SS" and "+HH:MM" written in place (the year has four digits)
    _two(w, year // 100)
    _two(w + 2, year % 100)
    memcpy(w + 4, b"-00-00T00:00:00+00:00", 21)
    _two(w + 5, month)
    _two(w + 8, day)
    _two(w + 11, hour)
    _two(w + 14, minute)
    _two(w + 17, second)
    if d[p + 18] == DASH and tzh == 0 and tzm == 0:
        return PyUnicode_DecodeASCII(w, 19, NULL)
    w[19] = <char>d[p + 18]
    _two(w + 20, tzh)
    _two(w + 23, tzm)
    return PyUnicode_DecodeASCII(w, 25, NULL)


def iso_date(bytes raw):
    """See ``urlsift._mail_headers_py.iso_date``."""
    return iso_text(raw, len(raw))


def mechanism(bytes value):
    """The twin's ``mechanism``: a Content-Transfer-Encoding value's mechanism, lower
    case, ``b""`` for none, None when it is not one token (for the ``email`` path and
    the tests)."""
    cdef Py_ssize_t ma, me
    if mechanism_span(<cbuf>(<char *>value), 0, len(value), &ma, &me) == FB:
        return None
    return value[ma:me].lower() if ma >= 0 else b""
