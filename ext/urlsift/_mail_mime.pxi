# Included by _mail_c.pyx: the MIME structure of a message (twin: _mail_mime_py.py).
# An entity's type is its Content-Type (RFC 2045 section 5.1; none, or one without
# exactly one "/": text/plain, section 5.2); a multipart's parts lie between
# "--boundary" lines (RFC 2046 section 5.1.1); a text part goes to the scan text as
# it stands or decoded (RFC 2045 section 6), reply-quote prefixes of lines that continue
# a "<" left open left out; text/html goes to the HTML reader (_mail_html.pxi).

cdef enum:
    # what boundary_line finds (RFC 2046 section 5.1.1)
    NOT_BOUNDARY = 0
    DELIMITER = 1           # "--boundary", blanks after
    CLOSE_DELIMITER = 2     # "--boundary--", blanks after


cdef struct Entity:
    Py_ssize_t fa, fe, slash    # type/subtype (lower-cased when read), "/"; fa -1: text/plain
    Py_ssize_t bd[2]            # the boundary parameter's span, -1 when absent
    Py_ssize_t cs[2]            # the charset parameter's span
    Py_ssize_t ta, te           # the Content-Transfer-Encoding value, ta -1 when absent


cdef int content_type(_Walk w, bint in_digest, Entity *t) except -1 nogil:
    """The Content-Type and Content-Transfer-Encoding of the fields in ``w.fields``."""
    cdef cbuf b = w.b
    cdef Py_ssize_t nf = w.fields.n // sizeof(Field), i, ca = -1, ce = -1, nslash, main_end
    cdef Field *f = <Field *>w.fields.p
    t.ta = t.te = -1
    for i in range(nf):
        if ca < 0 and eq_lower(b, f[i].na, f[i].ne, "content-type"):
            ca, ce = f[i].va, f[i].ve
        elif t.ta < 0 and eq_lower(b, f[i].na, f[i].ne, "content-transfer-encoding"):
            t.ta, t.te = f[i].va, f[i].ve
    t.cs[0] = t.cs[1] = t.bd[0] = t.bd[1] = -1
    t.fa = t.fe = t.slash = -1
    if ca < 0:
        return FB if in_digest else 0              # message/rfc822 by default in a digest
    if any_bad(b, ca, ce):
        return FB
    if params(b, ca, ce, &main_end, t.bd, t.cs) == FB:
        return FB
    t.fa, t.fe = ca, main_end
    strip_span(b, &t.fa, &t.fe)
    nslash = 0
    for i in range(t.fa, t.fe):
        if b[i] == SLASH:
            nslash += 1
            t.slash = i
    if nslash != 1:
        t.fa = t.fe = t.slash = -1                 # text/plain
    return 0


cdef int mime_entity(_Walk w, Py_ssize_t index, Py_ssize_t body, Py_ssize_t e,
                     const char *section, Py_ssize_t seclen, int depth,
                     bint in_digest) except -1 nogil:
    """The leaf parts of the entity whose fields (``w.fields``) and body are given."""
    cdef cbuf b = w.b
    cdef Entity t
    cdef bint html = False
    if content_type(w, in_digest, &t) == FB:
        return FB
    if t.fa >= 0:
        if eq_lower(b, t.fa, t.slash, "message"):
            return FB
        if eq_lower(b, t.fa, t.slash, "multipart"):
            if t.bd[0] < 0 or depth >= w.max_depth:
                return FB
            while t.bd[1] > t.bd[0] and is_blank_octet(b[t.bd[1] - 1]):
                t.bd[1] -= 1
            return mime_multipart(w, index, body, e, t.bd[0], t.bd[1], section, seclen, depth,
                                  eq_lower(b, t.slash + 1, t.fe, "digest"))
        if not eq_lower(b, t.fa, t.slash, "text"):
            return 0                               # images, archives...: not text
        html = eq_lower(b, t.slash + 1, t.fe, "html")
    if t.ta >= 0 and any_bad(b, t.ta, t.te):
        return FB
    if t.cs[0] >= 0 and not charset_ok(b, t.cs[0], t.cs[1], w.charsets, w.ncharsets):
        return FB
    mime_label(w, &t, section, seclen)
    if mime_leaf(w, index, body, e, &t, html) == FB:
        return FB
    grow_byte(&w.out, 0)
    return 0


