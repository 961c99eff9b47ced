"""Shapes shared by both cores: the tokenizer's result fields and the problem codes,
the flags of the text scanner's triples and the bits of its policy table.

Both the Cython core and the pure twin read these names, so the two can never
number a field or a code differently.
"""
from __future__ import annotations

#: The tokenizer returns a tuple of ``NFIELDS`` ints in this order. A part that is
#: absent has start == end == -1; a present but empty part has start == end >= 0.
FIELDS: tuple[str, ...] = (
    "scheme_end",        # index of the ":" after the scheme, -1 when there is no scheme
    "user_start", "user_end",
    "password_start", "password_end",
    "host_start", "host_end",
    "port_start", "port_end",
    "path_start", "path_end",      # "//" form: from the "/" after hostport; else the schemepart
    "search_start", "search_end",  # "//" form only: after the first "?", without it
    "fragment_start", "fragment_end",  # after the first "#", without it
    "problem_pos",       # position of the first character-level problem, -1 if none
    "problem_code",      # index into CODES; 0 ("") when there is none
)
NFIELDS = len(FIELDS)

#: Stable problem codes. Index 0 means "no problem". Append only: the index is
#: what the cores return, and users may have stored the strings.
CODES: tuple[str, ...] = (
    "",
    "missing-scheme",    # no "scheme:" at the start
    "uppercase-scheme",  # RFC 1738 §5: scheme = 1*[ lowalpha | digit | "+" | "-" | "." ]
    "control-char",      # C0 control or DEL: never part of a URL, even leniently
    "non-ascii",         # §2.2: octets without a graphic US-ASCII character must be encoded
    "unsafe-char",       # §2.2: unsafe characters must always be encoded
    "bad-escape",        # §2.2: "%" not followed by two hex digits
    # ---- scheme grammars (RFC 1738 §3, §5), reported by the _check core ----
    "bad-port",          # §5 port = digits; tightened to 0-65535
    "empty-port",        # ":" after the host with no digits
    "missing-host",      # §5 hostport needs a host
    "bad-host",          # §5 hostname / hostnumber (parts 0-255)
    "host-trailing-dot", # "info.cern.ch." -- not in the §5 hostname production
    "ipv6-host",         # "[...]" host: not RFC 1738; accepted leniently
    "userinfo-not-allowed",  # user/password where the scheme's BNF has only hostport
    "port-not-allowed",  # a port on a file URL (§3.10 has none)
    "bad-userinfo",      # a character the user/password grammar forbids
    "bad-path",          # a character the path grammar of the scheme forbids
    "bad-search",        # a character the search grammar forbids ("/" or "?")
    "search-without-path",  # http://h?q: §5 wants "/" hpath before "?"
    "bad-typecode",      # ftp ";type=" not followed by one of a i d
    "bad-group",         # news/nntp group not alpha *[alpha|digit|-.+_]
    "bad-article",       # nntp article not digits; news article before "@" empty
    "bad-field",         # prospero ";fieldname=value" malformed
    "missing-path",      # "/" path required by the BNF (nntp, wais, file, prospero)
    "missing-address",   # mailto/mid/cid with an empty schemepart
    "missing-authority", # a "//" scheme (ftp, http...) written without "//"
    "file-short-form",   # file:/path -- no "//" host part
)
CODE_INDEX = {code: i for i, code in enumerate(CODES)}

#: Where a message of an mbox begins: a line starting with ``From `` (the mboxo/mboxrd
#: convention ``mailbox.mbox`` follows; RFC 4155 §2). The one definition for the mail
#: walker's twin (``_mail_py``), ``mail.spool``, the input sniffing and the Dask splitter;
#: ``_mail_c.pyx`` writes the same octets as a C literal (tests/test_layers.py checks
#: that they agree).
MBOX_SEPARATOR = b"\nFrom "
#: :data:`MBOX_SEPARATOR` at the start of the data, where no newline comes before it.
FROM_LINE = MBOX_SEPARATOR[1:]

