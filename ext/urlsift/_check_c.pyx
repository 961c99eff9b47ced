# cython: language_level=3
"""Cython ``_check`` core (built as ``urlsift._check_c``): URLs against scheme grammars.

Twin of ``src/urlsift/_check_py.py``: read that file first; this is the same walk,
function by function, over C arrays. The tables and grammar ids come from
``urlsift._grammar`` (composed from ``urlsift.charclass``); the offsets come from
the tokenizer walk of ``_core`` (``tokenize_into``, cimported).
"""
from cpython.bytes cimport PyBytes_AS_STRING
from cpython.mem cimport PyMem_Malloc, PyMem_Free
from cpython.object cimport PyTypeObject
from cpython.ref cimport Py_INCREF, Py_DECREF
from libc.stdint cimport uint8_t
from libc.string cimport memchr

from urlsift._core_c cimport tokenize_into
from urlsift._layout import CODE_INDEX
from urlsift._grammar import P as _P, T as _T, TABLES
from urlsift import _grammar as _g
from urlsift._check_py import _validate

cdef extern from "Python.h":
    int PyUnicode_KIND(object s)
    void *PyUnicode_DATA(object s)
    Py_ssize_t PyUnicode_GET_LENGTH(object s)
    Py_UCS4 PyUnicode_READ(int kind, void *data, Py_ssize_t i) nogil
    ctypedef struct PyObject
    ctypedef struct PyMemberDef:
        Py_ssize_t offset
    ctypedef struct PyMemberDescrObject:
        PyMemberDef *d_member
    PyObject *PyType_GenericAlloc(PyTypeObject *t, Py_ssize_t n)

# ---- ids, copied from the Python definitions ------------------------------------
cdef int G_GENERIC = _g.G_GENERIC, G_FTP = _g.G_FTP, G_HTTP = _g.G_HTTP
cdef int G_GOPHER = _g.G_GOPHER, G_MAILTO = _g.G_MAILTO, G_NEWS = _g.G_NEWS
cdef int G_NNTP = _g.G_NNTP, G_TELNET = _g.G_TELNET, G_WAIS = _g.G_WAIS
cdef int G_FILE = _g.G_FILE, G_PROSPERO = _g.G_PROSPERO, G_MID = _g.G_MID

cdef int C_MISSING_SCHEME = CODE_INDEX["missing-scheme"]
cdef int C_UPPER = CODE_INDEX["uppercase-scheme"]
cdef int C_CONTROL = CODE_INDEX["control-char"]
cdef int C_NON_ASCII = CODE_INDEX["non-ascii"]
cdef int C_UNSAFE = CODE_INDEX["unsafe-char"]
cdef int C_BAD_ESCAPE = CODE_INDEX["bad-escape"]
cdef int C_BAD_PORT = CODE_INDEX["bad-port"]
cdef int C_EMPTY_PORT = CODE_INDEX["empty-port"]
cdef int C_MISSING_HOST = CODE_INDEX["missing-host"]
cdef int C_BAD_HOST = CODE_INDEX["bad-host"]
cdef int C_TRAILING_DOT = CODE_INDEX["host-trailing-dot"]
cdef int C_IPV6 = CODE_INDEX["ipv6-host"]
cdef int C_USERINFO_NA = CODE_INDEX["userinfo-not-allowed"]
cdef int C_PORT_NA = CODE_INDEX["port-not-allowed"]
cdef int C_BAD_USERINFO = CODE_INDEX["bad-userinfo"]
cdef int C_BAD_PATH = CODE_INDEX["bad-path"]
cdef int C_BAD_SEARCH = CODE_INDEX["bad-search"]
cdef int C_SEARCH_NO_PATH = CODE_INDEX["search-without-path"]
cdef int C_BAD_TYPECODE = CODE_INDEX["bad-typecode"]
cdef int C_BAD_GROUP = CODE_INDEX["bad-group"]
cdef int C_BAD_ARTICLE = CODE_INDEX["bad-article"]
cdef int C_BAD_FIELD = CODE_INDEX["bad-field"]
cdef int C_MISSING_PATH = CODE_INDEX["missing-path"]
cdef int C_MISSING_ADDRESS = CODE_INDEX["missing-address"]
cdef int C_MISSING_AUTH = CODE_INDEX["missing-authority"]
cdef int C_FILE_SHORT = CODE_INDEX["file-short-form"]

