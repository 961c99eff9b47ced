"""Partial (relative) forms: a URL given in abbreviated form, completed from its context.

``resolve(base, partial)`` follows the 1994 URI draft ("Partial (relative)
form") literally:

    If the scheme parts are different, the whole absolute URI must be given.
    Otherwise, the scheme is omitted, and: If the partial URI starts with a
    non-zero number of consecutive slashes, then everything from the context URI
    up to (but not including) the first occurrence of exactly the same number of
    consecutive slashes is taken to be the same and so prepended to the partial
    URL to form the full URL. Otherwise: The last part of the path of the context
    URI (anything following the rightmost slash) is removed, and the given
    partial URI appended in its place, and then: Within the result, all
    occurrences of "xxx/../" or "/." are recursively removed, where xxx, ".." and
    "." are complete path elements.

So ``..`` and ``.`` are handled only in the "Otherwise" branch, a final ``..``
(not followed by a slash) stays, and a final ``/.`` goes with its slash. Where
the draft is silent (a reference that is empty, only ``?query`` or only
``#fragment``), RFC 3986 §5.2.2 is followed. The base's fragment is never part
of the context: the draft's ``fragmentaddress = uri [ # fragmentid ]`` puts it
outside the URI. ``rules="rfc3986"`` gives RFC 3986 §5.2 instead. The choices
taken where the draft leaves a gap are listed in ``docs/decisions-equivalence.md``.
"""
from __future__ import annotations

from typing import Optional

from ..charclass import ALPHA, DIGIT, char_table
from .equivalence import check_controls, remove_dot_segments
from ..errors import URLSyntaxError

__all__ = ["resolve", "RULES"]

#: The values ``resolve`` accepts for ``rules``.
RULES: tuple[str, ...] = ("draft", "rfc3986")

# scheme = 1*[ lowalpha | digit | "+" | "-" | "." ] (RFC 1738 §5), upper case tolerated
_SCHEME_CHARS = char_table(ALPHA | DIGIT, "+-.")
_ALPHA = char_table(ALPHA)


def resolve(base: str, partial: str, *, rules: str = "draft") -> str:
    """The full URL that ``partial`` names in the context of ``base``.

    ``rules="draft"`` (the default) applies the 1994 URI draft's partial-form
    rules; ``rules="rfc3986"`` applies RFC 3986 §5.2 (what browsers do with an
    HTML ``href``). ``base`` must be absolute (``missing-scheme`` otherwise);
    control characters in either raise ``control-char``.

    >>> resolve("magic://a/b/c//d/e/f", "../g")      # the draft's examples
    'magic://a/b/c//d/g'
    >>> resolve("magic://a/b/c//d/e/f", "/g")
    'magic://a/g'
    >>> resolve("magic://a//b/c", "/g")               # first run of exactly one "/"
    'magic://a//b/g'
    >>> resolve("magic://a//b/c", "/g", rules="rfc3986")
    'magic://a/g'
    >>> resolve("http://a/b/c/d;p?q#s", "#t")         # RFC 3986 where the draft is silent
    'http://a/b/c/d;p?q#t'
    """
    if rules not in RULES:
        raise ValueError(f"rules must be one of {', '.join(map(repr, RULES))}; got {rules!r}")
    check_controls(base)
    check_controls(partial)
    if rules == "draft":
        return _resolve_draft(base, partial)
    return _resolve_rfc3986(base, partial)


# ---- shared -------------------------------------------------------------------

def _scheme_end(s: str, *, letter_first: bool) -> int:
    """Index of the ":" ending a scheme at the start of ``s``, or -1.

    The draft: an absolute form "must have a colon and that colon must occur before
    any slash characters"; scheme characters never include "/", "?" or "#".
    """
    for i, ch in enumerate(s):
        c = ord(ch)
        if ch == ":":
            return i if i > 0 else -1
        if c >= 128 or not _SCHEME_CHARS[c] or (letter_first and i == 0 and not _ALPHA[c]):
            return -1
    return -1


def _absolute_base(base: str, *, letter_first: bool) -> int:
    end = _scheme_end(base, letter_first=letter_first)
    if end < 0:
        raise URLSyntaxError("missing-scheme", 0, "the base is not an absolute URL", base)
    return end


def _cut(s: str, chars: str) -> int:
    """Index of the first of ``chars`` in ``s``, or ``len(s)``."""
    end = len(s)
    for ch in chars:
        i = s.find(ch, 0, end)
        if i >= 0:
            end = i
    return end


# ---- the 1994 draft -------------------------------------------------------------

