"""The three finders scored side by side, each giving (line, url) pairs for a text.

- **urlsift**: ``urlsift.extract(text, valid="lenient")``; a match belongs to the line its
  ``start`` is on; the URL is ``Match.url`` (wrapper, white space and trimmed
  punctuation already out).
- **urlsift (unvalidated)**: ``urlsift.extract(text)`` with no ``valid=``: shows the
  false URLs lenient validation hides (``file:123`` from ``Makefile:123``).
- **regex**: :data:`REGEX`, the plain pattern people write in scripts (``https?://``,
  ``ftp://`` up to white space, ``<``, ``>``, ``"``, ``'``), then the trailing
  ``. , ; : ! ? )`` taken off — a fair grep-style baseline, not a straw man.
- **urlextract** (PyPI ``urlextract``, bench extra): ``URLExtract().find_urls(text,
  only_unique=False, get_indices=True)``. It finds host names without a scheme too
  (``www.example.com``, ``example.com``); those are scored separately (README).
  It reads its bundled TLD list and never goes to the network unless told to update;
  :func:`urlextract_finder` returns None when it is not installed or cannot start.
"""
from __future__ import annotations

import bisect
import re
from typing import Callable, List, Optional, Tuple

Pairs = List[Tuple[int, str]]

#: the plain regex baseline
REGEX = re.compile(r"""(?:https?|ftp)://[^\s<>"']+""")
_TRAIL = ".,;:!?)"

_SCHEME = re.compile(r"([A-Za-z][A-Za-z0-9+.\-]*):(.*)", re.S)
_PORT = re.compile(r"\d+(?:/.*)?", re.S)


def is_schemed(url: str) -> bool:
    """Whether a found URL has a scheme: ``x://...``, or ``x:...`` where ``x`` has no dot
    and what follows is not a port (``example.com:8080/x`` and ``localhost:80`` have none;
    ``news:3A1B@host``, ``mailto:a@b``, ``akka.tcp://h`` have one).

    >>> [is_schemed(u) for u in ["news:3A1B@h", "localhost:80/x", "example.com:8/x", "www.a.com"]]
    [True, False, False, False]
    """
    m = _SCHEME.match(url)
    if not m:
        return False
    scheme, rest = m.groups()
    if rest.startswith("//"):
        return True
    return "." not in scheme and not _PORT.fullmatch(rest)


def _line_of(starts: List[int], offset: int) -> int:
    return bisect.bisect_right(starts, offset)


def urlsift_pairs(text: str, starts: List[int]) -> Pairs:
    """urlsift's URLs of a text, lenient."""
    import urlsift
    return [(_line_of(starts, m.start), m.url) for m in urlsift.extract(text, valid="lenient")]


def urlsift_all_pairs(text: str, starts: List[int]) -> Pairs:
    """urlsift's URLs of a text without validation (``extract(text)``): what the
    extraction rules give before ``valid="lenient"`` drops the ones that do not parse."""
    import urlsift
    return [(_line_of(starts, m.start), m.url) for m in urlsift.extract(text)]


def regex_pairs(text: str, starts: List[int]) -> Pairs:
    """The plain regex's URLs of a text, trailing sentence punctuation taken off."""
    out = []
    for m in REGEX.finditer(text):
        url = m.group().rstrip(_TRAIL)
        if "://" in url and not url.endswith("://"):
            out.append((_line_of(starts, m.start()), url))
    return out


def urlextract_finder() -> Optional[Callable[[str, List[int]], Pairs]]:
    """urlextract's finder, or None when the package is missing or fails to start offline."""
    try:
        from urlextract import URLExtract
        ex = URLExtract()
        ex.find_urls("warm up http://example.com")
    except Exception:  # not installed, or its TLD cache cannot be read/made
        return None

    def pairs(text: str, starts: List[int]) -> Pairs:
        found = ex.find_urls(text, only_unique=False, get_indices=True)
        return [(_line_of(starts, span[0]), url) for url, span in found]
    return pairs