cdef int P_SCHEME = _P["scheme"], P_USER = _P["user"], P_PASSWORD = _P["password"]
cdef int P_HOST = _P["host"], P_PORT = _P["port"], P_PATH = _P["path"]
cdef int P_SEARCH = _P["search"], P_TYPECODE = _P["typecode"], P_SELECTOR = _P["selector"]
cdef int P_ADDRESS = _P["address"], P_GROUP = _P["group"], P_ARTICLE = _P["article"]
cdef int P_DATABASE = _P["database"], P_WTYPE = _P["wtype"], P_WPATH = _P["wpath"]
cdef int P_HSONAME = _P["hsoname"], P_FIELD = _P["field"], P_FRAGMENT = _P["fragment"]
cdef int P_SCHEMEPART = _P["schemepart"]

cdef int T_USER = _T["user"], T_FPATH = _T["fpath"], T_HPATH = _T["hpath"]
cdef int T_SEARCH = _T["search"], T_XCHAR = _T["xchar"], T_GROUP = _T["group"]
cdef int T_ARTICLE = _T["article"], T_UCHAR = _T["uchar"], T_FIELD = _T["field"]
cdef int T_HOST = _T["host"], T_IPV6 = _T["ipv6"]
cdef Py_ssize_t NTABLES = len(TABLES)   # Config checks its tables have this many

# the walk's modes: collect every problem, or stop at the first (fatal) one
cdef enum:
    COLLECT = 0
    STOP_ANY = 1
    STOP_FATAL = 2

cdef uint8_t UNSAFE_SET[128]
for _i in range(128):
    UNSAFE_SET[_i] = chr(_i) in ' <>"#%{}|\\^~[]`'


cdef class Config:
    """Scheme names with their grammar ids, the part tables and the lenient codes."""

    cdef readonly tuple names, classes
    cdef readonly bytes gids, tables, lenient_ok
    cdef bytes _runs            # the tables without "%", and the host one without "."
    cdef bytes _blob
    cdef Py_ssize_t *_starts
    cdef Py_ssize_t _count
    cdef Py_ssize_t _head[128]  # by a name's first character: its first index (-1: none)
    cdef Py_ssize_t *_next      # the next index whose name starts with the same character
    cdef Py_ssize_t _off[3]     # slot offsets of URL._text, URL._t, URL._x

    def __cinit__(self, names, gids, tables, lenient_ok, classes=(), slots=()):
        """``classes``: one per name, then the class for unknown schemes; ``slots``:
        the member descriptors ``_text``, ``_t``, ``_x`` that parse_new fills."""
        cdef Py_ssize_t k, pos = 0
        _validate(names, gids, tables, lenient_ok, classes, slots)
        self.classes = tuple(classes)
        for k in range(3):
            self._off[k] = -1
        for k, d in enumerate(slots):
            self._off[k] = (<PyMemberDescrObject *><void *>d).d_member.offset
        self.names = tuple(names)
        self.gids = bytes(gids)
        self.tables = bytes(tables)
        self.lenient_ok = bytes(lenient_ok)
        runs = bytearray(self.tables + self.tables[T_HOST * 256:(T_HOST + 1) * 256])
        for k in range(0x25, len(runs) - 256, 256):
            runs[k] = 0
        runs[len(runs) - 256 + 0x2E] = 0
        self._runs = bytes(runs)
        self._count = len(self.names)
        self._blob = "".join(self.names).encode("ascii")
        self._starts = <Py_ssize_t *>PyMem_Malloc((self._count + 1) * sizeof(Py_ssize_t))
        self._next = <Py_ssize_t *>PyMem_Malloc((self._count + 1) * sizeof(Py_ssize_t))
        if self._starts == NULL or self._next == NULL:
            raise MemoryError()
        for k in range(self._count):
            self._starts[k] = pos
            pos += len(self.names[k])
        self._starts[self._count] = pos
        for k in range(128):
            self._head[k] = -1
        for k in range(self._count - 1, -1, -1):   # backwards: chains run in index order
            self._next[k] = -1
            if self.names[k]:
                self._next[k] = self._head[ord(self.names[k][0])]
                self._head[ord(self.names[k][0])] = k

    def __dealloc__(self):
        PyMem_Free(self._starts)
        PyMem_Free(self._next)

    @property
    def index(self):
        return {name: i for i, name in enumerate(self.names)}


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
    int pick            # COLLECT without a list: 1 keep the first problem, 2 the first fatal
    Py_ssize_t best[5]  # the kept problem: position, code, part, start, end (code -1: none)


