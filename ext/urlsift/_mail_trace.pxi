# Included by _mail_c.pyx: from the matches of the scan text back to messages (trace,
# iso_date, url_triples).

# -- from matches of the scan text back to messages -------------------------------------

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


cdef inline void _put(object t, Py_ssize_t i, object o):
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


cdef bint _same_link(str url, cbuf d, Py_ssize_t a, Py_ssize_t e) except -1:
    # same_link(url, d[a:e].decode("utf-8", "replace")) (urlsift._mail_py.same_link), in
    # place: the UTF-8 octets of url against the href's (an ASCII url is its own)
    cdef const char *u
    cdef Py_ssize_t n
    if PyUnicode_IS_ASCII(url):
        u = <const char *>PyUnicode_DATA(url)
        n = len(url)
    else:
        u = PyUnicode_AsUTF8AndSize(url, &n)
    if n == e - a and memcmp(u, d + a, n) == 0:
        return True
    while n and u[n - 1] == 47:
        n -= 1
    while e > a and d[e - 1] == 47:
        e -= 1
    return n == e - a and memcmp(u, d + a, n) == 0


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


def trace(triples, out, segs, msgs, names, piece, Py_ssize_t base, str source, type cls,
          Py_ssize_t limit, other, id_of, date_of, tuple edits, bytes table, dict texts=None):
    """See ``urlsift._mail_py.trace``."""
    cdef const int64_t[::1] tr = triples
    cdef const int64_t[::1] sg = segs
    cdef const int64_t[::1] ms = msgs
    cdef const unsigned char[::1] pv = piece
    cdef const unsigned char[::1] ov = out
    cdef const uint8_t *T = table_ptr(table)
    cdef Py_ssize_t nsegs = sg.shape[0] // NSEG, nmsgs = ms.shape[0] // NMSG
    cdef Py_ssize_t total = tr.shape[0] // 3, nout = ov.shape[0], k = 0, s = 0, t, i, r, h
    cdef Py_ssize_t ms_start, ms_end, seg_start, kind, u0, u1, last_key = -1, key
    cdef int64_t offset, a, e, ida, ide, da, de, flags
    cdef int squeeze
    cdef cbuf o = &ov[0] if nout else <cbuf>b""
    cdef list result = []
    cdef dict labels = {}
    cdef str raw, url
    cdef object message_id, date, at, part = None, where, start, end, shown
    if len(edits) != N_EDITS:
        raise ValueError(f"edits must have {N_EDITS} entries")
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
        if k < total:
            while s + 1 < nsegs and sg[(s + 1) * NSEG + 1] <= tr[3 * k]:
                s += 1
        if flags & C_FALLBACK or e - a > limit or (offset >= 0 and a - offset > limit):
            while k < total and sg[s * NSEG] == i:
                k += 1
                if k < total:
                    while s + 1 < nsegs and sg[(s + 1) * NSEG + 1] <= tr[3 * k]:
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
            ms_start = tr[3 * k]
            ms_end = tr[3 * k + 1]
            while s + 1 < nsegs and sg[(s + 1) * NSEG + 1] <= ms_start:
                s += 1
            r = s * NSEG
            if sg[r] != i:
                break
            flags = tr[3 * k + 2]
            if encoded(flags):                  # not from the mail scan (no octets table)
                url, raw = triple_octets(o, nout, &tr[3 * k])
            else:
                raw = triple_raw(o, 1, nout, &tr[3 * k], &u0, &u1, &squeeze, None)
                url = triple_url(raw, &tr[3 * k], u0, u1, squeeze, T)
            k += 1
            kind = sg[r + 4]
            seg_start = sg[r + 1]
            if kind == C_K_HTML_TEXT and sg[r + 8] >= 0:
                h = sg[r + 8] * NSEG
                if _same_link(url, o, sg[h + 1], sg[h + 2]):
                    continue                    # <a href="U">U</a>: the href said it
            key = sg[r + 5] * 8 + kind          # a label, and the kind for its suffix
            if key != last_key:
                part = labels.get(key)
                if part is None:
                    part = bytes(names[sg[r + 5]:sg[r + 6]]).decode("latin-1")
                    if kind == C_K_HREF or kind == C_K_SRC:
                        part += " href" if kind == C_K_HREF else " src"
                    labels[key] = part
                last_key = key
            where = None
            shown = None
            if kind == C_K_HREF or kind == C_K_SRC:
                if texts:
                    shown = texts.get(s)
                start = end = sg[r + 7]
                raw = PyBytes_FromStringAndSize(<char *>o + seg_start,
                                                sg[r + 2] - seg_start).decode("utf-8", "replace")
            else:
                start = sg[r + 7] + ms_start - seg_start
                if ms_end <= sg[r + 2]:
                    end = sg[r + 7] + ms_end - seg_start
                else:                           # a wrapper over lines split at "> "
                    t = s
                    while t + 1 < nsegs and sg[(t + 1) * NSEG + 1] <= ms_end - 1:
                        t += 1
                    end = sg[t * NSEG + 7] + ms_end - sg[t * NSEG + 1]
                    if sg[r + 3] >= 0:          # as it stands, prefixes included
                        raw = PyBytes_FromStringAndSize(
                            <char *>&pv[0] + sg[r + 3] + ms_start - seg_start,
                            sg[t * NSEG + 3] + ms_end - sg[t * NSEG + 1]
                            - (sg[r + 3] + ms_start - seg_start)).decode("latin-1")
                if sg[r + 3] >= 0:
                    where = base + sg[r + 3] + ms_start - seg_start
            result.append(_new(cls, url, raw, start, end, message_id, date, part, source, at,
                               flags, edits, where, shown))
    return result


