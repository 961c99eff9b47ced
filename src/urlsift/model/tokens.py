"""The tokenizer's answer, named: where each part of a URL starts and ends.

>>> t = tokenize("ftp://foo:@host.com:21/pub;type=d#x")
>>> t.part("user"), t.part("password"), t.part("host"), t.part("port")
('foo', '', 'host.com', '21')
>>> t.part("path"), t.part("search"), t.part("fragment")
('/pub;type=d', None, 'x')
"""
from __future__ import annotations

from array import array
from typing import Iterable, NamedTuple, Optional

from .._fields import HOST_END, HOST_START, NFIELDS, PROBLEM_CODE, PROBLEM_POS, SCHEME_END
from .._layout import CODES, FIELDS
from .._select import cores

__all__ = ["Tokens", "tokenize", "tokenize_many", "tokenize_offsets", "PARTS"]

#: The parts a tokenizer result names, in URL order.
PARTS = ("scheme", "user", "password", "host", "port", "path", "search", "fragment")

# part -> (index of its start, index of its end) in the offsets tuple
_SPAN_FIELDS = {p: (FIELDS.index(p + "_start"), FIELDS.index(p + "_end")) for p in PARTS[1:]}


class Tokens(NamedTuple):
    """Offsets into ``text`` (see ``urlsift._layout.FIELDS``) plus the text itself."""

    text: str
    offsets: tuple

    def span(self, part: str) -> Optional[tuple[int, int]]:
        """``(start, end)`` of a part, or None when the part is absent."""
        if part == "scheme":
            end = self.offsets[SCHEME_END]
            return None if end < 0 else (0, end)
        i, j = _SPAN_FIELDS[part]
        start = self.offsets[i]
        return None if start < 0 else (start, self.offsets[j])

    def part(self, part: str) -> Optional[str]:
        """The part as written, or None when it is absent."""
        sp = self.span(part)
        return None if sp is None else self.text[sp[0]:sp[1]]

    @property
    def has_login(self) -> bool:
        """True for the ``scheme://login...`` form (RFC 1738 §3.1)."""
        return self.offsets[HOST_START] >= 0

    @property
    def problem(self) -> Optional[tuple[int, str]]:
        """``(position, code)`` of the first character-level problem, or None."""
        pos, code = self.offsets[PROBLEM_POS], self.offsets[PROBLEM_CODE]
        return None if code == 0 else (pos, CODES[code])


def tokenize(s: str) -> Tokens:
    """Split ``s`` into its parts in one walk; nothing is decoded or copied.

    >>> tokenize("http://a b").problem
    (8, 'unsafe-char')
    """
    return Tokens(s, cores.core.tokenize(s))


def tokenize_many(urls: Iterable[str]) -> list[Tokens]:
    """:func:`tokenize` for many URLs, in one call to the core.

    For the raw form without a Python object per URL (17 offsets per URL in one
    ``array('q')``), call :func:`tokenize_offsets`.

    >>> [t.part("host") for t in tokenize_many(["http://a/b", "ftp://c"])]
    ['a', 'c']
    """
    items = urls if isinstance(urls, list) else list(urls)
    flat = cores.core.tokenize_many(items)
    return [Tokens(s, tuple(flat[k * NFIELDS:(k + 1) * NFIELDS])) for k, s in enumerate(items)]


def tokenize_offsets(urls: Iterable[str]) -> array:
    """The offsets of every URL, flat: ``NFIELDS`` ints per URL in one ``array('q')``.

    >>> flat = tokenize_offsets(["http://a/b"])
    >>> len(flat), flat[HOST_START], flat[HOST_END]
    (17, 7, 8)
    """
    return cores.core.tokenize_many(urls)
