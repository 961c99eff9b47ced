"""Shapes shared by both cores: the tokenizer's result fields and the problem codes.

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

#: The fields of ``join_positions``'s layouts (``_build_py``/``_build_c``) and of
#: ``text.files.position_lines``: a match's URL, line number and offset.
F_URL, F_LINE, F_OFFSET = 0, 1, 2
