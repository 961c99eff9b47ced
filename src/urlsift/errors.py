"""The exception urlsift raises for bad URL text."""
from __future__ import annotations

from typing import Callable, Union

__all__ = ["URLSyntaxError"]


class URLSyntaxError(ValueError):
    """A URL (or a ``%hex`` string) breaks the RFC 1738 syntax.

    ``position`` is the index of the offending character in the input (characters
    for ``str``, octets for bytes), ``code`` a stable short string such as
    ``"bad-escape"`` (``docs/codes.md``), ``message`` says what is wrong, quoting the
    text. The message may be given as a function: it is then written only when
    somebody reads it (a strict caller that just catches the error never pays for it).

    >>> err = URLSyntaxError("bad-escape", 3, "malformed escape '%zz'", "abc%zz")
    >>> (err.code, err.position, str(err))
    ('bad-escape', 3, "malformed escape '%zz' at position 3 (bad-escape)")
    """

    # slots, and args set directly: a strict caller meets one of these per invalid URL
    __slots__ = ("code", "position", "_message", "text")

    def __init__(self, code: str, position: int, message: Union[str, Callable[[], str]],
                 text: object = None) -> None:
        self.args = (code, position)    # what ValueError.__init__(code, position) sets
        self.code = code
        self.position = position
        self._message = message
        self.text = text

    @property
    def message(self) -> str:
        """What is wrong, quoting the offending text."""
        m = self._message
        if not isinstance(m, str):
            m = self._message = m()
        return m

    def __str__(self) -> str:
        return f"{self.message} at position {self.position} ({self.code})"

    def __repr__(self) -> str:
        return f"{type(self).__name__}({str(self)!r})"

    def __reduce__(self):  # keep pickling (multiprocessing, dask) working
        return (type(self), (self.code, self.position, self.message, self.text))
