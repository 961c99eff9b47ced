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
from urlsift import _check_py as _twin_check

cdef extern from "Python.h":
    object PyUnicode_FromKindAndData(int kind, const void *buffer, Py_ssize_t size)
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
    void PyObject_GC_UnTrack(void *o)

cdef extern from *:
    """
    #define URLSIFT_DICTOFFSET(t) (((PyTypeObject *)(t))->tp_dictoffset)
    """
    Py_ssize_t type_dictoffset "URLSIFT_DICTOFFSET" (object t)

# The tokenizer's record by name (generated from urlsift._layout.URL_FIELDS)
include "_fields.pxi"

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
cdef int P_SCHEMEPART = _P["schemepart"], P_GOPHER_PLUS = _P["gopher_plus"]

cdef int T_USER = _T["user"], T_FPATH = _T["fpath"], T_HPATH = _T["hpath"]
cdef int T_SEARCH = _T["search"], T_XCHAR = _T["xchar"], T_GROUP = _T["group"]
cdef int T_ARTICLE = _T["article"], T_UCHAR = _T["uchar"], T_FIELD = _T["field"]
cdef int T_HOST = _T["host"], T_IPV6 = _T["ipv6"]
cdef Py_ssize_t ARTICLE_DIGITS = _twin_check.ARTICLE_DIGITS
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


# The walk's state and the checks of one part (characters, host, port, group): included,
# not imported, so the calls stay inside this module (a cimported cdef function is
# called through a pointer, on the hot path of is_valid).
include "_check_parts.pxi"
# The rest of each scheme's grammar after its hostport (§3.2-§3.11, §5), and ``hier``.
include "_check_schemes.pxi"


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


cdef int login_tokens(W *w, Py_ssize_t *r) except -1:
    """The twin's ``_login_tokens``: for ftp and telnet, whose login may hold "?" (RFC
    1738 §5 user), tokenize again with the "?"s before an "@" masked, when the
    scheme-blind tokenizer ended the authority at a "?" that an "@" follows."""
    cdef Py_ssize_t q = r[SEARCH_START] - 1, auth = r[SCHEME_END] + 3, k, last_at = -1
    cdef unsigned int c
    if q < 0 or r[HOST_START] < 0 or 0 <= r[PATH_START] < q:
        return 0
    for k in range(q, w.n):
        c = at(w, k)
        if c == 0x2F or c == 0x23:
            break
        if c == 0x40:
            last_at = k
    if last_at < 0:
        return 0
    text = PyUnicode_FromKindAndData(w.kind, w.data, w.n)
    masked = text[:auth] + text[auth:last_at].replace("?", "_") + text[last_at:]
    tokenize_into(PyUnicode_KIND(masked), PyUnicode_DATA(masked), w.n, r)
    return 0


cdef Py_ssize_t walk(W *w, Config cfg, Py_ssize_t *r) except -2:
    """The twin's ``_walk``: fills r (tokenizer offsets), returns the scheme index."""
    cdef Py_ssize_t se, i, idx, frag, body_end
    cdef int gid
    tokenize_into(w.kind, w.data, w.n, r)
    se = r[SCHEME_END]
    if se < 0:
        add(w, 0, C_MISSING_SCHEME, P_SCHEME, 0, 0)
        return cfg._count
    for i in range(se):
        if 0x41 <= at(w, i) <= 0x5A:
            add(w, i, C_UPPER, P_SCHEME, 0, se)
            break
    idx = lookup(w, cfg, se)
    gid = (<const uint8_t *>PyBytes_AS_STRING(cfg.gids))[idx] if idx < cfg._count else G_GENERIC
    if (gid == G_FTP or gid == G_TELNET) and r[SEARCH_START] > 0:
        login_tokens(w, r)
    frag = r[FRAGMENT_START]
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
    cdef Py_ssize_t r[NFIELDS]
    cdef list out = []
    init(&w, <str>s, 0, cfg, COLLECT, out)
    walk(&w, cfg, r)
    return out