#: A record of a match, as the text scanner hands it out (``_scan_py``/``_scan_c``) and
#: the sinks read it (``_records_py``/``_records_c``, :mod:`urlsift.text.sinks`): these
#: fields, in this order, RECORD_WIDTH int64 each in one ``array('q')`` per batch. The
#: start and end of the raw span in the buffer scanned, and the flags below.
RECORD: tuple[str, ...] = ("start", "end", "flags")
RECORD_WIDTH = len(RECORD)
R_START, R_END, R_FLAGS = (RECORD.index(name) for name in RECORD)

#: The fields of ``join_positions``'s layouts (``_records_py``/``_records_c``) and of
#: ``text.files.position_lines``: a match's URL, line number and offset.
F_URL, F_LINE, F_OFFSET = 0, 1, 2

# ---- flags of a match (the text scanner's triples, ``_scan_py``/``_scan_c``): the low byte, bits TRIM_SHIFT.. the number of trimmed
# characters (TRIM_MASK), and from HIGH_SHIFT on three more flags ----
WRAPPED = 1        # <...> around the span
PREFIX = 2         # "URL:" before the URL (inside a wrapper or bare)
WHITESPACE = 4     # white space inside the wrapper, to be removed
HYPHEN_BREAK = 8   # a line break right after "-" inside the wrapper (RFC 1738 appendix)
TRUNCATED = 16     # a bare URL cut at max_length characters
CUT_NON_ASCII = 32  # a bare URL ended by a non-ASCII character glued to it (‾, é, 。)
CUT_UNSAFE = 64    # ... by an unsafe character glued to it: { } | \ ^ ` (not ")
ANGLE = 128        # news:<id>, mid:<id>: the "<" and ">" around the id are not the URL's
TRIM_SHIFT = 8
#: A wrapper trims nothing, so its count field says something else: QUOTED, reply-quote
#: prefixes (">" at the start of a line inside it) to leave out of the URL.
QUOTED = 1 << TRIM_SHIFT
#: The trim count is ``(flags >> TRIM_SHIFT) & TRIM_MASK`` (:func:`trim_count`): the
#: flags from HIGH_SHIFT on lie above it (the low byte was full).
HIGH_SHIFT = 48
TRIM_MASK = (1 << (HIGH_SHIFT - TRIM_SHIFT)) - 1
ENCODED = 1 << HIGH_SHIFT        # octets that are no UTF-8 in the span: "%HH" in the URL
SOFT_BREAK = 2 << HIGH_SHIFT     # the "=" of a QP soft line break ended it: trimmed (counted)
JOINED = 4 << HIGH_SHIFT         # it goes on over QP soft line breaks ("=" + LF, left out)
#: Entries of the edits table the builders take: one per low byte and high flags (11
#: bits), trimmed or not, and all of these again (from EDITS_NON_ASCII on) for a URL
#: with non-ASCII letters (``_build_py.edits_index``).
EDITS_NON_ASCII = 2 * 256 * 8
N_EDITS = 2 * EDITS_NON_ASCII
#: A quoted-printable line broken by a soft line break is at most 76 characters long
#: with its "=" (RFC 2045 §6.7 rule 5); encoders fill it to 73-76 (a "=XX" is not split).
QP_MIN_LINE, QP_MAX_LINE = 73, 76
#: The longest ``<id>`` after ``news:`` or ``mid:`` (an RFC 5322 line).
MAX_ANGLE = 998

# ---- bits of the policy table (built in urlsift.text.rules from urlsift.charclass) ----
T_BARE = 1     # may continue a bare URL
T_TRIM = 2     # trimmed from the end of a bare URL
T_SCHEME = 4   # scheme character (either case)
T_SPACE = 8    # white space removed inside a wrapper
T_WRAP = 16    # other character allowed inside a wrapper
T_SPLIT = 32   # a buffer may be split right after this character
T_ALPHA = 64   # a scheme starts at a letter
T_PLAIN = 128  # continues a bare URL and is no bracket (the Cython walk's fast path)