cdef inline unsigned int at(W *w, Py_ssize_t i) noexcept:
    # an int, not Py_UCS4: Cython would treat arithmetic on Py_UCS4 as str operations
    return <unsigned int>PyUnicode_READ(w.kind, w.data, i)


cdef int add(W *w, Py_ssize_t pos, int code, int part, Py_ssize_t a, Py_ssize_t b) except -1:
    if w.out != NULL:
        (<list>w.out).extend((pos, code, part, a, b))
    elif w.pick and (w.best[1] < 0 or pos < w.best[0]) and (w.pick == 1 or not w.lenient[code]):
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
        elif is_digit(p[i]):
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


cdef int r_ftp(W *w, Py_ssize_t rs, Py_ssize_t b) except -1:
    cdef Py_ssize_t semi
    if rs == b:
        return 0
    if at(w, rs) != 0x2F:
        add(w, rs, C_BAD_PATH, P_PATH, rs, b)
    semi = find(w, 0x3B, rs + 1, b)
    part(w, rs + 1, semi, T_FPATH, P_PATH, C_BAD_PATH)
    if semi == b or w.stop:
        return 0
    if (semi + 6 <= b and at(w, semi + 1) == 0x74 and at(w, semi + 2) == 0x79
            and at(w, semi + 3) == 0x70 and at(w, semi + 4) == 0x65 and at(w, semi + 5) == 0x3D):
        if b - semi != 7 or not (at(w, b - 1) in (0x61, 0x69, 0x64, 0x41, 0x49, 0x44)):
            add(w, semi + 6, C_BAD_TYPECODE, P_TYPECODE, semi + 6, b)
        return 0
    part(w, semi, b, T_FPATH, P_PATH, C_BAD_PATH)
    return 0


cdef int r_http(W *w, Py_ssize_t rs, Py_ssize_t b) except -1:
    cdef Py_ssize_t q
    if rs == b:
        return 0
    if at(w, rs) == 0x3F:
        add(w, rs, C_SEARCH_NO_PATH, P_SEARCH, rs + 1, b)
        part(w, rs + 1, b, T_SEARCH, P_SEARCH, C_BAD_SEARCH)
        return 0
    q = find(w, 0x3F, rs, b)
    part(w, rs, q, T_HPATH, P_PATH, C_BAD_PATH)
    if q < b:
        part(w, q + 1, b, T_SEARCH, P_SEARCH, C_BAD_SEARCH)
    return 0


cdef int r_nntp(W *w, Py_ssize_t rs, Py_ssize_t b) except -1:
    cdef Py_ssize_t gs, ge, i
    if rs == b:
        add(w, rs, C_MISSING_PATH, P_GROUP, rs, b)
        return 0
    if at(w, rs) != 0x2F:
        add(w, rs, C_BAD_GROUP, P_GROUP, rs, b)
    gs = rs + 1
    ge = find(w, 0x2F, gs, b)
    group(w, gs, ge)
    if ge < b and not w.stop:
        if ge + 1 == b:
            add(w, b, C_BAD_ARTICLE, P_ARTICLE, ge + 1, b)
        for i in range(ge + 1, b):
            if not is_digit(at(w, i)):
                add(w, i, C_BAD_ARTICLE, P_ARTICLE, ge + 1, b)
                break
    return 0


cdef int r_wais(W *w, Py_ssize_t rs, Py_ssize_t b) except -1:
    cdef Py_ssize_t ds, de, ts, te
    cdef unsigned int c
    if rs == b or at(w, rs) != 0x2F:
        add(w, rs, C_MISSING_PATH, P_DATABASE, rs, b)
        if rs == b or w.stop:
            return 0
    ds = rs + 1
    de = ds
    while de < b:
        c = at(w, de)
        if c == 0x2F or c == 0x3F:
            break
        de += 1
    part(w, ds, de, T_UCHAR, P_DATABASE, C_BAD_PATH)
    if de == b or w.stop:
        return 0
    if at(w, de) == 0x3F:
        part(w, de + 1, b, T_SEARCH, P_SEARCH, C_BAD_SEARCH)
        return 0
    ts = de + 1
    te = find(w, 0x2F, ts, b)
    part(w, ts, te, T_UCHAR, P_WTYPE, C_BAD_PATH)
    if w.stop:
        return 0
    if te == b:
        add(w, b, C_BAD_PATH, P_WPATH, b, b)
        return 0
    part(w, te + 1, b, T_UCHAR, P_WPATH, C_BAD_PATH)
    return 0


