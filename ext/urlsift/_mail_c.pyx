"""The mail walker on the bytes of a spool: the compiled twin of ``urlsift._mail_py``.

Same input, same output, same rules; see that module for what the walk does and
what it leaves to the standard library (the ``FALLBACK`` flag). Here the walk runs
without the GIL over a ``const unsigned char *`` and the output grows in C buffers;
quoted-printable and base64 are decoded in C as ``binascii`` decodes them. Python is
called (with the GIL) only to undo an HTML character reference past the few that mail
is full of (``unescape``, given by the caller).
"""
from cpython cimport array as carray
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.pythread cimport (PyThread_type_lock, PyThread_allocate_lock, PyThread_free_lock,
                               PyThread_acquire_lock, PyThread_release_lock, WAIT_LOCK,
                               NOWAIT_LOCK)
from cpython.bytearray cimport PyByteArray_FromStringAndSize
from libc.stdint cimport int64_t, uint8_t
from libc.stdlib cimport calloc, free, realloc
from libc.string cimport memchr, memcmp, memcpy

from urlsift._build_c cimport edits_index, encoded, triple_octets, triple_raw, triple_url
from urlsift._scan_c cimport Out, known_ptr, scan_octets, table_ptr

import threading
from array import array

__all__ = ["walk", "SEG", "MSG", "K_HEADER", "K_TEXT", "K_HTML_TEXT", "K_HREF", "K_SRC",
           "FALLBACK", "CHARSETS", "trace", "iso_date", "decode_qp", "decode_base64",
           "LABEL_CACHE", "url_triples", "same_link", "MailPipeline"]

from urlsift._mail_py import (CHARSETS, FALLBACK, K_HEADER, K_HREF, K_HTML_TEXT, K_SRC,
                              K_TEXT, LABEL_CACHE, MSG, SEG, same_link)

cdef enum:
    NSEG = 9        # integers per segment record (SEG)
    NMSG = 8        # integers per message record (MSG)
    FB = 1          # "fall back": returned up the calls, the message goes to email
    NRECENT = 16    # labels looked up before one is written again (LABEL_CACHE)
    SECTION_MAX = 480

cdef int C_K_HEADER = K_HEADER
cdef int C_K_TEXT = K_TEXT
cdef int C_K_HTML_TEXT = K_HTML_TEXT
cdef int C_K_HREF = K_HREF
cdef int C_K_SRC = K_SRC
cdef int C_FALLBACK = FALLBACK
from urlsift._scan_py import HYPHEN_BREAK as _HYPHEN_BREAK, TRIM_SHIFT as _TRIM_SHIFT, \
    WRAPPED as _WRAPPED, N_EDITS
cdef int WRAPPED = _WRAPPED
cdef int HYPHEN_BREAK = _HYPHEN_BREAK
cdef int TRIM_SHIFT = _TRIM_SHIFT
assert LABEL_CACHE == NRECENT

ctypedef const unsigned char *cbuf

cdef extern from *:
    """
    #include <string.h>
    /* Where the next "\\nFrom " starts in b[0:n], or NULL: glibc's memmem (two-way,
       vectorized) where there is one, else a line at a time with memchr. The separator
       is defined in Python as urlsift._layout.MBOX_SEPARATOR (FROM_LINE without its
       newline); these literals are its octets (tests/test_mail_core.py checks). */
    static const void *urlsift_find_from_line(const unsigned char *b, size_t n) {
    #if defined(__GLIBC__) || defined(__APPLE__) || defined(__FreeBSD__)
        return memmem(b, n, "\\nFrom ", 6);
    #else
        const unsigned char *k;
        while (n >= 6 && (k = memchr(b, '\\n', n - 5)) != NULL) {
            if (memcmp(k + 1, "From ", 5) == 0) return k;
            n -= (size_t)(k + 1 - b);
            b = k + 1;
        }
        return NULL;
    #endif
    }
    """
    const void *find_from_line "urlsift_find_from_line"(cbuf b, size_t n) nogil


cdef struct Grow:
    char *p
    Py_ssize_t n
    Py_ssize_t cap


cdef int grow_reserve(Grow *g, Py_ssize_t k) except -1 nogil:
    cdef Py_ssize_t cap
    cdef char *q
    if g.n + k > g.cap:
        cap = max(2 * g.cap, g.n + k, 4096)
        q = <char *>realloc(g.p, cap)
        if q == NULL:
            with gil:
                raise MemoryError()
        g.p = q
        g.cap = cap
    return 0


cdef inline int grow_add(Grow *g, const void *s, Py_ssize_t k) except -1 nogil:
    if g.n + k > g.cap:
        grow_reserve(g, k)
    if k:
        memcpy(g.p + g.n, s, k)
    g.n += k
    return 0


