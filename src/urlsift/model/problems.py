"""Problems: what a URL departs from its grammar in, where, and a message that says so.

The ``_check`` core reports problems as flat ints (position, code, part, start, end);
:func:`problems_from_flat` turns them into :class:`Problem` objects whose message
quotes the offending text and names the part (codes: ``docs/codes.md``).

>>> problem_message("http://h:8x/", 9, "bad-port", "port", 9, 11)
"port '8x' of the http URL is not digits 0-65535 ('x' at 10 is not a digit)"
"""
from __future__ import annotations

from typing import NamedTuple, Sequence

from .._grammar import PARTS
from .._layout import CODES

__all__ = ["EXCERPT", "Problem", "excerpt", "problem_message", "problems_from_flat"]

#: How much of the offending text a message quotes at most: a URL with n problems
#: costs n bounded messages, not n quotes of the whole part (a hostile log line of
#: 60 KB with 20 000 bad escapes must not cost n² time and memory).
EXCERPT = 64


class Problem(NamedTuple):
    """One departure from the grammar (or a security note): where, what, and why.

    >>> Problem(3, "bad-port", "port 'x' is not digits")
    Problem(position=3, code='bad-port', message="port 'x' is not digits")
    """

    position: int
    code: str
    message: str


def problems_from_flat(s: str, text: str, flat: Sequence[int]) -> list[Problem]:
    """Problems (with messages) from the core's flat (pos, code, part, start, end) ints;
    ``text`` is ``s`` without a ``URL:`` prefix, positions are given in ``s``."""
    shift = len(s) - len(text)
    out = []
    for k in range(0, len(flat), 5):
        pos, code, part, a, b = flat[k:k + 5]
        msg = problem_message(text, pos, CODES[code], PARTS[part], a, b)
        out.append(Problem(pos + shift, CODES[code], msg))
    out.sort(key=lambda p: p.position)
    return out

_CHAR = {
    "control-char": "control character {ch} in the {scheme} {part} {text} (never part of a URL)",
    "non-ascii": "non-ASCII character {ch} in the {scheme} {part} {text} (must be %-encoded, RFC 1738 §2.2)",
    "unsafe-char": "unsafe character {ch} in the {scheme} {part} {text} (must be %-encoded, RFC 1738 §2.2)",
    "bad-escape": "malformed escape {esc} in the {scheme} {part} {text} (RFC 1738 §2.2)",
    "bad-userinfo": "{ch} is not allowed in the {scheme} {part} {text} (encode it, RFC 1738 §3.1)",
    "bad-path": "{ch} is not allowed in the {scheme} {part} {text} (RFC 1738 §5)",
    "bad-search": "{ch} is not allowed in the {scheme} search {text} (RFC 1738 §5)",
    "bad-group": "{ch} is not allowed here in the group {text} (alpha *[alpha|digit|-.+_], RFC 1738 §5)",
    "bad-article": "{ch} is not allowed in the article {text} (RFC 1738 §5)",
    "bad-field": "{ch} is not allowed in the prospero field {text} (RFC 1738 §5)",
}
_WHOLE = {
    "missing-scheme": "no scheme: {url} does not start with 'scheme:' (RFC 1738 §2.1)",
    "uppercase-scheme": "scheme {text} has upper case letters (RFC 1738 §2.1: lower case)",
    "empty-port": "empty port after ':' in the {scheme} URL {url}",
    "missing-host": "the {scheme} URL {url} has no host (RFC 1738 §3.1)",
    "host-trailing-dot": "host {text} ends with '.' (not an RFC 1738 §5 hostname)",
    "ipv6-host": "bracketed host {text} is not RFC 1738 syntax (accepted leniently)",
    "userinfo-not-allowed": "user/password {text} not allowed in a {scheme} URL (RFC 1738 §3)",
    "port-not-allowed": "a {scheme} URL has no port (RFC 1738 §3.10), got {text}",
    "search-without-path": "search {text} without a path: RFC 1738 §3.3 wants '/' before '?'",
    "bad-typecode": "ftp typecode {text} is not one of a, i, d (RFC 1738 §3.2.2)",
    "missing-path": "the {scheme} URL {url} lacks its '/' {part} (RFC 1738 §5)",
    "missing-address": "the {scheme} URL {url} is empty after '{scheme}:' (RFC 1738 §5: 1*xchar)",
    "missing-authority": "the {scheme} URL {url} lacks '//host' (RFC 1738 §3.1)",
    "file-short-form": "file URL {url} lacks '//' (RFC 1738 §3.10: file://host/path)",
}


def excerpt(text: str, start: int, end: int, pos: int = -1) -> str:
    """``repr(text[start:end])``, or at most :data:`EXCERPT` characters of it around
    ``pos`` with ``...`` where it was cut.

    >>> excerpt("http://h/" + "a" * 100 + " b", 9, 111, 109)
    "...'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa b'"
    """
    if end - start <= EXCERPT:
        return repr(text[start:end])
    if not start <= pos <= end:
        pos = start
    a = max(start, min(pos - EXCERPT // 2, end - EXCERPT))
    b = a + EXCERPT
    return ("..." if a > start else "") + repr(text[a:b]) + ("..." if b < end else "")


def problem_message(url: str, pos: int, code: str, part: str, start: int, end: int) -> str:
    """The message for one problem found in ``url`` (see ``docs/codes.md``); it quotes
    at most :data:`EXCERPT` characters of the part (or of the URL) around ``pos``."""
    colon = url.find(":", 0, EXCERPT)
    scheme = url[:colon].lower() if colon > 0 else "?"
    text = excerpt(url, start, end, pos)
    ch = repr(url[pos]) if 0 <= pos < len(url) else "end of text"
    fields = dict(scheme=scheme, part=part, text=text, ch=ch, url=excerpt(url, 0, len(url), pos),
                  esc=repr(url[pos:pos + 3]))
    if code == "bad-port":
        bad = next((i for i in range(start, end) if not "0" <= url[i] <= "9"), -1)
        why = f" ({url[bad]!r} at {bad} is not a digit)" if bad >= 0 else ""
        return f"port {text} of the {scheme} URL is not digits 0-65535{why}"
    if code == "bad-host":
        c = url[pos] if pos < len(url) else ""
        if c.isascii() and (c.isalnum() or c in ".-"):
            return (f"host {text} is not a hostname or a hostnumber 0-255.0-255.0-255.0-255"
                    f" (at {ch}, position {pos}; RFC 1738 §5)")
        return f"{ch} is not allowed in the host {text} (RFC 1738 §5)"
    if code == "missing-scheme" and url[:1].isspace() and url.strip()[:1].isalpha():
        # " http://a/": the scheme is there, behind white space (pasted, read from a file)
        return (f"leading white space: {fields['url']} starts with {url[0]!r}; a URL starts "
                f"with its scheme (RFC 1738 §2.1; strip it, or use extract())")
    if code in _CHAR and start == end:
        return f"the {scheme} {part} is empty at position {pos} ({code}, RFC 1738 §5)"
    if code in _CHAR and pos >= end:
        return f"the {scheme} {part} {text} is incomplete at position {pos} ({code}, RFC 1738 §5)"
    template = _CHAR.get(code) or _WHOLE.get(code) or "{code} in {url}"
    return template.format(code=code, **fields)
