# cython: language_level=3, boundscheck=False, wraparound=False, cdivision=True
"""The HTML tokenizer a URL finder needs: the compiled twin of
``src/urlsift/_html_py.py`` (read its docstrings; the records are the same).

One loop over the octets, a ``switch`` on the state of §13.2.5 (the spec's names, as in
the twin); the named references are looked up in the twin's generated table
(``urlsift._entities``), only at an ``&``.
"""
from cpython.bytes cimport PyBytes_AS_STRING, PyBytes_FromStringAndSize

from urlsift._entities import C1_REPLACEMENTS, LONGEST, LONGEST_LEGACY, NAMED
from urlsift._html_py import FIELDS, STATES

__all__ = ["FIELDS", "STATES", "html_runs"]

cdef enum State:
    DATA, RCDATA, RAWTEXT, SCRIPT_DATA, PLAINTEXT, TAG_OPEN, END_TAG_OPEN, TAG_NAME,
    TEXT_LESS_THAN_SIGN, TEXT_END_TAG_OPEN, TEXT_END_TAG_NAME, BEFORE_ATTRIBUTE_NAME,
    ATTRIBUTE_NAME, AFTER_ATTRIBUTE_NAME, BEFORE_ATTRIBUTE_VALUE, ATTRIBUTE_VALUE_DOUBLE,
    ATTRIBUTE_VALUE_SINGLE, ATTRIBUTE_VALUE_UNQUOTED, AFTER_ATTRIBUTE_VALUE_QUOTED,
    SELF_CLOSING_START_TAG, BOGUS_COMMENT, MARKUP_DECLARATION_OPEN, COMMENT_START,
    COMMENT_START_DASH, COMMENT, COMMENT_LESS_THAN_SIGN, COMMENT_LESS_THAN_SIGN_BANG,
    COMMENT_LESS_THAN_SIGN_BANG_DASH, COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH,
    COMMENT_END_DASH, COMMENT_END, COMMENT_END_BANG, DOCTYPE

cdef enum:
    TEXT = 0
    BASE_HREF = 13
    REFRESH = 14
    STYLE_TEXT = 16
    OTHER = 17
    A_START = 18
    A_END = 19

cdef dict _URL_ATTRIBUTES = {name.encode(): i for i, name in enumerate(FIELDS)
                             if 1 <= i <= 12 or i == 15}
cdef frozenset _KEPT = frozenset(_URL_ATTRIBUTES) | {b"http-equiv", b"content"}
cdef dict _SWITCH = {b"title": RCDATA, b"textarea": RCDATA, b"style": RAWTEXT,
                     b"xmp": RAWTEXT, b"iframe": RAWTEXT, b"noembed": RAWTEXT,
                     b"noframes": RAWTEXT, b"script": SCRIPT_DATA, b"plaintext": PLAINTEXT}
cdef dict _INITIAL = {"data": DATA, "RCDATA": RCDATA, "RAWTEXT": RAWTEXT,
                      "script data": SCRIPT_DATA, "PLAINTEXT": PLAINTEXT}
cdef dict _NAMED = NAMED
cdef dict _C1 = C1_REPLACEMENTS
cdef Py_ssize_t _LONGEST = LONGEST, _LONGEST_LEGACY = LONGEST_LEGACY
cdef bytes _FFFD = "\ufffd".encode()


# The characters the states look at, by the spec's names (see the twin).
cdef enum:
    EXCLAMATION_MARK = 0x21
    QUOTATION_MARK = 0x22
    NUMBER_SIGN = 0x23
    AMPERSAND = 0x26
    APOSTROPHE = 0x27
    HYPHEN_MINUS = 0x2D
    SOLIDUS = 0x2F
    SEMICOLON = 0x3B
    LT = 0x3C
    EQUALS_SIGN = 0x3D
    GT = 0x3E
    QUESTION_MARK = 0x3F


cdef inline bint is_space(int c) noexcept:
    # CR too: the spec reads it as the LF the input stream's preprocessing makes of it
    return c == 0x09 or c == 0x0A or c == 0x0C or c == 0x0D or c == 0x20


cdef inline bint is_alpha(int c) noexcept:
    return (0x41 <= c <= 0x5A) or (0x61 <= c <= 0x7A)


cdef inline bint is_tag_name_octet(int c) noexcept:
    """Part of a tag's name in the tag name state (ASCII upper case folded)."""
    return not (is_space(c) or c == SOLIDUS or c == GT or c == 0)


cdef inline bint is_name_octet(int c) noexcept:
    """Taken as it is in the attribute name state (no case to fold, nothing ending it)."""
    return not (is_space(c) or c == SOLIDUS or c == GT or c == EQUALS_SIGN or c == 0
                or 0x41 <= c <= 0x5A)


