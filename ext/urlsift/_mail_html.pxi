# Included by _mail_c.pyx: the HTML of a text/html part (twin: _mail_html_py.py): its
# URL values and text runs, in document order, read on the decoded octets as the WHATWG
# tokenizer (_html, HTML section 13.2.5) and the email path's reader
# (urlsift.mail.html.whatwg_links) read them: HTML5 comment ends, RCDATA and RAWTEXT
# elements, the URL attributes' values that need no clean-up (one URL each, a srcset's
# candidates, a ping's tokens, the url() strings of CSS). What the walk does not lay out
# as that reader does falls back (the list is in the twin's docstring).
#
# The one entry point is html_part(w, index, d, n, la, lb): it takes the decoded HTML
# octets and reports each run through the walker (w.segment): a value kind (C_K_HREF,
# C_K_SRC, C_K_SRCSET... the attribute's) for a URL that starts with a scheme (its part
# offset: the value's first octet, a <style> block's), K_HTML_TEXT for a text run with
# the segment of the href of the <a> it is in.

cdef struct Tag:
    Py_ssize_t j            # where its "<" is
    Py_ssize_t na, ne       # its name
    bint closing            # "</name"
    Py_ssize_t href         # the segment of its href value; -2: one without a scheme; -1
    int seen                # bit 1 << kind: a URL attribute read (a duplicate is dropped)


cdef int html_part(_Walk w, Py_ssize_t index, cbuf d, Py_ssize_t n, int64_t la,
                   int64_t lb) except -1 nogil:
    """``href``/``src`` values and text runs of ``d[:n]`` (as ``_mail_html_py.html``)."""
    cdef Py_ssize_t i = 0, run = 0, j
    cdef Py_ssize_t anchor = -1            # the segment of the href of the <a> we are in
    cdef const void *hit
    cdef unsigned char c
    cdef bint letter
    if n and memchr(d, 0, n) != NULL:
        return FB                              # a NUL: the spec replaces it in places
    while True:
        hit = memchr(d + i, LT, n - i) if i < n else NULL
        if hit == NULL:
            break
        j = <cbuf>hit - d
        if j + 1 >= n:
            break
        c = d[j + 1]
        letter = is_letter(c)
        if not (letter or c == SLASH or c == BANG or c == QUESTION):
            i = j + 1
            continue
        if html_text(w, index, d, run, j, la, lb, anchor, True) == FB:
            return FB
        if c == SLASH and j + 2 < n and d[j + 2] == GT:
            return FB                          # "</>": the runs around it are one
        elif letter or (c == SLASH and j + 2 < n and is_letter(d[j + 2])):
            if html_element(w, index, d, n, j, la, lb, &i, &anchor) == FB:
                return FB
        else:
            i = markup_end(d, n, j, c)
            if i < 0:
                return FB                      # never closed, or a bogus comment
        run = i
    return html_text(w, index, d, run, n, la, lb, anchor, True)