def anchor_runs(segs, out):
    """See ``urlsift._mail_py.anchor_runs``."""
    cdef const int64_t[::1] sg = segs
    cdef const unsigned char[::1] ov = out
    cdef Py_ssize_t nsegs = sg.shape[0] // NSEG, h, r, k, size, o, a, e
    cdef int64_t message, kind
    cdef bint ascii
    cdef dict runs = {}
    cdef set marked = set()
    cdef bytes joined
    cdef char *dst
    for h in range(nsegs):
        if sg[h * NSEG + 4] != C_K_HREF:
            continue
        message = sg[h * NSEG]
        size = 0        # first the length of the runs, then their octets
        k = h + 1
        while k < nsegs and sg[k * NSEG] == message:
            r = k * NSEG
            kind = sg[r + 4]
            if kind == C_K_HTML_TEXT:
                if sg[r + 8] != h:
                    break
                size += sg[r + 2] - sg[r + 1]
            elif kind != C_K_HREF and kind != C_K_SRC:
                break
            k += 1
        if size == 0:
            continue
        joined = PyBytes_FromStringAndSize(NULL, size)
        dst = <char *>joined
        o = 0
        ascii = True
        for r in range((h + 1) * NSEG, k * NSEG, NSEG):
            if sg[r + 4] == C_K_HTML_TEXT:
                a = sg[r + 1]
                e = sg[r + 2]
                memcpy(dst + o, &ov[a], e - a)
                while a < e:
                    if ov[a] >= 0x80:
                        ascii = False
                    a += 1
                o += e - sg[r + 1]
        if ascii:
            runs[h] = joined
        else:
            marked.add(message)
    return runs, marked


def url_triples(triples, segs, msgs, Py_ssize_t limit):
    """See ``urlsift._mail_py.url_triples``."""
    cdef const int64_t[::1] tr = triples
    cdef const int64_t[::1] sg = segs
    cdef const int64_t[::1] ms = msgs
    cdef Py_ssize_t ntr = tr.shape[0] // 3, nsegs = sg.shape[0] // NSEG
    cdef Py_ssize_t nmsgs = ms.shape[0] // NMSG, t = 0, s = 0, i, r, kept = 0
    cdef bint big
    cdef Grow keep = Grow(NULL, 0, 0), checks = Grow(NULL, 0, 0), cuts = Grow(NULL, 0, 0)
    cdef int64_t pair[2]
    try:
        with nogil:
            for i in range(nmsgs):
                big = (ms[i * NMSG + 2] - ms[i * NMSG + 1] > limit
                       or (ms[i * NMSG] >= 0 and ms[i * NMSG + 1] - ms[i * NMSG] > limit))
                if ms[i * NMSG + 7] & C_FALLBACK or big:
                    pair[0] = i
                    pair[1] = kept
                    grow_add(&cuts, pair, sizeof(pair))
                while t < ntr:
                    while s + 1 < nsegs and sg[(s + 1) * NSEG + 1] <= tr[3 * t]:
                        s += 1
                    r = s * NSEG
                    if sg[r] != i:
                        break
                    if not big:
                        if sg[r + 4] == C_K_HTML_TEXT and sg[r + 8] >= 0:
                            pair[0] = kept
                            pair[1] = sg[r + 8]
                            grow_add(&checks, pair, sizeof(pair))
                        grow_add(&keep, &tr[3 * t], 3 * sizeof(int64_t))
                        kept += 1
                    t += 1
        return (array("q", PyBytes_FromStringAndSize(keep.p, keep.n)),
                array("q", PyBytes_FromStringAndSize(checks.p, checks.n)),
                array("q", PyBytes_FromStringAndSize(cuts.p, cuts.n)))
    finally:
        free(keep.p)
        free(checks.p)
        free(cuts.p)
