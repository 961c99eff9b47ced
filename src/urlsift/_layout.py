"""Shapes shared by both cores: the tokenizer's result fields and the problem codes,
the flags of the text scanner's triples and the bits of its policy table.

Both the Cython core and the pure twin read these names, so the two can never
number a field or a code differently.
"""
from __future__ import annotations

#: The tokenizer's record: a tuple of ``NFIELDS`` ints, one per field in this order, each
#: with what it holds (as rust-url's ``Url`` fields: ``scheme_end: u32, // Before ':'``).
#: A part that is absent has start == end == -1; a present but empty part has
#: start == end >= 0. ``tools/gen_fields.py`` writes the names for both cores
#: (``_fields.py``, ``_fields.pxi``).
URL_FIELDS: tuple[tuple[str, str], ...] = (
    ("scheme_end", "the ':' after the scheme (RFC 1738 section 2.1); -1: no scheme"),
    ("user_start", "after '//' (section 3.1 login), when an '@' follows in the login"),
    ("user_end", "before the ':' of a password, else before the last '@'"),
    ("password_start", "after the ':' before the last '@'"),
    ("password_end", "before the last '@'"),
    ("host_start", "after the last '@', else after '//'"),
    ("host_end", "before the ':' of a port, else where the login ends"),
    ("port_start", "after that ':'"),
    ("port_end", "where the login ends: '/', '?', '#' or the end"),
    ("path_start", "'//' form: at the '/' after hostport; else the schemepart, after ':'"),
    ("path_end", "before '?' ('//' form), '#' or the end"),
    ("search_start", "'//' form only: after the first '?', without it"),
    ("search_end", "before '#' or the end"),
    ("fragment_start", "after the first '#', without it"),
    ("fragment_end", "the end"),
    ("problem_pos", "position of the first character-level problem, -1 if none"),
    ("problem_code", "index into CODES; 0 ('') when there is none"),
)
#: The fields' names, in their order.
FIELDS: tuple[str, ...] = tuple(name for name, _ in URL_FIELDS)
NFIELDS = len(FIELDS)
#: What the ``_check`` cores' ``parse_tokens`` add after the tokenizer's fields (a URL
#: object's ``_t`` is that tuple).
PARSED_FIELDS: tuple[tuple[str, str], ...] = (
    ("scheme_index", "the scheme's index in the Config's names; len(names): not known"),
    ("worst_problem", "0: no problem; 1: only problems lenient mode accepts; 2: a fatal one"),
)

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

# ---- the mail walker's records (``_mail_c``/``_mail_py``) --------------------------------
# One definition: ``tools/gen_mail_records.py`` writes them as names for both cores
# (``_mail_records.py``, ``_mail_records.pxi``); a record is a run of int64 in an array.