cdef inline int grow_byte(Grow *g, unsigned char c) except -1 nogil:
    if g.n + 1 > g.cap:
        grow_reserve(g, 1)
    g.p[g.n] = <char>c
    g.n += 1
    return 0


cdef inline bint is_name_char(unsigned char c) noexcept nogil:
    # RFC 5322 section 2.2 field name: printable US-ASCII but ":" (033-071, 073-176)
    return (33 <= c <= 57) or (59 <= c <= 126)


cdef inline bint is_bad_octet(unsigned char c) noexcept nogil:
    # what makes email turn a header value into a Header object, or controls
    return not (c == 9 or c == 10 or c == 13 or (32 <= c <= 126))


cdef inline bint is_blank_octet(unsigned char c) noexcept nogil:
    # str.strip() of a value without bad octets: space, tab, CR, LF
    return c == 32 or c == 9 or c == 13 or c == 10


cdef inline unsigned char lower(unsigned char c) noexcept nogil:
    return c + 32 if 65 <= c <= 90 else c


cdef inline bint is_letter(unsigned char c) noexcept nogil:
    return (65 <= c <= 90) or (97 <= c <= 122)


cdef inline Py_ssize_t line_end(cbuf b, Py_ssize_t p, Py_ssize_t stop) noexcept nogil:
    cdef const void *k = memchr(b + p, 10, stop - p) if p < stop else NULL
    return stop if k == NULL else (<cbuf>k - b) + 1


cdef inline bint is_blank(cbuf b, Py_ssize_t p, Py_ssize_t e) noexcept nogil:
    return (e - p == 1 and b[p] == 10) or (e - p == 2 and b[p] == 13 and b[p + 1] == 10)


cdef inline Py_ssize_t strip_eol(cbuf b, Py_ssize_t a, Py_ssize_t e) noexcept nogil:
    while e > a and (b[e - 1] == 10 or b[e - 1] == 13):
        e -= 1
    return e


cdef bint any_bad(cbuf b, Py_ssize_t a, Py_ssize_t e) noexcept nogil:
    cdef Py_ssize_t i
    for i in range(a, e):
        if is_bad_octet(b[i]):
            return True
    return False


cdef bint url_glued_high(cbuf b, Py_ssize_t n) noexcept nogil:
    """The twin's _url_glued_high: an octet over 0x7F right after a run of ASCII graphic
    octets holding a ":" or "&" (where a URL could go on in another charset's letters)?"""
    cdef Py_ssize_t i
    cdef bint run = False, colon = False
    for i in range(n):
        if 0x21 <= b[i] <= 0x7E:
            run = True
            colon = colon or b[i] == 58 or b[i] == 38
        else:
            if b[i] >= 128 and run and colon:
                return True
            run = colon = False
    return False


cdef bint eq_lower(cbuf b, Py_ssize_t a, Py_ssize_t e, const char *s) noexcept nogil:
    """``b[a:e].lower() == s`` (``s`` lower case, NUL-terminated)."""
    cdef Py_ssize_t i = 0
    while a + i < e:
        if s[i] == 0 or lower(b[a + i]) != <unsigned char>s[i]:
            return False
        i += 1
    return s[i] == 0


cdef bint eq_lower_n(cbuf b, Py_ssize_t a, Py_ssize_t e, cbuf s, Py_ssize_t k) noexcept nogil:
    """``b[a:e].lower() == s[:k]``."""
    cdef Py_ssize_t i
    if e - a != k:
        return False
    for i in range(k):
        if lower(b[a + i]) != s[i]:
            return False
    return True


cdef bint starts(cbuf b, Py_ssize_t p, Py_ssize_t e, const char *s, Py_ssize_t k) noexcept nogil:
    return e - p >= k and memcmp(b + p, s, k) == 0


cdef inline void strip_span(cbuf b, Py_ssize_t *a, Py_ssize_t *e) noexcept nogil:
    while a[0] < e[0] and is_blank_octet(b[a[0]]):
        a[0] += 1
    while e[0] > a[0] and is_blank_octet(b[e[0] - 1]):
        e[0] -= 1


cdef struct Field:
    Py_ssize_t na, ne, va, ve


include "_mail_parts.pxi"