cdef int html_element(_Walk w, Py_ssize_t index, cbuf d, Py_ssize_t n, Py_ssize_t j,
                      int64_t la, int64_t lb, Py_ssize_t *at,
                      Py_ssize_t *anchor) except -1 nogil:
    """The tag at ``d[j]``, its ``href``/``src`` values laid out as they are read;
    ``at[0]``: the offset after it (and after the raw text of ``<script>``/``<style>``);
    ``anchor[0]``: the ``<a>`` the text after it is in."""
    cdef Tag t
    cdef Py_ssize_t p, an_a, an_e, va, ve, stop
    cdef int raw
    t.j = j
    t.closing = d[j + 1] == SLASH
    t.href = -1
    t.seen = 0
    p = j + 2 if t.closing else j + 1
    t.na = p
    p = past(d, n, p, "\t\n\f\r />", False)
    t.ne = p
    while True:
        p = past(d, n, p, "\t\n\f\r /", True)
        if p >= n:
            return FB                          # never closed
        if d[p] == GT:
            break
        an_a = p
        p = attribute(d, n, p, &an_e, &va, &ve)
        if p < 0:
            return FB
        if not t.closing:                      # one without a value counts (a duplicate)
            if html_value(w, index, d, &t, an_a, an_e, va, ve, la, lb) == FB:
                return FB
    at[0] = p + 1
    if t.closing:
        if eq_lower(d, t.na, t.ne, "a"):
            anchor[0] = -1
        return 0
    if eq_lower(d, t.na, t.ne, "a"):
        anchor[0] = t.href
    raw = raw_text(d, t.na, t.ne)
    if raw < 0:
        return 0
    if raw == RAW_PLAIN:                       # text to the end (section 13.2.5.5)
        if html_text(w, index, d, at[0], n, la, lb, anchor[0], False) == FB:
            return FB
        at[0] = n
        return 0
    stop = raw_end(d, n, at[0], d + t.na, t.ne - t.na)
    if raw == RAW_CSS:                         # CSS, not text: its url()s are links
        if css_values(w, index, d + at[0], stop - at[0], la, lb, C_K_STYLE_BLOCK, at[0]) == FB:
            return FB
    elif html_text(w, index, d, at[0], stop, la, lb, anchor[0], raw == RAW_RCDATA) == FB:
        return FB
    at[0] = stop
    return 0


cdef enum:
    RAW_RCDATA = 1      # title, textarea: text, references decoded
    RAW_TEXT = 2        # script, xmp, iframe, noembed, noframes: text as written
    RAW_CSS = 3         # style
    RAW_PLAIN = 4       # plaintext: text to the end


cdef int raw_text(cbuf d, Py_ssize_t na, Py_ssize_t ne) noexcept nogil:
    """What the element named ``d[na:ne]`` holds when the tokenizer reads its content
    as text (section 13.2.6.4: RCDATA, RAWTEXT, script data, PLAINTEXT); -1 for markup.
    The first letter picks the names to compare (every start tag comes here)."""
    cdef unsigned char c = lower(d[na]) if na < ne else 0
    if c == 116:                                                    # t
        return RAW_RCDATA if eq_lower(d, na, ne, "title") or eq_lower(d, na, ne, "textarea") else -1
    if c == 115:                                                    # s
        return (RAW_CSS if eq_lower(d, na, ne, "style")
                else RAW_TEXT if eq_lower(d, na, ne, "script") else -1)
    if c == 120:                                                    # x
        return RAW_TEXT if eq_lower(d, na, ne, "xmp") else -1
    if c == 105:                                                    # i
        return RAW_TEXT if eq_lower(d, na, ne, "iframe") else -1
    if c == 110:                                                    # n
        return RAW_TEXT if eq_lower(d, na, ne, "noembed") or eq_lower(d, na, ne, "noframes") else -1
    if c == 112:                                                    # p
        return RAW_PLAIN if eq_lower(d, na, ne, "plaintext") else -1
    return -1


cdef Py_ssize_t attribute(cbuf d, Py_ssize_t n, Py_ssize_t p, Py_ssize_t *an_e, Py_ssize_t *va,
                          Py_ssize_t *ve) noexcept nogil:
    """The attribute whose name starts at ``d[p]``: ``an_e[0]`` its name's end, ``va``
    and ``ve`` its value's span (-1 without one); the offset after it, -1 when the tag
    never ends."""
    cdef const void *hit
    cdef unsigned char quote
    cdef Py_ssize_t q
    p = past(d, n, p + 1, "\t\n\f\r />=", False)
    an_e[0] = p
    p = past(d, n, p, "\t\n\f\r ", True)
    va[0] = ve[0] = -1
    if p < n and d[p] == EQUALS:
        p = past(d, n, p + 1, "\t\n\f\r ", True)
        if p >= n:
            return -1
        quote = d[p]
        if quote == DQUOTE or quote == QUOTE:
            hit = memchr(d + p + 1, quote, n - p - 1) if p + 1 < n else NULL
            if hit == NULL:
                return -1
            q = <cbuf>hit - d
            va[0], ve[0] = p + 1, q
            p = q + 1
        else:
            q = past(d, n, p, "\t\n\f\r >", False)
            va[0], ve[0] = p, q
            p = q
    return p