cdef int r_prospero(W *w, Py_ssize_t rs, Py_ssize_t b) except -1:
    cdef Py_ssize_t semi, fs, eq
    if rs == b or at(w, rs) != 0x2F:
        add(w, rs, C_MISSING_PATH, P_HSONAME, rs, b)
        if rs == b or w.stop:
            return 0
    semi = find(w, 0x3B, rs + 1, b)
    part(w, rs + 1, semi, T_FPATH, P_HSONAME, C_BAD_PATH)
    while semi < b and not w.stop:
        fs = semi + 1
        semi = find(w, 0x3B, fs, b)
        eq = find(w, 0x3D, fs, semi)
        part(w, fs, eq, T_FIELD, P_FIELD, C_BAD_FIELD)
        if eq == semi:
            add(w, semi, C_BAD_FIELD, P_FIELD, fs, semi)
        else:
            part(w, eq + 1, semi, T_FIELD, P_FIELD, C_BAD_FIELD)
    return 0


cdef int hier(W *w, Py_ssize_t *r, int gid, Py_ssize_t b0, Py_ssize_t b) except -1:
    cdef Py_ssize_t rs, a
    if r[5] < 0:
        if gid == G_FILE and b0 < b and at(w, b0) == 0x2F:
            add(w, b0, C_FILE_SHORT, P_PATH, b0, b)
            part(w, b0, b, T_FPATH, P_PATH, C_BAD_PATH)
        else:
            add(w, b0, C_MISSING_AUTH, P_SCHEMEPART, b0, b)
        return 0
    if r[1] >= 0:
        if gid == G_FTP or gid == G_TELNET:
            part(w, r[1], r[2], T_USER, P_USER, C_BAD_USERINFO)
            if r[3] >= 0:
                part(w, r[3], r[4], T_USER, P_PASSWORD, C_BAD_USERINFO)
        else:
            add(w, r[1], C_USERINFO_NA, P_USER, r[1], r[4] if r[3] >= 0 else r[2])
    if w.stop:
        return 0
    host(w, r[5], r[6], gid != G_FILE)
    if w.stop:
        return 0
    if r[7] >= 0:
        if gid == G_FILE:
            add(w, r[7] - 1, C_PORT_NA, P_PORT, r[7], r[8])
        port(w, r[7], r[8])
    if w.stop:
        return 0
    rs = r[9] if r[9] >= 0 else (r[11] - 1 if r[11] >= 0 else b)
    if gid == G_FTP:
        r_ftp(w, rs, b)
    elif gid == G_HTTP:
        r_http(w, rs, b)
    elif gid == G_GOPHER:
        if rs < b:
            if at(w, rs) != 0x2F:
                add(w, rs, C_BAD_PATH, P_SELECTOR, rs, b)
            part(w, rs + 1, b, T_XCHAR, P_SELECTOR, C_BAD_PATH)
    elif gid == G_NNTP:
        r_nntp(w, rs, b)
    elif gid == G_TELNET:
        if not (rs == b or (b - rs == 1 and at(w, rs) == 0x2F)):
            a = rs + 1 if at(w, rs) == 0x2F else rs
            add(w, a, C_BAD_PATH, P_PATH, rs, b)
            # still walk it: a control character there is refused in both modes
            part(w, a, b, T_XCHAR, P_PATH, C_BAD_PATH)
    elif gid == G_WAIS:
        r_wais(w, rs, b)
    elif gid == G_FILE:
        if rs == b:
            add(w, rs, C_MISSING_PATH, P_PATH, rs, b)
        else:
            if at(w, rs) != 0x2F:
                add(w, rs, C_MISSING_PATH, P_PATH, rs, b)
            part(w, rs + 1, b, T_FPATH, P_PATH, C_BAD_PATH)
    elif gid == G_PROSPERO:
        r_prospero(w, rs, b)
    return 0