cdef class _Walk:
    cdef cbuf b
    cdef object buf, unescape, headers_b, charsets_b
    cdef cbuf headers
    cdef Py_ssize_t nheaders
    cdef cbuf charsets
    cdef Py_ssize_t ncharsets
    cdef int max_depth
    cdef Grow out, segs, msgs, names
    cdef Grow fields          # Field records of the header block being read
    cdef Grow dec             # a decoded body
    cdef Grow esc             # an HTML value with its references undone
    cdef Grow lab             # the label being made
    cdef int64_t recent[NRECENT][2]   # the last labels written: (start, end) in names
    cdef int nrecent

    def __dealloc__(self):
        free(self.out.p)
        free(self.segs.p)
        free(self.msgs.p)
        free(self.names.p)
        free(self.fields.p)
        free(self.dec.p)
        free(self.esc.p)
        free(self.lab.p)

    cdef void reset(self) noexcept nogil:
        """Empty the output for the next piece (the buffers are kept)."""
        self.out.n = self.segs.n = self.msgs.n = self.names.n = 0
        self.nrecent = 0

    cdef int run(self, Py_ssize_t start, Py_ssize_t stop, bint whole) except -1 nogil:
        """Walk ``b[start:stop]``: the messages cut at ``From`` lines (the whole range one
        message without its From line when ``whole``), as ``_mail_py.walk``."""
        cdef cbuf b = self.b
        cdef Py_ssize_t p = start, q, data, end, offset
        cdef bint first = True
        cdef const void *hit
        if whole:
            self.message(-1, start, stop)
            return 0
        while p < stop:
            if starts(b, p, stop, "From ", 5):
                data = line_end(b, p, stop)
                offset = p
            else:
                data = p
                offset = -1
            end = stop
            q = data - 1 if data > start else start
            hit = find_from_line(b + q, stop - q) if q < stop else NULL
            if hit != NULL:
                end = (<cbuf>hit - b) + 1
            if offset >= 0 or not first or not _blank(b, data, end):
                self.message(offset, data, end)
            first = False
            p = end
        return 0

    # -- messages -------------------------------------------------------------------

    cdef int message(self, Py_ssize_t offset, Py_ssize_t a, Py_ssize_t e) except -1 nogil:
        cdef Py_ssize_t index = self.msgs.n // (NMSG * 8)
        cdef Py_ssize_t o = self.out.n, s = self.segs.n, nm = self.names.n
        cdef int64_t rec[NMSG]
        cdef int r, i, k
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
            k = 0
            for i in range(self.nrecent):          # labels written by this message go
                if self.recent[i][0] < nm:
                    self.recent[k][0] = self.recent[i][0]
                    self.recent[k][1] = self.recent[i][1]
                    k += 1
            self.nrecent = k
            rec[3] = rec[4] = rec[5] = rec[6] = -1
            rec[7] = C_FALLBACK
        grow_add(&self.msgs, rec, sizeof(rec))
        return 0

    cdef int message_body(self, Py_ssize_t index, Py_ssize_t a, Py_ssize_t e,
                          int64_t *rec) except -1 nogil:
        cdef cbuf b = self.b
        cdef const void *k
        cdef Py_ssize_t p = a, body, nf, i
        cdef Field *f
        cdef char section[1]
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
            if rec[3] < 0 and eq_lower(b, f[i].na, f[i].ne, "message-id"):
                if any_bad(b, f[i].va, f[i].ve):
                    return FB
                rec[3] = f[i].va
                rec[4] = f[i].ve
            elif rec[5] < 0 and eq_lower(b, f[i].na, f[i].ne, "date"):
                if any_bad(b, f[i].va, f[i].ve):
                    return FB
                rec[5] = f[i].va
                rec[6] = f[i].ve
        if self.url_headers(index) == FB:
            return FB
        return self.entity(index, body, e, section, 0, 0, False)

    cdef int header_block(self, Py_ssize_t a, Py_ssize_t e, Py_ssize_t *body) except -1 nogil:
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

    cdef int url_headers(self, Py_ssize_t index) except -1 nogil:
        cdef Py_ssize_t nf = self.fields.n // sizeof(Field), i, p = 0, k
        cdef Field *f = <Field *>self.fields.p
        cdef cbuf h = self.headers
        cdef int64_t la, lb
        while p < self.nheaders:
            k = 0
            while p + k < self.nheaders and h[p + k] != 0:
                k += 1
            for i in range(nf):
                if not eq_lower_n(self.b, f[i].na, f[i].ne, self.lheaders(p), k):
                    continue
                if any_bad(self.b, f[i].va, f[i].ve):
                    return FB
                self.lab.n = 0
                grow_add(&self.lab, "header:", 7)
                grow_add(&self.lab, h + p, k)
                la = self.label(&lb)
                self.segment(index, self.b, f[i].va, f[i].ve, la, lb, C_K_HEADER, 0,
                             f[i].va, -1)
                grow_byte(&self.out, 0)
            p += k + 1
        return 0

    cdef inline cbuf lheaders(self, Py_ssize_t p) noexcept nogil:
        # the lower-case copy of the header names sits right after them
        return self.headers + self.nheaders + p

    # -- MIME entities --------------------------------------------------------------

    cdef int entity(self, Py_ssize_t index, Py_ssize_t body, Py_ssize_t e, const char *section,
                    Py_ssize_t seclen, int depth, bint in_digest) except -1 nogil:
        cdef cbuf b = self.b
        cdef Py_ssize_t nf = self.fields.n // sizeof(Field), i
        cdef Field *f = <Field *>self.fields.p
        cdef Py_ssize_t ca = -1, ce = -1, ta = -1, te = -1, fa, fe, slash, nslash
        cdef Py_ssize_t main_end, bd[2], cs[2]
        cdef int64_t la, lb
        cdef bint html, utf8
        for i in range(nf):
            if ca < 0 and eq_lower(b, f[i].na, f[i].ne, "content-type"):
                ca, ce = f[i].va, f[i].ve
            elif ta < 0 and eq_lower(b, f[i].na, f[i].ne, "content-transfer-encoding"):
                ta, te = f[i].va, f[i].ve
        cs[0] = cs[1] = bd[0] = bd[1] = -1
        fa = fe = slash = -1
        if ca < 0:
            if in_digest:
                return FB                          # message/rfc822 by default
        else:
            if any_bad(b, ca, ce):
                return FB
            if params(b, ca, ce, &main_end, bd, cs) == FB:
                return FB
            fa, fe = ca, main_end
            strip_span(b, &fa, &fe)
            nslash = 0
            for i in range(fa, fe):
                if b[i] == 47:
                    nslash += 1
                    slash = i
            if nslash != 1:
                fa = fe = slash = -1               # text/plain
        if fa < 0:                                 # text/plain
            html = False
        else:
            if eq_lower(b, fa, slash, "message"):
                return FB
            if eq_lower(b, fa, slash, "multipart"):
                if bd[0] < 0 or depth >= self.max_depth:
                    return FB
                while bd[1] > bd[0] and is_blank_octet(b[bd[1] - 1]):
                    bd[1] -= 1
                return self.multipart(index, body, e, bd[0], bd[1], section, seclen, depth,
                                      eq_lower(b, slash + 1, fe, "digest"))
            if not eq_lower(b, fa, slash, "text"):
                return 0                           # images, archives...: not text
            html = eq_lower(b, slash + 1, fe, "html")
        if ta >= 0 and any_bad(b, ta, te):
            return FB
        if cs[0] >= 0 and not charset_ok(b, cs[0], cs[1], self.charsets, self.ncharsets):
            return FB
        # the twin's _utf8: only a UTF-8 part's non-ASCII octets are scanned as they stand
        utf8 = cs[0] < 0 or eq_lower(b, cs[0], cs[1], "utf-8") or eq_lower(b, cs[0], cs[1], "utf8")
        self.lab.n = 0
        if seclen:
            grow_add(&self.lab, section, seclen)
        else:
            grow_byte(&self.lab, 49)               # "1"
        grow_byte(&self.lab, 32)
        if fa < 0:
            grow_add(&self.lab, "text/plain", 10)
        else:
            for i in range(fa, fe):
                grow_byte(&self.lab, lower(b[i]))
        la = self.label(&lb)
        if ta < 0 or te == ta or eq_lower(b, ta, te, "7bit") or eq_lower(b, ta, te, "8bit") \
                or eq_lower(b, ta, te, "binary"):
            if not utf8 and url_glued_high(b + body, e - body):
                return FB
            if html:
                if self.html(index, b + body, e - body, la, lb) == FB:
                    return FB
            else:
                self.text(index, b, body, e, la, lb, body)
        elif eq_lower(b, ta, te, "quoted-printable") or eq_lower(b, ta, te, "base64"):
            self.dec.n = 0
            if eq_lower(b, ta, te, "base64"):
                if b64_decode(b + body, e - body, &self.dec) == FB:
                    return FB
            else:
                qp_decode(b + body, e - body, &self.dec)
            if not utf8 and url_glued_high(<cbuf>self.dec.p, self.dec.n):
                return FB
            if html:
                if self.html(index, <cbuf>self.dec.p, self.dec.n, la, lb) == FB:
                    return FB
            else:
                self.text(index, <cbuf>self.dec.p, 0, self.dec.n, la, lb, -1)
        else:
            return FB                              # uuencode, an unknown encoding
        grow_byte(&self.out, 0)
        return 0

    cdef int multipart(self, Py_ssize_t index, Py_ssize_t a, Py_ssize_t e, Py_ssize_t ba,
                       Py_ssize_t be, const char *section, Py_ssize_t seclen, int depth,
                       bint digest) except -1 nogil:
        """The parts between ``--boundary`` lines (RFC 2046 section 5.1.1), the boundary
        being ``b[ba:be]``; each walked as soon as it is cut."""
        cdef cbuf b = self.b
        cdef Py_ssize_t p = a, le, part_start = -1, body, number = 0
        cdef int kind
        cdef bint closed = False
        while p < e:
            le = line_end(b, p, e)
            kind = boundary_line(b, p, le, b + ba, be - ba)
            if kind == 2:
                if part_start >= 0:
                    number += 1
                    if self.part(index, part_start, eol_before(b, part_start, p), section,
                                 seclen, number, depth, digest) == FB:
                        return FB
                closed = True
                break
            if kind == 1:
                if part_start >= 0:
                    number += 1
                    if self.part(index, part_start, eol_before(b, part_start, p), section,
                                 seclen, number, depth, digest) == FB:
                        return FB
                p = le
                while p < e:
                    le = line_end(b, p, e)
                    if not boundary_line(b, p, le, b + ba, be - ba):
                        break
                    p = le
                part_start = p
                continue
            p = le
        if part_start < 0:
            return FB                              # no boundary at all: email keeps the text
        if not closed:
            number += 1
            return self.part(index, part_start, eol_before(b, part_start, e), section, seclen,
                             number, depth, digest)
        return 0

    cdef int part(self, Py_ssize_t index, Py_ssize_t pa, Py_ssize_t pe, const char *section,
                  Py_ssize_t seclen, Py_ssize_t number, int depth, bint digest) except -1 nogil:
        cdef char sub[SECTION_MAX + 32]
        cdef char digits[24]
        cdef Py_ssize_t n = 0, k = 0, body
        if seclen > SECTION_MAX:
            return FB
        if seclen:
            memcpy(sub, section, seclen)
            n = seclen
            sub[n] = 46                             # "."
            n += 1
        while True:
            digits[k] = <char>(48 + number % 10)
            k += 1
            number //= 10
            if number == 0:
                break
        while k:
            k -= 1
            sub[n] = digits[k]
            n += 1
        if self.header_block(pa, pe, &body) == FB:
            return FB
        return self.entity(index, body, pe, sub, n, depth + 1, digest)

    # -- text -----------------------------------------------------------------------

    cdef int text(self, Py_ssize_t index, cbuf d, Py_ssize_t a, Py_ssize_t n, int64_t la,
                  int64_t lb, Py_ssize_t src) except -1 nogil:
        """A text part ``d[a:n]``: as ``_mail_py._Walk.text`` (offsets in the part are
        from ``a``; ``src`` >= 0: ``d`` is the spool and the part is at ``src``)."""
        cdef Py_ssize_t p = a, q = a, le, i, m
        cdef bint open_ = False
        cdef const void *k
        while q < n:
            if not open_:
                # no "<" open: lines without one change nothing; go to the next line
                # that has one (its line start is found going back, so each octet
                # is looked at a bounded number of times)
                k = memchr(d + q, 60, n - q)
                if k == NULL:
                    break
                i = <cbuf>k - d
                while i > q and d[i - 1] != 10:
                    i -= 1
                q = i
            k = memchr(d + q, 10, n - q)
            le = n if k == NULL else (<cbuf>k - d) + 1
            if open_:
                m = quote_prefix(d, q, le)
                if m > q:
                    self.segment(index, d, p, q, la, lb, C_K_TEXT, p - a,
                                 src + p - a if src >= 0 else -1, -1)
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
        self.segment(index, d, p, n, la, lb, C_K_TEXT, p - a, src + p - a if src >= 0 else -1, -1)
        return 0

    # -- HTML -----------------------------------------------------------------------

    cdef int html(self, Py_ssize_t index, cbuf d, Py_ssize_t n, int64_t la,
                  int64_t lb) except -1 nogil:
        """``href``/``src`` values and text runs of ``d[:n]`` (as ``_mail_py._Walk.html``)."""
        cdef Py_ssize_t i = 0, run = 0, j, k, stop, p, q, tn_a, tn_e, an_a, an_e, va, ve
        cdef Py_ssize_t anchor = -1, href, seg
        cdef const void *hit
        cdef unsigned char c, quote
        cdef bint letter, closing
        cdef int kind
        cdef cbuf v
        cdef Py_ssize_t vn
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
                if self.html_text(index, d, run, j, la, lb, anchor, True) == FB:
                    return FB
                i = run = j + 3
                continue
            if self.html_text(index, d, run, j, la, lb, anchor, True) == FB:
                return FB
            if letter or (c == 47 and j + 2 < n and is_letter(d[j + 2])):
                # the tag: its name, then attributes, each read and used at once
                closing = c == 47
                p = j + 2 if closing else j + 1
                tn_a = p
                p = past(d, n, p, "\t\n\f\r />", False)
                tn_e = p
                href = -1
                while True:
                    p = past(d, n, p, "\t\n\f\r /", True)
                    if p >= n:
                        return FB                  # never closed
                    if d[p] == 62:
                        break
                    an_a = p
                    p = past(d, n, p + 1, "\t\n\f\r />=", False)
                    an_e = p
                    p = past(d, n, p, "\t\n\f\r ", True)
                    va = ve = -1
                    if p < n and d[p] == 61:
                        p = past(d, n, p + 1, "\t\n\f\r ", True)
                        if p >= n:
                            return FB
                        quote = d[p]
                        if quote == 34 or quote == 39:
                            hit = memchr(d + p + 1, quote, n - p - 1) if p + 1 < n else NULL
                            if hit == NULL:
                                return FB
                            q = <cbuf>hit - d
                            va, ve = p + 1, q
                            p = q + 1
                        else:
                            q = past(d, n, p, "\t\n\f\r >", False)
                            va, ve = p, q
                            p = q
                    if closing or va < 0:
                        continue
                    if eq_lower(d, an_a, an_e, "href"):
                        kind = C_K_HREF
                    elif eq_lower(d, an_a, an_e, "src"):
                        kind = C_K_SRC
                    else:
                        continue
                    if self.unescaped(d, va, ve, &v, &vn) == FB:
                        return FB
                    if strip_value(&v, &vn) == FB:
                        return FB
                    if vn == 0:
                        continue
                    if kind == C_K_HREF and eq_lower(d, tn_a, tn_e, "base"):
                        return FB                  # relative links resolve against it
                    seg = self.segs.n // (NSEG * 8)
                    if has_scheme(v, vn):
                        self.segment(index, v, 0, vn, la, lb, kind, j, -1, -1)
                        grow_byte(&self.out, 0)
                        if kind == C_K_HREF:
                            href = seg
                    elif kind == C_K_HREF:
                        href = -2
                i = run = p + 1
                if closing:
                    if eq_lower(d, tn_a, tn_e, "a"):
                        anchor = -1
                    continue
                if eq_lower(d, tn_a, tn_e, "a"):
                    anchor = href
                if eq_lower(d, tn_a, tn_e, "script") or eq_lower(d, tn_a, tn_e, "style"):
                    stop = raw_end(d, n, i, d + tn_a, tn_e - tn_a)
                    if self.html_text(index, d, i, stop, la, lb, anchor, False) == FB:
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
            if not (c == 63 or (n - (j + 2) >= 7 and eq_lower(d, j + 2, j + 9, "doctype"))):
                return FB
            i = run = (<cbuf>hit - d) + 1
        return self.html_text(index, d, run, n, la, lb, anchor, True)

    cdef int html_text(self, Py_ssize_t index, cbuf d, Py_ssize_t a, Py_ssize_t e,
                       int64_t la, int64_t lb, Py_ssize_t anchor, bint decode) except -1 nogil:
        cdef cbuf v
        cdef Py_ssize_t vn
        if a >= e:
            return 0
        if decode and memchr(d + a, 38, e - a) != NULL:
            if self.unescaped(d, a, e, &v, &vn) == FB:
                return FB
            self.segment(index, v, 0, vn, la, lb, C_K_HTML_TEXT, a, -1, anchor)
        else:
            self.segment(index, d, a, e, la, lb, C_K_HTML_TEXT, a, -1, anchor)
        grow_byte(&self.out, 0)
        return 0

    cdef int unescaped(self, cbuf d, Py_ssize_t a, Py_ssize_t e, cbuf *v,
                       Py_ssize_t *vn) except -1 nogil:
        """``d[a:e]`` with its character references undone: ``v[0][:vn[0]]`` (in
        ``self.esc`` when anything was undone). The few kinds mail is full of here; the
        rest by the caller's ``unescape`` (with the GIL); FB without one."""
        cdef Py_ssize_t p = a, k
        cdef unsigned char c
        cdef bint slow = False
        if memchr(d + a, 38, e - a) == NULL if a < e else True:
            v[0] = d + a
            vn[0] = e - a
            return 0
        self.esc.n = 0
        grow_reserve(&self.esc, e - a)
        while p < e:
            if d[p] == 38:
                k = reference(d, p, e, &c)
                if k == 0:
                    slow = True
                    break
                self.esc.p[self.esc.n] = <char>c
                p += k
            else:
                self.esc.p[self.esc.n] = <char>d[p]
                p += 1
            self.esc.n += 1
        if slow and self.unescaped_by_python(d, a, e) == FB:
            return FB
        v[0] = <cbuf>self.esc.p
        vn[0] = self.esc.n
        return 0

    cdef int unescaped_by_python(self, cbuf d, Py_ssize_t a, Py_ssize_t e) except -1 with gil:
        # A function of its own: a Python local in ``unescaped`` would make every call
        # take the GIL on the way out, and the walk on worker threads wait for it.
        if self.unescape is None:
            return FB
        text = self.unescape(PyBytes_FromStringAndSize(<char *>d + a, e - a)
                             .decode("latin-1")).encode("utf-8", "surrogatepass")
        self.esc.n = 0
        grow_add(&self.esc, <char *>text, len(text))
        return 0

    # -- output ---------------------------------------------------------------------

    cdef int64_t label(self, int64_t *lb) except -1 nogil:
        """Where the label in ``self.lab`` is in ``names`` (``lb[0]``: its end): one of
        the last :data:`LABEL_CACHE` written, else written now."""
        cdef int i
        cdef int64_t a
        for i in range(self.nrecent - 1, -1, -1):
            a = self.recent[i][0]
            if self.recent[i][1] - a == self.lab.n and \
                    memcmp(self.names.p + a, self.lab.p, self.lab.n) == 0:
                lb[0] = self.recent[i][1]
                return a
        a = self.names.n
        grow_add(&self.names, self.lab.p, self.lab.n)
        if self.nrecent == NRECENT:
            for i in range(NRECENT - 1):
                self.recent[i][0] = self.recent[i + 1][0]
                self.recent[i][1] = self.recent[i + 1][1]
            self.nrecent -= 1
        self.recent[self.nrecent][0] = a
        self.recent[self.nrecent][1] = self.names.n
        self.nrecent += 1
        lb[0] = self.names.n
        return a

    cdef int segment(self, Py_ssize_t index, cbuf d, Py_ssize_t a, Py_ssize_t e, int64_t la,
                     int64_t lb, int kind, Py_ssize_t part_offset, Py_ssize_t where,
                     Py_ssize_t anchor) except -1 nogil:
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


