"""Pure-Python twin of the text scanner (``ext/urlsift/_scan_c.pyx``): same walk, same spans.

The scanner is mechanical: every decision (which characters end a bare URL, which are
trimmed, which schemes are known without ``//``) arrives as a 256-entry table of bit
flags and a list of names built in :mod:`urlsift.text.rules`. It returns flat
``(start, end, flags)`` triples of raw spans in an ``array('q')``.

The walk, for each ``:`` in ``[start, stop)`` (found with ``find``, i.e. ``memchr``):

1. look back over scheme characters (not before ``limit``, the end of the last match);
   the scheme starts at the first letter of that run (``+http:`` gives ``http``);
2. ``<`` right before the scheme: try a wrapper ``<scheme:...>`` / ``<URL:...>`` up to
   its ``>`` (white space inside is allowed, a blank line, ``<``, a control or a
   non-ASCII character abandon it, so does reaching ``max_wrapper`` characters);
3. scheme ``URL`` followed by ``scheme:``: a bare URL with a ``URL:`` prefix;
4. otherwise a bare URL when ``//`` follows the colon or the scheme is known: walk
   while the table says BARE (at most ``max_length`` characters after the colon), then
   trim trailing TRIM characters and a ``)``/``]`` without a partner.

A match needs something after ``scheme:`` (``scheme://``): ``http:`` alone is nothing.

Non-ASCII letters (IRIs, RFC 3987): a letter, digit or mark over U+007F continues a
bare URL, unless glued to ASCII from a script written without spaces (:mod:`urlsift._letters`).

The ``octets`` table of :func:`scan` (``rules.TEXT_OCTETS`` for text; None for the
mail walk, whose parts are decoded by their declared charset and Content-Transfer-
Encoding, and whose ``email`` path removes reply-quote prefixes before its scan) says
what more a bare URL goes on over in plain text:

- an octet over 0x7F with a non-zero entry (bytes only; the Latin-1 letters), where it
  starts no valid UTF-8 sequence (a Latin-1 log: ``http://caf\\xe9.example/x``): the
  span gets ENCODED, and the builders write each such octet ``%HH`` in the URL (RFC
  1738 §2.2): ``http://caf%E9.example/x``, not ``http://caf``. Without it such an
  octet ends the URL with CUT_NON_ASCII;
- with a non-zero entry at ``=`` (any input), a quoted-printable soft line break (RFC
  2045 §6.7 rule 5: ``=`` at the end of a line): the walk goes on over a line break
  (LF or CR LF) right after ``=`` (flag JOINED; the builders leave every ``=`` + line
  break out of the URL) when the ``=`` ends a line of QP_MIN_LINE to QP_MAX_LINE
  characters (a line starts after LF or NUL, or at the start of the buffer) and the
  next line starts with a URL character that does not begin a ``scheme:`` of its own
  (:func:`soft_join`).

Always (table or not): where a bare URL's walk ends at a line break right after ``=``,
that ``=`` is trimmed (flag SOFT_BREAK, counted in the trim count).

The known schemes arrive in ``known``, a trie over their names read backwards from
the colon (:func:`urlsift._known.known_blob`), each name with its attributes (K_*): known at all,
found without ``//``, with an angle id (``news:<id@host>``, flag ANGLE: the URL is the
span without ``<`` and ``>``), taken when glued to a word. One walk back from each
colon (:func:`_suffixes`, at most GLUE_REACH steps however long the word) says all of
it, so a colon that has no ``//`` after it and no such scheme before it costs a few
steps. The run of scheme characters is never split (RFC 1738 §5 makes ``+ - .`` scheme
characters: ``git+https://``, ``x-coredata://`` stay whole), except after a ``..``
(``can...http://``, :func:`_after_ellipsis`) and where a word is glued to a K_GLUE
scheme without ``//`` (``messagenews:x@y``, :func:`_glue`): that URL is kept only when
what follows its colon has the scheme's shape (:func:`_fits`), as is a K_SHAPE_ALWAYS
scheme's found whole (``file:`` wants a path: ``Makefile:12`` is no ``file:12``). A
slashless scheme right after another known scheme's colon (``jar:file:/x.jar!/a``) is
the tail of a compound URL, not a URL.
"""
from __future__ import annotations

