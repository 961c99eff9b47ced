"""The mail walker on the bytes of a spool: the compiled twin of ``urlsift._mail_py``.

Same input, same output, same rules; see that module for what the walk does and
what it leaves to the standard library (the ``FALLBACK`` flag). Here the loops run
over a ``const unsigned char *`` and the output grows in C buffers; Python is only
called to decode a quoted-printable or base64 body (``decode``) and to undo HTML
character references (``unescape``), both given by the caller.
"""
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.bytearray cimport PyByteArray_FromStringAndSize
from libc.stdint cimport int64_t
from libc.stdlib cimport free, realloc
from libc.string cimport memchr, memcmp, memcpy

from array import array

__all__ = ["walk", "SEG", "MSG", "K_HEADER", "K_TEXT", "K_HTML_TEXT", "K_HREF", "K_SRC",
           "FALLBACK", "HEADERS", "CHARSETS", "CTE_QP", "CTE_BASE64", "trace", "iso_date"]

from urlsift._mail_py import (CHARSETS, CTE_BASE64, CTE_QP, FALLBACK, HEADERS, K_HEADER,
                              K_HREF, K_HTML_TEXT, K_SRC, K_TEXT, MSG, SEG)

cdef enum:
    NSEG = 9        # integers per segment record (SEG)
    NMSG = 8        # integers per message record (MSG)
    FB = 1          # "fall back": returned up the calls, the message goes to email

ctypedef const unsigned char *cbuf


cdef struct Grow:
    char *p
    Py_ssize_t n
    Py_ssize_t cap


cdef int grow_add(Grow *g, const void *s, Py_ssize_t k) except -1:
    cdef Py_ssize_t cap
    cdef char *q
    if g.n + k > g.cap:
        cap = max(2 * g.cap, g.n + k, 4096)
        q = <char *>realloc(g.p, cap)
        if q == NULL:
            raise MemoryError()
        g.p = q
        g.cap = cap
    if k:
        memcpy(g.p + g.n, s, k)
    g.n += k
    return 0


cdef inline int add_int(Grow *g, int64_t v) except -1:
    return grow_add(g, &v, sizeof(int64_t))


cdef inline bint is_name_char(unsigned char c) nogil:
    # RFC 5322 section 2.2 field name: printable US-ASCII but ":" (033-071, 073-176)
    return (33 <= c <= 57) or (59 <= c <= 126)


cdef inline bint is_bad_octet(unsigned char c) nogil:
    # what makes email turn a header value into a Header object, or controls
    return not (c == 9 or c == 10 or c == 13 or (32 <= c <= 126))


cdef inline unsigned char lower(unsigned char c) nogil:
    return c + 32 if 65 <= c <= 90 else c


cdef inline bint is_letter(unsigned char c) nogil:
    return (65 <= c <= 90) or (97 <= c <= 122)


cdef inline Py_ssize_t line_end(cbuf b, Py_ssize_t p, Py_ssize_t stop) nogil:
    cdef const void *k = memchr(b + p, 10, stop - p) if p < stop else NULL
    return stop if k == NULL else (<cbuf>k - b) + 1


cdef inline bint is_blank(cbuf b, Py_ssize_t p, Py_ssize_t e) nogil:
    return (e - p == 1 and b[p] == 10) or (e - p == 2 and b[p] == 13 and b[p + 1] == 10)


cdef inline Py_ssize_t strip_eol(cbuf b, Py_ssize_t a, Py_ssize_t e) nogil:
    while e > a and (b[e - 1] == 10 or b[e - 1] == 13):
        e -= 1
    return e


cdef bint any_bad(cbuf b, Py_ssize_t a, Py_ssize_t e) nogil:
    cdef Py_ssize_t i
    for i in range(a, e):
        if is_bad_octet(b[i]):
            return True
    return False


cdef bint eq_lower(cbuf b, Py_ssize_t a, Py_ssize_t e, bytes name):
    """``b[a:e].lower() == name`` (``name`` lower case)."""
    cdef Py_ssize_t k = len(name), i
    cdef cbuf s = name
    if e - a != k:
        return False
    for i in range(k):
        if lower(b[a + i]) != s[i]:
            return False
    return True


cdef bint starts(cbuf b, Py_ssize_t p, Py_ssize_t e, const char *s, Py_ssize_t k) nogil:
    return e - p >= k and memcmp(b + p, s, k) == 0


cdef struct Field:
    Py_ssize_t na, ne, va, ve


