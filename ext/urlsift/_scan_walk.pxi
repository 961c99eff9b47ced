# Included by _scan_c.pyx: the walk over the text (twin: _scan_py.scan's loop): each
# candidate colon to a triple (start, end, flags), and where a buffer may be split
# (count_nl, boundary) for the callers that read in pieces.

DEF WINDOW_NEAR = 2             # windows after a "//" URL this near the last match,
                                # itself this near the one before (a CSV row's two: not)
DEF GATE_NEAR = 128             # the blocks with the gate after GATE_RUN gated colons in
DEF GATE_RUN = 2                # a row each this near the last (Walk.next): make's lines
                                # come in twos (compiler output)


cdef struct Setup:
    # what a walk reads of its table and known blob besides them, made from the two
    # (setup_make): made once per (table, blob) pair by scan() (setup_for), not once a
    # call: short texts are scanned by the million
    Trie t
    Prefilter f                     # the candidates' pairs, a URL's 16-octet compares
    int two_decide                  # two_decide(t); -1: not asked yet (the walk asks)
    Window win                      # URL-dense text 64 octets at a time (_scan_window.pxi)


cdef void setup_make(const uint8_t *T, const uint8_t *known, Py_ssize_t m, Setup *S,
                     bint now) noexcept nogil:
    """Fill ``S`` for the table ``T`` and the blob ``known`` (checked by known_ptr);
    ``now``: the compares and two_decide made here, else by the first walk that needs
    them (a single scan_octets call of a short text with no URL pays nothing)."""
    trie_open(known, m, &S.t, False)
    prefilter_init(&S.f, S.t.pairs, S.t.np, T, T_PLAIN)
    S.two_decide = -1
    if now:                         # (the tails: freed by _Setups)
        prefilter_plain(&S.f, T_SCHEME)
        S.two_decide = two_decide(&S.t)
        S.t.tails = tails_make(&S.t, &S.t.tail_mask)
        S.t.gate = gate_make(&S.t, T)
        prefilter_gate(&S.f, gated_pairs(&S.t, T))
        prefilter_batch(&S.f)
        window_make(&S.win, &S.f, T, T_ALPHA, T_TRIM, T_BARE, T_WRAP, CUT_UNSAFE)
    else:
        S.win.on = 0


