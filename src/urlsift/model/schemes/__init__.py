"""One class per RFC 1738 scheme family (§3); :mod:`urlsift.model.registry` says
which scheme name each one parses.

>>> from urlsift.model.registry import scheme_class
>>> scheme_class("rlogin").__name__
'TelnetURL'
"""
from __future__ import annotations

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
