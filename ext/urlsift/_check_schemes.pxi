# Part of the ``_check`` core (included by ``_check_c.pyx``): what follows the hostport
# of each scheme — ftp's url-path and ;type= (§3.2), http's path and search (§3.3),
# nntp's group/article (§3.7), wais (§3.9), prospero's fields (§3.11) — and ``hier``,
# the common Internet scheme syntax (§3.1) that leads to them.
# Twin: the functions of the same names in ``src/urlsift/_check_py.py``.

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


cdef Py_ssize_t find_tab(W *w, Py_ssize_t a, Py_ssize_t b) noexcept:
    """The first "%09" in ``[a, b)``, else -1."""
    a = find(w, 0x25, a, b)
    while a + 3 <= b:
        if at(w, a + 1) == 0x30 and at(w, a + 2) == 0x39:
            return a
        a = find(w, 0x25, a + 1, b)
    return -1


cdef int r_gopher(W *w, Py_ssize_t start, Py_ssize_t b) except -1:
    """The gopher-path after its "/": gtype, selector, then the search after the first
    %09 and the gopher+ string after the second (RFC 1738 §3.4's split, kept for the
    messages). All three are walked as *xchar: §5's selector = *xchar takes in the
    "%09" and all after it, so a search with "/" or "?" is in §5's language (the
    warning ``ambiguous-search`` says so, in ``u.warnings``, ``urlsift.model.security``)."""
    cdef Py_ssize_t sel, t1, t2
    sel = start + (3 if start < b and at(w, start) == 0x25 and start + 3 <= b else 1)
    t1 = find_tab(w, sel if sel < b else b, b)
    if t1 < 0:
        part(w, start, b, T_XCHAR, P_SELECTOR, C_BAD_PATH)
        return 0
    part(w, start, t1, T_XCHAR, P_SELECTOR, C_BAD_PATH)
    if w.stop:
        return 0
    t2 = find_tab(w, t1 + 3, b)
    part(w, t1 + 3, b if t2 < 0 else t2, T_XCHAR, P_SEARCH, C_BAD_PATH)
    if t2 >= 0 and not w.stop:
        part(w, t2 + 3, b, T_XCHAR, P_GOPHER_PLUS, C_BAD_PATH)
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
        else:
            if b - ge - 1 > ARTICLE_DIGITS:    # a stated tightening, as for ports
                add(w, ge + 1 + ARTICLE_DIGITS, C_BAD_ARTICLE, P_ARTICLE, ge + 1, b)
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
    cdef Py_ssize_t rs, a, i, e
    cdef unsigned int c
    if r[HOST_START] < 0:
        if gid == G_FILE and b0 < b and at(w, b0) == 0x2F:
            add(w, b0, C_FILE_SHORT, P_PATH, b0, b)
            part(w, b0, b, T_FPATH, P_PATH, C_BAD_PATH)
        else:
            add(w, b0, C_MISSING_AUTH, P_SCHEMEPART, b0, b)
        return 0
    if r[USER_START] >= 0:
        if gid == G_FTP or gid == G_TELNET:
            part(w, r[USER_START], r[USER_END], T_USER, P_USER, C_BAD_USERINFO)
            if r[PASSWORD_START] >= 0:
                part(w, r[PASSWORD_START], r[PASSWORD_END], T_USER, P_PASSWORD, C_BAD_USERINFO)
        else:
            e = r[PASSWORD_END] if r[PASSWORD_START] >= 0 else r[USER_END]
            add(w, r[USER_START], C_USERINFO_NA, P_USER, r[USER_START], e)
            # not walked (the scheme has no login), but a control character is refused
            # everywhere, lenient mode too
            for i in range(r[USER_START], e):
                c = at(w, i)
                if c < 0x20 or c == 0x7F:
                    add(w, i, C_CONTROL, P_USER, r[USER_START], e)
                    if w.stop:
                        return 0
    if w.stop:
        return 0
    host(w, r[HOST_START], r[HOST_END], gid != G_FILE)
    if w.stop:
        return 0
    if r[PORT_START] >= 0:
        if gid == G_FILE:
            add(w, r[PORT_START] - 1, C_PORT_NA, P_PORT, r[PORT_START], r[PORT_END])
        port(w, r[PORT_START], r[PORT_END])
    if w.stop:
        return 0
    rs = r[PATH_START] if r[PATH_START] >= 0 else (
        r[SEARCH_START] - 1 if r[SEARCH_START] >= 0 else b)
    if gid == G_FTP:
        r_ftp(w, rs, b)
    elif gid == G_HTTP:
        r_http(w, rs, b)
    elif gid == G_GOPHER:
        if rs < b:
            if at(w, rs) != 0x2F:
                add(w, rs, C_BAD_PATH, P_SELECTOR, rs, b)
            r_gopher(w, rs + 1, b)
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