cdef void mime_label(_Walk w, Entity *t, const char *section, Py_ssize_t seclen) noexcept nogil:
    """The part's label (``1.2 text/html``) into ``w.lab``."""
    cdef Py_ssize_t i
    w.lab.n = 0
    if seclen:
        grow_add(&w.lab, section, seclen)
    else:
        grow_byte(&w.lab, DIGIT_1)
    grow_byte(&w.lab, SPACE)
    if t.fa < 0:
        grow_add(&w.lab, "text/plain", 10)
    else:
        for i in range(t.fa, t.fe):
            grow_byte(&w.lab, lower(w.b[i]))


cdef int mime_leaf(_Walk w, Py_ssize_t index, Py_ssize_t body, Py_ssize_t e, Entity *t,
                   bint html) except -1 nogil:
    """A text part's body, as it stands or decoded, to the text or HTML reader."""
    cdef cbuf b = w.b
    cdef cbuf d
    cdef Py_ssize_t n
    cdef int64_t la, lb
    cdef bint utf8, in_place = False
    cdef Py_ssize_t ma = -1, me = -1              # the mechanism (RFC 2045 section 6.1)
    # the twin's is_utf8: only a UTF-8 part's non-ASCII octets are scanned as they stand
    utf8 = (t.cs[0] < 0 or eq_lower(b, t.cs[0], t.cs[1], "utf-8")
            or eq_lower(b, t.cs[0], t.cs[1], "utf8"))
    if t.ta >= 0 and mechanism_span(b, t.ta, t.te, &ma, &me) == FB:
        return FB                                  # not one token: email's to read
    la = w.label(&lb)
    if ma < 0 or eq_lower(b, ma, me, "7bit") \
            or eq_lower(b, ma, me, "8bit") or eq_lower(b, ma, me, "binary"):
        d = b + body
        n = e - body
        in_place = True
    elif eq_lower(b, ma, me, "quoted-printable") or eq_lower(b, ma, me, "base64"):
        w.dec.n = 0
        if eq_lower(b, ma, me, "base64"):
            if b64_decode(b + body, e - body, &w.dec) == FB:
                return FB
        else:
            qp_decode(b + body, e - body, &w.dec)
        d = <cbuf>w.dec.p
        n = w.dec.n
    else:
        return FB                                  # uuencode, an unknown encoding
    if not utf8 and url_glued_high(d, n):
        return FB
    if html:
        return html_part(w, index, d, n, la, lb)
    if in_place:                                   # offsets in the spool kept
        return mime_text(w, index, b, body, e, la, lb, body)
    return mime_text(w, index, d, 0, n, la, lb, -1)