def parse_tokens(s, Config cfg):
    """The tokenizer's 17 offsets, then the scheme index and the worst problem (0/1/2)."""
    if not isinstance(s, str):
        raise TypeError(f"expected str, not {type(s).__name__}")
    cdef W w
    cdef Py_ssize_t r[NFIELDS]
    cdef Py_ssize_t idx
    init(&w, <str>s, 0, cfg, STOP_FATAL, None)
    idx = walk(&w, cfg, r)
    return (r[SCHEME_END], r[USER_START], r[USER_END], r[PASSWORD_START], r[PASSWORD_END],
            r[HOST_START], r[HOST_END], r[PORT_START], r[PORT_END], r[PATH_START], r[PATH_END],
            r[SEARCH_START], r[SEARCH_END], r[FRAGMENT_START], r[FRAGMENT_END],
            r[PROBLEM_POS], r[PROBLEM_CODE], idx, w.worst)


cdef Config _default = None     # the registry's Config (set_default)


cdef inline bint _valid(str s, Config cfg, bint strict) except -1:
    cdef W w
    cdef Py_ssize_t r[NFIELDS]
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


cdef object new_url(Config cfg, Py_ssize_t idx, str text, tuple t, str raw, tuple flat=()):
    """An instance of cfg.classes[idx] with its slots set, built without __init__
    (``raw``: the text as given, with the flat problems lenient mode accepted)."""
    if cfg._off[1] < 0 or idx >= len(cfg.classes):   # checked first: no bounds checks below
        raise TypeError("Config has no classes/slots to build URL objects")
    cdef object cls = cfg.classes[idx]
    cdef PyObject *o = PyType_GenericAlloc(<PyTypeObject *>cls, 0)
    if o == NULL:
        raise MemoryError()
    if type_dictoffset(cls) == 0:
        # The slots hold only str, int and tuples of them (the cache dict, its own
        # object, only values computed from the text): no cycle can run through a URL,
        # so the collector need not walk the millions a program may keep (the README's
        # `keep` row). A subclass with a __dict__ stays tracked.
        PyObject_GC_UnTrack(o)
    Py_INCREF(text)
    (<PyObject **>((<char *>o) + cfg._off[0]))[0] = <PyObject *>text
    Py_INCREF(t)
    (<PyObject **>((<char *>o) + cfg._off[1]))[0] = <PyObject *>t
    if raw is not None:
        x = (raw, flat)
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
    fatal one); lenient mode builds the object of a URL whose every problem it accepts
    too, its problems kept as the flat groups of ``problems`` (issue 27: one walk)."""
    if cfg is None:
        cfg = _default
        if cfg is None:
            return -1
    if type(s) is not str:
        if not isinstance(s, str):
            raise TypeError(f"expected str, not {type(s).__name__}")
        s = str.__str__(s)    # a str subclass: keep the plain text
    cdef W w
    cdef Py_ssize_t r[NFIELDS]
    cdef Py_ssize_t idx, skip = prefix(<str>s)
    cdef list flat = None
    if strict is None:
        init(&w, <str>s, skip, cfg, STOP_ANY, None)
    else:
        # one walk that never stops (a clean URL costs the same) and keeps the first
        # problem that refuses s (the first by position may not be found first); in
        # lenient mode every problem too, for the object of a URL it accepts
        if not strict:
            flat = []
        init(&w, <str>s, skip, cfg, COLLECT, flat)
        w.pick = 1 if strict else 2
    idx = walk(&w, cfg, r)
    if w.worst:
        if strict is None:
            return w.worst if w.worst == 2 else _worst_of(<str>s, skip, cfg)
        if w.best[1] >= 0:
            return (w.best[0], w.best[1], w.best[2], w.best[3], w.best[4])
    t = (r[SCHEME_END], r[USER_START], r[USER_END], r[PASSWORD_START], r[PASSWORD_END],
         r[HOST_START], r[HOST_END], r[PORT_START], r[PORT_END], r[PATH_START], r[PATH_END],
         r[SEARCH_START], r[SEARCH_END], r[FRAGMENT_START], r[FRAGMENT_END],
         r[PROBLEM_POS], r[PROBLEM_CODE], idx, w.worst)
    PyObject_GC_UnTrack(<void *>t)    # ints only: what the collector would find out itself
    if w.worst:
        return new_url(cfg, idx, s[skip:] if skip else s, t, s, tuple(flat))
    if skip:
        return new_url(cfg, idx, s[skip:], t, s)
    return new_url(cfg, idx, s, t, None)


cdef int _worst_of(str s, Py_ssize_t skip, Config cfg) except -1:
    # stopped at a lenient problem: walk on to see whether a fatal one follows
    cdef W w
    cdef Py_ssize_t r[NFIELDS]
    init(&w, s, skip, cfg, STOP_FATAL, None)
    walk(&w, cfg, r)
    return w.worst