from array import array
from typing import Any, Optional

# The names below are read here and, through this twin, by _scan_c (_HEAD, MAX_PAIRS...).
from ._known import (_HEAD, GLUE_MIN, GLUE_REACH, K_ANGLE, K_GLUE, K_KNOWN, K_SHAPE_ALWAYS,
                     K_SLASHLESS, K_URL, MAX_PAIRS, N_SYMBOLS, NO_PREFILTER, NOT_A_TRIE,
                     SCHEME_SYMBOLS, SHAPE_ADDRESS, SHAPE_GROUP, SHAPE_MASK, SHAPE_PATH, _trie,
                     check_known, known_blob)
from ._layout import (ANGLE, CUT_NON_ASCII, CUT_UNSAFE, EDITS_NON_ASCII, ENCODED, HIGH_SHIFT,
                      HYPHEN_BREAK, JOINED, MAX_ANGLE, N_EDITS, PREFIX, QP_MAX_LINE, QP_MIN_LINE,
                      QUOTED, SOFT_BREAK, T_ALPHA, T_BARE, T_PLAIN, T_SCHEME, T_SPACE, T_SPLIT,
                      T_TRIM, T_WRAP, TRIM_MASK, TRIM_SHIFT, TRUNCATED, WHITESPACE, WRAPPED)
from ._letters import UNSPACED, is_mark, letter_at, utf8_at

__all__ = [
    "WRAPPED", "PREFIX", "WHITESPACE", "HYPHEN_BREAK", "TRUNCATED", "CUT_NON_ASCII",
    "CUT_UNSAFE", "ANGLE", "TRIM_SHIFT", "QUOTED", "N_EDITS", "MAX_ANGLE", "T_BARE", "T_TRIM",
    "T_SCHEME", "T_SPACE", "T_WRAP", "T_SPLIT", "T_ALPHA", "GLUE_REACH", "GLUE_MIN",
    "known_blob", "UNSPACED", "N_SYMBOLS", "SCHEME_SYMBOLS", "K_KNOWN", "K_SLASHLESS",
    "K_ANGLE", "K_GLUE", "K_URL", "K_SHAPE_ALWAYS", "SHAPE_MASK", "SHAPE_GROUP",
    "SHAPE_ADDRESS", "SHAPE_PATH", "EDITS_NON_ASCII", "utf8_at", "letter_at", "is_mark",
    "ENCODED", "SOFT_BREAK", "JOINED", "HIGH_SHIFT", "TRIM_MASK", "trim_count", "QP_MIN_LINE",
    "QP_MAX_LINE", "soft_join", "scan", "count_newlines", "next_boundary",
]


_COLON, _LT, _GT, _SLASH, _MINUS, _DOT, _AT, _STAR = 58, 60, 62, 47, 45, 46, 64, 42
_UNDERSCORE, _SEMI = 95, 59
_LF, _CR, _QUOTE, _EQUALS = 10, 13, 34, 61
_OPEN_P, _CLOSE_P, _OPEN_B, _CLOSE_B = 40, 41, 91, 93


#: The last str viewed and its code points: ``extract`` scans a str piece by piece, and
#: encoding the whole str again for each piece made the pure twin quadratic.
_last_str: list[Any] = [None, None]


def _view(buf: Any) -> tuple[Any, Any, Any]:
    """(codes, haystack, colon): int-indexable codes and a ``.find``-able haystack; the
    codes are code points when ``colon`` is ``":"`` (a str), else octets (UTF-8)."""
    if isinstance(buf, str):
        if _last_str[0] is not buf:
            _last_str[:] = [buf, memoryview(buf.encode("utf-32-le", "surrogatepass")).cast("I")]
        return _last_str[1], buf, ":"
    if isinstance(buf, (bytes, bytearray)):
        return buf, buf, b":"
    if isinstance(buf, memoryview):
        data = buf.tobytes()
        return data, data, b":"
    if hasattr(buf, "find") and hasattr(buf, "__getitem__"):   # mmap
        return buf, buf, b":"
    data = bytes(memoryview(buf))                                # other buffer objects
    return data, data, b":"