cdef int mime_multipart(_Walk w, Py_ssize_t index, Py_ssize_t a, Py_ssize_t e, Py_ssize_t ba,
                        Py_ssize_t be, const char *section, Py_ssize_t seclen, int depth,
                        bint digest) except -1 nogil:
    """The parts between ``--boundary`` lines (RFC 2046 section 5.1.1), the boundary
    being ``b[ba:be]``; each walked as soon as it is cut."""
    cdef cbuf b = w.b
    cdef Py_ssize_t p = a, le, part_start = -1, number = 0
    cdef int kind = NOT_BOUNDARY
    cdef bint closed = False
    if be > ba and memchr(b + ba, LF, be - ba) != NULL:
        return FB                                  # no line holds it: email keeps the text
    while p < e:
        p = next_boundary(b, a, p, e, b + ba, be - ba, &kind)
        if p >= e:
            break
        le = line_end(b, p, e)
        if kind == CLOSE_DELIMITER:
            if part_start >= 0:
                number += 1
                if mime_part(w, index, part_start, eol_before(b, part_start, p), section,
                             seclen, number, depth, digest) == FB:
                    return FB
            closed = True
            break
        if part_start >= 0:                        # a DELIMITER
            number += 1
            if mime_part(w, index, part_start, eol_before(b, part_start, p), section,
                         seclen, number, depth, digest) == FB:
                return FB
        # boundary lines right after it (a close one too) are passed over: email
        # reads no part between them
        p = le
        while p < e:
            le = line_end(b, p, e)
            if boundary_line(b, p, le, b + ba, be - ba) == NOT_BOUNDARY:
                break
            p = le
        part_start = p
    if part_start < 0:
        return FB                                  # no boundary at all: email keeps the text
    if not closed:
        number += 1
        return mime_part(w, index, part_start, eol_before(b, part_start, e), section, seclen,
                         number, depth, digest)
    return 0


cdef Py_ssize_t next_boundary(cbuf b, Py_ssize_t a, Py_ssize_t p, Py_ssize_t e, cbuf bd,
                              Py_ssize_t k, int *kind) noexcept nogil:
    """The start of the first boundary line (its kind in ``kind``) of ``b[p:e]``, ``p`` a
    line start of the body at ``a``; ``e`` when there is none. The boundary (no LF in
    it) is searched for, not each line's start: where a hit is no boundary line, the
    search goes on at the next line, so each octet is looked at a bounded number of
    times."""
    cdef cbuf s = bd
    cdef Py_ssize_t n = k, back = 2, q, x
    cdef const void *h
    if k == 0:                                     # an empty boundary: "--" itself
        s = <cbuf><const char *>"--"
        n = 2
        back = 0
    q = p + back
    while e - q >= n:
        h = find_octets(b + q, e - q, s, n)
        if h == NULL:
            break
        x = (<cbuf>h - b) - back
        if b[x] == DASH and b[x + 1] == DASH and (x == a or b[x - 1] == LF):
            kind[0] = boundary_line(b, x, line_end(b, x, e), bd, k)
            if kind[0] != NOT_BOUNDARY:
                return x
        q = line_end(b, x, e) + back
    kind[0] = NOT_BOUNDARY
    return e


cdef int mime_part(_Walk w, Py_ssize_t index, Py_ssize_t pa, Py_ssize_t pe, const char *section,
                   Py_ssize_t seclen, Py_ssize_t number, int depth, bint digest) except -1 nogil:
    """Part ``number`` of a multipart, ``b[pa:pe]``: its section (``1.2``), its header
    block and its entity."""
    cdef char sub[SECTION_MAX + 32]
    cdef char digits[24]
    cdef Py_ssize_t n = 0, k = 0, body
    if seclen > SECTION_MAX:
        return FB
    if seclen:
        memcpy(sub, section, seclen)
        n = seclen
        sub[n] = DOT
        n += 1
    while True:
        digits[k] = <char>(DIGIT_0 + number % 10)
        k += 1
        number //= 10
        if number == 0:
            break
    while k:
        k -= 1
        sub[n] = digits[k]
        n += 1
    if header_block(w, pa, pe, &body) == FB:
        return FB
    return mime_entity(w, index, body, pe, sub, n, depth + 1, digest)


include "_last_of.pxi"