cdef void walk(const char_t *d, Py_ssize_t n, Py_ssize_t start, Py_ssize_t stop,
               const uint8_t *T, Setup *S,
               Py_ssize_t max_wrapper, Py_ssize_t max_length, bint octets,
               const uint8_t *O, Out *o) noexcept nogil:
    cdef Py_ssize_t pos = start, limit = start, p, low, s, end
    cdef Py_ssize_t br[4]           # the brackets of a URL's ASCII walk (bare_iri goes on)
    cdef int64_t flags = 0
    cdef int64_t span[2]            # slashless's start and flags
    cdef const Trie *t = &S.t
    cdef const Prefilter *f = &S.f
    cdef const Prefilter *blocks = f if PREFILTER else NULL   # a URL's walk: 16 at a time?
    cdef Walk w
    cdef int dots = 1               # may the scheme's run hold a "."?
    w.n = n
    w.T = T
    w.t = t
    w.max_wrapper = max_wrapper
    w.max_length = max_length
    w.octets = octets
    w.O = O
    w.blocks = blocks
    w.two_decide = S.two_decide if PREFILTER else 0
    mode_init(&w.m, f.next)         # the blocks with the gate from the first colon it drops
    w.next_gated = f.next_gated if f.next_gated != NULL else f.next
    w.last_gated = -GATE_NEAR - 1
    w.near = 0
    # (in w, not in a register: live across the walk's calls, it made CJK text slower)
    w.win = &S.win if PREFILTER and WINDOW and S.win.on else NULL
    while pos < stop:
        if w.m.ib < w.m.nb and (pos == w.m.last + 1 or batch_goes_on(d, pos, n, &w.m)):
            # the batch's next (_scan_batch.pxi), without a call
            p = w.m.cand[w.m.ib]
            w.m.ib += 1
            w.m.last = p
        else:
            p = find_candidate(d, pos, stop, n, t, f, &w.m.next)
        if p < 0 or (o.n + 3 > o.cap and not grow(o)):     # room for its triple
            break
        low = p
        if p + 2 < n and d[p + 1] == 47 and d[p + 2] == 47:
            # "//" after the colon: the run before it is the scheme, whole (RFC 1738 §5)
            if char_t is uint8_t:
                low = scheme_start_octets(d, p, limit, T, T_SCHEME, blocks, &dots)
            else:
                while low > limit and (cls(T, d[low - 1]) & T_SCHEME):
                    low -= 1
            s = low
            while s < p and not (T[d[s]] & T_ALPHA):
                s += 1
            if s < p:
                if dots:                # else no ".." to start after
                    s = after_ellipsis(d, T, s, p)
                if s == low and s - 1 >= limit and d[s - 1] == 60:
                    end = wrapper(d, n, T, False, s - 1, p, False, max_wrapper, &flags)
                    if end >= 0:
                        emit(o, s - 1, end, flags)
                        pos = limit = end
                        continue
                # url_end spelled out on this, the hot path (every "//" URL): called, it stayed out
                # of line and slowed URL-dense text; the rare IRI walk through its pointer
                end = bare(d, n, T, p, max_length, br, blocks, &flags)
                # (url_end's test; "|" and "&": a URL ends at a space or a line's end at
                # random, a branch on which was mispredicted)
                if end < 0 or (end < n and (d[end] >= 128 or (
                        ((d[end] == 10) | (d[end] == 13)) & (d[end - 1] == 61)))):
                    end = iri_end(d, n, T, p, end, max_length, br, octets, O, blocks, &flags)
                if end >= 0:
                    emit(o, s, end, flags)
                    if char_t is uint8_t:   # URLs dense here: the next ones by windows
                        # (the last two triples say it: no count, no state in registers)
                        if s - limit <= WINDOW_NEAR and w.win != NULL and o.n >= 9 and \
                                o.data[o.n - 6] - o.data[o.n - 8] <= WINDOW_NEAR:
                            pos = window_walk(d, n, end, stop, end, max_length, w.win,
                                              o.data, &o.n, o.cap)
                            limit = o.data[o.n - 2]     # the last match's end
                            continue
                    pos = limit = end
                    continue
            pos = p + 1
            continue
        if p + 1 < n and d[p + 1] == 47 and t.np > 0 and not pair_before(d, p, t):
            # ":/" without a name found without "//" before it (path:/x): the blocks stop
            # there (see next_candidate), the walk passes over without a call (the same
            # answer as the trie's: the run cannot end in such a name; the twin reads it)
            pos = p + 1
            continue
        # no "//" after the colon: out of line (see SLASHLESS_OCTETS)
        if char_t is uint8_t:       # the blocks with the gate dropped what it would drop
            end = (SLASHLESS_OCTETS if w.m.next == f.next else SLASHLESS_WHOLE)(
                d, p, limit, &w, span)
        else:
            end = slashless(d, p, limit, &w, span)
        if end >= 0:
            emit(o, span[0], end, span[1])
            pos = limit = end
            continue
        pos = p + 1


cdef inline bint batch_goes_on(const char_t *d, Py_ssize_t pos, Py_ssize_t n,
                               const Mode *m) noexcept nogil:
    """May the walk take the batch's next candidate at ``pos``, a match's end, without
    the blocks' call: not inside the match, and no colon less than 5 octets past its
    end (see urlsift_batch_next)?"""
    if char_t is uint8_t:
        return m.cand[m.ib] >= pos and not colon5(d, pos, n)
    return False


cdef struct Walk:
    # what slashless reads of walk()'s arguments and state, handed over by one pointer:
    # eleven arguments, most of them on the stack, cost every call (logfmt's trace_id:)
    Py_ssize_t n
    const uint8_t *T
    const Trie *t
    Py_ssize_t max_wrapper
    Py_ssize_t max_length
    bint octets
    const uint8_t *O
    const Prefilter *blocks         # a URL's walk 16 octets at a time (NULL: octet by octet)
    int two_decide                  # two_decide(t) (-1: not asked yet: the first slashless
                                    # call asks, so a scan with none pays nothing for it)
    Mode m                          # the prefilter's blocks (m.next): f.next, or f.next_gated
    NextFn next_gated               # from a colon gated_slashless passes over GATE_NEAR or
    Py_ssize_t last_gated           # less after the last it passed over, the GATE_RUN-th in a
    int near                        # row (until they find no candidate in a span, see
                                    # urlsift_next_gated); how many in a row so far; the
                                    # batch of candidates the blocks leave (_scan_batch.pxi)
    const Window *win               # the windows (NULL: none)


