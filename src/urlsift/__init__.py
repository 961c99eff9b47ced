"""urlsift: find, validate and take apart RFC 1738 URLs at the speed of the disk.

>>> import urlsift
>>> urlsift.unquote("a%20b")
'a b'
>>> urlsift.CORE in ("cython", "python")
True
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from . import charclass, codec
from ._select import KIND as CORE
from ._select import bind as _bind
from .equivalence import equivalent, normalized
from .errors import URLSyntaxError
from .extract import Match, extract, extract_file, scan
from .ports import DEFAULT_PORTS
from .parsing import check, is_valid, parse, validate_many
from .partial import resolve
from .registry import register_scheme, unregister_scheme
from .schemes import (CidURL, FileURL, FtpURL, GenericURL, GopherURL, HttpURL, MailtoURL,
                      MidURL, NewsURL, NntpURL, ProsperoURL, TelnetURL, WaisURL)
from .url import URL, Problem
from .tokens import Tokens, tokenize, tokenize_many, tokenize_offsets

if TYPE_CHECKING:
    from .codec import quote, unquote, unquote_to_bytes
else:  # the core's own functions, re-bound when tests switch cores
    _bind(globals(), "core", tuple(codec.__all__))

__version__ = "0.1.0"

__all__ = [
    "URL", "CidURL", "FileURL", "FtpURL", "GenericURL", "GopherURL", "HttpURL", "MailtoURL",
    "MidURL", "NewsURL", "NntpURL", "Problem", "ProsperoURL", "TelnetURL", "WaisURL",
    "Match", "extract", "extract_file", "scan", "check", "is_valid", "parse", "register_scheme", "unregister_scheme", "validate_many",
    "CORE", "DEFAULT_PORTS", "URLSyntaxError", "Tokens", "charclass", "equivalent",
    "normalized", "quote", "resolve", "tokenize", "tokenize_many", "tokenize_offsets", "unquote",
    "unquote_to_bytes",
]