cdef int html_value(_Walk w, Py_ssize_t index, cbuf d, Tag *t, Py_ssize_t an_a, Py_ssize_t an_e,
                    Py_ssize_t va, Py_ssize_t ve, int64_t la, int64_t lb) except -1 nogil:
    """The value ``d[va:ve]`` of attribute ``d[an_a:an_e]`` of tag ``t``: the URLs of a
    URL attribute laid out as segments of its kind (``t.href``: the segment of an href)."""
    cdef int kind = url_kind(d, t, an_a, an_e)
    cdef cbuf v
    cdef Py_ssize_t vn, seg
    if kind < 0:
        if va < ve and refresh(d, t, an_a, an_e, va, ve):
            return FB                          # a URL the email path reads
        return 0
    if t.seen & (1 << kind):
        return 0                               # a duplicate: the tokenizer drops it
    t.seen |= 1 << kind
    if va < 0 or (kind == C_K_STYLE and not css_url(d, va, ve)):
        return 0
    if unescaped_value(w, d, va, ve, &v, &vn) == FB:
        return FB
    if kind == C_K_STYLE:
        return css_values(w, index, v, vn, la, lb, kind, va)
    if kind == C_K_SRCSET:
        return srcset_values(w, index, v, vn, la, lb, va)
    if kind == C_K_PING:
        return ping_values(w, index, v, vn, la, lb, va)
    if kind == C_K_HREF and eq_lower(d, t.na, t.ne, "base"):
        if strip_value(&v, &vn) == FB or vn:
            return FB                          # relative links resolve against it
        return 0
    if url_value(w, index, v, vn, la, lb, kind, va, &seg) == FB:
        return FB
    if kind == C_K_HREF and seg != -1:
        t.href = seg
    return 0


cdef int url_kind(cbuf d, Tag *t, Py_ssize_t a, Py_ssize_t e) noexcept nogil:
    """The kind of the URL attribute ``d[a:e]`` of tag ``t`` (HTML's attribute index;
    ``data`` of ``<object>`` only), -1 for another. The first letter picks the names."""
    cdef unsigned char c = lower(d[a])
    if c == 104:                                                    # h
        return C_K_HREF if eq_lower(d, a, e, "href") else -1
    if c == 115:                                                    # s
        return (C_K_SRC if eq_lower(d, a, e, "src") else C_K_SRCSET if eq_lower(d, a, e, "srcset")
                else C_K_STYLE if eq_lower(d, a, e, "style") else -1)
    if c == 97:                                                     # a
        return C_K_ACTION if eq_lower(d, a, e, "action") else -1
    if c == 98:                                                     # b
        return C_K_BACKGROUND if eq_lower(d, a, e, "background") else -1
    if c == 99:                                                     # c
        return C_K_CITE if eq_lower(d, a, e, "cite") else -1
    if c == 100:                                                    # d
        return C_K_DATA if eq_lower(d, a, e, "data") and eq_lower(d, t.na, t.ne, "object") else -1
    if c == 102:                                                    # f
        return C_K_FORMACTION if eq_lower(d, a, e, "formaction") else -1
    if c == 108:                                                    # l
        return C_K_LONGDESC if eq_lower(d, a, e, "longdesc") else -1
    if c == 112:                                                    # p
        return (C_K_POSTER if eq_lower(d, a, e, "poster")
                else C_K_PING if eq_lower(d, a, e, "ping") else -1)
    if c == 120:                                                    # x
        return C_K_XLINK_HREF if eq_lower(d, a, e, "xlink:href") else -1
    return -1


