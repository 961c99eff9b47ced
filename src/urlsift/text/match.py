"""A URL found in text: :class:`Match`, one immutable tuple per URL.

>>> m = Match("http://a.example/", 4, 23, "<http://a.example/>", True)
>>> m.url, m.scheme, m.wrapped
('http://a.example/', 'http', True)
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Optional

from ..model.parsing import parse
from ..model.url import URL

__all__ = ["Match"]


class Match(tuple):
    """One URL found in text. Immutable (a tuple underneath, no per-instance dict).

    ``url`` is the URL with wrapper and white space removed and trailing punctuation
    trimmed (octets that are no UTF-8 written ``%HH``, quoted-printable soft line breaks
    left out); ``raw`` the span ``input[start:end]`` as it stands (wrapper, white space
    and trimmed punctuation included; from bytes, UTF-8 with an octet that starts no
    sequence shown as its ISO-8859-1 character); ``edits`` names what turned ``raw``
    into ``url``; ``line`` is the 1-based line of ``start`` when asked for
    (extract_file), else None.

    >>> from urlsift import extract
    >>> m = next(extract("see <URL:http://a.example/x-\\n y>"))
    >>> (m.url, m.raw, m.start, m.wrapped, m.hyphen_break, m.edits)
    ('http://a.example/x-y', '<URL:http://a.example/x-\\n y>', 4, True, True, ('wrapper-removed', 'whitespace-removed'))
    """

    __slots__ = ()
    _fields = ("url", "start", "end", "raw", "wrapped", "hyphen_break", "edits", "line")

    def __new__(cls, url: str, start: int, end: int, raw: str, wrapped: bool = False,
                hyphen_break: bool = False, edits: tuple[str, ...] = (),
                line: Optional[int] = None) -> "Match":
        return tuple.__new__(cls, (url, start, end, raw, wrapped, hyphen_break, edits, line))

    if TYPE_CHECKING:     # what the fields are, for type checkers and help()
        @property
        def url(self) -> str: ...
        @property
        def start(self) -> int: ...
        @property
        def end(self) -> int: ...
        @property
        def raw(self) -> str: ...
        @property
        def wrapped(self) -> bool: ...
        @property
        def hyphen_break(self) -> bool: ...
        @property
        def edits(self) -> tuple[str, ...]: ...
        @property
        def line(self) -> Optional[int]: ...
    else:                 # at run time: a C property over a lambda, the fastest read
        url = property(lambda self: self[0], doc="The URL: wrapper, white space and trimmed punctuation removed.")
        start = property(lambda self: self[1], doc="Offset of the raw span (octets for bytes, characters for str).")
        end = property(lambda self: self[2], doc="Offset just past the raw span.")
        raw = property(lambda self: self[3], doc="The span as it stands in the input.")
        wrapped = property(lambda self: self[4], doc="Found inside <...> (RFC 1738 appendix).")
        hyphen_break = property(lambda self: self[5],
                                doc="A line break right after '-' inside the wrapper: the hyphen may not belong.")
        edits = property(lambda self: self[6], doc="What turned raw into url (stable strings).")
        line = property(lambda self: self[7], doc="1-based line number of start, or None.")

    def __repr__(self) -> str:
        return f"Match(url={self[0]!r}, start={self[1]}, end={self[2]}, raw={self[3]!r})"

    def __reduce__(self) -> Any:
        return (Match, tuple(self))

    def parse(self) -> URL:
        """The URL parsed leniently (``urlsift.parse(url, strict=False)``)."""
        return parse(self[0], strict=False)

    @property
    def scheme(self) -> str:
        """The scheme, lower-cased (``"http"`` for ``HTTP://x``)."""
        return self[0].partition(":")[0].lower()
