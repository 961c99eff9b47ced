# cython: language_level=3
"""Cython text scanner (built as ``urlsift._scan_c``); twin of ``src/urlsift/_scan_py.py``.

Read the twin first: this is the same walk over a C array, with ``memchr`` finding the
colons and the GIL released. ``str`` input is walked in place (its 1-, 2- or 4-byte
representation), so offsets are characters and nothing is re-encoded. The policy table
and the known scheme names come from :mod:`urlsift.text.rules`; the flag and table bit
values are read from the twin, so the two cannot drift. Turning the triples into
objects is the ``_build`` core's work; it shares ``_Input`` and ``table_ptr`` (the .pxd).
"""
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_SIMPLE
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize, PyBytes_GET_SIZE
from cpython cimport array
from libc.stdint cimport uint8_t, uint16_t, uint32_t, int64_t
from libc.stdlib cimport malloc, calloc, realloc, free
from libc.string cimport memchr, memcpy

import array as _array_mod
from urlsift import _scan_py as _twin

include "_scan_blocks.pxi"
include "_scan_gate.pxi"
include "_scan_batch.pxi"
include "_scan_window.pxi"

cdef extern from "Python.h":
    bint Py_UNICODE_ISALNUM(Py_UCS4 ch) nogil
    void Py_SET_SIZE(object o, Py_ssize_t n)
    int PyUnicode_KIND(object s)
    void *PyUnicode_DATA(object s)
    Py_ssize_t PyUnicode_GET_LENGTH(object s)

ctypedef fused char_t:
    uint8_t
    uint16_t
    uint32_t

cdef int WRAPPED = _twin.WRAPPED
cdef int PREFIX = _twin.PREFIX
cdef int WHITESPACE = _twin.WHITESPACE
cdef int HYPHEN_BREAK = _twin.HYPHEN_BREAK
cdef int TRUNCATED = _twin.TRUNCATED
cdef int CUT_NON_ASCII = _twin.CUT_NON_ASCII
cdef int CUT_UNSAFE = _twin.CUT_UNSAFE
cdef int TRIM_SHIFT = _twin.TRIM_SHIFT
cdef int QUOTED = _twin.QUOTED
cdef int64_t ENCODED = _twin.ENCODED
cdef int64_t SOFT_BREAK = _twin.SOFT_BREAK
cdef int64_t JOINED = _twin.JOINED
cdef int64_t TRIM_MASK = _twin.TRIM_MASK
cdef Py_ssize_t QP_MIN_LINE = _twin.QP_MIN_LINE
cdef Py_ssize_t QP_MAX_LINE = _twin.QP_MAX_LINE
cdef uint8_t T_BARE = _twin.T_BARE
cdef uint8_t T_TRIM = _twin.T_TRIM
cdef uint8_t T_SCHEME = _twin.T_SCHEME
cdef uint8_t T_SPACE = _twin.T_SPACE
cdef uint8_t T_WRAP = _twin.T_WRAP
cdef uint8_t T_SPLIT = _twin.T_SPLIT
cdef uint8_t T_ALPHA = _twin.T_ALPHA
cdef uint8_t T_PLAIN = _twin.T_PLAIN
DEF GLUE_REACH = 32              # the twin's GLUE_REACH (checked at import below)
cdef Py_ssize_t GLUE_MIN = _twin.GLUE_MIN
cdef Py_ssize_t MAX_ANGLE = _twin.MAX_ANGLE
cdef int ANGLE = _twin.ANGLE
assert _twin.GLUE_REACH == GLUE_REACH
DEF N_SYMBOLS = 40               # the twin's N_SYMBOLS (checked below)
DEF MAX_PAIRS = 16               # the twin's MAX_PAIRS (next_candidate's room)
assert _twin.MAX_PAIRS == MAX_PAIRS
cdef int NO_PREFILTER = _twin.NO_PREFILTER
assert _twin.N_SYMBOLS == N_SYMBOLS
cdef Py_ssize_t HEAD = _twin._HEAD
cdef uint8_t K_KNOWN = _twin.K_KNOWN
cdef uint8_t K_SLASHLESS = _twin.K_SLASHLESS
cdef uint8_t K_ANGLE = _twin.K_ANGLE
cdef uint8_t K_GLUE = _twin.K_GLUE
cdef uint8_t K_URL = _twin.K_URL
cdef uint8_t K_SHAPE_ALWAYS = _twin.K_SHAPE_ALWAYS
cdef uint8_t SHAPE_MASK = _twin.SHAPE_MASK
cdef uint8_t SHAPE_GROUP = _twin.SHAPE_GROUP
cdef uint8_t SHAPE_ADDRESS = _twin.SHAPE_ADDRESS
cdef uint8_t SHAPE_PATH = _twin.SHAPE_PATH
DEF N_UNSPACED = 10              # len(_twin.UNSPACED)
cdef uint32_t UNSPACED[N_UNSPACED]
assert len(_twin.UNSPACED) == N_UNSPACED
for _i in range(N_UNSPACED):
    UNSPACED[_i] = _twin.UNSPACED[_i]