cdef class _Walk:
    cdef cbuf b
    cdef Py_ssize_t n
    cdef object buf, decode, unescape
    cdef list headers, lower_headers, charsets
    cdef int max_depth
    cdef Grow out, segs, msgs, names
    cdef Grow fields          # Field records of the header block being read
    cdef dict label_at        # label -> its offset in names (each written once)

    def __dealloc__(self):
        free(self.out.p)
        free(self.segs.p)
        free(self.msgs.p)
        free(self.names.p)
        free(self.fields.p)

    # -- messages -------------------------------------------------------------------

    cdef int message(self, Py_ssize_t offset, Py_ssize_t a, Py_ssize_t e) except -1:
        cdef Py_ssize_t index = self.msgs.n // (NMSG * 8)
        cdef Py_ssize_t o = self.out.n, s = self.segs.n, nm = self.names.n
        cdef int64_t rec[NMSG]
        cdef int r
        rec[0] = offset
        rec[1] = a
        rec[2] = e
        rec[3] = rec[4] = rec[5] = rec[6] = -1
        rec[7] = 0
        r = self.message_body(index, a, e, rec)
        if r == FB:
            self.out.n = o
            self.segs.n = s
            self.names.n = nm
            for name in [k for k, v in self.label_at.items() if v[0] >= nm]:
                del self.label_at[name]
            rec[3] = rec[4] = rec[5] = rec[6] = -1
            rec[7] = FALLBACK
        grow_add(&self.msgs, rec, sizeof(rec))
        return 0

    cdef int message_body(self, Py_ssize_t index, Py_ssize_t a, Py_ssize_t e,
                          int64_t *rec) except -1:
        cdef cbuf b = self.b
        cdef const void *k
        cdef Py_ssize_t p = a, body, nf, i
        cdef Field *f
        while p < e:                      # a CR not followed by LF: email cuts lines there
            k = memchr(b + p, 13, e - p)
            if k == NULL:
                break
            p = (<cbuf>k - b) + 1
            if p >= e or b[p] != 10:
                return FB
        if self.header_block(a, e, &body) == FB:
            return FB
        nf = self.fields.n // sizeof(Field)
        f = <Field *>self.fields.p
        for i in range(nf):
            if rec[3] < 0 and eq_lower(b, f[i].na, f[i].ne, b"message-id"):
                if any_bad(b, f[i].va, f[i].ve):
                    return FB
                rec[3] = f[i].va
                rec[4] = f[i].ve
            elif rec[5] < 0 and eq_lower(b, f[i].na, f[i].ne, b"date"):
                if any_bad(b, f[i].va, f[i].ve):
                    return FB
                rec[5] = f[i].va
                rec[6] = f[i].ve
        if self.url_headers(index) == FB:
            return FB
        return self.entity(index, body, e, b"", 0, False)

    cdef int header_block(self, Py_ssize_t a, Py_ssize_t e, Py_ssize_t *body) except -1:
        """Fields of the header block at ``a`` into ``self.fields``; ``body[0]``: where
        the body starts (as ``_mail_py._Walk.header_block``)."""
        cdef cbuf b = self.b
        cdef Py_ssize_t p = a, le, q
        cdef Field fld
        cdef Field *last
        self.fields.n = 0
        while p < e:
            le = line_end(b, p, e)
            if is_blank(b, p, le):
                body[0] = le
                return 0
            if b[p] == 32 or b[p] == 9:
                if self.fields.n == 0:
                    return FB
                last = <Field *>(self.fields.p + self.fields.n - sizeof(Field))
                last.ve = strip_eol(b, p, le)
            else:
                q = p
                while q < le and is_name_char(b[q]):
                    q += 1
                if q >= le or b[q] != 58:          # no "name:": the body starts here
                    if starts(b, p, le, "From ", 5):
                        return FB
                    body[0] = p
                    return 0
                if q == p:
                    return FB
                fld.na = p
                fld.ne = q
                q += 1
                while q < le and (b[q] == 32 or b[q] == 9):
                    q += 1
                fld.va = q
                fld.ve = strip_eol(b, q, le)
                grow_add(&self.fields, &fld, sizeof(Field))
            p = le
        body[0] = e
        return 0

    cdef int url_headers(self, Py_ssize_t index) except -1:
        cdef Py_ssize_t nf = self.fields.n // sizeof(Field), i, j
        cdef Field *f = <Field *>self.fields.p
        cdef bytes lowname
        cdef int64_t la, lb
        for j in range(len(self.lower_headers)):
            lowname = self.lower_headers[j]
            for i in range(nf):
                if not eq_lower(self.b, f[i].na, f[i].ne, lowname):
                    continue
                if any_bad(self.b, f[i].va, f[i].ve):
                    return FB
                la = self.label(b"header:" + <bytes>self.headers[j], &lb)
                self.segment(index, self.b, f[i].va, f[i].ve, la, lb, K_HEADER, 0,
                             f[i].va, -1)
                grow_add(&self.out, b"\0", 1)
        return 0

    # -- MIME entities --------------------------------------------------------------

    cdef int entity(self, Py_ssize_t index, Py_ssize_t body, Py_ssize_t e, bytes section,
                    int depth, bint in_digest) except -1:
        cdef cbuf b = self.b
        cdef Py_ssize_t nf = self.fields.n // sizeof(Field), i
        cdef Field *f = <Field *>self.fields.p
        cdef Py_ssize_t ca = -1, ce = -1, ta = -1, te = -1
        cdef bytes full, maintype, subtype, cte, label, data
        cdef object boundary, charset
        cdef list params
        cdef int64_t la, lb, src
        for i in range(nf):
            if ca < 0 and eq_lower(b, f[i].na, f[i].ne, b"content-type"):
                ca, ce = f[i].va, f[i].ve
            elif ta < 0 and eq_lower(b, f[i].na, f[i].ne, b"content-transfer-encoding"):
                ta, te = f[i].va, f[i].ve
        params = []
        if ca < 0:
            if in_digest:
                return FB
            full = b"text/plain"
        else:
            if any_bad(b, ca, ce):
                return FB
            full = _params(b, ca, ce, params)
            if full is None:
                return FB
            full = full.strip().lower()
            if full.count(b"/") != 1:
                full = b"text/plain"
        maintype, _, subtype = full.partition(b"/")
        if maintype == b"message":
            return FB
        if maintype == b"multipart":
            boundary = _param(params, b"boundary")
            if boundary is None or depth >= self.max_depth:
                return FB
            return self.multipart(index, body, e, _unquote(boundary).rstrip(), section,
                                  depth, subtype == b"digest")
        if maintype != b"text":
            return 0
        if ta >= 0:
            if any_bad(b, ta, te):
                return FB
            cte = PyBytes_FromStringAndSize(<char *>b + ta, te - ta).lower()
        else:
            cte = b""
        charset = _param(params, b"charset")
        if charset is not None and not _charset_ok(charset, self.charsets):
            return FB
        la = self.label((section or b"1") + b" " + full, &lb)
        if cte == b"" or cte == b"7bit" or cte == b"8bit" or cte == b"binary":
            if subtype == b"html":
                data = PyBytes_FromStringAndSize(<char *>b + body, e - body)
                if self.html(index, data, la, lb) == FB:
                    return FB
            else:
                self.text(index, b, body, e, la, lb, body)
        elif cte == b"quoted-printable" or cte == b"base64":
            if self.decode is None:
                return FB
            data = self.decode(CTE_QP if cte == b"quoted-printable" else CTE_BASE64,
                               PyBytes_FromStringAndSize(<char *>b + body, e - body))
            if data is None:
                return FB
            if subtype == b"html":
                if self.html(index, data, la, lb) == FB:
                    return FB
            else:
                self.text(index, <cbuf>(<char *>data), 0, len(data), la, lb, -1)
        else:
            return FB
        grow_add(&self.out, b"\0", 1)
        return 0

    cdef int multipart(self, Py_ssize_t index, Py_ssize_t a, Py_ssize_t e, bytes boundary,
                       bytes section, int depth, bint digest) except -1:
        cdef cbuf b = self.b
        cdef bytes sep = b"--" + boundary
        cdef cbuf s = sep
        cdef Py_ssize_t k = len(sep), p = a, le, part_start = -1, pa, pe, body
        cdef int kind, number = 0
        cdef bint closed = False
        cdef list parts = []
        while p < e:
            le = line_end(b, p, e)
            kind = boundary_line(b, p, le, s, k)
            if kind == 2:
                if part_start >= 0:
                    parts.append((part_start, eol_before(b, part_start, p)))
                closed = True
                break
            if kind == 1:
                if part_start >= 0:
                    parts.append((part_start, eol_before(b, part_start, p)))
                p = le
                while p < e:
                    le = line_end(b, p, e)
                    if not boundary_line(b, p, le, s, k):
                        break
                    p = le
                part_start = p
                continue
            p = le
        if part_start < 0:
            return FB
        if not closed:
            parts.append((part_start, eol_before(b, part_start, e)))
        for pa, pe in parts:
            number += 1
            sub = (section + b"." if section else b"") + str(number).encode()
            if self.header_block(pa, pe, &body) == FB:
                return FB
            if self.entity(index, body, pe, sub, depth + 1, digest) == FB:
                return FB
        return 0

    # -- text -----------------------------------------------------------------------

    cdef int text(self, Py_ssize_t index, cbuf d, Py_ssize_t a, Py_ssize_t n, int64_t la,
                  int64_t lb, Py_ssize_t src) except -1:
        """A text part ``d[a:n]``: as ``_mail_py._Walk.text`` (offsets in the part are
        from ``a``; ``src`` >= 0: ``d`` is the spool and the part is at ``src``)."""
        cdef Py_ssize_t p = a, q = a, le, i, m
        cdef bint open_ = False
        cdef const void *k
        while q < n:
            k = memchr(d + q, 10, n - q)
            le = n if k == NULL else (<cbuf>k - d) + 1
            if open_:
                m = quote_prefix(d, q, le)
                if m > q:
                    self.segment(index, d, p, q, la, lb, K_TEXT, p - a, src + p - a if src >= 0 else -1, -1)
                    p = q = m
            # the last "<" or ">" of the line says whether a "<" is left open
            i = le
            while i > q:
                i -= 1
                if d[i] == 60:
                    open_ = True
                    break
                if d[i] == 62:
                    open_ = False
                    break
            q = le
        self.segment(index, d, p, n, la, lb, K_TEXT, p - a, src + p - a if src >= 0 else -1, -1)
        return 0

    # -- HTML -----------------------------------------------------------------------

    cdef int html(self, Py_ssize_t index, bytes data, int64_t la, int64_t lb) except -1:
        cdef cbuf d = data
        cdef Py_ssize_t n = len(data), i = 0, run = 0, j, end, k, stop
        cdef const void *hit
        cdef unsigned char c
        cdef bint letter, closing
        cdef Py_ssize_t anchor = -1, href, seg
        cdef bytes tag, name, value
        cdef list attrs
        cdef int kind
        while True:
            hit = memchr(d + i, 60, n - i) if i < n else NULL
            if hit == NULL:
                break
            j = <cbuf>hit - d
            if j + 1 >= n:
                break
            c = d[j + 1]
            letter = is_letter(c)
            if not (letter or c == 47 or c == 33 or c == 63):
                i = j + 1
                continue
            if c == 47 and j + 2 < n and d[j + 2] == 62:
                if self.html_text(index, data, run, j, la, lb, anchor, True) == FB:
                    return FB
                i = run = j + 3
                continue
            if self.html_text(index, data, run, j, la, lb, anchor, True) == FB:
                return FB
            if letter or (c == 47 and j + 2 < n and is_letter(d[j + 2])):
                attrs = []
                end = _tag(d, n, j, attrs)
                if end < 0:
                    return FB
                closing = d[j + 1] == 47
                tag = attrs.pop(0)
                i = run = end
                if closing:
                    if tag == b"a":
                        anchor = -1
                    continue
                href = -1
                for name, va, ve in attrs:
                    if name == b"href":
                        kind = K_HREF
                    elif name == b"src":
                        kind = K_SRC
                    else:
                        continue
                    if va < 0:
                        continue
                    value = self.unescaped(data[va:ve])
                    if value is None:
                        return FB
                    value = _strip(value)
                    if value is None:
                        return FB
                    if not value:
                        continue
                    if tag == b"base" and kind == K_HREF:
                        return FB
                    seg = self.segs.n // (NSEG * 8)
                    if has_scheme(value):
                        self.segment(index, <cbuf>(<char *>value), 0, len(value), la, lb, kind,
                                     j, -1, -1)
                        grow_add(&self.out, b"\0", 1)
                        if kind == K_HREF:
                            href = seg
                    elif kind == K_HREF:
                        href = -2
                if tag == b"a":
                    anchor = href
                if tag == b"script" or tag == b"style":
                    stop = raw_end(d, n, i, tag)
                    if self.html_text(index, data, i, stop, la, lb, anchor, False) == FB:
                        return FB
                    i = run = stop
                continue
            if starts(d, j, n, "<!--", 4):
                k = find3(d, j + 4, n)
                if k < 0:
                    return FB
                i = run = k + 3
                continue
            hit = memchr(d + j + 2, 62, n - j - 2) if j + 2 < n else NULL
            if hit == NULL:
                return FB
            if not (c == 63 or (n - (j + 2) >= 7 and eq_lower(d, j + 2, j + 9, b"doctype"))):
                return FB
            i = run = (<cbuf>hit - d) + 1
        return self.html_text(index, data, run, n, la, lb, anchor, True)

    cdef int html_text(self, Py_ssize_t index, bytes data, Py_ssize_t a, Py_ssize_t e,
                       int64_t la, int64_t lb, Py_ssize_t anchor, bint decode) except -1:
        cdef bytes text
        if a >= e:
            return 0
        if decode and memchr(<char *>data + a, 38, e - a) != NULL:
            text = self.unescaped(data[a:e])
            if text is None:
                return FB
            self.segment(index, <cbuf>(<char *>text), 0, len(text), la, lb, K_HTML_TEXT, a, -1,
                         anchor)
        else:
            self.segment(index, <cbuf>(<char *>data), a, e, la, lb, K_HTML_TEXT, a, -1, anchor)
        grow_add(&self.out, b"\0", 1)
        return 0

    cdef bytes unescaped(self, bytes raw):
        cdef bytes fast
        if b"&" not in raw:
            return raw
        fast = _references(raw)
        if fast is not None:
            return fast
        if self.unescape is None:
            return None
        return self.unescape(raw.decode("latin-1")).encode("utf-8", "surrogatepass")

    # -- output ---------------------------------------------------------------------

    cdef int64_t label(self, bytes name, int64_t *lb) except -1:
        """Where ``name`` is in ``names`` (``lb[0]``: its end): written once per walk."""
        cdef tuple span = self.label_at.get(name)
        if span is None:
            a = self.names.n
            grow_add(&self.names, <char *>name, len(name))
            span = self.label_at[name] = (a, self.names.n)
        lb[0] = span[1]
        return span[0]

    cdef int segment(self, Py_ssize_t index, cbuf d, Py_ssize_t a, Py_ssize_t e, int64_t la,
                     int64_t lb, int kind, Py_ssize_t part_offset, Py_ssize_t where,
                     Py_ssize_t anchor) except -1:
        cdef int64_t rec[NSEG]
        rec[0] = index
        rec[1] = self.out.n
        grow_add(&self.out, d + a, e - a)
        rec[2] = self.out.n
        rec[3] = where
        rec[4] = kind
        rec[5] = la
        rec[6] = lb
        rec[7] = part_offset
        rec[8] = anchor
        grow_add(&self.segs, rec, sizeof(rec))
        return 0


