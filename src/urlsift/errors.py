"""The exception urlsift raises for bad URL text."""
from __future__ import annotations

__all__ = ["URLSyntaxError"]


class URLSyntaxError(ValueError):
    """A URL (or a ``%hex`` string) breaks the RFC 1738 syntax.

    ``position`` is the index of the offending character in the input (characters
    for ``str``, octets for bytes), ``code`` a stable short string such as
    ``"bad-escape"``.

    >>> err = URLSyntaxError("bad-escape", 3, "malformed escape '%zz'", "abc%zz")
    >>> (err.code, err.position)
    ('bad-escape', 3)
    """

    def __init__(self, code: str, position: int, message: str, text: object = None) -> None:
        super().__init__(f"{message} at position {position} ({code})")
        self.code = code
        self.position = position
        self.message = message
        self.text = text

    def __reduce__(self):  # keep pickling (multiprocessing, dask) working
        return (type(self), (self.code, self.position, self.message, self.text))