cdef Py_ssize_t quote_prefix(cbuf d, Py_ssize_t q, Py_ssize_t le) noexcept nogil:
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


cdef int boundary_line(cbuf b, Py_ssize_t p, Py_ssize_t le, cbuf bd, Py_ssize_t k) noexcept nogil:
    """1 for a ``--boundary`` line (blanks after it), 2 for the closing one, else 0."""
    cdef Py_ssize_t q
    cdef int kind = 1
    if le - p < k + 2 or b[p] != 45 or b[p + 1] != 45 or memcmp(b + p + 2, bd, k) != 0:
        return 0
    q = p + 2 + k
    if le - q >= 2 and b[q] == 45 and b[q + 1] == 45:
        q += 2
        kind = 2
    while q < le and (b[q] == 32 or b[q] == 9):
        q += 1
    if q == le or (le - q == 1 and b[q] == 10) or (le - q == 2 and b[q] == 13 and b[q + 1] == 10):
        return kind
    return 0


cdef Py_ssize_t eol_before(cbuf b, Py_ssize_t a, Py_ssize_t p) noexcept nogil:
    if p - 2 >= a and b[p - 2] == 13 and b[p - 1] == 10:
        return p - 2
    if p - 1 >= a and (b[p - 1] == 10 or b[p - 1] == 13):
        return p - 1
    return p