cdef int mime_text(_Walk w, Py_ssize_t index, cbuf d, Py_ssize_t a, Py_ssize_t n, int64_t la,
                   int64_t lb, Py_ssize_t src) except -1 nogil:
    """A text part ``d[a:n]``: as ``_mail_mime_py.text`` (offsets in the part are from
    ``a``; ``src`` >= 0: ``d`` is the spool and the part is at ``src``)."""
    cdef Py_ssize_t p = a, q = a, le, i, m
    cdef bint open_ = False
    cdef const void *k
    while q < n:
        if not open_:
            # no "<" open: lines without one change nothing; go to the next line that
            # has one (its line start is found going back, so each octet is looked at
            # a bounded number of times)
            k = memchr(d + q, LT, n - q)
            if k == NULL:
                break
            i = <cbuf>k - d
            while i > q and d[i - 1] != LF:
                i -= 1
            q = i
        k = memchr(d + q, LF, n - q)
        le = n if k == NULL else (<cbuf>k - d) + 1
        if open_:
            m = quote_prefix(d, q, le)
            if m > q:
                w.segment(index, d, p, q, la, lb, C_K_TEXT, p - a,
                          src + p - a if src >= 0 else -1, -1)
                p = q = m
        # the last "<" or ">" of the line says whether a "<" is left open
        i = last_of(d, q, le, LT, GT)          # (memrchr: an octet loop backwards here
                                               # moved by 5% with the code's layout)
        if i >= 0:
            open_ = d[i] == LT
        q = le
    w.segment(index, d, p, n, la, lb, C_K_TEXT, p - a, src + p - a if src >= 0 else -1, -1)
    return 0


cdef Py_ssize_t quote_prefix(cbuf d, Py_ssize_t q, Py_ssize_t le) noexcept nogil:
    """The end of a reply-quote prefix ``[ \\t]*>([ \\t]?>)*[ \\t]?`` at ``q``, or ``q``."""
    cdef Py_ssize_t p = q, r
    while p < le and (d[p] == SPACE or d[p] == TAB):
        p += 1
    if p >= le or d[p] != GT:
        return q
    p += 1
    while True:
        r = p
        if r < le and (d[r] == SPACE or d[r] == TAB):
            r += 1
        if r < le and d[r] == GT:
            p = r + 1
        else:
            break
    if p < le and (d[p] == SPACE or d[p] == TAB):
        p += 1
    return p


cdef int boundary_line(cbuf b, Py_ssize_t p, Py_ssize_t le, cbuf bd, Py_ssize_t k) noexcept nogil:
    """DELIMITER for a ``--boundary`` line (blanks after it), CLOSE_DELIMITER for the
    closing one, else NOT_BOUNDARY."""
    cdef Py_ssize_t q
    cdef int kind = DELIMITER
    if le - p < k + 2 or b[p] != DASH or b[p + 1] != DASH or memcmp(b + p + 2, bd, k) != 0:
        return NOT_BOUNDARY
    q = p + 2 + k
    if le - q >= 2 and b[q] == DASH and b[q + 1] == DASH:
        q += 2
        kind = CLOSE_DELIMITER
    while q < le and (b[q] == SPACE or b[q] == TAB):
        q += 1
    if q == le or (le - q == 1 and b[q] == LF) or (le - q == 2 and b[q] == CR and b[q + 1] == LF):
        return kind
    return NOT_BOUNDARY


cdef Py_ssize_t eol_before(cbuf b, Py_ssize_t a, Py_ssize_t p) noexcept nogil:
    """The end of a part whose boundary line starts at ``p``: the line end before the
    boundary belongs to it (RFC 2046 section 5.1.1)."""
    if p - 2 >= a and b[p - 2] == CR and b[p - 1] == LF:
        return p - 2
    if p - 1 >= a and (b[p - 1] == LF or b[p - 1] == CR):
        return p - 1
    return p


cdef bint url_glued_high(cbuf b, Py_ssize_t n) noexcept nogil:
    """The twin's url_glued_high: an octet over 0x7F right after a run of ASCII graphic
    octets holding a ":" or "&" (where a URL could go on in another charset's letters)?"""
    cdef Py_ssize_t i
    cdef bint run = False, colon = False
    for i in range(n):
        if 0x21 <= b[i] <= 0x7E:
            run = True
            colon = colon or b[i] == COLON or b[i] == AMP
        else:
            if b[i] >= 128 and run and colon:
                return True
            run = colon = False
    return False