cdef Py_ssize_t slashless(const char_t *d, Py_ssize_t p, Py_ssize_t limit, Walk *w,
                          int64_t *span) noexcept nogil:
    """The end of the URL whose scheme ends at the colon at ``p`` with no ``//`` after
    it (its start and flags in ``span[0]``, ``span[1]``), or -1: the rest of the twin's
    loop for such a colon (``limit``: the end of the last match; ``w``: the walk's)."""
    cdef Py_ssize_t n = w.n, max_wrapper = w.max_wrapper, max_length = w.max_length
    cdef const uint8_t *T = w.T
    cdef const uint8_t *O = w.O
    cdef const Trie *t = w.t
    cdef const Prefilter *blocks = w.blocks
    cdef bint octets = w.octets
    cdef Py_ssize_t low = p, s, q, end, depth, k
    cdef bint is_url, glued
    cdef int64_t flags = 0
    cdef uint8_t att[GLUE_REACH + 1]
    cdef uint8_t seen, whole
    cdef int dots                   # (scheme_start_octets's; not read here)
    # the run before the colon is two characters of a name at most (the one before them
    # is in none, or the last match's): with no such name found without "//", no URL,
    # told without the trie's walk back (its loads one after the other: logfmt's trace_id:)
    k = p - 3
    if w.two_decide != 0 and (k < limit or d[k] >= 256 or t.sym[d[k]] == 0):
        if w.two_decide < 0:            # asked once a walk, where it can decide
            w.two_decide = two_decide(t)
        if w.two_decide:
            return -1
    # what the run before the colon ends in, read once (at most GLUE_REACH steps)
    depth = suffixes(d, limit, p, t, att, &seen)
    if not (seen & (K_SLASHLESS | K_URL)):
        return -1                       # no "//" and no scheme found without: no URL
    # a letter where the walk stopped (pidfile: at its "d"): the run is longer than any
    # name read, so it is none whole, and with no K_GLUE name read none is glued to it:
    # decided without the run's loops (the twin's test after its _suffixes)
    k = p - 1 - depth
    if not (seen & K_GLUE) and depth < GLUE_REACH and k >= limit and (cls(T, d[k]) & T_ALPHA):
        return -1
    if char_t is uint8_t:       # 16 at a time where it can (a glued word: its length at
        low = scheme_start_octets(d, p, limit, T, T_SCHEME, blocks, &dots)   # random)
    else:
        while low > limit and (cls(T, d[low - 1]) & T_SCHEME):
            low -= 1
    s = low
    while s < p and not (T[d[s]] & T_ALPHA):
        s += 1
    if s == p:
        return -1
    whole = att[p - s] if p - s <= depth else 0
    glued = False
    if not (whole & K_KNOWN):
        k = glue(d, T, s, p, att, depth)
        if k >= 0:
            s = k
            whole = att[p - k]
            glued = True
    is_url = (whole & K_URL) != 0
    if s == low and s - 1 >= limit and d[s - 1] == 60:
        end = wrapper(d, n, T, (whole & K_SLASHLESS) != 0, s - 1, p, is_url,
                      max_wrapper, &flags)
        if end >= 0:
            span[0] = s - 1
            span[1] = flags
            return end
    if is_url:
        q = p + 1
        if q < n and (cls(T, d[q]) & T_ALPHA):
            while q < n and (cls(T, d[q]) & T_SCHEME):
                q += 1
            if q < n and d[q] == 58:
                end = url_end(d, n, T, q, max_length, octets, O, blocks, &flags)
                if end >= 0:
                    span[0] = s
                    span[1] = flags | PREFIX
                    return end
    if not (whole & K_SLASHLESS) or (low > limit and d[low - 1] == 58
                                    and known_before(d, T, limit, low - 1, t)):
        return -1
    # news:<id> (the angle schemes are among the slashless ones)
    if p + 1 < n and d[p + 1] == 60 and (whole & K_ANGLE):
        end = angle_end(d, n, T, p)
        if end >= 0:
            span[0] = s
            span[1] = ANGLE
            return end
    end = url_end(d, n, T, p, max_length, octets, O, blocks, &flags)
    if end >= 0 and (glued or (whole & K_SHAPE_ALWAYS)) and not fits(
            d, n, T, whole & SHAPE_MASK, p + 1, end - ((flags >> TRIM_SHIFT) & TRIM_MASK),
            blocks):
        end = -1                    # not a URL of its scheme (Makefile:12, file:x)
    if end >= 0:
        span[0] = s
        span[1] = flags
        return end
    return -1


