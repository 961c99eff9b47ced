"""One class per RFC 1738 scheme family, registered with their default ports (§3).

>>> from urlsift.registry import scheme_class
>>> scheme_class("rlogin").__name__
'TelnetURL'
"""
from __future__ import annotations

from ..registry import register_scheme
from .file import FileURL
from .ftp import FtpURL
from .generic import GenericURL
from .gopher import GopherURL
from .http import HttpURL
from .mail import CidURL, MailtoURL, MidURL, NewsURL, NntpURL
from .prospero import ProsperoURL
from .telnet import TelnetURL
from .wais import WaisURL

__all__ = [
    "FileURL", "FtpURL", "GenericURL", "GopherURL", "HttpURL", "CidURL", "MailtoURL",
    "MidURL", "NewsURL", "NntpURL", "ProsperoURL", "TelnetURL", "WaisURL",
]

# scheme -> class (RFC 1738 §3.2-§3.11; https, rlogin and tn3270 per DESIGN.md);
# the default ports are urlsift.ports.DEFAULT_PORTS, the one table of them
for _name, _cls in (
    ("ftp", FtpURL), ("http", HttpURL), ("https", HttpURL), ("gopher", GopherURL),
    ("mailto", MailtoURL), ("news", NewsURL), ("nntp", NntpURL), ("telnet", TelnetURL),
    ("rlogin", TelnetURL), ("tn3270", TelnetURL), ("wais", WaisURL), ("file", FileURL),
    ("prospero", ProsperoURL), ("mid", MidURL), ("cid", CidURL),
):
    register_scheme(_name, _cls)
