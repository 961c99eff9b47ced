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
# No import at the top: ``import urlsift`` loads this file only, and each public name
# loads its module at its first use (PEP 562), so a program pays for what it calls.
TYPE_CHECKING = False           # what type checkers read; typing itself is not imported
if TYPE_CHECKING:
    from . import charclass
    from .codec import quote, unquote, unquote_to_bytes
    from .errors import URLSyntaxError
    from .inputs import extract_file
    from .inputs.table import extract_table, record_batches
    from .model.equivalence import equivalent, normalized
    from .model.parsing import check, is_valid, parse, validate_many
    from .model.partial import resolve
    from .model.ports import DEFAULT_PORTS
    from .model.problems import Problem
    from .model.registry import register_scheme, unregister_scheme
    from .model.schemes import (CidURL, FileURL, FtpURL, GenericURL, GopherURL, HttpURL,
                                MailtoURL, MidURL, NewsURL, NntpURL, ProsperoURL, TelnetURL,
                                WaisURL)
    from .model.tokens import Tokens, tokenize, tokenize_many, tokenize_offsets
    from .model.url import URL, HierURL
    from .text import Match, extract, scan

    CORE: str

__version__ = "0.1.0"

#: Where each public name is defined: the module (relative to the package) it is loaded
#: from when it is first used.
_HOME: dict[str, str] = {
    **dict.fromkeys(["CidURL", "FileURL", "FtpURL", "GenericURL", "GopherURL", "HttpURL",
                     "MailtoURL", "MidURL", "NewsURL", "NntpURL", "ProsperoURL", "TelnetURL",
                     "WaisURL"], "model.schemes"),
    **dict.fromkeys(["check", "is_valid", "parse", "validate_many"], "model.parsing"),
    **dict.fromkeys(["Tokens", "tokenize", "tokenize_many", "tokenize_offsets"], "model.tokens"),
    **dict.fromkeys(["register_scheme", "unregister_scheme"], "model.registry"),
    **dict.fromkeys(["equivalent", "normalized"], "model.equivalence"),
    **dict.fromkeys(["Match", "extract", "scan"], "text"),
    "URL": "model.url", "HierURL": "model.url", "Problem": "model.problems",
    "DEFAULT_PORTS": "model.ports",
    "resolve": "model.partial", "URLSyntaxError": "errors", "extract_file": "inputs",
    "extract_table": "inputs.table", "record_batches": "inputs.table",
}
#: The codec: the core's own functions, re-bound here when tests switch cores.
_CODEC = ("unquote", "unquote_to_bytes", "quote")

__all__ = [
    "URL", "HierURL", "CidURL", "FileURL", "FtpURL", "GenericURL", "GopherURL", "HttpURL", "MailtoURL",
    "MidURL", "NewsURL", "NntpURL", "Problem", "ProsperoURL", "TelnetURL", "WaisURL",
    "Match", "extract", "extract_file", "extract_table", "record_batches", "scan", "check", "is_valid", "parse",
    "register_scheme", "unregister_scheme", "validate_many",
    "CORE", "DEFAULT_PORTS", "URLSyntaxError", "Tokens", "charclass", "equivalent",
    "normalized", "quote", "resolve", "tokenize", "tokenize_many", "tokenize_offsets", "unquote",
    "unquote_to_bytes",
]


def __getattr__(name: str) -> object:
    """Load public ``name`` from its module at its first use, and keep it here."""
    from importlib import import_module
    if name in _HOME:
        value = getattr(import_module(f".{_HOME[name]}", __name__), name)
        from ._hints import resolve      # help() shows types, not strings
        resolve([value])
    elif name in _CODEC:
        from ._select import bind
        bind(globals(), "core", _CODEC)
        return globals()[name]
    elif name == "CORE":
        from ._select import KIND as value
    elif name == "charclass":
        value = import_module(".charclass", __name__)
    else:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) - {"TYPE_CHECKING"} | set(__all__))