cdef Py_ssize_t quote_prefix(cbuf d, Py_ssize_t q, Py_ssize_t le) nogil:
    """The end of a reply-quote prefix ``[ \\t]*>([ \\t]?>)*[ \\t]?`` at ``q``, or ``q``."""
    cdef Py_ssize_t p = q, r
    while p < le and (d[p] == 32 or d[p] == 9):
        p += 1
    if p >= le or d[p] != 62:
        return q
    p += 1
    while True:
        r = p
        if r < le and (d[r] == 32 or d[r] == 9):
            r += 1
        if r < le and d[r] == 62:
            p = r + 1
        else:
            break
    if p < le and (d[p] == 32 or d[p] == 9):
        p += 1
    return p


cdef int boundary_line(cbuf b, Py_ssize_t p, Py_ssize_t le, cbuf sep, Py_ssize_t k) nogil:
    cdef Py_ssize_t q
    cdef int kind = 1
    if le - p < k or memcmp(b + p, sep, k) != 0:
        return 0
    q = p + k
    if le - q >= 2 and b[q] == 45 and b[q + 1] == 45:
        q += 2
        kind = 2
    while q < le and (b[q] == 32 or b[q] == 9):
        q += 1
    if q == le or (le - q == 1 and b[q] == 10) or (le - q == 2 and b[q] == 13 and b[q + 1] == 10):
        return kind
    return 0


