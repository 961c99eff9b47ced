# Included by _scan_c.pyx: where a URL may start (twin: _scan_py's find_candidate and
# its trie): the colons that may end a scheme (RFC 1738 section 2.1: scheme ":"), found
# with memchr or the prefilter, and the known scheme names before them (the trie).

cdef extern from *:
    """
    #include <stdint.h>
    #include <string.h>
    /* A child index of the trie (2 octets, little-endian) in one load where it can be */
    static inline Py_ssize_t urlsift_kid(const uint8_t *kids, Py_ssize_t x) {
    #if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
        uint16_t v;
        memcpy(&v, kids + 2 * x, 2);
        return v;
    #else
        return kids[2 * x] | ((Py_ssize_t)kids[2 * x + 1] << 8);
    #endif
    }
    """
    Py_ssize_t kid "urlsift_kid" (const uint8_t *kids, Py_ssize_t x) noexcept nogil


cdef bint PREFILTER = True     # off: every colon is walked, every URL octet by octet
                               # (the reference; tests compare)


def _set_prefilter(bint on):
    """Turn the prefilter of the walk and the 16-octet blocks of a URL's walk on or off
    (for tests); returns what it was."""
    global PREFILTER
    was = PREFILTER
    PREFILTER = on
    return was


cdef Py_ssize_t find_candidate(const char_t *d, Py_ssize_t i, Py_ssize_t stop, Py_ssize_t n,
                               const Trie *t, const Prefilter *f, NextFn *mode) noexcept nogil:
    """The next colon in ``d[i:stop]`` that may end a URL's scheme (next_candidate, by
    the blocks at ``mode``: f's, or f's with the gate, _scan_gate.pxi); -1 when there is
    none. Every colon when there is no prefilter."""
    if not PREFILTER or t.np < 0:
        return find_colon(d, i, stop)
    if char_t is uint8_t:
        return next_candidate(d, i, stop, n, f, mode)
    else:
        while i < stop:
            if d[i] == 58 and ((i + 2 < n and d[i + 1] == 47 and d[i + 2] == 47)
                               or pair_before(d, i, t)):
                return i
            i += 1
        return -1


cdef inline bint pair_before(const char_t *d, Py_ssize_t p, const Trie *t) noexcept nogil:
    """Do the two characters before the colon at ``p`` end a name found without ``//``
    (one of the prefilter's pairs)?"""
    cdef uint32_t a, b
    cdef int k
    if p < 2:
        return False
    if char_t is uint8_t:
        if t.gate != NULL:      # one look-up (gate_make): the loop's exit, at random, was
            return t.gate[t.sym[d[p - 1]] * N_SYMBOLS + t.sym[d[p - 2]]] != 0   # mispredicted
    a = d[p - 1] | 32
    b = d[p - 2] | 32
    for k in range(t.np):
        if a == t.pairs[2 * k] and b == t.pairs[2 * k + 1]:
            return True
    return False


cdef Py_ssize_t find_colon(const char_t *d, Py_ssize_t i, Py_ssize_t stop) noexcept nogil:
    cdef const void *hit
    if char_t is uint8_t:
        if i >= stop:
            return -1
        hit = memchr(d + i, 58, stop - i)
        return -1 if hit == NULL else <const uint8_t *>hit - d
    else:
        while i < stop:
            if d[i] == 58:
                return i
            i += 1
        return -1


cdef struct Trie:
    # the known scheme names read backwards from the colon (the twin's known_blob):
    # symbol of each character, attributes of each node, N_SYMBOLS children per node
    # (2 octets little-endian each; 0: none); nodes == 0: no name is known
    const uint8_t *sym
    const uint8_t *attrs
    const uint8_t *kids
    Py_ssize_t nodes
    const uint8_t *pairs       # the prefilter's pairs (known_blob), np of them
    int np                     # -1: no prefilter (a name too short, too many pairs)
    const Tail4 *tails         # the paths of four characters, hashed (tails_make);
    uint32_t tail_mask         # NULL: none (the walk back reads the trie alone)
    const uint8_t *gate        # gate_make: the pairs by their symbols; NULL: none


cdef struct Tail4:
    # a path of four characters from the trie's root: the last four before a colon
    uint32_t key               # their symbols, 6 bits each, the colon's neighbour lowest
                               # (no symbol is 0 on a path: 0 is an empty slot)
    uint16_t node              # the trie's node after them
    uint8_t att[4]             # att[k - 1]: the attributes of the last k (suffixes' att[k])


DEF TAILS_MAX = 4096            # slots; a blob with more paths of four than half: no hash


