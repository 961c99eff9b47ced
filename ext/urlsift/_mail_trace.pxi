# Included by _mail_c.pyx: from the matches of the walk's scan text back to messages
# (twin: _mail_trace_py.py): trace makes the match tuples, url_triples keeps the
# triples the command writes as lines, anchor_runs gives each <a> its text. What is
# shown (a Message-ID, a Date) and which links are the same are the mail layer's rules,
# handed in as a Tracing.

cdef extern from "Python.h":
    ctypedef struct PyTypeObject
    ctypedef struct PyObject
    PyObject *PyTuple_GET_ITEM(object t, Py_ssize_t i)
    void *PyUnicode_DATA(object s)
    bint PyUnicode_IS_ASCII(object s)
    const char *PyUnicode_AsUTF8AndSize(object s, Py_ssize_t *size) except NULL
    object _PyObject_GC_NewVar "(PyObject *)_PyObject_GC_NewVar"(PyTypeObject *t, Py_ssize_t n)
    void PyTuple_SET_ITEM(object t, Py_ssize_t i, object o)
    void Py_INCREF(object o)
    PyObject *PyList_GET_ITEM(object l, Py_ssize_t i)

include "_keyed_hash.pxi"


cdef inline void _put(object t, Py_ssize_t i, object o) noexcept:
    Py_INCREF(o)
    PyTuple_SET_ITEM(t, i, o)


cdef object _new(object cls, object url, object raw, object start, object end,
                 object message_id, object date, object part, object source, object at,
                 int64_t flags, object edits, object where, object shown):
    # ``tuple.__new__(cls, (...))`` without the call: a tuple subclass without __dict__
    # filled in place (every item is immutable, so no cycle can go through it; like the
    # Match objects of the scan, it is left untracked by the collector)
    cdef object t = _PyObject_GC_NewVar(<PyTypeObject *>cls, 15)
    cdef int low = flags & 0xFF
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
    _put(t, 10, True if low & WRAPPED else False)
    _put(t, 11, True if low & HYPHEN_BREAK else False)
    _put(t, 12, <object>PyTuple_GET_ITEM(edits, edits_index(url, flags)))
    _put(t, 13, where)
    _put(t, 14, shown)
    return t


cdef inline bint too_large(const int64_t *m, Py_ssize_t limit) noexcept nogil:
    """The message of record ``m`` (or its From line) is larger than ``limit``."""
    return (m[MSG_END] - m[MSG_START] > limit
            or (m[MSG_FROM_LINE] >= 0 and m[MSG_START] - m[MSG_FROM_LINE] > limit))


cdef bint _plain_id(cbuf d, Py_ssize_t a, Py_ssize_t e) nogil:
    """No white space in ``d[a:e]`` and not empty: ``clean`` would give it unchanged."""
    cdef Py_ssize_t i
    if a >= e:
        return False
    for i in range(a, e):
        if d[i] == SPACE or TAB <= d[i] <= CR or 28 <= d[i] <= 31:
            return False
    return True


cdef tuple _head(cbuf pv, const int64_t *m, id_of, date_of):
    """``(message_id, date)`` of the message of record ``m`` in ``pv`` (the twin's
    ``head``): a plain Message-ID as it stands, any other by ``id_of``; a Date in the
    fixed form read here, any other by ``date_of``."""
    cdef int64_t ida = m[MSG_ID_START], ide = m[MSG_ID_END]
    cdef int64_t da = m[MSG_DATE_START], de = m[MSG_DATE_END]
    message_id = date = None
    if ida >= 0:
        if _plain_id(pv, ida, ide):             # as it stands: no bytes made first
            message_id = PyUnicode_DecodeASCII(<const char *>pv + ida, ide - ida, NULL)
        else:
            message_id = id_of(PyBytes_FromStringAndSize(<char *>pv + ida, ide - ida))
    if da >= 0:
        date = iso_text(pv + da, de - da)
        if date is None:
            date = date_of(PyBytes_FromStringAndSize(<char *>pv + da, de - da))
    return message_id, date