def _resolve_draft(base: str, partial: str) -> str:
    if _scheme_end(partial, letter_first=False) >= 0:
        return partial       # the absolute form: "the whole absolute URI must be given"
    colon = _absolute_base(base, letter_first=False)
    whole = base[:_cut(base, "#")]          # the URI without its fragment-id
    if partial == "" or partial[0] == "#":
        return whole + partial               # RFC 3986 §5.2.2: same document
    context = whole[:_cut(whole, "?")]       # scheme ":" path, without the search
    if partial[0] == "?":
        return context + partial             # RFC 3986 §5.2.2: base path, new query
    auth_end = colon + 1
    has_authority = context.startswith("//", colon + 1)
    if has_authority:
        slash = context.find("/", colon + 3)
        auth_end = len(context) if slash < 0 else slash
    if partial[0] == "/":
        n = len(partial) - len(partial.lstrip("/"))
        return _slash_prefix(context, n, colon, auth_end if has_authority else -1) + partial
    # Otherwise: drop what follows the rightmost slash of the path, append the partial
    slash = context.rfind("/", auth_end)
    if slash >= 0:
        directory = context[:slash + 1]
    elif has_authority:
        directory = context + "/"            # "http://a" has the path "/" (RFC 1738 §3.3)
    else:
        directory = context[:colon + 1]      # no slash at all: the whole path is replaced
    path_end = len(directory) + _cut(partial, "?#")
    merged = directory + partial
    return merged[:auth_end] + _remove_dots_draft(merged[auth_end:path_end]) + merged[path_end:]


def _slash_prefix(context: str, n: int, colon: int, auth_end: int) -> str:
    """The context "up to (but not including) the first occurrence of exactly" ``n`` slashes.

    When no run of exactly ``n`` slashes exists the draft is silent; the prefix is
    then the one RFC 3986 §5.2.2 keeps: scheme and authority for one slash,
    the scheme alone for more.
    """
    i, end = colon + 1, len(context)
    while i < end:
        j = context.find("/", i)
        if j < 0:
            break
        k = j
        while k < end and context[k] == "/":
            k += 1
        if k - j == n:
            return context[:j]
        i = k
    if n == 1 and auth_end >= 0:
        return context[:auth_end]
    return context[:colon + 1]


def _remove_dots_draft(path: str) -> str:
    """Remove "xxx/../" and "/." recursively, xxx, ".." and "." complete path elements.

    xxx is never ".." (else "../../" would cancel itself) nor the empty element
    before a leading "/" (the root). A ".." with no slash after it stays, as the
    draft's "xxx/../" needs that slash.

    >>> _remove_dots_draft("/b/c/./../g/."), _remove_dots_draft("/b/.."), _remove_dots_draft("/../g")
    ('/b/g', '/b/..', '/../g')
    """
    if "." not in path:
        return path
    elems = path.split("/")
    last = len(elems) - 1
    out: list[str] = []
    for k, e in enumerate(elems):
        if e == "." and k > 0:
            continue                         # "/." removed
        if e == ".." and k < last and out and out[-1] != ".." and out != [""]:
            out.pop()                        # "xxx/../" removed
            continue
        out.append(e)
    return "/".join(out)


# ---- RFC 3986 §5.2 ----------------------------------------------------------------

#: (scheme, authority, path, query, fragment); None where a part is undefined
Parts = tuple[Optional[str], Optional[str], str, Optional[str], Optional[str]]


def _split3986(s: str) -> Parts:
    """RFC 3986 Appendix B, without a regular expression."""
    colon = _scheme_end(s, letter_first=True)
    scheme = s[:colon] if colon >= 0 else None
    rest = s[colon + 1:]
    fragment = query = authority = None
    i = rest.find("#")
    if i >= 0:
        rest, fragment = rest[:i], rest[i + 1:]
    i = rest.find("?")
    if i >= 0:
        rest, query = rest[:i], rest[i + 1:]
    if rest.startswith("//"):
        i = rest.find("/", 2)
        i = len(rest) if i < 0 else i
        authority, rest = rest[2:i], rest[i:]
    return scheme, authority, rest, query, fragment


def _merge(base: Parts, ref_path: str) -> str:
    """RFC 3986 §5.2.3."""
    if base[1] is not None and base[2] == "":
        return "/" + ref_path
    i = base[2].rfind("/")
    return base[2][:i + 1] + ref_path


def _resolve_rfc3986(base: str, partial: str) -> str:
    colon = _absolute_base(base, letter_first=True)
    b = _split3986(base)
    b_scheme = base[:colon]  # b[0], which the check above makes a str, never None
    r_scheme, r_auth, r_path, r_query, r_frag = _split3986(partial)
    if r_scheme is not None:
        t = (r_scheme, r_auth, remove_dot_segments(r_path), r_query)
    elif r_auth is not None:
        t = (b_scheme, r_auth, remove_dot_segments(r_path), r_query)
    elif r_path == "":
        t = (b_scheme, b[1], b[2], b[3] if r_query is None else r_query)
    elif r_path.startswith("/"):
        t = (b_scheme, b[1], remove_dot_segments(r_path), r_query)
    else:
        t = (b_scheme, b[1], remove_dot_segments(_merge(b, r_path)), r_query)
    return _recompose(*t, r_frag)


def _recompose(scheme: str, authority: Optional[str], path: str,
               query: Optional[str], fragment: Optional[str]) -> str:
    """RFC 3986 §5.3."""
    out = [scheme, ":"]
    if authority is not None:
        out += ("//", authority)
    out.append(path)
    if query is not None:
        out += ("?", query)
    if fragment is not None:
        out += ("#", fragment)
    return "".join(out)