cdef Py_ssize_t eol_before(cbuf b, Py_ssize_t a, Py_ssize_t p) nogil:
    if p - 2 >= a and b[p - 2] == 13 and b[p - 1] == 10:
        return p - 2
    if p - 1 >= a and (b[p - 1] == 10 or b[p - 1] == 13):
        return p - 1
    return p


cdef Py_ssize_t find3(cbuf d, Py_ssize_t p, Py_ssize_t n) nogil:
    """Where ``-->`` is at or after ``p``, or -1."""
    while p + 3 <= n:
        if d[p] == 45 and d[p + 1] == 45 and d[p + 2] == 62:
            return p
        p += 1
    return -1


cdef Py_ssize_t _reference(cbuf d, Py_ssize_t p, Py_ssize_t n, unsigned char *c) nogil:
    """The character reference at ``d[p]`` (``&``) when it is one of those mail HTML is
    full of and ``html.unescape`` reads as one printable ASCII character: ``&amp;``,
    ``&lt;``, ``&gt;``, ``&quot;``, ``&apos;``, and ``&#NN;``/``&#xHH;`` for U+0020 to
    U+007E (HTML 5, section 13.2.5.72: the ``;`` is there, no legacy reading). Its
    length, the character in ``c[0]``; 0 for anything else (the caller then leaves the
    whole text to ``html.unescape``)."""
    cdef Py_ssize_t q = p + 1, k
    cdef int v = 0
    if q < n and d[q] == 35:                       # "#": a numeric reference
        q += 1
        if q < n and (d[q] == 120 or d[q] == 88):  # "x", "X"
            q += 1
            k = q
            while q < n and q - k < 6:
                if 48 <= d[q] <= 57:
                    v = v * 16 + d[q] - 48
                elif 97 <= d[q] <= 102:
                    v = v * 16 + d[q] - 87
                elif 65 <= d[q] <= 70:
                    v = v * 16 + d[q] - 55
                else:
                    break
                q += 1
        else:
            k = q
            while q < n and q - k < 7 and 48 <= d[q] <= 57:
                v = v * 10 + d[q] - 48
                q += 1
        if q == k or q >= n or d[q] != 59 or not (32 <= v <= 126):
            return 0
        c[0] = v
        return q + 1 - p
    if n - q >= 4 and memcmp(d + q, b"amp;", 4) == 0:
        c[0] = 38
        return 5
    if n - q >= 3 and memcmp(d + q, b"lt;", 3) == 0:
        c[0] = 60
        return 4
    if n - q >= 3 and memcmp(d + q, b"gt;", 3) == 0:
        c[0] = 62
        return 4
    if n - q >= 5 and memcmp(d + q, b"quot;", 5) == 0:
        c[0] = 34
        return 6
    if n - q >= 5 and memcmp(d + q, b"apos;", 5) == 0:
        c[0] = 39
        return 6
    return 0


