# Included by _mail_c.pyx: a spool cut into messages, and each message into its header
# block and body (twin: _mail_cut_py.py); walk(), the walk's entry point. Messages are
# cut at the lines that start with "From " (urlsift._layout.MBOX_SEPARATOR, RFC 4155
# section 2); a message with a bare CR (email cuts lines there) falls back.

cdef extern from *:
    """
    #include <string.h>
    /* Where the next "\\nFrom " starts in b[0:n], or NULL. With SSE2, 16 places at a
       time: a LF followed by "F" (rare: a "From:" field's line start), then the rest
       compared; what is left (or everything, without SSE2) a line at a time with
       memchr. glibc's memmem went at a fraction of that speed. The separator is defined
       in Python as urlsift._layout.MBOX_SEPARATOR (FROM_LINE without its newline);
       these literals are its octets (tests/test_mail_core.py checks). */
    static const void *urlsift_find_from_line(const unsigned char *b, size_t n) {
        const unsigned char *k;
    #ifdef URLSIFT_MAIL_SSE2
        const __m128i lf = _mm_set1_epi8('\\n'), f = _mm_set1_epi8('F');
        size_t i = 0, at;
        unsigned int m;
        for (; i + 17 <= n; i += 16) {
            m = (unsigned int)_mm_movemask_epi8(_mm_and_si128(
                _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(b + i)), lf),
                _mm_cmpeq_epi8(_mm_loadu_si128((const __m128i *)(b + i + 1)), f)));
            for (; m; m &= m - 1) {
                at = i + (size_t)__builtin_ctz(m);
                if (n - at >= 6 && memcmp(b + at + 2, "rom ", 4) == 0) return b + at;
            }
        }
        b += i;
        n -= i;
    #endif
        while (n >= 6 && (k = memchr(b, '\\n', n - 5)) != NULL) {
            if (memcmp(k + 1, "From ", 5) == 0) return k;
            n -= (size_t)(k + 1 - b);
            b = k + 1;
        }
        return NULL;
    }
    """
    const void *find_from_line "urlsift_find_from_line"(cbuf b, size_t n) nogil


def walk(buf, Py_ssize_t start, Py_ssize_t stop, bytes headers, bytes charsets,
         int max_depth, unescape, bint whole=False):
    """See ``urlsift._mail_cut_py.walk``; the walk runs without the GIL."""
    cdef const unsigned char[::1] view = buf
    cdef _Walk w = new_walk(headers, charsets, max_depth, unescape)
    if not (0 <= start <= stop <= view.shape[0]):
        raise ValueError(f"walk: bad range {start}..{stop} of a buffer of {view.shape[0]} octets")
    w.buf = buf
    w.b = &view[0] if view.shape[0] else <cbuf>b""
    with nogil:
        cut_spool(w, start, stop, whole)
    return walked(w)


cdef int cut_spool(_Walk w, Py_ssize_t start, Py_ssize_t stop, bint whole) except -1 nogil:
    """Walk ``b[start:stop]``: the messages cut at ``From`` lines (the whole range one
    message without its From line when ``whole``), as ``_mail_cut_py.walk``."""
    cdef cbuf b = w.b
    cdef Py_ssize_t p = start, q, data, end, offset
    cdef bint first = True
    cdef const void *hit
    if whole:
        cut_message(w, -1, start, stop)
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
        if offset >= 0 or not first or not blank(b, data, end):
            cut_message(w, offset, data, end)
        first = False
        p = end
    return 0


cdef int cut_message(_Walk w, Py_ssize_t offset, Py_ssize_t a, Py_ssize_t e) except -1 nogil:
    """The message ``b[a:e]`` (its From line at ``offset``, -1 without one): its record,
    and its segments unless it falls back."""
    cdef Py_ssize_t index = w.msgs.n // (NMSG * 8)
    cdef Py_ssize_t o = w.out.n, s = w.segs.n, nm = w.names.n
    cdef int64_t rec[NMSG]
    rec[MSG_FROM_LINE] = offset
    rec[MSG_START] = a
    rec[MSG_END] = e
    rec[MSG_ID_START] = rec[MSG_ID_END] = rec[MSG_DATE_START] = rec[MSG_DATE_END] = -1
    rec[MSG_FLAGS] = 0
    if cut_body(w, index, a, e, rec) == FB:
        w.undo(o, s, nm)
        rec[MSG_ID_START] = rec[MSG_ID_END] = rec[MSG_DATE_START] = rec[MSG_DATE_END] = -1
        rec[MSG_FLAGS] = C_FALLBACK
    grow_add(&w.msgs, rec, sizeof(rec))
    return 0


cdef int cut_body(_Walk w, Py_ssize_t index, Py_ssize_t a, Py_ssize_t e,
                  int64_t *rec) except -1 nogil:
    """The header block of the message ``b[a:e]``: its Message-ID and Date spans into
    ``rec``, its URL-bearing headers, then its entity."""
    cdef cbuf b = w.b
    cdef const void *k
    cdef Py_ssize_t p = a, body, nf, i
    cdef Field *f
    cdef char section[1]
    while p < e:                      # a CR not followed by LF: email cuts lines there
        k = memchr(b + p, CR, e - p)
        if k == NULL:
            break
        p = (<cbuf>k - b) + 1
        if p >= e or b[p] != LF:
            return FB
    if header_block(w, a, e, &body) == FB:
        return FB
    nf = w.fields.n // sizeof(Field)
    f = <Field *>w.fields.p
    for i in range(nf):
        if rec[MSG_ID_START] < 0 and eq_lower(b, f[i].na, f[i].ne, "message-id"):
            if any_bad(b, f[i].va, f[i].ve):
                return FB             # email makes it a Header object
            rec[MSG_ID_START] = f[i].va
            rec[MSG_ID_END] = f[i].ve
        elif rec[MSG_DATE_START] < 0 and eq_lower(b, f[i].na, f[i].ne, "date"):
            if any_bad(b, f[i].va, f[i].ve):
                return FB
            rec[MSG_DATE_START] = f[i].va
            rec[MSG_DATE_END] = f[i].ve
    if url_headers(w, index) == FB:
        return FB
    return mime_entity(w, index, body, e, section, 0, 0, False)


cdef bint blank(cbuf b, Py_ssize_t a, Py_ssize_t e) noexcept nogil:
    """``b[a:e].strip()`` is empty (ASCII white space only)."""
    cdef Py_ssize_t i
    for i in range(a, e):
        if not (b[i] == SPACE or TAB <= b[i] <= CR):
            return False
    return True