from urlsift._marks import MARKS as _MARKS
DEF MAX_MARKS = 2048             # room for the ranges of urlsift._marks (about 600 numbers)
cdef uint32_t MARKS[MAX_MARKS]
cdef Py_ssize_t N_MARKS = len(_MARKS)
assert N_MARKS <= MAX_MARKS and N_MARKS % 2 == 0
for _i in range(N_MARKS):
    MARKS[_i] = _MARKS[_i]


include "_last_of.pxi"


cdef inline Py_ssize_t line_start(const uint8_t *b, Py_ssize_t e, Py_ssize_t max) noexcept nogil:
    """Where the line that ends at ``b[e]`` starts: just after the last LF or NUL before
    ``b[e - 1]``, looking back at most ``max`` octets; -1 when it is longer."""
    cdef Py_ssize_t lo = e - 1 - max if e - 1 - max > 0 else 0
    cdef Py_ssize_t j = last_of(b, lo, e - 1, 10, 0)
    if j >= 0:
        return j + 1
    return 0 if e <= max else -1        # the buffer's first line, if short enough


cdef inline bint is_mark(uint32_t c) noexcept nogil:
    """The twin's is_mark: ``c`` within one of the MARKS ranges (a binary search)."""
    cdef Py_ssize_t lo = 0, hi = N_MARKS // 2, mid
    while lo < hi:
        mid = (lo + hi) // 2
        if c > MARKS[2 * mid + 1]:
            lo = mid + 1
        elif c < MARKS[2 * mid]:
            hi = mid
        else:
            return True
    return False

cdef array.array _Q = _array_mod.array("q")


# Out (the growing triple list) is declared in _scan_c.pxd, shared with _pipe_c.


cdef bint grow(Out *o) noexcept nogil:
    """Room for more triples (False, o.failed set, when there is no memory)."""
    cdef int64_t *d
    if o.lent:                  # the result's memory (Python's): on in memory of our own
        d = <int64_t *>malloc((o.cap * 2 + 48) * sizeof(int64_t))
        if d != NULL:
            memcpy(d, o.data, o.n * sizeof(int64_t))
            o.lent = False
    else:
        d = <int64_t *>realloc(o.data, (o.cap * 2 + 48) * sizeof(int64_t))
    if d == NULL:
        o.failed = 1
        return False
    o.data = d
    o.cap = o.cap * 2 + 48
    return True


cdef inline void emit(Out *o, int64_t a, int64_t b, int64_t f) noexcept nogil:
    # four stores: the walk made room before the candidate (each emits one triple at
    # most), so the compiler inlines this into the walk (with its realloc it did not,
    # and URL-dense text paid a call per URL)
    o.data[o.n] = a
    o.data[o.n + 1] = b
    o.data[o.n + 2] = f
    o.n += 3


cdef inline uint8_t cls(const uint8_t *T, uint32_t c) noexcept nogil:
    return T[c] if c < 256 else 0


include "_scan_find.pxi"
include "_scan_shapes.pxi"
include "_scan_wrap.pxi"
include "_scan_bare.pxi"
include "_scan_walk.pxi"


cdef class _Input:
    """A borrowed view of str data or of a buffer, released on close() (attributes: the .pxd)."""

    def __cinit__(self, buf):
        self.has_view = False
        self.keep = buf
        if isinstance(buf, str):
            self.kind = PyUnicode_KIND(buf)
            self.data = PyUnicode_DATA(buf)
            self.n = PyUnicode_GET_LENGTH(buf)
        else:
            PyObject_GetBuffer(buf, &self.view, PyBUF_SIMPLE)
            self.has_view = True
            self.kind = 1
            self.data = self.view.buf
            self.n = self.view.len

    cdef void close(self):
        if self.has_view:
            PyBuffer_Release(&self.view)
            self.has_view = False

    def __dealloc__(self):
        self.close()


cdef inline void clip(Py_ssize_t n, Py_ssize_t *start, Py_ssize_t *stop) noexcept nogil:
    if stop[0] < 0 or stop[0] > n:
        stop[0] = n
    if start[0] < 0:
        start[0] = 0


cdef object _checked = None     # the last blob known_ptr checked (held: its id stays its)