cdef object _references(bytes raw):
    """``raw`` with its character references undone when all of them are of the kinds
    :func:`_reference` reads; else None."""
    cdef cbuf d = raw
    cdef Py_ssize_t n = len(raw), p = 0, k, w = 0
    cdef unsigned char c
    cdef bytearray out = bytearray(n)
    cdef unsigned char *o = out
    while p < n:
        if d[p] == 38:
            k = _reference(d, p, n, &c)
            if k == 0:
                return None
            o[w] = c
            p += k
        else:
            o[w] = d[p]
            p += 1
        w += 1
    return PyBytes_FromStringAndSize(<char *>o, w)


cdef bint has_scheme(bytes value):
    """``value`` starts with ``scheme:`` (RFC 3986 section 3.1)."""
    cdef cbuf v = value
    cdef Py_ssize_t n = len(value), i
    if n == 0 or not is_letter(v[0]):
        return False
    for i in range(1, n):
        if v[i] == 58:
            return True
        if not (is_letter(v[i]) or 48 <= v[i] <= 57 or v[i] == 43 or v[i] == 46 or v[i] == 45):
            return False
    return False


cdef object _strip(bytes value):
    cdef unsigned char c0, c1
    value = value.strip()
    if value:
        c0 = value[0]
        c1 = value[len(value) - 1]
        if c0 >= 0x80 or c1 >= 0x80 or 0x1c <= c0 <= 0x1f or 0x1c <= c1 <= 0x1f:
            return None
    return value