def trim_count(flags: int) -> int:
    """How many characters were trimmed from the end of a bare URL's raw span (for a
    wrapper: QUOTED or not).

    >>> trim_count(ENCODED | (3 << TRIM_SHIFT) | CUT_UNSAFE)
    3
    """
    return (flags >> TRIM_SHIFT) & TRIM_MASK


def _bounds(n: int, start: int, stop: int) -> tuple[int, int]:
    if stop < 0 or stop > n:
        stop = n
    if start < 0:
        start = 0
    return start, stop


def _suffixes(codes: Any, lo: int, p: int, trie: Any) -> list[int]:
    """The attributes of ``codes[p - d:p]`` for d = 0, 1, ... as far as the run before
    the colon at ``p`` (not before ``lo``) follows a path of the trie: one walk, at most
    GLUE_REACH characters, whatever the word (the longest known suffix read from it)."""
    out = [0]
    if trie is None:
        return out
    sym, attrs, kids = trie
    node = 0
    k = p - 1
    while k >= lo and len(out) <= GLUE_REACH:
        c = codes[k]
        if c >= 256 or not sym[c]:
            break
        node = kids[node * N_SYMBOLS + sym[c]]
        if not node:
            break
        out.append(attrs[node])
        k -= 1
    return out


def _after_ellipsis(codes: Any, T: bytes, s: int, p: int) -> int:
    """Where a scheme starts in the run ``codes[s:p]``: after its last ``..`` (prose's
    ellipsis, ``can...http://``: no scheme has two dots in a row), else ``s``."""
    k = p - 1
    while k > s:
        if codes[k] == _DOT and codes[k - 1] == _DOT:
            k += 1
            while k < p and not T[codes[k]] & T_ALPHA:
                k += 1
            return k if k < p else s
        k -= 1
    return s


def _glue(codes: Any, T: bytes, s: int, p: int, att: list[int]) -> int:
    """Where a scheme glued to the word ``codes[s:p]`` starts (``messagenews:``): the
    longest suffix with K_GLUE, at least GLUE_MIN letters, right after a letter (never
    after ``+ - .``, which RFC 1738 §5 makes part of the scheme: ``svn+ssh``); or -1."""
    for depth in range(len(att) - 1, GLUE_MIN - 1, -1):
        k = p - depth
        if att[depth] & K_GLUE and k > s and T[codes[k - 1]] & T_ALPHA:
            return k
    return -1


def _fits(codes: Any, T: bytes, shape: int, a: int, b: int) -> bool:
    """Does ``codes[a:b]``, the text after a slashless scheme's colon, have ``shape``?"""
    if shape == SHAPE_PATH:                  # RFC 1738 §3.10: a file URL has a path
        return a < b and codes[a] == _SLASH
    at = any(codes[i] == _AT for i in range(a + 1, b - 1))
    if shape == SHAPE_ADDRESS:               # RFC 822 addr-spec: local-part "@" domain
        return at
    if shape == SHAPE_GROUP:                 # §5: grouppart = "*" | group | article
        if b - a == 1 and codes[a] == _STAR:
            return True
        group = a < b and codes[a] < 256 and T[codes[a]] & T_ALPHA and all(
            codes[i] < 256 and (T[codes[i]] & T_SCHEME or codes[i] == _UNDERSCORE)
            for i in range(a, b))
        return bool(group) or at
    return True


def _angle(codes: Any, n: int, T: bytes, p: int) -> int:
    """End (after ``>``) of an ``<id>`` right after the colon at ``p``: URL characters
    with an ``@`` (a message-id), at most MAX_ANGLE of them, then ``>``; or -1."""
    j = p + 2
    lim = min(n, j + MAX_ANGLE)
    at = False
    while j < lim:
        c = codes[j]
        if c == _GT:
            return j + 1 if at and j > p + 2 else -1
        if c >= 256 or not T[c] & T_BARE:
            return -1
        at = at or c == 64
        j += 1
    return -1