cdef inline uint32_t tail_slot(uint32_t key, uint32_t mask) noexcept nogil:
    return (key * 2654435761u >> 16) & mask             # Knuth's multiplicative hash


cdef Py_ssize_t tail_paths(const Trie *t, Tail4 *tab, uint32_t mask) noexcept nogil:
    """The trie's paths of four characters from its root: how many; each put into the
    open-addressed ``tab`` (``mask + 1`` slots) too, unless ``tab`` is NULL."""
    cdef Py_ssize_t n1, n2, n3, n4, count = 0
    cdef uint32_t a, b, c, e, key, h
    for a in range(1, N_SYMBOLS):
        n1 = kid(t.kids, a)
        for b in range(1, N_SYMBOLS if n1 else 1):
            n2 = kid(t.kids, n1 * N_SYMBOLS + b)
            for c in range(1, N_SYMBOLS if n2 else 1):
                n3 = kid(t.kids, n2 * N_SYMBOLS + c)
                for e in range(1, N_SYMBOLS if n3 else 1):
                    n4 = kid(t.kids, n3 * N_SYMBOLS + e)
                    if n4 == 0:
                        continue
                    count += 1
                    if tab == NULL:
                        continue
                    key = a | (b << 6) | (c << 12) | (e << 18)
                    h = tail_slot(key, mask)
                    while tab[h].key != 0:
                        h = (h + 1) & mask
                    tab[h].key = key
                    tab[h].node = <uint16_t>n4
                    tab[h].att[0] = t.attrs[n1]
                    tab[h].att[1] = t.attrs[n2]
                    tab[h].att[2] = t.attrs[n3]
                    tab[h].att[3] = t.attrs[n4]
    return count


cdef Tail4 *tails_make(const Trie *t, uint32_t *mask) noexcept nogil:
    """The trie's paths of four characters in an open-addressed hash (malloc'd; NULL
    when there are none or too many): the walk back from a colon then reads the last
    four characters in one look-up instead of four loads that wait on each other."""
    cdef Py_ssize_t count = tail_paths(t, NULL, 0), size = 16
    cdef Tail4 *tab
    while size < 2 * count:
        size *= 2
    if count == 0 or size > TAILS_MAX:
        return NULL
    tab = <Tail4 *>calloc(size, sizeof(Tail4))
    if tab == NULL:
        return NULL                         # the trie alone: slower, the same answers
    mask[0] = size - 1
    tail_paths(t, tab, mask[0])
    return tab


cdef bint gate_holds(const Trie *t, Py_ssize_t node, int depth) noexcept nogil:
    """Below ``node`` (``depth`` characters from the colon), is every name found without
    ``//`` 3 or 4 characters long, and none taken where a word is glued to it?"""
    cdef Py_ssize_t x, child
    cdef uint8_t a = t.attrs[node]
    if (a & K_GLUE) or ((a & (K_SLASHLESS | K_URL)) and not 3 <= depth <= 4):
        return False
    for x in range(1, N_SYMBOLS):
        child = kid(t.kids, node * N_SYMBOLS + x)
        if child and not gate_holds(t, child, depth + 1):
            return False
    return True


cdef int gated_pairs(const Trie *t, const uint8_t *T) noexcept nogil:
    """The prefilter's gated pairs (bit k: pair k; _scan_gate.pxi): those below which
    gate_holds, where every ASCII letter is ALPHA and SCHEME in ``T`` (a run of them
    then reaches the 5th before the colon). After such a pair, a colon whose 4th and 5th
    characters before are letters has a run longer than any such name, none glued:
    slashless would find no URL there. 0 when there are no pairs."""
    cdef int k, out = 0
    cdef uint32_t c
    cdef Py_ssize_t node
    cdef uint8_t a, b
    if t.np <= 0 or t.nodes == 0:
        return 0
    for c in range(26):
        if not ((T[65 + c] & T[97 + c]) & T_ALPHA and (T[65 + c] & T[97 + c]) & T_SCHEME):
            return 0
    for k in range(t.np):
        a = t.sym[t.pairs[2 * k]]
        node = kid(t.kids, a) if a else 0
        b = t.sym[t.pairs[2 * k + 1]]
        node = kid(t.kids, node * N_SYMBOLS + b) if node and b else 0
        if node and gate_holds(t, node, 2):
            out |= 1 << k
    return out


DEF PAIR = 1                    # gate_make's table: a pair of the prefilter
DEF GATED = 2                   # a gated one (gated_pairs)