cdef inline bint in_set(unsigned char c, const char *s) nogil:
    while s[0]:
        if <unsigned char>s[0] == c:
            return True
        s += 1
    return False


cdef Py_ssize_t _past(cbuf d, Py_ssize_t n, Py_ssize_t p, const char *stops, bint inside) nogil:
    while p < n and in_set(d[p], stops) == inside:
        p += 1
    return p


cdef Py_ssize_t _tag(cbuf d, Py_ssize_t n, Py_ssize_t j, list attrs) except -2:
    """As ``_mail_py._tag``: the offset after the tag's ``>`` (or -1 when it never ends);
    ``attrs`` gets the tag name then ``(name, value start, value end)`` triples."""
    cdef bint closing = d[j + 1] == 47
    cdef Py_ssize_t p = j + 2 if closing else j + 1, q, va, ve
    cdef unsigned char quote
    cdef const void *hit
    q = _past(d, n, p, "\t\n\f\r />", False)
    attrs.append(PyBytes_FromStringAndSize(<char *>d + p, q - p).lower())
    p = q
    while True:
        p = _past(d, n, p, "\t\n\f\r /", True)
        if p >= n:
            return -1
        if d[p] == 62:
            break
        q = _past(d, n, p + 1, "\t\n\f\r />=", False)
        name = PyBytes_FromStringAndSize(<char *>d + p, q - p).lower()
        p = _past(d, n, q, "\t\n\f\r ", True)
        va = ve = -1
        if p < n and d[p] == 61:
            p = _past(d, n, p + 1, "\t\n\f\r ", True)
            if p >= n:
                return -1
            quote = d[p]
            if quote == 34 or quote == 39:
                hit = memchr(d + p + 1, quote, n - p - 1) if p + 1 < n else NULL
                if hit == NULL:
                    return -1
                q = <cbuf>hit - d
                va, ve = p + 1, q
                p = q + 1
            else:
                q = _past(d, n, p, "\t\n\f\r >", False)
                va, ve = p, q
                p = q
        attrs.append((name, va, ve))
    return p + 1


cdef Py_ssize_t raw_end(cbuf d, Py_ssize_t n, Py_ssize_t i, bytes tag):
    """Where ``</tag`` followed by white space, ``/`` or ``>`` starts (any case), or n."""
    cdef Py_ssize_t k = len(tag), p = i
    cdef const void *hit
    while p < n:
        hit = memchr(d + p, 60, n - p)
        if hit == NULL:
            return n
        p = <cbuf>hit - d
        if (n - p >= k + 3 and d[p + 1] == 47 and eq_lower(d, p + 2, p + 2 + k, tag)
                and in_set(d[p + 2 + k], "\t\n\f\r />")):
            return p
        p += 1
    return n


cdef object _params(cbuf b, Py_ssize_t a, Py_ssize_t e, list params):
    """As ``_mail_py._params``: the value before the first ``;`` (None: fall back),
    ``params`` gets ``(name, value)``."""
    cdef bytes value = PyBytes_FromStringAndSize(<char *>b + a, e - a)
    cdef bytes main, rest, s, f, name, val
    cdef Py_ssize_t end
    main, sep, rest = value.partition(b";")
    s = b";" + rest if sep else b""
    while s[:1] == b";":
        s = s[1:]
        end = s.find(b";")
        while end > 0 and (s.count(b'"', 0, end) - s.count(b'\\"', 0, end)) % 2:
            end = s.find(b";", end + 1)
        if end < 0:
            end = len(s)
        f = s[:end]
        s = s[end:]
        name, eq, val = f.partition(b"=")
        name = name.strip().lower()
        if b"*" in name:
            return None
        if eq:
            params.append((name, _unquote(val.strip())))
    return main


cdef bytes _unquote(bytes v):
    if len(v) > 1:
        if v[:1] == b'"' and v[-1:] == b'"':
            return v[1:-1].replace(b"\\\\", b"\\").replace(b'\\"', b'"')
        if v[:1] == b"<" and v[-1:] == b">":
            return v[1:-1]
    return v


cdef object _param(list params, bytes name):
    for pname, value in params:
        if pname == name:
            return value
    return None


cdef bint _charset_ok(bytes charset, list allowed):
    cdef bytes cs = charset.lower(), name
    for name in allowed:
        if (name.endswith(b"*") and cs.startswith(name[:-1])) or cs == name:
            return True
    return False