cdef bint refresh(cbuf d, Tag *t, Py_ssize_t an_a, Py_ssize_t an_e, Py_ssize_t va,
                  Py_ssize_t ve) noexcept nogil:
    """A ``<meta http-equiv>`` naming refresh (or with a reference): its content's URL
    is left to the email path."""
    cdef Py_ssize_t p
    if lower(d[an_a]) != 104 or not (eq_lower(d, an_a, an_e, "http-equiv")    # h
                                     and eq_lower(d, t.na, t.ne, "meta")):
        return False
    if memchr(d + va, AMP, ve - va) != NULL:
        return True                            # "&#114;efresh" is refresh too
    for p in range(va, ve - 6):
        if eq_lower(d, p, p + 7, "refresh"):
            return True
    return False


cdef Py_ssize_t markup_end(cbuf d, Py_ssize_t n, Py_ssize_t j, unsigned char c) noexcept nogil:
    """The offset after a comment (HTML5's ends: ``-->``, ``--!>``, and ``<!-->``,
    ``<!--->`` closing at once), ``<!DOCTYPE ...>`` or ``<?...>`` at ``d[j]``; -1 when
    it is never closed, or a bogus comment."""
    cdef const void *hit
    if starts(d, j, n, "<!--", 4):
        if j + 4 < n and d[j + 4] == GT:
            return j + 5                       # abrupt-closing-of-empty-comment
        if j + 5 < n and d[j + 4] == DASH and d[j + 5] == GT:
            return j + 6
        return comment_end(d, j + 4, n)
    hit = memchr(d + j + 2, GT, n - j - 2) if j + 2 < n else NULL
    if hit == NULL:
        return -1
    if not (c == QUESTION or (n - (j + 2) >= 7 and eq_lower(d, j + 2, j + 9, "doctype"))):
        return -1
    return (<cbuf>hit - d) + 1


cdef int html_text(_Walk w, Py_ssize_t index, cbuf d, Py_ssize_t a, Py_ssize_t e,
                   int64_t la, int64_t lb, Py_ssize_t anchor, bint decode) except -1 nogil:
    """The text run ``d[a:e]`` (its references undone when ``decode``) as a K_HTML_TEXT
    segment in the ``<a>`` whose href is segment ``anchor``."""
    cdef cbuf v
    cdef Py_ssize_t vn
    if a >= e:
        return 0
    if decode and memchr(d + a, AMP, e - a) != NULL:
        if unescaped(w, d, a, e, &v, &vn) == FB:
            return FB
        w.segment(index, v, 0, vn, la, lb, C_K_HTML_TEXT, a, -1, anchor)
    else:
        w.segment(index, d, a, e, la, lb, C_K_HTML_TEXT, a, -1, anchor)
    grow_byte(&w.out, 0)
    return 0


cdef int unescaped(_Walk w, cbuf d, Py_ssize_t a, Py_ssize_t e, cbuf *v,
                   Py_ssize_t *vn) except -1 nogil:
    """``d[a:e]`` with its character references undone: ``v[0][:vn[0]]`` (in
    ``w.esc`` when anything was undone). The few kinds mail is full of here; the
    rest by the caller's ``unescape`` (with the GIL); FB without one."""
    cdef Py_ssize_t p = a, k, amp
    cdef unsigned char c
    cdef bint slow = False
    cdef const void *hit = memchr(d + a, AMP, e - a) if a < e else NULL
    w.esc_slow = False
    if hit == NULL:
        v[0] = d + a
        vn[0] = e - a
        return 0
    w.esc.n = 0
    grow_reserve(&w.esc, e - a)
    while True:
        amp = (<cbuf>hit - d) if hit != NULL else e
        memcpy(w.esc.p + w.esc.n, d + p, amp - p)      # the run before the next "&"
        w.esc.n += amp - p
        p = amp
        if p >= e:
            break
        k = reference(d, p, e, &c)
        if k == 0:
            slow = True
            break
        w.esc.p[w.esc.n] = <char>c
        w.esc.n += 1
        p += k
        hit = memchr(d + p, AMP, e - p) if p < e else NULL
    if slow and unescaped_by_python(w, d, a, e) == FB:
        return FB
    w.esc_slow = slow
    v[0] = <cbuf>w.esc.p
    vn[0] = w.esc.n
    return 0