cdef Py_ssize_t find3(cbuf d, Py_ssize_t p, Py_ssize_t n) noexcept nogil:
    """Where ``-->`` is at or after ``p``, or -1."""
    while p + 3 <= n:
        if d[p] == 45 and d[p + 1] == 45 and d[p + 2] == 62:
            return p
        p += 1
    return -1


cdef bint has_scheme(cbuf v, Py_ssize_t n) noexcept nogil:
    """``v[:n]`` starts with ``scheme:`` (RFC 3986 section 3.1)."""
    cdef Py_ssize_t i
    if n == 0 or not is_letter(v[0]):
        return False
    for i in range(1, n):
        if v[i] == 58:
            return True
        if not (is_letter(v[i]) or 48 <= v[i] <= 57 or v[i] == 43 or v[i] == 46 or v[i] == 45):
            return False
    return False


cdef int strip_value(cbuf *v, Py_ssize_t *n) noexcept nogil:
    """An attribute value without the ASCII white space around it (``bytes.strip``);
    FB with a non-ASCII octet or an information separator at either end."""
    cdef unsigned char c0, c1
    while n[0] and (v[0][0] == 32 or 9 <= v[0][0] <= 13):
        v[0] += 1
        n[0] -= 1
    while n[0] and (v[0][n[0] - 1] == 32 or 9 <= v[0][n[0] - 1] <= 13):
        n[0] -= 1
    if n[0]:
        c0 = v[0][0]
        c1 = v[0][n[0] - 1]
        if c0 >= 0x80 or c1 >= 0x80 or 0x1c <= c0 <= 0x1f or 0x1c <= c1 <= 0x1f:
            return FB
    return 0


