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
F = {name: i for i, name in enumerate(FIELDS)}

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
)
CODE_INDEX = {code: i for i, code in enumerate(CODES)}