def _known_before(codes: Any, T: bytes, lo: int, colon: int, trie: Any) -> bool:
    """Is the run before the colon at ``colon`` a known scheme (``jar:`` of
    ``jar:file:/x.jar!/a``: the URL after it is part of a compound one)?"""
    s = colon
    while s > lo and codes[s - 1] < 256 and T[codes[s - 1]] & T_SCHEME:
        s -= 1
    while s < colon and not T[codes[s]] & T_ALPHA:
        s += 1
    att = _suffixes(codes, lo, colon, trie)
    return s < colon and colon - s < len(att) and bool(att[colon - s] & K_KNOWN)


def _wrapper(codes: Any, n: int, T: bytes, slashless: bool, lt: int, p: int, is_url: bool,
             max_wrapper: int) -> tuple[int, int]:
    """End (after ``>``) and flags of the wrapper opened at ``lt``, or (-1, 0);
    ``slashless``: its scheme is one found without ``//``."""
    flags = WRAPPED
    if is_url:
        flags |= PREFIX
        st = 0
    else:
        if p + 2 < n and codes[p + 1] == _SLASH and codes[p + 2] == _SLASH:
            pass
        elif not slashless:
            return -1, 0
        st = 2
    count = 0
    c1 = c2 = 0
    breaks = 0
    prev = _COLON
    lim = min(n, lt + max_wrapper)
    i = p + 1
    while i < lim:
        c = codes[i]
        if c == _GT:
            # first on its line: a reply-quote prefix when the line goes on to a ">"
            j = _quote_prefix_end(codes, T, i, lim) if breaks == 1 else -1
            if j < 0:
                break
            flags |= QUOTED | WHITESPACE
            i = j
            continue
        t = T[c] if c < 256 else 0
        if t & T_SPACE:
            flags |= WHITESPACE
            if c == _LF or (c == _CR and not (i + 1 < n and codes[i + 1] == _LF)):
                breaks += 1
                if breaks >= 2:
                    return -1, 0            # a blank line ends the paragraph, not a URL
                if prev == _MINUS:
                    flags |= HYPHEN_BREAK
            i += 1
            continue
        if not t & T_WRAP:
            return -1, 0
        breaks = 0
        prev = c
        if st == 0:
            if not t & T_ALPHA:
                return -1, 0
            st = 1
        elif st == 1:
            if c == _COLON:
                st = 2
            elif not t & T_SCHEME:
                return -1, 0
        else:
            count += 1
            if count == 1:
                c1 = c
            elif count == 2:
                c2 = c
        i += 1
    else:
        return -1, 0
    if st != 2 or count == 0 or (count == 2 and c1 == _SLASH and c2 == _SLASH):
        return -1, 0
    return i + 1, flags


def _quote_prefix_end(codes: Any, T: bytes, i: int, lim: int) -> int:
    """Where the text goes on after a reply-quote prefix (``>``, ``> >``, ``>> ``) that
    starts at ``i``, the first character of a line inside a wrapper: when the rest of the
    line is wrapper characters up to a ``>`` (the wrapper's end, RFC 1738's own mail:
    ``<ftp://info.cer`` / ``>        n.ch/pub/...>``); else -1 (the ``>`` ends the wrapper)."""
    j = i
    while j < lim and codes[j] in (_GT, 32, 9):
        j += 1
    k = j
    while k < lim:
        c = codes[k]
        if c == _GT:
            return j if k > j else -1
        if c >= 256 or c in (_LF, _CR) or not T[c] & (T_WRAP | T_SPACE):
            return -1
        k += 1
    return -1


