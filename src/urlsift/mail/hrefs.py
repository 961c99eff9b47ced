"""An ``href`` value as a browser reads it: the WHATWG URL Standard's clean-up (§4.4,
the basic URL parser) of what an attribute holds before it is a URL.

A mail client hands an attribute value to its browser engine, which

1. strips leading and trailing C0 controls and spaces (U+0000-U+0020),
2. removes every ASCII tab and newline (U+0009, U+000A, U+000D) wherever it is,
3. for a special scheme (``ftp``, ``file``, ``http``, ``https``, ``ws``, ``wss``) reads
   ``\\`` as ``/`` before the query and fragment (``invalid-reverse-solidus``), and
4. for a special scheme other than ``file``, after ``scheme:`` takes any run of ``/``
   and ``\\`` as the ``//`` of the authority (``special-scheme-missing-following-solidus``:
   ``http:host`` and ``http:/host`` are ``http://host``) — unless the base URL has that
   scheme, where ``http:x`` is the relative reference ``x`` (``relative-with-scheme``).

So ``"\\n h\\ttp:\\\\evil.example\\\\x "`` goes to ``http://evil.example/x``. Text that
only looks like a link is found by the text scanner; this is for values the HTML says
are URLs (``urlsift.mail.htmllinks``), where the browser's reading is the truth.
"""
from __future__ import annotations

from typing import NamedTuple

__all__ = ["CleanHref", "EDITS", "SPECIAL_SCHEMES", "clean_href"]

#: The URL Standard's special schemes (§4.1).
SPECIAL_SCHEMES = frozenset({"ftp", "file", "http", "https", "ws", "wss"})

#: What :func:`clean_href` may do to a value, by name (the URL Standard's validation
#: error where it has one).
EDITS = {
    "c0-or-space-stripped": "leading or trailing C0 controls or spaces removed",
    "tab-or-newline-removed": "ASCII tabs or newlines removed",
    "invalid-reverse-solidus": "a \\ read as / (special scheme)",
    "special-scheme-missing-following-solidus": "the // after the scheme supplied",
    "relative-with-scheme": "the base's own scheme before a relative reference dropped",
}

_C0_OR_SPACE = "".join(chr(c) for c in range(0x21))
_TAB_OR_NEWLINE = str.maketrans("", "", "\t\n\r")
_SCHEME_REST = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-.")


class CleanHref(NamedTuple):
    """The value a browser goes to, and the names of the edits (:data:`EDITS`) made."""

    url: str
    edits: tuple[str, ...]


def _scheme(value: str) -> str:
    """The scheme of ``value`` lowercased (the URL Standard's scheme state), or ""."""
    colon = value.find(":")
    if colon < 1 or not ("a" <= value[0].lower() <= "z"):
        return ""
    if any(c not in _SCHEME_REST for c in value[1:colon]):
        return ""
    return value[:colon].lower()


def clean_href(value: str, base_scheme: str = "") -> CleanHref:
    """``value`` (an attribute value, its character references decoded) cleaned as the
    URL Standard's parser does before it reads a URL; ``base_scheme``: the scheme of the
    base URL a relative value is read against (``\\`` is ``/`` there too when special).

    >>> clean_href(" http:\\\\\\\\evil.example\\\\a\\tb?q=\\\\ ")
    CleanHref(url='http://evil.example/ab?q=\\\\', \
edits=('c0-or-space-stripped', 'tab-or-newline-removed', 'invalid-reverse-solidus'))
    >>> clean_href("http:/evil.example/").url
    'http://evil.example/'
    >>> clean_href("https://a.example/")
    CleanHref(url='https://a.example/', edits=())
    """
    edits: list[str] = []
    url = value.strip(_C0_OR_SPACE)
    if url != value:
        edits.append("c0-or-space-stripped")
    removed = url.translate(_TAB_OR_NEWLINE)
    if removed != url:
        edits.append("tab-or-newline-removed")
        url = removed
    scheme = _scheme(url)
    special = scheme in SPECIAL_SCHEMES if scheme else base_scheme.lower() in SPECIAL_SCHEMES
    if not special:
        return CleanHref(url, tuple(edits))
    cut = min((i for i in (url.find("?"), url.find("#")) if i >= 0), default=len(url))
    if "\\" in url[:cut]:
        edits.append("invalid-reverse-solidus")
        url = url[:cut].replace("\\", "/") + url[cut:]
    if scheme and scheme != "file":
        rest = url[len(scheme) + 1:]
        if scheme == base_scheme.lower() and not rest.startswith("//"):
            # the special relative or authority state: "http:x" against an http base is "x"
            edits.append("relative-with-scheme")
            return CleanHref(rest, tuple(edits))
        slashes = len(rest) - len(rest.lstrip("/"))
        if slashes != 2:
            edits.append("special-scheme-missing-following-solidus")
            url = url[:len(scheme) + 1] + "//" + rest[slashes:]
    return CleanHref(url, tuple(edits))