def walk(buf, Py_ssize_t start, Py_ssize_t stop, bytes headers, bytes charsets,
         int max_depth, decode, unescape, bint whole=False):
    """See ``urlsift._mail_py.walk``."""
    cdef const unsigned char[::1] view = buf
    cdef _Walk w = _Walk()
    cdef Py_ssize_t n, p, q, data, end, offset
    cdef cbuf b
    cdef bint first = True
    cdef const void *hit
    if not (0 <= start <= stop <= view.shape[0]):
        raise ValueError(f"walk: bad range {start}..{stop} of a buffer of {view.shape[0]} octets")
    w.buf = buf
    b = &view[0] if view.shape[0] else <cbuf>b""
    w.b = b
    w.n = stop
    w.headers = [h for h in headers.split(b"\0") if h]
    w.lower_headers = [h.lower() for h in w.headers]
    w.charsets = [c for c in charsets.split(b"\0") if c]
    w.max_depth = max_depth
    w.decode = decode
    w.unescape = unescape
    w.label_at = {}
    p = start
    if whole:
        w.message(-1, start, stop)
        p = stop
    while p < stop:
        if starts(b, p, stop, "From ", 5):
            data = line_end(b, p, stop)
            offset = p
        else:
            data = p
            offset = -1
        end = stop
        q = data - 1 if data > start else start
        while q < stop:
            hit = memchr(b + q, 10, stop - q)
            if hit == NULL:
                break
            q = <cbuf>hit - b
            if starts(b, q + 1, stop, "From ", 5):
                end = q + 1
                break
            q += 1
        if offset >= 0 or not first or not _blank(b, data, end):
            w.message(offset, data, end)
        first = False
        p = end
    out = PyByteArray_FromStringAndSize(w.out.p, w.out.n)
    segs = array("q", PyBytes_FromStringAndSize(w.segs.p, w.segs.n))
    msgs = array("q", PyBytes_FromStringAndSize(w.msgs.p, w.msgs.n))
    names = PyByteArray_FromStringAndSize(w.names.p, w.names.n)
    return out, segs, msgs, names


cdef bint _blank(cbuf b, Py_ssize_t a, Py_ssize_t e) nogil:
    """``b[a:e].strip()`` is empty (ASCII white space only)."""
    cdef Py_ssize_t i
    for i in range(a, e):
        if not (b[i] == 32 or 9 <= b[i] <= 13):
            return False
    return True


# -- from matches of the scan text back to messages -------------------------------------

cdef extern from "Python.h":
    ctypedef struct PyTypeObject
    object _PyObject_GC_NewVar "(PyObject *)_PyObject_GC_NewVar"(PyTypeObject *t, Py_ssize_t n)
    void PyTuple_SET_ITEM(object t, Py_ssize_t i, object o)
    void Py_INCREF(object o)


cdef inline void _put(object t, Py_ssize_t i, object o):
    Py_INCREF(o)
    PyTuple_SET_ITEM(t, i, o)


cdef object _new(object cls, object url, object raw, object start, object end,
                 object message_id, object date, object part, object source, object at,
                 object match, object where):
    # ``tuple.__new__(cls, (...))`` without the call: a tuple subclass without __dict__
    # filled in place (every item is immutable, so no cycle can go through it; like the
    # Match objects of the scan, it is left untracked by the collector)
    cdef object t = _PyObject_GC_NewVar(<PyTypeObject *>cls, 12)
    _put(t, 0, url)
    _put(t, 1, raw)
    _put(t, 2, start)
    _put(t, 3, end)
    _put(t, 4, message_id)
    _put(t, 5, date)
    _put(t, 6, part)
    _put(t, 7, False)
    _put(t, 8, source)
    _put(t, 9, at)
    _put(t, 10, match)
    _put(t, 11, where)
    return t


cdef int _digits(cbuf d, Py_ssize_t p, Py_ssize_t k) nogil:
    cdef int v = 0
    cdef Py_ssize_t i
    for i in range(k):
        if not (48 <= d[p + i] <= 57):
            return -1
        v = v * 10 + (d[p + i] - 48)
    return v


cdef const char *_MONTH_NAMES = b"JanFebMarAprMayJunJulAugSepOctNovDec"
cdef const char *_DAY_NAMES = b"MonTueWedThuFriSatSun"


def iso_date(bytes raw):
    """See ``urlsift._mail_py.iso_date``."""
    cdef cbuf d = raw
    cdef Py_ssize_t n = len(raw), p = 0, i
    cdef int day, month = 0, year, hour, minute, second, tzh, tzm, dim
    if n >= 5 and d[3] == 44 and d[4] == 32:
        for i in range(7):
            if memcmp(d, _DAY_NAMES + 3 * i, 3) == 0:
                p = 5
                break
        else:
            return None
    if n - p == 25 and d[p + 1] == 32:
        day = _digits(d, p, 1)
        p += 2
    elif n - p == 26 and d[p + 2] == 32:
        day = _digits(d, p, 2)
        p += 3
    else:
        return None
    # now "Mon YYYY HH:MM:SS +HHMM", 23 octets
    for i in range(12):
        if memcmp(d + p, _MONTH_NAMES + 3 * i, 3) == 0:
            month = i + 1
            break
    if (month == 0 or d[p + 3] != 32 or d[p + 8] != 32 or d[p + 11] != 58 or d[p + 14] != 58
            or d[p + 17] != 32 or (d[p + 18] != 43 and d[p + 18] != 45)):
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
    text = f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}"
    if d[p + 18] == 45 and tzh == 0 and tzm == 0:
        return text
    return f"{text}{'-' if d[p + 18] == 45 else '+'}{tzh:02d}:{tzm:02d}"