cdef inline bint is_digit(int c) noexcept:
    return 0x30 <= c <= 0x39


cdef inline bint is_alnum(int c) noexcept:
    return is_alpha(c) or is_digit(c)


cdef inline bint is_hex(int c) noexcept:
    return is_digit(c) or (0x41 <= c <= 0x46) or (0x61 <= c <= 0x66)


cdef class Run:
    """A run being read (see the twin's ``_Run``)."""
    cdef Py_ssize_t start, end, copied
    cdef bytearray out

    def __cinit__(self, Py_ssize_t start):
        self.start = self.end = self.copied = start
        self.out = None

    cdef inline void take(self, bytes data, Py_ssize_t a, Py_ssize_t b):
        if a > self.end:
            self.replace(data, self.end, a, b"")
        self.end = b

    cdef void replace(self, bytes data, Py_ssize_t a, Py_ssize_t b, bytes what):
        if self.out is None:
            self.out = bytearray()
        self.out += data[self.copied:a]
        self.out += what
        self.copied = self.end = b

    cdef object decoded(self, bytes data):
        if self.out is None:
            return None
        return bytes(self.out + data[self.copied:self.end])


cdef bytes code_point_utf8(long cp):
    if cp == 0 or cp > 0x10FFFF or 0xD800 <= cp <= 0xDFFF:
        cp = 0xFFFD
    else:
        cp = _C1.get(cp, cp)
    return chr(cp).encode("utf-8")


cdef Py_ssize_t reference(bytes data, const unsigned char *p, Py_ssize_t n, Py_ssize_t pos,
                          bint in_attribute, list meaning) except -1:
    """The twin's ``_reference``: the offset after the reference, its meaning in
    ``meaning[0]`` (None: the ``&`` as it is, and the offset is ``pos + 1``)."""
    cdef Py_ssize_t i = pos + 1, j, k, limit
    cdef long cp = 0
    cdef int base, d
    cdef bint hexadecimal
    cdef object found
    meaning[0] = None
    if i < n and p[i] == NUMBER_SIGN:                                      # "#"
        i += 1
        hexadecimal = i < n and (p[i] == 0x78 or p[i] == 0x58)
        if hexadecimal:
            i += 1
        base = 16 if hexadecimal else 10
        j = i
        while j < n and (is_hex(p[j]) if hexadecimal else is_digit(p[j])):
            if cp <= 0x10FFFF:
                d = p[j]
                d = d - 0x30 if d <= 0x39 else (d | 0x20) - 0x61 + 10
                cp = cp * base + d
            j += 1
        if j == i:
            return pos + 1
        if j < n and p[j] == SEMICOLON:
            j += 1
        meaning[0] = code_point_utf8(cp)
        return j
    j = i
    limit = n if n < i + _LONGEST else i + _LONGEST
    while j < limit and is_alnum(p[j]):
        j += 1
    if j == i:
        return pos + 1
    if j < n and p[j] == SEMICOLON:
        found = _NAMED.get(data[i:j + 1])
        if found is not None:
            meaning[0] = found
            return j + 1
    k = j if j < i + _LONGEST_LEGACY else i + _LONGEST_LEGACY
    while k > i:
        found = _NAMED.get(data[i:k])
        if found is not None:
            if in_attribute and k < n and (p[k] == EQUALS_SIGN or is_alnum(p[k])):
                return pos + 1
            meaning[0] = found
            return k
        k -= 1
    return pos + 1


cdef int field_of(bytes tag, bytes name, bint refresh, bint every_attribute):
    if name == b"href" and tag == b"base":
        return BASE_HREF
    if name == b"content" and refresh:
        return REFRESH
    cdef int field = _URL_ATTRIBUTES.get(name, -1)
    if name == b"data" and tag != b"object":
        field = -1
    return OTHER if field < 0 and every_attribute else field