cdef const uint8_t *known_ptr(bytes known) except NULL:
    """The octets of a ``known`` blob, checked to be a trie walk() can follow blindly
    (ValueError if not); the check runs once per blob, not once per scan call."""
    global _checked
    cdef Trie t
    if known is not _checked:
        if not trie_open(<const uint8_t *>PyBytes_AS_STRING(known), PyBytes_GET_SIZE(known),
                         &t, True):
            raise ValueError(_twin.NOT_A_TRIE)
        _checked = known
    return <const uint8_t *>PyBytes_AS_STRING(known)


cdef const uint8_t *table_ptr(bytes table) except NULL:
    if PyBytes_GET_SIZE(table) != 256:
        raise ValueError("the policy table must have 256 entries")
    return <const uint8_t *>PyBytes_AS_STRING(table)


cdef const uint8_t *octets_ptr(object octets) except? NULL:
    """The ``octets`` table's entries, or NULL for None (the twin's check_octets)."""
    if octets is None:
        return NULL
    if not isinstance(octets, bytes) or PyBytes_GET_SIZE(octets) != 256:
        raise ValueError("the octets table must be None or have 256 entries")
    return <const uint8_t *>PyBytes_AS_STRING(octets)


cdef class _Setups:
    """The walk's setup for one (table, known blob) pair (setup_make, everything made
    now), in memory of its own: a scan holds the object while its walk, without the
    GIL, reads it, so another thread's pair never changes or frees it."""
    cdef Setup *S
    cdef object table, known        # held: their ids stay theirs

    def __cinit__(self, bytes table not None, bytes known not None):
        # calloc: aligned for the SSE2 compares (a Python object may not be)
        self.S = <Setup *>calloc(1, sizeof(Setup))
        if self.S == NULL:
            raise MemoryError("scan: no memory for the walk's setup")
        self.table = table
        self.known = known
        setup_make(<const uint8_t *>PyBytes_AS_STRING(table),
                   <const uint8_t *>PyBytes_AS_STRING(known), PyBytes_GET_SIZE(known),
                   self.S, True)

    def __dealloc__(self):
        if self.S != NULL:
            free(<void *>self.S.t.tails)
            free(<void *>self.S.t.gate)
        free(self.S)


cdef _Setups _last_setup = None
cdef int64_t *_spare = NULL       # a triple buffer between scan() calls (see there)
cdef Py_ssize_t _spare_cap = 0
DEF SPARE_MAX = 1 << 20           # entries (8 MB) at most kept; a larger one is freed
DEF LEND_MIN = 1 << 16            # characters to scan from which the walk writes into the
                                  # result (below, a copy costs less than an allocation)
cdef double _density = 3.0 / 16   # triples a character the last scan found (lend)


cdef _Setups setup_for(bytes table, bytes known):
    """The setup for ``table`` and ``known`` (checked by table_ptr, known_ptr): the
    last one's when the pair is the same objects (bytes do not change), so the compares
    and two_decide are made once per table and blob, not once a call."""
    global _last_setup
    cdef _Setups box = _last_setup
    if box is None or box.table is not table or box.known is not known:
        box = _Setups(table, known)
        _last_setup = box
    return box


def _set_ssse3(bint on):
    """Let the blocks (the prefilter's pairs before a colon, a URL's run of plain
    octets) be told by SSSE3 look-ups (where the CPU has them; the default) or by SSE2
    compares (off: for tests; no blocks with the gate then, _scan_gate.pxi); returns
    what it was. The setup kept between calls is made again."""
    global _last_setup
    _last_setup = None
    return bool(set_ssse3(on))


def _set_avx2(bint on):
    """Let the blocks with the gate read 32 octets at a time (AVX2, where the CPU has
    it and SSSE3's look-ups are on; the default) or 16 (off: for tests,
    _scan_gate.pxi); returns what it was. The setup kept between calls is made again."""
    global _last_setup
    _last_setup = None
    return bool(set_avx2(on))


def _set_batch(bint on):
    """Let the blocks with the gate of 32 octets hand the walk several candidates a
    call (the default) or one (off: for tests, _scan_batch.pxi); returns what it was.
    The setup kept between calls is made again."""
    global _last_setup
    _last_setup = None
    return bool(set_batch(on))


cdef array.array lend(Out *o, Py_ssize_t chars):
    """The result of a scan of ``chars`` characters, its memory lent to the walk (``o``):
    room for as many triples a character as the last such scan found, and an eighth
    more. The walk writes into it, so the triples are not copied (the copy was 7% of a
    URL-dense scan); where they are more, grow copies them into memory of its own.
    The room is not made from what may be at most (a triple every 3 characters): a
    size the allocator maps afresh each call has its pages faulted in again."""
    o.cap = <Py_ssize_t>(chars * _density * 1.125) + 48
    cdef array.array result = array.clone(_Q, o.cap, False)
    o.data = <int64_t *>result.data.as_voidptr
    o.lent = True
    return result