cdef struct Walked:
    const int64_t *tr           # the scan's triples
    Py_ssize_t total
    const int64_t *sg           # segment records
    Py_ssize_t nsegs
    cbuf o                      # the scan text
    Py_ssize_t nout
    cbuf pv                     # the piece walked
    const uint8_t *T


cdef inline Py_ssize_t seg_at(Walked *x, Py_ssize_t s, Py_ssize_t at) noexcept nogil:
    """The segment that holds ``text[at]``, looked for from segment ``s`` on."""
    while s + 1 < x.nsegs and x.sg[(s + 1) * NSEG + SEG_START] <= at:
        s += 1
    return s


@cython.final
cdef class _Trace:
    """One call of trace: the walk read through ``x``, the rules, the matches made."""
    cdef Walked x
    cdef Py_ssize_t s                  # the segment of the triple being traced
    cdef Py_ssize_t base, last_key
    cdef object cls, id_of, date_of, same_link, edits, names, source, part
    cdef dict labels
    cdef const int64_t *shown_at      # by segment: the index of its <a>'s text, or -1
    cdef list shown                   # the texts
    cdef list result

    cdef Py_ssize_t message(self, Py_ssize_t i, const int64_t *m, Py_ssize_t k) except -1:
        """The matches of message ``i`` (record ``m``) from triple ``k`` on; the next triple."""
        cdef Walked *x = &self.x
        cdef object message_id, date
        message_id, date = _head(x.pv, m, self.id_of, self.date_of)
        at = self.base + m[MSG_FROM_LINE] if m[MSG_FROM_LINE] >= 0 else None
        while k < x.total:
            self.s = seg_at(x, self.s, x.tr[3 * k])
            if x.sg[self.s * NSEG + SEG_MESSAGE] != i:
                break
            self.match(&x.tr[3 * k], message_id, date, at)
            k += 1
        return k

    cdef inline int match(self, const int64_t *t, object message_id, object date,
                   object at) except -1:
        """The match of triple ``t`` (in segment ``self.s``), unless it is the text of an
        ``<a>`` that is its href."""
        cdef Walked *x = &self.x
        cdef const int64_t *r = x.sg + self.s * NSEG
        cdef Py_ssize_t u0, u1, seg_start = r[SEG_START], kind = r[SEG_KIND], e, key
        cdef const int64_t *h
        cdef int squeeze
        cdef str url, raw
        cdef object start, end, where = None, shown = None
        if encoded(t[2]):                       # not from the mail scan (no octets table)
            url, raw = triple_octets(x.o, x.nout, t)
        else:
            raw = triple_raw(x.o, 1, x.nout, t, &u0, &u1, &squeeze, None)
            url = triple_url(raw, t, u0, u1, squeeze, x.T)
        if kind == C_K_HTML_TEXT and r[SEG_ANCHOR] >= 0:
            h = x.sg + r[SEG_ANCHOR] * NSEG
            if self.same_href(url, h[SEG_START], h[SEG_END]):
                return 0                        # <a href="U">U</a>: the href said it
        key = r[SEG_LABEL_START] * KEYS + kind  # a label, and the kind for its suffix
        if key != self.last_key:
            self.part = self.labels.get(key)
            if self.part is None:
                self.part = bytes(self.names[r[SEG_LABEL_START]:r[SEG_LABEL_END]]).decode("latin-1")
                self.part += PART_SUFFIX.get(kind, "")
                self.labels[key] = self.part
            self.last_key = key
        if kind >= C_K_HREF:                   # a value: the URLs of an attribute (or CSS)
            if self.shown_at != NULL and self.shown_at[self.s] >= 0:
                shown = <object>PyList_GET_ITEM(self.shown, self.shown_at[self.s])
            start = end = r[SEG_PART_OFFSET]
            # the raw text is the whole value: the triple's span most often, whose ASCII
            # text is made already (and is the url, the same str, when nothing was cut)
            if not (t[0] == seg_start and t[1] == r[SEG_END] and PyUnicode_IS_ASCII(raw)):
                raw = PyBytes_FromStringAndSize(<char *>x.o + seg_start,
                                                r[SEG_END] - seg_start).decode("utf-8", "replace")
        else:
            start = r[SEG_PART_OFFSET] + t[0] - seg_start
            if t[1] <= r[SEG_END]:
                end = r[SEG_PART_OFFSET] + t[1] - seg_start
            else:                               # a wrapper over lines split at "> "
                h = x.sg + seg_at(x, self.s, t[1] - 1) * NSEG
                end = h[SEG_PART_OFFSET] + t[1] - h[SEG_START]
                if r[SEG_SRC] >= 0:             # as it stands, prefixes included
                    e = h[SEG_SRC] + t[1] - h[SEG_START]
                    raw = PyBytes_FromStringAndSize(
                        <char *>x.pv + r[SEG_SRC] + t[0] - seg_start,
                        e - (r[SEG_SRC] + t[0] - seg_start)).decode("latin-1")
            if r[SEG_SRC] >= 0:
                where = self.base + r[SEG_SRC] + t[0] - seg_start
        self.result.append(_new(self.cls, url, raw, start, end, message_id, date, self.part,
                                self.source, at, t[2], self.edits, where, shown))
        return 0


    cdef bint same_href(self, str url, Py_ssize_t a, Py_ssize_t e) except -1:
        """``how.same_link(url, text[a:e] as UTF-8)``; the same octets are the same link
        without asking (the rule is an equivalence: ``Tracing``), the rest asks."""
        cdef Walked *x = &self.x
        cdef const char *u
        cdef Py_ssize_t n
        if PyUnicode_IS_ASCII(url):
            u = <const char *>PyUnicode_DATA(url)
            n = len(url)
        else:
            u = PyUnicode_AsUTF8AndSize(url, &n)
        if n == e - a and memcmp(u, x.o + a, n) == 0:
            return True
        href = PyBytes_FromStringAndSize(<char *>x.o + a, e - a).decode("utf-8", "replace")
        return self.same_link(url, href)