cdef Py_ssize_t lookup(W *w, Config cfg, Py_ssize_t se) noexcept:
    """Index of the scheme s[:se] (case-ignored) among cfg.names; count when unknown.
    Only the names with the same first character are compared, in index order."""
    cdef Py_ssize_t k, i, a
    cdef const char *blob = PyBytes_AS_STRING(cfg._blob)
    cdef unsigned int c = at(w, 0)
    if 0x41 <= c <= 0x5A:
        c += 0x20
    if c >= 128:
        return cfg._count
    k = cfg._head[c]
    while k >= 0:
        a = cfg._starts[k]
        if cfg._starts[k + 1] - a == se:
            for i in range(1, se):
                c = at(w, i)
                if 0x41 <= c <= 0x5A:
                    c += 0x20
                if c != <unsigned char>blob[a + i]:
                    break
            else:
                return k
        k = cfg._next[k]
    return cfg._count


cdef Py_ssize_t walk(W *w, Config cfg, Py_ssize_t *r) except -2:
    """The twin's ``_walk``: fills r (tokenizer offsets), returns the scheme index."""
    cdef Py_ssize_t se, i, idx, frag, body_end
    cdef int gid
    tokenize_into(w.kind, w.data, w.n, r)
    se = r[0]
    if se < 0:
        add(w, 0, C_MISSING_SCHEME, P_SCHEME, 0, 0)
        return cfg._count
    for i in range(se):
        if 0x41 <= at(w, i) <= 0x5A:
            add(w, i, C_UPPER, P_SCHEME, 0, se)
            break
    idx = lookup(w, cfg, se)
    gid = (<const uint8_t *>PyBytes_AS_STRING(cfg.gids))[idx] if idx < cfg._count else G_GENERIC
    frag = r[13]
    body_end = frag - 1 if frag >= 0 else w.n
    if w.stop:
        return idx
    if gid == G_GENERIC or gid == G_MAILTO or gid == G_MID or gid == G_NEWS:
        opaque(w, gid, se + 1, body_end)
    else:
        hier(w, r, gid, se + 1, body_end)
    if frag >= 0 and not w.stop:
        part(w, frag, w.n, T_XCHAR, P_FRAGMENT, C_UNSAFE)
    return idx


cdef inline void init(W *w, str s, Py_ssize_t skip, Config cfg, int mode, list out):
    w.kind = PyUnicode_KIND(s)
    w.data = <char *>PyUnicode_DATA(s) + skip * w.kind
    w.n = PyUnicode_GET_LENGTH(s) - skip
    w.tables = <const uint8_t *>PyBytes_AS_STRING(cfg.tables)
    w.runs = <const uint8_t *>PyBytes_AS_STRING(cfg._runs)
    w.lenient = <const uint8_t *>PyBytes_AS_STRING(cfg.lenient_ok)
    w.mode = mode
    w.out = <PyObject *>out if out is not None else NULL
    w.worst = 0
    w.stop = False
    w.pick = 0
    w.best[1] = -1


cdef inline Py_ssize_t prefix(str s):
    # RFC 1738 appendix: the "URL:" prefix is not part of the URL
    if (PyUnicode_GET_LENGTH(s) >= 4 and PyUnicode_READ(PyUnicode_KIND(s), PyUnicode_DATA(s), 0) == 0x55
            and s.startswith("URL:")):
        return 4
    return 0


def problems(s, Config cfg):
    """Every problem of ``s`` as flat (position, code, part, start, end) groups."""
    if not isinstance(s, str):
        raise TypeError(f"expected str, not {type(s).__name__}")
    cdef W w
    cdef Py_ssize_t r[17]
    cdef list out = []
    init(&w, <str>s, 0, cfg, COLLECT, out)
    walk(&w, cfg, r)
    return out


def parse_tokens(s, Config cfg):
    """The tokenizer's 17 offsets, then the scheme index and the worst problem (0/1/2)."""
    if not isinstance(s, str):
        raise TypeError(f"expected str, not {type(s).__name__}")
    cdef W w
    cdef Py_ssize_t r[17]
    cdef Py_ssize_t idx
    init(&w, <str>s, 0, cfg, STOP_FATAL, None)
    idx = walk(&w, cfg, r)
    return (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10],
            r[11], r[12], r[13], r[14], r[15], r[16], idx, w.worst)


cdef Config _default = None     # the registry's Config (set_default)


cdef inline bint _valid(str s, Config cfg, bint strict) except -1:
    cdef W w
    cdef Py_ssize_t r[17]
    init(&w, s, prefix(s), cfg, STOP_ANY if strict else STOP_FATAL, None)
    walk(&w, cfg, r)
    return w.worst == 0 if strict else w.worst < 2