cdef array.array hand_over(Out *o, array.array result):
    """The triples of ``o`` as an ``array('q')``: ``result`` itself when the walk wrote
    into it (shrunk where more than an eighth of it is left over: else kept the size
    made, which the next call of a like text asks again), else a copy."""
    if o.lent:
        if o.n < o.cap - (o.cap >> 3):
            array.resize(result, o.n)
        else:
            Py_SET_SIZE(result, o.n)
        return result
    result = array.clone(_Q, o.n, False)
    if o.n:
        memcpy(result.data.as_voidptr, o.data, o.n * sizeof(int64_t))
    return result


def scan(buf, Py_ssize_t start, Py_ssize_t stop, bytes table not None, bytes known not None,
         Py_ssize_t max_wrapper, Py_ssize_t max_length, octets=None):
    """Flat (start, end, flags) triples of the URLs whose colon lies in ``[start, stop)``;
    ``octets``: see the twin."""
    cdef const uint8_t *T = table_ptr(table)
    cdef const uint8_t *K = known_ptr(known)
    cdef const uint8_t *O = octets_ptr(octets)
    cdef _Setups box = setup_for(table, known)     # held until the walk is done
    cdef Setup *S = box.S
    cdef _Input inp = _Input(buf)
    cdef Out o
    cdef array.array result = None
    cdef bint long_scan             # the walk writes into the result (lend)
    global _spare, _spare_cap, _density
    o.n = 0
    o.failed = 0
    o.lent = False
    o.data = NULL
    o.cap = 0
    try:
        clip(inp.n, &start, &stop)
        long_scan = stop - start >= LEND_MIN
        if long_scan:
            result = lend(&o, stop - start)
        else:
            # the last call's triple buffer, taken (the GIL guards it): grown once, not
            # by realloc on every call of a URL-dense text, nor its pages faulted in again
            o.data = _spare
            o.cap = _spare_cap
            _spare = NULL
            _spare_cap = 0
        with nogil:
            if inp.kind == 1:
                walk(<const uint8_t *>inp.data, inp.n, start, stop, T, S,
                     max_wrapper, max_length, inp.has_view, O, &o)
            elif inp.kind == 2:
                walk(<const uint16_t *>inp.data, inp.n, start, stop, T, S,
                     max_wrapper, max_length, False, O, &o)
            else:
                walk(<const uint32_t *>inp.data, inp.n, start, stop, T, S,
                     max_wrapper, max_length, False, O, &o)
        if o.failed:
            raise MemoryError("scan: no memory for the match list")
        if long_scan:
            _density = o.n / <double>(stop - start)
        return hand_over(&o, result)
    finally:
        if o.lent:
            pass                        # the result's: freed with it
        elif _spare == NULL and o.cap <= SPARE_MAX:
            _spare = o.data             # kept for the next call
            _spare_cap = o.cap
        else:
            free(o.data)
        inp.close()


def count_newlines(buf, Py_ssize_t start, Py_ssize_t stop):
    """How many ``\\n`` lie in ``buf[start:stop]`` (``stop < 0``: to the end)."""
    cdef _Input inp = _Input(buf)
    cdef Py_ssize_t r
    try:
        clip(inp.n, &start, &stop)
        with nogil:
            if inp.kind == 1:
                r = count_nl(<const uint8_t *>inp.data, start, stop)
            elif inp.kind == 2:
                r = count_nl(<const uint16_t *>inp.data, start, stop)
            else:
                r = count_nl(<const uint32_t *>inp.data, start, stop)
        return r
    finally:
        inp.close()


def next_boundary(buf, Py_ssize_t pos, Py_ssize_t stop, bytes table):
    """The first split point in ``(pos, stop]`` (after ``\\n``, else after a T_SPLIT), or -1."""
    cdef const uint8_t *T = table_ptr(table)
    cdef _Input inp = _Input(buf)
    cdef Py_ssize_t r
    try:
        clip(inp.n, &pos, &stop)
        with nogil:
            if inp.kind == 1:
                r = boundary(<const uint8_t *>inp.data, pos, stop, T)
            elif inp.kind == 2:
                r = boundary(<const uint16_t *>inp.data, pos, stop, T)
            else:
                r = boundary(<const uint32_t *>inp.data, pos, stop, T)
        return r
    finally:
        inp.close()