#: A segment: one stretch of the walk's scan text and where it came from.
MAIL_SEGMENT: tuple[tuple[str, str], ...] = (
    ("message", "index of its message record"),
    ("start", "start in the scan text"),
    ("end", "end in the scan text"),
    ("src", "offset in the spool of text[start] when copied as it stands, else -1"),
    ("kind", "what it is: K_HEADER, K_TEXT, K_HTML_TEXT, K_HREF, K_SRC... (MAIL_KINDS)"),
    ("label_start", "its part's label (\"1.2 text/html\") in the names"),
    ("label_end", "end of the label"),
    ("part_offset", "offset of text[start] in its decoded part (a value's: its first octet)"),
    ("anchor", "HTML text in an <a>: the segment of its href (-2: no URL), else -1"),
)
#: A message of the spool.
MAIL_MESSAGE: tuple[tuple[str, str], ...] = (
    ("from_line", "offset of its From line (RFC 4155), -1 for text before the first"),
    ("start", "start of its data (after the From line)"),
    ("end", "end of its data"),
    ("id_start", "Message-ID value (RFC 5322 section 3.6.4), -1 when absent"),
    ("id_end", "end of the Message-ID value"),
    ("date_start", "Date value (RFC 5322 section 3.3), -1 when absent"),
    ("date_end", "end of the Date value"),
    ("flags", "FALLBACK: the standard library reads this message"),
)
#: The kinds of a segment, in their order (K_HEADER = 0...).
MAIL_KINDS: tuple[tuple[str, str], ...] = (
    ("header", "a URL-bearing header's value (RFC 2369, RFC 5322 section 2.2)"),
    ("text", "a text/* part, decoded (RFC 2045 section 6)"),
    ("html_text", "a text run of a text/html part, references undone"),
    ("href", "an href value (HTML 4.01 section 12.2)"),
    ("src", "an img/script src value"),
    # the other URL attributes of HTML's attribute index (the email path's fields,
    # urlsift._html_py.FIELDS): a value each, or a URL of a list (srcset, ping) or of
    # CSS (a style attribute, a <style> block)
    ("action", "a form's action value"),
    ("formaction", "a button's formaction value"),
    ("background", "a background value (body, table, td)"),
    ("cite", "a cite value (blockquote, q, del, ins)"),
    ("longdesc", "a longdesc value (img, frame)"),
    ("data", "the data value of an <object>"),
    ("poster", "a video's poster value"),
    ("xlink_href", "an xlink:href value (SVG)"),
    ("srcset", "a URL of a srcset's image candidates (HTML section 4.8.4.3.10)"),
    ("ping", "a URL of a ping list (space-separated tokens)"),
    ("style", "a url() or @import string of a style attribute"),
    ("style_block", "a url() or @import string of a <style> block"),
)
#: Message flags (bits).
MAIL_FLAGS: tuple[tuple[str, int, str], ...] = (
    ("fallback", 1, "walk this message with the standard library instead"),
)
#: The octets the walker reads by name (both cores), with the rule each serves.
MAIL_OCTETS: tuple[tuple[str, str, str], ...] = (
    ("TAB", "\t", "WSP (RFC 5234 appendix B.1): folding, blanks after a field name"),
    ("LF", "\n", "line end (RFC 5322 section 2.1)"),
    ("CR", "\r", "line end with LF; a bare CR makes email cut lines there"),
    ("SPACE", " ", "WSP"),
    ("DQUOTE", '"', "quoted-string (RFC 2045 section 5.1); a quoted HTML attribute value"),
    ("HASH", "#", "numeric character reference (HTML 4.01 section 5.3.1)"),
    ("AMP", "&", "character reference"),
    ("QUOTE", "'", "single-quoted HTML attribute value"),
    ("STAR", "*", "RFC 2231 parameter (name*=); a prefix in the charset list"),
    ("PLUS", "+", "scheme character (RFC 3986 section 3.1); a zone east of UTC"),
    ("COMMA", ",", "after a day name (RFC 5322 section 3.3)"),
    ("DASH", "-", "boundary delimiter \"--\" (RFC 2046 section 5.1.1); \"-->\"; a zone west"),
    ("DOT", ".", "between the numbers of a part's section (\"1.2\")"),
    ("SLASH", "/", "type/subtype (RFC 2045 section 5.1); an end tag \"</\""),
    ("DIGIT_0", "0", "first decimal digit"),
    ("DIGIT_1", "1", "the section of a message's only part"),
    ("COLON", ":", "end of a field name (RFC 5322 section 2.2), of a scheme"),
    ("SEMICOLON", ";", "between parameters (RFC 2045 section 5.1); ends a reference"),
    ("LT", "<", "a tag's start (HTML 4.01 section 3.2.1), a <URL:...> wrapper"),
    ("EQUALS", "=", "attribute value; a quoted-printable escape (RFC 2045 section 6.7)"),
    ("GT", ">", "a tag's end; a reply-quote prefix"),
    ("QUESTION", "?", "processing instruction \"<?\""),
    ("BANG", "!", "declaration or comment \"<!\""),
    ("BACKSLASH", "\\", "quoted-pair (RFC 5322 section 3.2.1)"),
    ("LOWER_X", "x", "hexadecimal character reference \"&#x\""),
    ("UPPER_X", "X", "hexadecimal character reference \"&#X\""),
)