def is_valid(s, Config cfg=None, bint strict=True):
    """True when ``s`` (a "URL:" prefix allowed) has no problem (strict) or no fatal one;
    -1 when no ``cfg`` is given and no default is set."""
    if cfg is None:
        cfg = _default
        if cfg is None:
            return -1
    if not isinstance(s, str):
        raise TypeError(f"expected str, not {type(s).__name__}")
    return _valid(<str>s, cfg, strict)


def validate_many(urls, Config cfg, bint strict=True):
    """:func:`is_valid` for every string of ``urls``, in one call."""
    cdef list out = []
    for s in urls:
        if not isinstance(s, str):
            raise TypeError(f"expected str, not {type(s).__name__}")
        out.append(_valid(<str>s, cfg, strict))
    return out


cdef object new_url(Config cfg, Py_ssize_t idx, str text, tuple t, str raw):
    """An instance of cfg.classes[idx] with its slots set, built without __init__."""
    if cfg._off[1] < 0 or idx >= len(cfg.classes):   # checked first: no bounds checks below
        raise TypeError("Config has no classes/slots to build URL objects")
    cdef object cls = cfg.classes[idx]
    cdef PyObject *o = PyType_GenericAlloc(<PyTypeObject *>cls, 0)
    if o == NULL:
        raise MemoryError()
    Py_INCREF(text)
    (<PyObject **>((<char *>o) + cfg._off[0]))[0] = <PyObject *>text
    Py_INCREF(t)
    (<PyObject **>((<char *>o) + cfg._off[1]))[0] = <PyObject *>t
    if raw is not None:
        x = (raw, ())
        Py_INCREF(x)
        (<PyObject **>((<char *>o) + cfg._off[2]))[0] = <PyObject *>x
    obj = <object>o      # a second reference: give back the one tp_alloc returned
    Py_DECREF(obj)
    return obj


def set_default(Config cfg):
    """The Config parse_new uses when it is given none (None: no default)."""
    global _default
    _default = cfg


def parse_new(s, Config cfg=None, strict=None):
    """The URL object of ``s`` (a "URL:" prefix is stripped and kept as raw) when it
    has no problem at all; -1 when no ``cfg`` is given and no default is set. Else,
    with ``strict`` None, the worst problem, 1 or 2, as an int; with ``strict`` a bool,
    the problem that refuses ``s`` as (position, code, part, start, end), positions
    in the text without the prefix (strict: the first of all; lenient: the first
    fatal one), or 1 when lenient mode accepts every problem."""
    if cfg is None:
        cfg = _default
        if cfg is None:
            return -1
    if type(s) is not str:
        if not isinstance(s, str):
            raise TypeError(f"expected str, not {type(s).__name__}")
        s = str.__str__(s)    # a str subclass: keep the plain text
    cdef W w
    cdef Py_ssize_t r[17]
    cdef Py_ssize_t idx, skip = prefix(<str>s)
    if strict is None:
        init(&w, <str>s, skip, cfg, STOP_ANY, None)
    else:
        # one walk that never stops (a clean URL costs the same) and keeps only the
        # first problem that refuses s (the first by position may not be found first)
        init(&w, <str>s, skip, cfg, COLLECT, None)
        w.pick = 1 if strict else 2
    idx = walk(&w, cfg, r)
    if w.worst:
        if strict is not None:
            if w.best[1] < 0:
                return 1
            return (w.best[0], w.best[1], w.best[2], w.best[3], w.best[4])
        return w.worst if w.worst == 2 else _worst_of(<str>s, skip, cfg)
    t = (r[0], r[1], r[2], r[3], r[4], r[5], r[6], r[7], r[8], r[9], r[10],
         r[11], r[12], r[13], r[14], r[15], r[16], idx, 0)
    if skip:
        return new_url(cfg, idx, s[skip:], t, s)
    return new_url(cfg, idx, s, t, None)


cdef int _worst_of(str s, Py_ssize_t skip, Config cfg) except -1:
    # stopped at a lenient problem: walk on to see whether a fatal one follows
    cdef W w
    cdef Py_ssize_t r[17]
    init(&w, s, skip, cfg, STOP_FATAL, None)
    walk(&w, cfg, r)
    return w.worst