def trace(triples, walked, piece, Py_ssize_t base, str source, how, tuple texts=None):
    """See ``urlsift._mail_trace_py.trace``."""
    out, segs, msgs, names = walked
    cdef const int64_t[::1] shown_at = None
    cdef const int64_t[::1] tr = triples
    cdef const int64_t[::1] sg = segs
    cdef const int64_t[::1] ms = msgs
    cdef const unsigned char[::1] pv = piece
    cdef const unsigned char[::1] ov = out
    cdef Py_ssize_t nmsgs = ms.shape[0] // NMSG, limit = how.limit, k = 0, i
    cdef const int64_t *m
    cdef _Trace tc = _Trace()
    cdef Walked *x = &tc.x
    if len(how.edits) != N_EDITS:
        raise ValueError(f"edits must have {N_EDITS} entries")
    x.tr = &tr[0] if tr.shape[0] else NULL
    x.total = tr.shape[0] // 3
    x.sg = &sg[0] if sg.shape[0] else NULL
    x.nsegs = sg.shape[0] // NSEG
    x.nout = ov.shape[0]
    x.o = &ov[0] if x.nout else <cbuf>b""
    x.pv = &pv[0] if pv.shape[0] else <cbuf>b""
    x.T = table_ptr(how.table)
    tc.base, tc.last_key, tc.s = base, -1, 0
    tc.cls, tc.id_of, tc.date_of, tc.same_link = how.cls, how.id_of, how.date_of, how.same_link
    tc.edits, tc.names, tc.source = how.edits, names, source
    if texts is not None:
        shown_at, tc.shown = texts
        if shown_at.shape[0] != x.nsegs:
            raise ValueError("texts: an index for each segment")
        for i in range(x.nsegs):           # the indexes are read unchecked below
            if shown_at[i] >= len(tc.shown):
                raise ValueError(f"texts: index {shown_at[i]} of segment {i} past the texts")
        tc.shown_at = &shown_at[0] if x.nsegs else NULL
    tc.labels, tc.result = {}, []
    for i in range(nmsgs):
        m = &ms[i * NMSG]
        if k < x.total:     # the segment of the next match: is it this message's?
            tc.s = seg_at(x, tc.s, x.tr[3 * k])
        if m[MSG_FLAGS] & C_FALLBACK or too_large(m, limit):
            while k < x.total and x.sg[tc.s * NSEG + SEG_MESSAGE] == i:
                k += 1
                if k < x.total:
                    tc.s = seg_at(x, tc.s, x.tr[3 * k])
            got = how.other(i)
            if got is None:
                return tc.result
            tc.result.extend(got)
        elif k < x.total and x.sg[tc.s * NSEG + SEG_MESSAGE] == i:
            k = tc.message(i, m, k)
    return tc.result


