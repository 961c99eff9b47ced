"""urlsift: find, validate and take apart RFC 1738 URLs at the speed of the disk.

The public API, gathered from the layers below (imports go down only; see
``docs/layout.md``): the core and ``charclass`` (1), ``model`` (2), ``text`` (3),
``mail`` (4, loaded when a spool is read), ``inputs`` (5); ``cli`` (6) is the command.

>>> import urlsift
>>> urlsift.unquote("a%20b")
'a b'
>>> urlsift.CORE in ("cython", "python")
True
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import _hints, charclass, codec
from ._select import KIND as CORE
from ._select import bind as _bind
from .errors import URLSyntaxError
from .inputs import extract_file
from .model.equivalence import equivalent, normalized
from .model.parsing import check, is_valid, parse, validate_many
from .model.partial import resolve
from .model.ports import DEFAULT_PORTS
from .model.problems import Problem
from .model.registry import register_scheme, unregister_scheme
from .model.schemes import (CidURL, FileURL, FtpURL, GenericURL, GopherURL, HttpURL, MailtoURL,
                            MidURL, NewsURL, NntpURL, ProsperoURL, TelnetURL, WaisURL)
from .model.tokens import Tokens, tokenize, tokenize_many, tokenize_offsets
from .model.url import URL, HierURL
from .text import Match, extract, scan

if TYPE_CHECKING:
    from .codec import quote, unquote, unquote_to_bytes
else:  # the core's own functions, re-bound when tests switch cores
    _bind(globals(), "core", tuple(codec.__all__))

__version__ = "0.1.0"

__all__ = [
    "URL", "HierURL", "CidURL", "FileURL", "FtpURL", "GenericURL", "GopherURL", "HttpURL", "MailtoURL",
    "MidURL", "NewsURL", "NntpURL", "Problem", "ProsperoURL", "TelnetURL", "WaisURL",
    "Match", "extract", "extract_file", "scan", "check", "is_valid", "parse", "register_scheme", "unregister_scheme", "validate_many",
    "CORE", "DEFAULT_PORTS", "URLSyntaxError", "Tokens", "charclass", "equivalent",
    "normalized", "quote", "resolve", "tokenize", "tokenize_many", "tokenize_offsets", "unquote",
    "unquote_to_bytes",
]

_hints.resolve(globals()[name] for name in __all__)   # help() shows types, not strings

del TYPE_CHECKING, annotations   # typing helpers, not part of the API (dir(urlsift))
