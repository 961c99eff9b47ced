"""``%hex`` encoding and decoding (RFC 1738 §2.2).

The public functions are the core's own (Cython, or the pure twin): no wrapper
between a hot loop and the decoder. Their docstrings live in ``_core_py``.

>>> unquote("a%20b")
'a b'
>>> unquote_to_bytes("%FF")
b'\\xff'
>>> quote("a b/c~")            # "~" is national, so unsafe: it is encoded
'a%20b%2Fc%7E'
>>> unquote("100%", strict=False)
'100%'
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from ._select import bind

__all__ = ["unquote", "unquote_to_bytes", "quote"]

if TYPE_CHECKING:  # the signatures, for type checkers
    from ._core_py import quote, unquote, unquote_to_bytes
else:
    bind(globals(), "core", tuple(__all__))