cdef bint _plain_id(cbuf d, Py_ssize_t a, Py_ssize_t e) nogil:
    """No white space in ``d[a:e]`` and not empty: ``clean`` would give it unchanged."""
    cdef Py_ssize_t i
    if a >= e:
        return False
    for i in range(a, e):
        if d[i] == 32 or 9 <= d[i] <= 13 or 28 <= d[i] <= 31:
            return False
    return True


def trace(list found, out, segs, msgs, names, piece, Py_ssize_t base, str source, type cls,
          Py_ssize_t limit, other, same_link, id_of, date_of):
    """See ``urlsift._mail_py.trace``."""
    cdef const int64_t[::1] sg = segs
    cdef const int64_t[::1] ms = msgs
    cdef const unsigned char[::1] pv = piece
    cdef const unsigned char[::1] ov = out
    cdef Py_ssize_t nsegs = sg.shape[0] // NSEG, nmsgs = ms.shape[0] // NMSG
    cdef Py_ssize_t total = len(found), k = 0, s = 0, t, i, r, h
    cdef Py_ssize_t ms_start, ms_end, seg_start, kind
    cdef int64_t offset, a, e, ida, ide, da, de, flags
    cdef list result = []
    cdef dict labels = {}
    cdef object m
    cdef object message_id, date, at, part, raw, where, start, end, key
    for i in range(nmsgs):
        offset = ms[i * NMSG]
        a = ms[i * NMSG + 1]
        e = ms[i * NMSG + 2]
        ida = ms[i * NMSG + 3]
        ide = ms[i * NMSG + 4]
        da = ms[i * NMSG + 5]
        de = ms[i * NMSG + 6]
        flags = ms[i * NMSG + 7]
        # the segment of the next match, and whether it is this message's
        while k < total:
            m = found[k]
            ms_start = (<tuple>m)[1]
            while s + 1 < nsegs and sg[(s + 1) * NSEG + 1] <= ms_start:
                s += 1
            break
        if flags & FALLBACK or e - a > limit or (offset >= 0 and a - offset > limit):
            while k < total and sg[s * NSEG] == i:
                k += 1
                if k < total:
                    ms_start = (<tuple>found[k])[1]
                    while s + 1 < nsegs and sg[(s + 1) * NSEG + 1] <= ms_start:
                        s += 1
            got = other(i)
            if got is None:
                return result
            result.extend(got)
            continue
        if k >= total or sg[s * NSEG] != i:
            continue
        message_id = None
        if ida >= 0:
            if _plain_id(&pv[0], ida, ide):
                message_id = PyBytes_FromStringAndSize(<char *>&pv[0] + ida, ide - ida).decode("ascii")
            else:
                message_id = id_of(PyBytes_FromStringAndSize(<char *>&pv[0] + ida, ide - ida))
        date = None
        if da >= 0:
            raw_date = PyBytes_FromStringAndSize(<char *>&pv[0] + da, de - da)
            date = iso_date(raw_date) or date_of(raw_date)
        at = base + offset if offset >= 0 else None
        while k < total:
            m = found[k]
            ms_start = (<tuple>m)[1]
            while s + 1 < nsegs and sg[(s + 1) * NSEG + 1] <= ms_start:
                s += 1
            r = s * NSEG
            if sg[r] != i:
                break
            k += 1
            kind = sg[r + 4]
            seg_start = sg[r + 1]
            if kind == K_HTML_TEXT and sg[r + 8] >= 0:
                h = sg[r + 8] * NSEG
                if same_link((<tuple>m)[0], PyBytes_FromStringAndSize(<char *>&ov[0] + sg[h + 1],
                                                             sg[h + 2] - sg[h + 1]).decode("latin-1")):
                    continue
            key = sg[r + 5] * 8 + kind      # a label, and the kind for its suffix
            part = labels.get(key)
            if part is None:
                part = bytes(names[sg[r + 5]:sg[r + 6]]).decode("latin-1")
                if kind == K_HREF or kind == K_SRC:
                    part += " href" if kind == K_HREF else " src"
                labels[key] = part
            where = None
            if kind == K_HREF or kind == K_SRC:
                start = end = sg[r + 7]
                raw = PyBytes_FromStringAndSize(<char *>&ov[0] + seg_start,
                                                sg[r + 2] - seg_start).decode("utf-8", "replace")
            else:
                ms_end = (<tuple>m)[2]
                start = sg[r + 7] + ms_start - seg_start
                if ms_end <= sg[r + 2]:
                    end = sg[r + 7] + ms_end - seg_start
                else:
                    t = s
                    while t + 1 < nsegs and sg[(t + 1) * NSEG + 1] <= ms_end - 1:
                        t += 1
                    end = sg[t * NSEG + 7] + ms_end - sg[t * NSEG + 1]
                raw = (<tuple>m)[3]
                if sg[r + 3] >= 0:
                    where = base + sg[r + 3] + ms_start - seg_start
            result.append(_new(cls, (<tuple>m)[0], raw, start, end, message_id, date, part,
                               source, at, m, where))
    return result