def _ends_reference(codes: Any, cs: int, semi: int) -> bool:
    """Does the ``;`` at ``semi`` close a character reference inside the URL, ``&name``
    or ``&#digits`` of 2 to 8 letters or digits (``?q=&lt;html&gt;``: HTML text holds
    the URL with its ``&`` and ``<`` written so; the ``;`` is no sentence's)?

    >>> _ends_reference(b"http://a/?q=&gt;", 7, 15), _ends_reference(b"http://a/x;", 7, 10)
    (True, False)
    """
    k = semi - 1
    while k > cs and semi - k <= 9:
        c = codes[k]
        if c == 38:                                    # "&"
            return semi - k >= 3
        if c == 35 and k > cs and codes[k - 1] == 38:  # "&#"
            return semi - k >= 2
        if not (48 <= c <= 57 or 65 <= c <= 90 or 97 <= c <= 122):
            return False
        k -= 1
    return False


def soft_join(codes: Any, n: int, T: bytes, e: int, lim: int) -> int:
    """How many characters of line break at ``codes[e]`` (1 for LF, 2 for CR LF) a bare
    URL's walk steps over, its ``=`` before being a quoted-printable soft line break
    (RFC 2045 §6.7 rule 5), or 0 when it ends there. It goes on only when all hold:

    - the line of that ``=`` (from after an LF or a NUL, or from the start of the
      buffer) is QP_MIN_LINE to QP_MAX_LINE characters long with the ``=``, as an
      encoder fills its lines; a line of prose seldom is, and seldom ends in ``=``;
    - the next line starts with a URL character (T_BARE), within ``lim``;
    - that line does not start with ``scheme:`` (a letter, scheme characters and a
      colon: a list of URLs, one ending in ``=``; also ``host:port``, which then stays
      cut, said by ``qp-soft-break``).

    >>> line = b"x" * 47 + b" http://www.linux-mips.org/m="     # 76 characters
    >>> from urlsift.text.rules import TABLE
    >>> soft_join(line + b"\\nail/x", 82, TABLE, 76, 82), soft_join(b"a http://a/b=\\nc", 16, TABLE, 12, 16)
    (1, 0)
    """
    if codes[e] == _LF:
        lb = 1
    elif codes[e] == _CR and e + 1 < n and codes[e + 1] == _LF:
        lb = 2
    else:
        return 0
    j = e + lb
    if j >= lim:
        return 0
    k = e - 1                           # the "=": where does its line start?
    while k > 0 and codes[k - 1] != _LF and codes[k - 1] != 0:
        if e - k >= QP_MAX_LINE:
            return 0
        k -= 1
    if e - k < QP_MIN_LINE:
        return 0
    c = codes[j]
    if c >= 128 or not T[c] & T_BARE:
        return 0
    if T[c] & T_ALPHA:                  # "http:..." on the next line: a URL of its own
        q = j
        while q < n and q - j <= GLUE_REACH and codes[q] < 128 and T[codes[q]] & T_SCHEME:
            q += 1
        if q < n and codes[q] == _COLON:
            return 0
    return lb


