"""Layer 3, text: what a URL in running text is, and finding every one of them.

Bottom to top: ``rules`` (the scanner's table, the limits, the edit names) and
``match`` (:class:`Match`); ``files`` (buffers and files cut into pieces, mapped or
streamed, scanned by the core); ``extraction`` (``scan``, ``extract``, ``extract_file``
for text); ``edits`` (rewriting with an offset map back), ``refang``, ``logescapes``,
``jsonescapes`` (and ``jsonpieces``, which ``files`` asks for each piece), ``rewrite``
(scan a rewritten text) and ``streams`` (a rewritten stream, block by block).
Nothing here knows about mail.
"""
from .extraction import extract, extract_file, scan
from .match import Match
from .refang import Refanged, extract_refanged, refang

__all__ = ["Match", "Refanged", "extract", "extract_file", "extract_refanged", "refang", "scan"]