cdef class Tokenizer:
    """One pass of ``html_runs`` (its state between the steps)."""
    cdef bytes data
    cdef const unsigned char *p
    cdef Py_ssize_t n
    cdef list runs, problems
    cdef State text_state
    cdef bytes last
    cdef Run run
    cdef bint every_attribute, anchors

    cdef void text(self, Py_ssize_t a, Py_ssize_t b, object what):
        if self.run is None:
            self.run = Run(a)
        if what is None:
            self.run.take(self.data, a, b)
        else:
            self.run.take(self.data, a, a)
            self.run.replace(self.data, a, b, what)

    cdef void close_run(self):
        cdef int field
        if self.run is not None:
            field = STYLE_TEXT if self.text_state == RAWTEXT and self.last == b"style" else TEXT
            self.runs.append((field, self.run.start, self.run.end, self.run.decoded(self.data)))
            self.run = None

    cdef State emit_tag(self, bint end_tag, bytes tag, list attributes, Py_ssize_t start,
                        Py_ssize_t end):
        """The tag ``data[start:end]`` is done: its records, and the state it leaves the
        tokenizer in."""
        cdef bint refresh = False
        cdef Run value
        cdef object meaning
        cdef int field
        self.close_run()
        if self.anchors and tag == b"a":
            self.runs.append((A_END if end_tag else A_START, start, end, None))
        if end_tag:
            self.text_state = DATA
            return DATA
        if tag == b"meta":
            for key, value in attributes:
                if key == b"http-equiv":
                    meaning = value.decoded(self.data)
                    if meaning is None:
                        meaning = self.data[value.start:value.end]
                    refresh = meaning.lower() == b"refresh"
        for key, value in attributes:
            field = field_of(tag, key, refresh, self.every_attribute)
            if field >= 0:
                self.runs.append((field, value.start, value.end, value.decoded(self.data)))
        self.last = tag
        self.text_state = _SWITCH.get(tag, DATA)
        return self.text_state

    cdef int run_all(self, State st) except -1:
        cdef const unsigned char *p = self.p
        cdef Py_ssize_t n = self.n, pos = 0, tag_start = 0, end, stop
        cdef int c
        cdef bint end_tag = False
        cdef bytearray name = bytearray(), attribute_name = bytearray()
        cdef list attributes = []
        cdef set names = set()
        cdef list attribute = None
        cdef list meaning = [None]
        cdef Run value
        cdef bytes key, data = self.data
        while pos <= n:
            c = p[pos] if pos < n else -1
            if st == DATA or st == RCDATA or st == RAWTEXT or st == SCRIPT_DATA or st == PLAINTEXT:
                stop = pos
                while stop < n:
                    c = p[stop]
                    if (c == LT and st != PLAINTEXT) or (c == AMPERSAND and st <= RCDATA) \
                            or (c == 0 and st != DATA):
                        break
                    stop += 1
                if stop > pos:
                    self.text(pos, stop, None)
                pos = stop
                if pos == n:
                    break
                c = p[pos]
                if c == AMPERSAND:
                    end = reference(data, p, n, pos, False, meaning)
                    self.text(pos, end, meaning[0])
                    pos = end
                elif c == 0:
                    self.text(pos, pos + 1, _FFFD)
                    pos += 1
                else:
                    tag_start = pos
                    st = TAG_OPEN if st == DATA else TEXT_LESS_THAN_SIGN
                    pos += 1
                continue
            if (st == TAG_OPEN or st == END_TAG_OPEN) and is_alpha(c):
                end_tag = st == END_TAG_OPEN
                del name[:]
                attributes = []
                names.clear()
                st = TAG_NAME
            elif st == TAG_OPEN:
                if c == EXCLAMATION_MARK:
                    st = MARKUP_DECLARATION_OPEN
                    pos += 1
                elif c == SOLIDUS:
                    st = END_TAG_OPEN
                    pos += 1
                elif c == QUESTION_MARK:
                    st = BOGUS_COMMENT
                else:
                    self.text(tag_start, pos, None)
                    st = DATA
            elif st == END_TAG_OPEN:
                if c == GT:
                    st = DATA
                    pos += 1
                elif c == -1:
                    self.text(tag_start, pos, None)
                    break
                else:
                    st = BOGUS_COMMENT
            elif st == TAG_NAME:
                if c == -1:
                    self.problems.append((tag_start, "eof-in-tag"))
                    break
                if is_space(c):
                    st = BEFORE_ATTRIBUTE_NAME
                elif c == SOLIDUS:
                    st = SELF_CLOSING_START_TAG
                elif c == GT:
                    pos += 1
                    st = self.emit_tag(end_tag, bytes(name), attributes, tag_start, pos)
                    continue
                elif c == 0:
                    name += _FFFD
                else:
                    name.append(c + 0x20 if 0x41 <= c <= 0x5A else c)
                    while pos + 1 < n and is_tag_name_octet(p[pos + 1]):    # the rest at once
                        pos += 1
                        c = p[pos]
                        name.append(c + 0x20 if 0x41 <= c <= 0x5A else c)
                pos += 1
            elif st == TEXT_LESS_THAN_SIGN:
                if c == SOLIDUS:
                    st = TEXT_END_TAG_OPEN
                    pos += 1
                else:
                    self.text(tag_start, pos, None)
                    st = self.text_state
            elif st == TEXT_END_TAG_OPEN:
                if is_alpha(c):
                    del name[:]
                    st = TEXT_END_TAG_NAME
                else:
                    self.text(tag_start, pos, None)
                    st = self.text_state
            elif st == TEXT_END_TAG_NAME:
                if is_alpha(c):
                    name.append(c | 0x20)
                    pos += 1
                    continue
                if (is_space(c) or c == SOLIDUS or c == GT) and bytes(name) == self.last:
                    end_tag = True
                    attributes = []
                    names.clear()
                    st = TAG_NAME
                    continue
                self.text(tag_start, pos, None)
                st = self.text_state
            elif st == BEFORE_ATTRIBUTE_NAME or st == AFTER_ATTRIBUTE_NAME:
                if c == -1:
                    self.problems.append((tag_start, "eof-in-tag"))
                    break
                if is_space(c):
                    pos += 1
                elif c == SOLIDUS:
                    st = SELF_CLOSING_START_TAG
                    pos += 1
                elif c == GT:
                    pos += 1
                    st = self.emit_tag(end_tag, bytes(name), attributes, tag_start, pos)
                elif c == EQUALS_SIGN and st == AFTER_ATTRIBUTE_NAME:
                    st = BEFORE_ATTRIBUTE_VALUE
                    pos += 1
                else:
                    del attribute_name[:]
                    st = ATTRIBUTE_NAME
                    if c == EQUALS_SIGN:
                        attribute_name.append(c)
                        pos += 1
            elif st == ATTRIBUTE_NAME:
                if c == -1 or is_space(c) or c == SOLIDUS or c == GT or c == EQUALS_SIGN:
                    key = bytes(attribute_name)
                    if key in names or not (self.every_attribute or key in _KEPT):
                        attribute = None
                    else:
                        attribute = [key, Run(pos)]
                        names.add(key)
                        attributes.append(attribute)
                    if c == EQUALS_SIGN:
                        st = BEFORE_ATTRIBUTE_VALUE
                        pos += 1
                    else:
                        st = AFTER_ATTRIBUTE_NAME
                else:
                    if 0x41 <= c <= 0x5A:
                        attribute_name.append(c + 0x20)
                    elif c == 0:
                        attribute_name += _FFFD
                    else:
                        attribute_name.append(c)
                    pos += 1
                    while pos < n and is_name_octet(p[pos]):    # the rest of the name at once
                        attribute_name.append(p[pos])
                        pos += 1
            elif st == BEFORE_ATTRIBUTE_VALUE:
                if c != -1 and is_space(c):
                    pos += 1
                elif c == QUOTATION_MARK or c == APOSTROPHE:
                    st = ATTRIBUTE_VALUE_DOUBLE if c == QUOTATION_MARK else ATTRIBUTE_VALUE_SINGLE
                    pos += 1
                    if attribute is not None:
                        attribute[1] = Run(pos)
                elif c == GT:
                    pos += 1
                    st = self.emit_tag(end_tag, bytes(name), attributes, tag_start, pos)
                else:
                    if attribute is not None:
                        attribute[1] = Run(pos)
                    st = ATTRIBUTE_VALUE_UNQUOTED
            elif st == ATTRIBUTE_VALUE_DOUBLE or st == ATTRIBUTE_VALUE_SINGLE \
                    or st == ATTRIBUTE_VALUE_UNQUOTED:
                keep = attribute is not None   # else only where the value ends matters
                if keep:
                    value = attribute[1]
                stop = pos
                while stop < n:
                    c = p[stop]
                    if (c == AMPERSAND or c == 0) and keep:
                        break
                    if st == ATTRIBUTE_VALUE_DOUBLE:
                        if c == QUOTATION_MARK:
                            break
                    elif st == ATTRIBUTE_VALUE_SINGLE:
                        if c == APOSTROPHE:
                            break
                    elif is_space(c) or c == GT:
                        break
                    stop += 1
                if keep:
                    value.take(data, pos, stop)
                pos = stop
                if pos == n:
                    self.problems.append((tag_start, "eof-in-tag"))
                    break
                c = p[pos]
                if c == AMPERSAND:
                    end = reference(data, p, n, pos, True, meaning)
                    if meaning[0] is None:
                        value.take(data, pos, end)
                    else:
                        value.replace(data, pos, end, meaning[0])
                    pos = end
                elif c == 0:
                    value.replace(data, pos, pos + 1, _FFFD)
                    pos += 1
                elif st == ATTRIBUTE_VALUE_UNQUOTED:
                    pos += 1
                    if c == GT:
                        st = self.emit_tag(end_tag, bytes(name), attributes, tag_start, pos)
                    else:
                        st = BEFORE_ATTRIBUTE_NAME
                else:
                    st = AFTER_ATTRIBUTE_VALUE_QUOTED
                    pos += 1
            elif st == AFTER_ATTRIBUTE_VALUE_QUOTED:
                st = BEFORE_ATTRIBUTE_NAME      # the same steps (see the twin)
            elif st == SELF_CLOSING_START_TAG:
                if c == -1:
                    self.problems.append((tag_start, "eof-in-tag"))
                    break
                if c == GT:
                    pos += 1
                    st = self.emit_tag(end_tag, bytes(name), attributes, tag_start, pos)
                else:
                    st = BEFORE_ATTRIBUTE_NAME
            elif st == MARKUP_DECLARATION_OPEN:
                if pos + 1 < n and p[pos] == HYPHEN_MINUS and p[pos + 1] == HYPHEN_MINUS:
                    st = COMMENT_START
                    pos += 2
                elif data[pos:pos + 7].upper() == b"DOCTYPE":
                    st = DOCTYPE
                    pos += 7
                else:
                    st = BOGUS_COMMENT
            elif st == BOGUS_COMMENT or st == DOCTYPE:
                while pos < n and p[pos] != GT:
                    pos += 1
                if pos == n:
                    self.problems.append((tag_start, "eof-in-doctype" if st == DOCTYPE
                                          else "eof-in-comment"))
                    self.close_run()
                    break
                pos += 1
                self.close_run()
                st = DATA
            elif st == COMMENT_START or st == COMMENT_START_DASH:
                if c == HYPHEN_MINUS:
                    st = COMMENT_START_DASH if st == COMMENT_START else COMMENT_END
                    pos += 1
                elif c == GT:
                    pos += 1
                    self.close_run()
                    st = DATA
                elif c == -1:
                    self.problems.append((tag_start, "eof-in-comment"))
                    self.close_run()
                    break
                else:
                    st = COMMENT
            elif st == COMMENT:
                while pos < n and p[pos] != LT and p[pos] != HYPHEN_MINUS:
                    pos += 1
                if pos == n:
                    self.problems.append((tag_start, "eof-in-comment"))
                    self.close_run()
                    break
                st = COMMENT_LESS_THAN_SIGN if p[pos] == LT else COMMENT_END_DASH
                pos += 1
            elif st == COMMENT_LESS_THAN_SIGN:
                if c == EXCLAMATION_MARK:
                    st = COMMENT_LESS_THAN_SIGN_BANG
                    pos += 1
                elif c != LT:
                    st = COMMENT
                else:
                    pos += 1
            elif st == COMMENT_LESS_THAN_SIGN_BANG:
                if c == HYPHEN_MINUS:
                    st = COMMENT_LESS_THAN_SIGN_BANG_DASH
                    pos += 1
                else:
                    st = COMMENT
            elif st == COMMENT_LESS_THAN_SIGN_BANG_DASH:
                if c == HYPHEN_MINUS:
                    st = COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH
                    pos += 1
                else:
                    st = COMMENT_END_DASH
            elif st == COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH:
                st = COMMENT_END
            else:                       # COMMENT_END_DASH, COMMENT_END, COMMENT_END_BANG
                if c == -1:
                    self.problems.append((tag_start, "eof-in-comment"))
                    self.close_run()
                    break
                if c == GT and st != COMMENT_END_DASH:
                    pos += 1
                    self.close_run()
                    st = DATA
                elif c == HYPHEN_MINUS:
                    st = COMMENT_END_DASH if st == COMMENT_END_BANG else COMMENT_END
                    pos += 1
                elif c == EXCLAMATION_MARK and st == COMMENT_END:
                    st = COMMENT_END_BANG
                    pos += 1
                else:
                    st = COMMENT
        self.close_run()
        return 0


def html_runs(data, bint every_attribute=False, state="data", last_start_tag=b"",
              bint anchors=False):
    """See ``urlsift._html_py.html_runs``."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"HTML is bytes, not {type(data).__name__}")
    if state not in _INITIAL:
        raise ValueError(f"no such initial state: {state!r}")
    cdef Tokenizer t = Tokenizer()
    t.data = bytes(data)
    t.p = <const unsigned char *>PyBytes_AS_STRING(t.data)
    t.n = len(t.data)
    t.runs = []
    t.problems = []
    t.text_state = _INITIAL[state]
    t.last = bytes(last_start_tag).lower()
    t.run = None
    t.every_attribute = every_attribute
    t.anchors = anchors
    t.run_all(t.text_state)
    return t.runs, t.problems