cdef int unescaped_value(_Walk w, cbuf d, Py_ssize_t a, Py_ssize_t e, cbuf *v,
                         Py_ssize_t *vn) except -1 nogil:
    """An attribute value's references undone as the tokenizer does (``unescaped``);
    FB where it reads one otherwise than ``html.unescape`` (``&copy=1``)."""
    if unescaped(w, d, a, e, v, vn) == FB:
        return FB
    if w.esc_slow and legacy_in_value(d, a, e):
        return FB
    return 0


cdef bint legacy_in_value(cbuf d, Py_ssize_t a, Py_ssize_t e) except -1 with gil:
    return _legacy_in_value(PyBytes_FromStringAndSize(<char *>d + a, e - a))


cdef int unescaped_by_python(_Walk w, cbuf d, Py_ssize_t a, Py_ssize_t e) except -1 with gil:
    # A function of its own: a Python local in ``unescaped`` would make every call
    # take the GIL on the way out, and the walk on worker threads wait for it.
    # Octets past 0x7F go through as lone surrogates and come back as they were (read
    # as Latin-1 and written as UTF-8, a UTF-8 part's non-ASCII became mojibake).
    if w.unescape is None:
        return FB
    text = w.unescape(PyBytes_FromStringAndSize(<char *>d + a, e - a)
                      .decode("ascii", "surrogateescape")).encode("utf-8", "surrogateescape")
    w.esc.n = 0
    grow_add(&w.esc, <char *>text, len(text))
    return 0


cdef Py_ssize_t comment_end(cbuf d, Py_ssize_t p, Py_ssize_t n) noexcept nogil:
    """The offset after the first ``-->`` or ``--!>`` (incorrectly-closed-comment) at or
    after ``p``, or -1."""
    while p + 3 <= n:
        if d[p] == DASH and d[p + 1] == DASH:
            if d[p + 2] == GT:
                return p + 3
            if p + 4 <= n and d[p + 2] == BANG and d[p + 3] == GT:
                return p + 4
        p += 1
    return -1


cdef Py_ssize_t raw_end(cbuf d, Py_ssize_t n, Py_ssize_t i, cbuf tag, Py_ssize_t k) noexcept nogil:
    """Where ``</tag`` followed by white space, ``/`` or ``>`` starts (any case), or n."""
    cdef Py_ssize_t p = i, t
    cdef const void *hit
    cdef bint same
    while p < n:
        hit = memchr(d + p, LT, n - p)
        if hit == NULL:
            return n
        p = <cbuf>hit - d
        if n - p >= k + 3 and d[p + 1] == SLASH:
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
    if q < n and d[q] == HASH:                       # "#": a numeric reference
        q += 1
        if q < n and (d[q] == LOWER_X or d[q] == UPPER_X):
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
        if q == k or q >= n or d[q] != SEMICOLON or not (32 <= v <= 126):
            return 0
        c[0] = v
        return q + 1 - p
    if n - q >= 4 and memcmp(d + q, b"amp;", 4) == 0:
        c[0] = AMP
        return 5
    if n - q >= 3 and memcmp(d + q, b"lt;", 3) == 0:
        c[0] = LT
        return 4
    if n - q >= 3 and memcmp(d + q, b"gt;", 3) == 0:
        c[0] = GT
        return 4
    if n - q >= 5 and memcmp(d + q, b"quot;", 5) == 0:
        c[0] = DQUOTE
        return 6
    if n - q >= 5 and memcmp(d + q, b"apos;", 5) == 0:
        c[0] = QUOTE
        return 6
    return 0