cdef inline bint in_set(unsigned char c, const char *s) noexcept nogil:
    while s[0]:
        if <unsigned char>s[0] == c:
            return True
        s += 1
    return False


cdef Py_ssize_t past(cbuf d, Py_ssize_t n, Py_ssize_t p, const char *stops, bint inside) noexcept nogil:
    while p < n and in_set(d[p], stops) == inside:
        p += 1
    return p


cdef Py_ssize_t raw_end(cbuf d, Py_ssize_t n, Py_ssize_t i, cbuf tag, Py_ssize_t k) noexcept nogil:
    """Where ``</tag`` followed by white space, ``/`` or ``>`` starts (any case), or n."""
    cdef Py_ssize_t p = i, t
    cdef const void *hit
    cdef bint same
    while p < n:
        hit = memchr(d + p, 60, n - p)
        if hit == NULL:
            return n
        p = <cbuf>hit - d
        if n - p >= k + 3 and d[p + 1] == 47:
            same = True
            for t in range(k):
                if lower(d[p + 2 + t]) != lower(tag[t]):
                    same = False
                    break
            if same and in_set(d[p + 2 + k], "\t\n\f\r />"):
                return p
        p += 1
    return n


cdef Py_ssize_t reference(cbuf d, Py_ssize_t p, Py_ssize_t n, unsigned char *c) noexcept nogil:
    """The character reference at ``d[p]`` (``&``) when it is one of those mail HTML is
    full of and ``html.unescape`` reads as one printable ASCII character: ``&amp;``,
    ``&lt;``, ``&gt;``, ``&quot;``, ``&apos;``, and ``&#NN;``/``&#xHH;`` for U+0020 to
    U+007E (the ``;`` written: no legacy reading). Its length, the character in
    ``c[0]``; 0 for anything else (the whole text then goes to ``html.unescape``)."""
    cdef Py_ssize_t q = p + 1, k
    cdef int v = 0
    if q < n and d[q] == 35:                       # "#": a numeric reference
        q += 1
        if q < n and (d[q] == 120 or d[q] == 88):  # "x", "X"
            q += 1
            k = q
            while q < n and q - k < 6 and hexval(d[q]) >= 0:
                v = v * 16 + hexval(d[q])
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