def _bare(codes: Any, n: int, T: bytes, colon: int, max_length: int,
          octets: bool, O: Optional[bytes]) -> tuple[int, int]:
    """(walk end, flags with trim count) of a bare URL whose scheme ends at ``colon``,
    or (-1, 0) when nothing is left after the scheme. ``O``: the ``octets`` table of
    :func:`scan`, or None."""
    cs = colon + 1
    if cs + 1 < n and codes[cs] == _SLASH and codes[cs + 1] == _SLASH:
        cs += 2
    lim = min(n, colon + 1 + max_length)
    e = colon + 1
    op = cp = ob = cb = 0
    extra = 0
    while True:
        while e < lim:
            c = codes[e]
            if c >= 128 or not T[c] & T_BARE:
                break
            if c == _OPEN_P:
                op += 1
            elif c == _CLOSE_P:
                cp += 1
            elif c == _OPEN_B:
                ob += 1
            elif c == _CLOSE_B:
                if cb >= ob and e + 1 < lim and codes[e + 1] == _OPEN_P:
                    break           # "](" closing no "[": Markdown's [URL](URL)
                cb += 1
            e += 1
        if e < lim:
            c = codes[e]
            if c >= 128:                    # a non-ASCII letter may go on (an IRI)
                k = letter_at(codes, octets, e, lim)
                if not k and octets and O is not None and O[c] \
                        and utf8_at(codes, e, lim)[1] == 0:
                    k = 1                   # an octet that is no UTF-8: a Latin-1 letter
                    extra |= ENCODED
                if k:
                    e += k
                    continue
            elif (c == _LF or c == _CR) and codes[e - 1] == _EQUALS and O is not None \
                    and O[_EQUALS]:
                k = soft_join(codes, n, T, e, lim)
                if k:                       # a QP soft line break inside the URL
                    e += k
                    extra |= JOINED
                    continue
        break
    flags = 0
    if e == lim and lim < n and codes[lim] < 256 and T[codes[lim]] & T_BARE:
        flags |= TRUNCATED
    w = e
    if e < n and codes[e - 1] == _EQUALS and (codes[e] == _LF or (
            codes[e] == _CR and e + 1 < n and codes[e + 1] == _LF)):
        e -= 1                              # a QP soft line break the walk ended at
        flags |= SOFT_BREAK
    while e > cs:
        c = codes[e - 1]
        if c < 256 and T[c] & T_TRIM:
            if c == _SEMI and _ends_reference(codes, cs, e - 1):
                break               # the ";" of "&gt;": the URL's, written in HTML
            e -= 1
        elif c == _CLOSE_P and op < cp:
            cp -= 1
            e -= 1
        elif c == _CLOSE_B and ob < cb:
            cb -= 1
            e -= 1
        else:
            break
    if e <= cs:
        return -1, 0
    if e == w < n and not flags:
        # nothing trimmed: the character that ended the walk touches the URL, which may
        # have gone on (an archive's U+203E for "~"): said, not silently cut
        c = codes[w]
        if c >= 128:
            flags |= CUT_NON_ASCII
        elif T[c] & T_WRAP and c != _QUOTE and c != _CLOSE_B:   # "](" is no cut
            flags |= CUT_UNSAFE
    return w, flags | extra | ((w - e) << TRIM_SHIFT)


def check_octets(octets: Optional[bytes]) -> None:
    """Raise ValueError unless ``octets`` is None or a 256-entry table."""
    if octets is not None and (not isinstance(octets, bytes) or len(octets) != 256):
        raise ValueError("the octets table must be None or have 256 entries")


