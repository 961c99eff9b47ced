"""The text a reader sees on an HTML link, and whether it names another host.

A phishing mail shows one address and links to another:
``<a href="http://evil.example/">https://www.bank.example/login</a>``. For each
``href`` of an ``<a>``, both mail paths (the walk, :mod:`urlsift.mail.walk`, and
``email``, :mod:`urlsift.mail.message`) give the anchor's text as
:func:`anchor_text` makes it (``MailMatch.text``); :func:`is_deceptive` says when that
text is itself a URL or a host name and the ``href`` goes to another host
(``MailMatch.deceptive``).

>>> anchor_text("  Log in\\n  to   your bank ")
'Log in to your bank'
>>> is_deceptive("http://evil.example/x", "https://www.bank.example/login")
True
>>> is_deceptive("https://login.bank.example/", "www.bank.example"), is_deceptive("http://a/", "Click here")
(False, False)
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Any, Optional

from ..model.equivalence import idna_host

__all__ = ["TEXT_MAX", "anchor_text", "text_host", "href_host", "is_deceptive", "same_link"]

def same_link(url: Any, href: Any) -> bool:
    """``url`` is the ``href`` of the ``<a>`` whose text it is (a trailing ``/`` aside):
    such a link counts once, on both mail paths (the walk's ``trace`` and
    ``url_lines``, and :mod:`urlsift.mail.html`). Both str, or both UTF-8 octets (equal
    exactly when their text is).

    >>> same_link("http://a.example", "http://a.example/"), same_link(b"http://a/x", b"http://a/y")
    (True, False)
    """
    slash = "/" if isinstance(url, str) else b"/"
    return url == href or url.rstrip(slash) == href.rstrip(slash)


#: The longest anchor text kept, in characters; a longer one is cut and ends in "…".
TEXT_MAX = 256

# "scheme://[userinfo@]host": the host of a URL written with "//" (RFC 1738 §3.1)
_URL_HOST = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*://(?:[^@/?#\s]*@)?(\[[^\]/?#\s]*\]|[^:/?#\s]*)")
# a bare host name, as people write them in text ("www.bank.example", "bank.example/login"):
# two labels at least, the last of letters (or an IDNA "xn--" label), an optional port
# and path; or a dotted IPv4 address
_LABEL = r"[^\W_](?:[\w-]*[^\W_])?"
_BARE_HOST = re.compile(
    rf"((?:{_LABEL}\.)+(?:[^\W\d_]{{2,}}|xn--[A-Za-z0-9-]+)|\d{{1,3}}(?:\.\d{{1,3}}){{3}})\.?"
    r"(?::\d+)?(?:[/?#]\S*)?")
# A bare name is taken for a host only when a reader would: "www." in front, a port or
# path after it, or a top label that is a common generic one or a two-letter country
# code that is no common file extension ("report.pdf", "setup.py", "notes.md" are files).
_GENERIC = frozenset("com net org info biz edu gov mil int io co me app dev xyz online site "
                     "top shop club store tech cloud email link live news".split())
_FILE_CC = frozenset("js py rs go sh pl md cs ts db gz xz bz so ps rb hs ml el vb kt jl cc hh "
                     "ai am ap as cf do id in is it ms rm sc st tk zw".split())
_SPACE = re.compile(r"\s")
# what may stand around an address in text without being part of it
_AROUND = "<>()[]{}\"'«»“”‘’"
_AFTER = ".,;:!?"


def anchor_text(raw: str) -> Optional[str]:
    """The visible text of an anchor as a reader sees it: runs of white space made one
    space, none at the ends, at most :data:`TEXT_MAX` characters (then cut, ending in
    ``…``); None when nothing is left (an image link). ``raw`` has its character
    references decoded already.

    >>> anchor_text("\\t\\n"), anchor_text("x" * 300)[-3:], len(anchor_text("x" * 300))
    (None, 'xx…', 257)
    """
    text = " ".join(raw.split())
    if not text:
        return None
    return text if len(text) <= TEXT_MAX else text[:TEXT_MAX] + "…"


@lru_cache(maxsize=4096)     # a mailing's links repeat their texts message after message
def text_host(text: str) -> Optional[str]:
    """The host ``text`` names when the whole of it is one URL written with ``//`` or
    one host name (a port and a path may follow), compared form (:func:`_key`);
    None for any other text. A bare name is a host when a reader would take it for
    one: ``www.`` in front, a port or path after it, an IPv4 address, or a top label
    that is a common generic one (``com``, ``org``...) or a country code that is no
    common file extension (``report.pdf``, ``setup.py`` are files, not hosts).

    >>> text_host("<https://WWW.Bank.example/login>"), text_host("www.bank.example."), text_host("Bank")
    ('bank.example', 'bank.example', None)
    >>> text_host("bank.com"), text_host("report.pdf"), text_host("setup.py"), text_host("bank.de")
    ('bank.com', None, None, 'bank.de')
    """
    t = text.strip().strip(_AROUND).rstrip(_AFTER).strip(_AROUND)
    if not t or _SPACE.search(t):
        return None
    m = _URL_HOST.match(t)
    if m is not None:
        return _key(m.group(1)) if m.group(1) else None
    m = _BARE_HOST.fullmatch(t)
    if m is None:
        return None
    host = m.group(1)
    top = host.rsplit(".", 1)[-1].lower()
    rest = t[m.end(1):].lstrip(".")       # a port or a path after the name
    if (host[:4].lower() == "www." or rest or top in _GENERIC
            or top[0].isdigit() or top.startswith("xn--")
            or (len(top) == 2 and top.isascii() and top not in _FILE_CC)):
        return _key(host)
    return None


@lru_cache(maxsize=4096)
def href_host(url: str) -> Optional[str]:
    """The host of a link's URL in compared form, None when it has none (``mailto:``).

    >>> href_host("http://user@WWW.Example.com:8080/x"), href_host("mailto:a@b.example")
    ('example.com', None)
    """
    m = _URL_HOST.match(url)
    return _key(m.group(1)) if m is not None and m.group(1) else None


def _key(host: str) -> str:
    """A host as compared here: IDNA ASCII form, lower case (RFC 3986 §6.2.2,
    :func:`urlsift.model.equivalence.idna_host`), no final dot, no ``www.`` in front."""
    h = idna_host(host).rstrip(".")
    return h[4:] if h.startswith("www.") and h.count(".") > 1 else h


def is_deceptive(url: str, text: Optional[str]) -> bool:
    """True when ``text`` (an anchor's) names a host, as a URL or a host name, and
    ``url`` (its ``href``) does not go to that host nor to a name under it or above it
    (``login.bank.example`` and ``bank.example`` are one site here; ``www.`` aside).
    Text that is no address (``Click here``) is never deceptive: it promises nothing.

    >>> is_deceptive("http://bank.com.evil.example/", "bank.com")
    True
    >>> is_deceptive("mailto:x@evil.example", "https://bank.example/")
    True
    """
    if not text:
        return False
    shown = text_host(text)
    if shown is None:
        return False
    target = href_host(url)
    if target is None:
        return True
    return not (target == shown or target.endswith("." + shown) or shown.endswith("." + target))