cdef bint two_decide(const Trie *t) noexcept nogil:
    """Is no name found without ``//`` (K_SLASHLESS, K_URL) two characters long or
    less? Every such name ends in one of the prefilter's pairs (known_blob), so the
    pairs' nodes say it; False when there are none (no prefilter: a name too short)."""
    cdef Py_ssize_t node
    cdef int k
    cdef uint8_t a, b
    if t.np < 0 or t.nodes == 0:
        return False
    for k in range(t.np):
        a = t.sym[t.pairs[2 * k]]
        node = kid(t.kids, a) if a else 0
        if node and (t.attrs[node] & (K_SLASHLESS | K_URL)):
            return False
        b = t.sym[t.pairs[2 * k + 1]]
        node = kid(t.kids, node * N_SYMBOLS + b) if node and b else 0
        if node and (t.attrs[node] & (K_SLASHLESS | K_URL)):
            return False
    return True


cdef Py_ssize_t gated_slashless(const uint8_t *d, Py_ssize_t p, Py_ssize_t limit,
                                Walk *w, int64_t *span) noexcept nogil:
    """slashless over octets, after the gate: -1 for a colon after a gated pair whose 4th
    and 5th characters before are letters, not before ``limit`` (gated_pairs: the run
    is longer than any name found without ``//`` that ends in the pair, and none of them
    may be glued; pidfile:, Makefile:), without the walk back (its loads wait on each
    other) nor slashless's frame (the twin reads the trie: the same answer). Not with
    _set_prefilter(False): the reference reads the trie alone."""
    cdef const Trie *t = w.t
    if t.gate != NULL and p - 5 >= limit and PREFILTER \
            and (t.gate[t.sym[d[p - 1]] * N_SYMBOLS + t.sym[d[p - 2]]] & GATED) \
            and <uint8_t>((d[p - 4] | 32) - 97) < 26 and <uint8_t>((d[p - 5] | 32) - 97) < 26:
        w.near = w.near + 1 if p - w.last_gated <= GATE_NEAR else 0
        if w.near >= GATE_RUN:      # gated words dense here: the blocks drop them from now on
            w.m.next = w.next_gated
        w.last_gated = p
        return -1
    return SLASHLESS_WHOLE(d, p, limit, w, span)


ctypedef Py_ssize_t (*SlashlessWalk)(const uint8_t *, Py_ssize_t, Py_ssize_t, Walk *,
                                     int64_t *) noexcept nogil
#: slashless over octets, called through this pointer so that it stays out of walk():
#: inlined, any change to it moved the code of the "//" path (every URL of a log) and
#: slowed it by up to 15%; the gate first, slashless through a pointer of its own (so
#: that its frame is made only where the gate lets the colon through)
cdef SlashlessWalk SLASHLESS_OCTETS = gated_slashless
cdef SlashlessWalk SLASHLESS_WHOLE = slashless[uint8_t]




cdef Py_ssize_t count_nl(const char_t *d, Py_ssize_t i, Py_ssize_t stop) noexcept nogil:
    cdef Py_ssize_t total = 0
    cdef const void *hit
    if char_t is uint8_t:
        while i < stop:
            hit = memchr(d + i, 10, stop - i)
            if hit == NULL:
                break
            total += 1
            i = (<const uint8_t *>hit - d) + 1
    else:
        while i < stop:
            if d[i] == 10:
                total += 1
            i += 1
    return total


cdef Py_ssize_t boundary(const char_t *d, Py_ssize_t pos, Py_ssize_t stop,
                         const uint8_t *T) noexcept nogil:
    cdef Py_ssize_t i
    cdef const void *hit
    if char_t is uint8_t:
        if pos < stop:
            hit = memchr(d + pos, 10, stop - pos)
            if hit != NULL:
                return (<const uint8_t *>hit - d) + 1
    else:
        for i in range(pos, stop):
            if d[i] == 10:
                return i + 1
    for i in range(pos, stop):
        if cls(T, d[i]) & T_SPLIT:
            return i + 1
    return -1


cdef void scan_octets(const uint8_t *d, Py_ssize_t n, Py_ssize_t start, Py_ssize_t stop,
                      const uint8_t *T, const uint8_t *known, Py_ssize_t m,
                      Py_ssize_t max_wrapper, Py_ssize_t max_length, const uint8_t *O,
                      Out *o) noexcept nogil:
    cdef Setup S
    setup_make(T, known, m, &S, False)
    walk(d, n, start, stop, T, &S, max_wrapper, max_length, True, O, o)


cdef Py_ssize_t boundary_octets(const uint8_t *d, Py_ssize_t pos, Py_ssize_t stop,
                                const uint8_t *T) noexcept nogil:
    return boundary(d, pos, stop, T)