cdef Py_ssize_t anchor_end(const int64_t *sg, Py_ssize_t nsegs, Py_ssize_t h,
                           Py_ssize_t *size) noexcept nogil:
    """The segment after the text runs of the ``<a>`` whose href is segment ``h`` (an
    ``<img src>``, ``<area href>`` between them), and their length in ``size``."""
    cdef int64_t message = sg[h * NSEG + SEG_MESSAGE], kind
    cdef Py_ssize_t k = h + 1, r
    size[0] = 0
    while k < nsegs and sg[k * NSEG + SEG_MESSAGE] == message:
        r = k * NSEG
        kind = sg[r + SEG_KIND]
        if kind == C_K_HTML_TEXT:
            if sg[r + SEG_ANCHOR] != h:
                break
            size[0] += sg[r + SEG_END] - sg[r + SEG_START]
        elif kind < C_K_HREF:                   # a value (an <img src> in the <a>) does not end it
            break
        k += 1
    return k


cdef struct Anchors:
    # what anchor_runs gives, in C buffers (filled without the GIL by anchor_table)
    Grow index          # int64 by segment: its distinct run, or -1
    Grow text           # the distinct runs, end to end
    Grow at             # (start in text, length) of each, int64 pairs
    Grow marked         # int64 messages whose anchor text is not all ASCII
    Grow slots          # int64 open addressing over the distinct runs: 1 + index, 0 empty
    Py_ssize_t mask


cdef int64_t run_id(Anchors *u, Py_ssize_t a, Py_ssize_t n) except -1 nogil:
    """The index of the run ``u.text[a:a + n]`` (just appended) among the distinct ones;
    when it is one already, it is taken off the end again. Hashed with a key (a
    message's link texts are the sender's to choose: texts made to collide under a
    hash without one would make this quadratic)."""
    cdef Py_ssize_t j
    cdef int64_t *slots = <int64_t *>u.slots.p
    cdef const int64_t *at
    cdef int64_t pair[2]
    j = <Py_ssize_t>(<uint64_t>keyed_hash(u.text.p + a, n) & <uint64_t>u.mask)
    while slots[j]:
        at = <const int64_t *>u.at.p + 2 * (slots[j] - 1)
        if at[1] == n and memcmp(u.text.p + at[0], u.text.p + a, n) == 0:
            u.text.n = a
            return slots[j] - 1
        j = (j + 1) & u.mask
    pair[0] = a
    pair[1] = n
    grow_add(&u.at, pair, sizeof(pair))
    slots[j] = u.at.n // sizeof(pair)
    return slots[j] - 1


cdef int anchor_table(const int64_t *sg, Py_ssize_t nsegs, cbuf o, Anchors *u) except -1 nogil:
    """``u`` for the segments ``sg`` over the text ``o`` (its buffers emptied first, kept
    from call to call): for each segment ``h`` the distinct run of the text of the
    ``<a>`` whose href it is, -1 for none or a text with a non-ASCII octet (its message
    marked)."""
    cdef Py_ssize_t h, k, r, size, a, e, first, cap = 16
    cdef int64_t *index
    cdef bint ascii
    u.text.n = u.at.n = u.marked.n = u.index.n = u.slots.n = 0
    while cap < 2 * nsegs:          # at most one run per segment: the table half full
        cap *= 2
    u.mask = cap - 1
    grow_reserve(&u.slots, cap * sizeof(int64_t))
    memset(u.slots.p, 0, cap * sizeof(int64_t))
    grow_reserve(&u.index, nsegs * sizeof(int64_t))
    u.index.n = nsegs * sizeof(int64_t)
    index = <int64_t *>u.index.p
    for h in range(nsegs):
        index[h] = -1
        if sg[h * NSEG + SEG_KIND] != C_K_HREF:
            continue
        k = anchor_end(sg, nsegs, h, &size)
        if size == 0:
            continue
        first = u.text.n
        ascii = True
        for r in range(h + 1, k):
            if sg[r * NSEG + SEG_KIND] == C_K_HTML_TEXT:
                a = sg[r * NSEG + SEG_START]
                e = sg[r * NSEG + SEG_END]
                grow_add(&u.text, o + a, e - a)
                while a < e:
                    if o[a] >= 0x80:
                        ascii = False
                    a += 1
        if ascii:
            index[h] = run_id(u, first, size)
        else:
            u.text.n = first
            grow_add(&u.marked, &sg[h * NSEG + SEG_MESSAGE], sizeof(int64_t))
    return 0