cdef _Walk _new_walk(bytes headers, bytes charsets, int max_depth, unescape):
    """A walker for the spools of one caller (what stays from piece to piece)."""
    cdef _Walk w = _Walk()
    # the header names as given, then a lower-case copy of them (for the comparisons)
    w.headers_b = headers + headers.lower()
    w.headers = <cbuf>(<char *>w.headers_b)
    w.nheaders = len(headers)
    w.charsets_b = charsets.lower()
    w.charsets = <cbuf>(<char *>w.charsets_b)
    w.ncharsets = len(charsets)
    w.max_depth = max_depth
    w.unescape = unescape
    return w


cdef tuple _walked(_Walk w):
    """What walk returns, from the walker's buffers."""
    out = PyByteArray_FromStringAndSize(w.out.p, w.out.n)
    segs = array("q", PyBytes_FromStringAndSize(w.segs.p, w.segs.n))
    msgs = array("q", PyBytes_FromStringAndSize(w.msgs.p, w.msgs.n))
    names = PyByteArray_FromStringAndSize(w.names.p, w.names.n)
    return out, segs, msgs, names


def walk(buf, Py_ssize_t start, Py_ssize_t stop, bytes headers, bytes charsets,
         int max_depth, unescape, bint whole=False):
    """See ``urlsift._mail_py.walk``; the walk runs without the GIL."""
    cdef const unsigned char[::1] view = buf
    cdef _Walk w = _new_walk(headers, charsets, max_depth, unescape)
    if not (0 <= start <= stop <= view.shape[0]):
        raise ValueError(f"walk: bad range {start}..{stop} of a buffer of {view.shape[0]} octets")
    w.buf = buf
    w.b = &view[0] if view.shape[0] else <cbuf>b""
    with nogil:
        w.run(start, stop, whole)
    return _walked(w)


cdef bint _blank(cbuf b, Py_ssize_t a, Py_ssize_t e) noexcept nogil:
    """``b[a:e].strip()`` is empty (ASCII white space only)."""
    cdef Py_ssize_t i
    for i in range(a, e):
        if not (b[i] == 32 or 9 <= b[i] <= 13):
            return False
    return True


include "_mail_trace.pxi"
include "_mail_pipe.pxi"
