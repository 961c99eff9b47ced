"""What ``--exclude-schemes`` and ``--host`` keep: filters on each URL found, for
``extract`` and ``stats`` alike.

``--schemes`` goes to the scanner itself (a URL of another scheme is never made);
``--exclude-schemes`` with ``--schemes`` narrows that list, and alone it is a filter on
the URL's scheme (the scanner finds every scheme). ``--host GLOB`` parses each distinct
URL once, leniently, and matches its host with :func:`fnmatch.fnmatchcase`, both in
lower case (host names are case-insensitive, RFC 1738 §3.1 and RFC 1034); a URL without
a host (``mailto:``, ``news:``) or that does not parse matches no pattern. An IPv6
host is written in its brackets, as in the URL (``--host '[2001:db8::1]'``,
``'[2001:db8::*]'``): those brackets are the host's, not a glob's character class.

>>> import argparse
>>> keep = url_filter(argparse.Namespace(schemes=None, exclude_schemes=("mailto",),
...                                      host=["*.Example.COM"]))
>>> [keep(u) for u in ("http://www.example.com/", "http://example.org/", "mailto:a@example.com")]
[True, False, False]
>>> host_pattern("[2001:DB8::*]")
'[[]2001:db8::*[]]'
"""
from __future__ import annotations

import argparse
import re
from fnmatch import fnmatchcase
from typing import Callable, Optional

from ..model.parsing import parse
from ..model.parts import cached_by_url

__all__ = ["host_pattern", "narrowed_schemes", "url_filter"]

#: An IPv6 literal as written in a URL, in a pattern: ``[`` hex digits, ``:`` (at least
#: one), ``.``, ``*`` or ``?`` ``]`` (RFC 2732; a glob class never holds a ``:``).
_IPV6 = re.compile(r"\[([0-9a-f.*?]*:[0-9a-f:.*?%]*)\]")


def host_pattern(pattern: str) -> str:
    """``--host``'s pattern as :func:`fnmatch.fnmatchcase` takes it: lower case, the
    brackets of an IPv6 host matched as themselves."""
    return _IPV6.sub(r"[[]\1[]]", pattern.lower())


def narrowed_schemes(args: argparse.Namespace) -> Optional[tuple[str, ...]]:
    """The ``--schemes`` list without the ``--exclude-schemes`` (None: every scheme)."""
    schemes = getattr(args, "schemes", None)
    excluded = getattr(args, "exclude_schemes", None) or ()
    if schemes is None:
        return None
    return tuple(s for s in schemes if s not in excluded)


def url_filter(args: argparse.Namespace) -> Optional[Callable[[str], bool]]:
    """``url -> keep?`` for the options given, or None when every URL is kept."""
    excluded = frozenset(getattr(args, "exclude_schemes", None) or ())
    if getattr(args, "schemes", None) is not None:
        excluded = frozenset()         # already left out by the scanner
    patterns = [host_pattern(p) for p in getattr(args, "host", None) or ()]
    if not excluded and not patterns:
        return None
    @cached_by_url
    def host_matches(url: str) -> bool:
        try:
            host = parse(url, strict=False).host or ""
        except ValueError:
            host = ""
        return bool(host) and any(fnmatchcase(host.lower(), p) for p in patterns)

    def keep(url: str) -> bool:
        if excluded and url.split(":", 1)[0].lower() in excluded:
            return False
        return host_matches(url) if patterns else True

    return keep