cdef tuple anchors_out(Anchors *u):
    """``(index, runs, marked)`` of ``u`` as anchor_runs gives them."""
    cdef const int64_t *at = <const int64_t *>u.at.p
    cdef const int64_t *marked = <const int64_t *>u.marked.p
    cdef Py_ssize_t i
    return (int64_array(u.index.p, u.index.n),
            [PyBytes_FromStringAndSize(u.text.p + at[2 * i], at[2 * i + 1])
             for i in range(u.at.n // (2 * sizeof(int64_t)))],
            {marked[i] for i in range(u.marked.n // sizeof(int64_t))})


cdef void anchors_free(Anchors *u) noexcept nogil:
    free(u.index.p)
    free(u.text.p)
    free(u.at.p)
    free(u.marked.p)
    free(u.slots.p)
    memset(u, 0, sizeof(Anchors))


def anchor_runs(segs, out):
    """See ``urlsift._mail_trace_py.anchor_runs``."""
    cdef const int64_t[::1] sg = segs
    cdef const unsigned char[::1] ov = out
    cdef Py_ssize_t nsegs = sg.shape[0] // NSEG
    cdef cbuf o = &ov[0] if ov.shape[0] else <cbuf>b""
    cdef Anchors u
    memset(&u, 0, sizeof(u))
    try:
        with nogil:
            anchor_table(&sg[0] if nsegs else NULL, nsegs, o, &u)
        return anchors_out(&u)
    finally:
        anchors_free(&u)


def url_triples(triples, segs, msgs, Py_ssize_t limit):
    """See ``urlsift._mail_trace_py.url_triples``."""
    cdef const int64_t[::1] tr = triples
    cdef const int64_t[::1] sg = segs
    cdef const int64_t[::1] ms = msgs
    cdef Py_ssize_t ntr = tr.shape[0] // 3, nsegs = sg.shape[0] // NSEG
    cdef Py_ssize_t nmsgs = ms.shape[0] // NMSG, t = 0, s = 0, i, r, kept = 0
    cdef bint other
    cdef Grow keep = Grow(NULL, 0, 0), checks = Grow(NULL, 0, 0), cuts = Grow(NULL, 0, 0)
    cdef int64_t pair[2]
    try:
        with nogil:
            for i in range(nmsgs):
                other = ((ms[i * NMSG + MSG_FLAGS] & C_FALLBACK) != 0
                         or too_large(&ms[i * NMSG], limit))
                if other:
                    pair[0] = i
                    pair[1] = kept
                    grow_add(&cuts, pair, sizeof(pair))
                while t < ntr:
                    while s + 1 < nsegs and sg[(s + 1) * NSEG + SEG_START] <= tr[3 * t]:
                        s += 1
                    r = s * NSEG
                    if sg[r + SEG_MESSAGE] != i:
                        break
                    if not other:
                        if sg[r + SEG_KIND] == C_K_HTML_TEXT and sg[r + SEG_ANCHOR] >= 0:
                            pair[0] = kept
                            pair[1] = sg[r + SEG_ANCHOR]
                            grow_add(&checks, pair, sizeof(pair))
                        grow_add(&keep, &tr[3 * t], 3 * sizeof(int64_t))
                        kept += 1
                    t += 1
        return int64_array(keep.p, keep.n), int64_array(checks.p, checks.n), \
            int64_array(cuts.p, cuts.n)
    finally:
        free(keep.p)
        free(checks.p)
        free(cuts.p)
