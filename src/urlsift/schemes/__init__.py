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

# scheme, class, default port: RFC 1738 §3.2-§3.11; https and rlogin/tn3270 per DESIGN.md
for _name, _cls, _port in (
    ("ftp", FtpURL, 21), ("http", HttpURL, 80), ("https", HttpURL, 443),
    ("gopher", GopherURL, 70), ("mailto", MailtoURL, None), ("news", NewsURL, None),
    ("nntp", NntpURL, 119), ("telnet", TelnetURL, 23), ("rlogin", TelnetURL, 513),
    ("tn3270", TelnetURL, 23), ("wais", WaisURL, 210), ("file", FileURL, None),
    ("prospero", ProsperoURL, 1525), ("mid", MidURL, None), ("cid", CidURL, None),
):
    register_scheme(_name, _cls, default_port=_port)