def scan(buf: Any, start: int, stop: int, table: bytes, known: bytes,
         max_wrapper: int, max_length: int, octets: Optional[bytes] = None) -> "array[int]":
    """Flat (start, end, flags) triples of the URLs whose colon lies in ``[start, stop)``.

    ``stop < 0`` means the end of the buffer; the walk may read past ``stop`` (a
    wrapper or URL that starts before it is finished whole). ``octets``: None, or 256
    entries: non-zero for an octet over 0x7F that continues a bare URL in bytes input,
    %-encoded (flag ENCODED), where it starts no UTF-8 sequence; non-zero at ``=`` to
    join lines over QP soft line breaks (flag JOINED); see the module's docstring.

    >>> from urlsift.text.rules import TABLE, KNOWN, TEXT_OCTETS
    >>> list(scan(b"at http://caf\\xe9.example/x ok", 0, -1, TABLE, KNOWN, 8192, 65536, TEXT_OCTETS))
    [3, 24, 281474976710656]
    """
    check_known(known)
    check_octets(octets)
    codes, hay, colon = _view(buf)
    is_octets = colon != ":"
    n = len(codes)
    T = table
    out = array("q")
    start, stop = _bounds(n, start, stop)
    trie = _trie(known)
    pos = limit = start
    while pos < stop:
        p = hay.find(colon, pos, stop)
        if p < 0:
            break
        slashes = p + 2 < n and codes[p + 1] == _SLASH and codes[p + 2] == _SLASH
        att = [0]
        if not slashes:
            # what the run before the colon ends in, read once (at most GLUE_REACH
            # steps); with "//" after the colon no name matters (the run is the scheme)
            att = _suffixes(codes, limit, p, trie)
            seen = 0
            for a in att:
                seen |= a
            k = p - len(att)            # a letter where the walk stopped: the run is no name
            if not seen & (K_SLASHLESS | K_URL) or not seen & K_GLUE and len(att) <= GLUE_REACH \
                    and k >= limit and codes[k] < 256 and T[codes[k]] & T_ALPHA:
                pos = p + 1             # no "//" and no scheme found without (whole, glued)
                continue
        low = p
        while low > limit and codes[low - 1] < 256 and T[codes[low - 1]] & T_SCHEME:
            low -= 1
        s = low
        while s < p and not T[codes[s]] & T_ALPHA:
            s += 1
        if s == p:
            pos = p + 1
            continue
        if slashes:
            s = _after_ellipsis(codes, T, s, p)
        whole = att[p - s] if p - s < len(att) else 0
        glued = False
        if not slashes and not whole & K_KNOWN:
            k = _glue(codes, T, s, p, att)
            if k >= 0:
                s, whole, glued = k, att[p - k], True
        is_url = bool(whole & K_URL)
        if s == low and s - 1 >= limit and codes[s - 1] == _LT:
            end, flags = _wrapper(codes, n, T, bool(whole & K_SLASHLESS), s - 1, p, is_url,
                                  max_wrapper)
            if end >= 0:
                out.extend((s - 1, end, flags))
                pos = limit = end
                continue
        if is_url:
            q = p + 1
            if q < n and codes[q] < 256 and T[codes[q]] & T_ALPHA:
                while q < n and codes[q] < 256 and T[codes[q]] & T_SCHEME:
                    q += 1
                if q < n and codes[q] == _COLON:
                    end, flags = _bare(codes, n, T, q, max_length, is_octets, octets)
                    if end >= 0:
                        out.extend((s, end, flags | PREFIX))
                        pos = limit = end
                        continue
        if not slashes:
            if not whole & K_SLASHLESS or (low > limit and codes[low - 1] == _COLON
                                          and _known_before(codes, T, limit, low - 1, trie)):
                pos = p + 1
                continue
            # news:<id> (the angle schemes are among the slashless ones)
            if p + 1 < n and codes[p + 1] == _LT and whole & K_ANGLE:
                end = _angle(codes, n, T, p)
                if end >= 0:
                    out.extend((s, end, ANGLE))
                    pos = limit = end
                    continue
        end, flags = _bare(codes, n, T, p, max_length, is_octets, octets)
        if end >= 0 and (glued or whole & K_SHAPE_ALWAYS) and not _fits(
                codes, T, whole & SHAPE_MASK, p + 1, end - trim_count(flags)):
            end = -1                    # not a URL of its scheme (Makefile:12, file:x)
        if end >= 0:
            out.extend((s, end, flags))
            pos = limit = end
            continue
        pos = p + 1
    return out


def count_newlines(buf: Any, start: int, stop: int) -> int:
    """How many ``\\n`` lie in ``buf[start:stop]`` (``stop < 0``: to the end)."""
    codes, hay, colon = _view(buf)
    start, stop = _bounds(len(codes), start, stop)
    nl = "\n" if isinstance(hay, str) else b"\n"
    if hasattr(hay, "count"):
        return hay.count(nl, start, stop)
    total = 0                                   # mmap has find but no count
    i = hay.find(nl, start, stop)
    while i >= 0:
        total += 1
        i = hay.find(nl, i + 1, stop)
    return total


def next_boundary(buf: Any, pos: int, stop: int, table: bytes) -> int:
    """The first split point ``b`` in ``(pos, stop]``: just after a ``\\n`` if there is one,
    else just after any T_SPLIT character; -1 when there is none."""
    codes, hay, colon = _view(buf)
    pos, stop = _bounds(len(codes), pos, stop)
    i = hay.find("\n" if isinstance(hay, str) else b"\n", pos, stop)
    if i >= 0:
        return i + 1
    for i in range(pos, stop):
        c = codes[i]
        if c < 256 and table[c] & T_SPLIT:
            return i + 1
    return -1