cdef uint8_t *gate_make(const Trie *t, const uint8_t *T) noexcept nogil:
    """The prefilter's pairs as a table of N_SYMBOLS * N_SYMBOLS octets, at [symbol of
    the last character * N_SYMBOLS + symbol of the one before]: PAIR, with GATED where
    the pair is gated (gated_pairs), 0 for no pair (malloc'd; NULL when there are no
    pairs, or no memory: pair_before's loop, and no gate)."""
    cdef int k, gated = gated_pairs(t, T)
    cdef uint8_t *gate
    if t.np <= 0 or t.nodes == 0:
        return NULL
    gate = <uint8_t *>calloc(N_SYMBOLS * N_SYMBOLS, 1)
    if gate == NULL:
        return NULL
    for k in range(t.np):
        gate[t.sym[t.pairs[2 * k]] * N_SYMBOLS + t.sym[t.pairs[2 * k + 1]]] = \
            PAIR | (GATED if (gated >> k) & 1 else 0)
    return gate


cdef bint trie_open(const uint8_t *known, Py_ssize_t m, Trie *t, bint check) noexcept nogil:
    """Read the trie of a ``known`` blob into ``t``; False (and no name known) when the
    blob is not one (the twin's _trie). With ``check``, every child index is checked
    (known_ptr does, once per blob), so the walk follows them without a bound check."""
    cdef Py_ssize_t nodes, i, k
    t.nodes = 0
    t.tails = NULL
    t.gate = NULL
    t.np = -1                       # no pairs either (prefilter_init reads them)
    t.pairs = NULL
    if m < HEAD or known[0] != 85 or known[1] != 83 or known[2] != 75 or known[3] != 49:
        return False                                    # "USK1"
    nodes = known[4] | (<Py_ssize_t>known[5] << 8) | (<Py_ssize_t>known[6] << 16) \
        | (<Py_ssize_t>known[7] << 24)
    if nodes <= 0 or nodes >= 65536 or m <= HEAD + nodes * (1 + 2 * N_SYMBOLS):
        return False
    k = HEAD + nodes * (1 + 2 * N_SYMBOLS)            # the prefilter's count
    if known[k] == NO_PREFILTER and m == k + 1:
        t.np = -1
    elif known[k] <= MAX_PAIRS and m == k + 1 + 2 * known[k]:
        t.np = known[k]
    else:
        return False
    t.pairs = known + k + 1
    k = HEAD + nodes
    if check:
        for i in range(256):
            if known[8 + i] >= N_SYMBOLS:
                return False
        for i in range(nodes * N_SYMBOLS):
            if (known[k + 2 * i] | (<Py_ssize_t>known[k + 2 * i + 1] << 8)) >= nodes:
                return False
    t.sym = known + 8
    t.attrs = known + HEAD
    t.kids = known + k
    t.nodes = nodes
    return True


cdef inline Py_ssize_t suffixes(const char_t *d, Py_ssize_t lo, Py_ssize_t p, const Trie *t,
                                uint8_t *att, uint8_t *seen) noexcept nogil:
    """The twin's _suffixes: ``att[k]`` the attributes of the ``k`` characters before
    the colon at ``p``, for k up to the depth returned; ``seen`` their union."""
    cdef Py_ssize_t depth = 0, k = p - 1, node = 0, x
    cdef uint32_t c
    cdef uint8_t u = 0
    cdef uint32_t key, h
    cdef const Tail4 *e
    att[0] = 0
    if t.nodes == 0:
        seen[0] = 0
        return 0
    if char_t is uint8_t:
        # the last four in one look-up (tails_make); not a path of the trie: walk it.
        # Not where the fourth is in no name (" url:"): the trie stops before it anyway
        if t.tails != NULL and p - 4 >= lo and PREFILTER and t.sym[d[p - 4]] != 0:
            key = t.sym[d[p - 1]] | (<uint32_t>t.sym[d[p - 2]] << 6) \
                | (<uint32_t>t.sym[d[p - 3]] << 12) | (<uint32_t>t.sym[d[p - 4]] << 18)
            h = tail_slot(key, t.tail_mask)
            while t.tails[h].key != 0:
                e = &t.tails[h]
                if e.key == key:
                    att[1] = e.att[0]
                    att[2] = e.att[1]
                    att[3] = e.att[2]
                    att[4] = e.att[3]
                    u = e.att[0] | e.att[1] | e.att[2] | e.att[3]
                    node = e.node
                    depth = 4
                    k = p - 5
                    break
                h = (h + 1) & t.tail_mask
    while k >= lo and depth < GLUE_REACH:
        c = d[k]
        if c >= 256:
            break
        x = node * N_SYMBOLS + t.sym[c]
        if t.sym[c] == 0:
            break
        node = kid(t.kids, x)
        if node == 0:
            break
        depth += 1
        att[depth] = t.attrs[node]
        u |= att[depth]
        k -= 1
    seen[0] = u
    return depth
