"""The walk and the scan of its text, piece after piece (twin of ``_mail_pipe.pxi``):
:class:`MailPipeline`. The compiled twin walks and scans on worker threads without the
GIL; this one does both in ``take()``.
"""
from __future__ import annotations

from typing import Any, Callable, Optional

from . import _scan_py
from ._mail_cut_py import walk
from ._mail_trace_py import anchor_runs

__all__ = ["MailPipeline"]


class MailPipeline:
    """``MailPipeline(headers, charsets, max_depth, unescape, table, known, max_wrapper,
    max_length, workers, anchors=True)``: pieces of whole messages handed over with
    ``put(piece)`` (False when ``workers + 2`` wait to be taken) and given back in order
    by ``take()`` as ``((out, segs, msgs, names), triples, anchors)`` (:func:`walk`, the
    scan of its text and :func:`~urlsift._mail_trace_py.anchor_runs` of the walk; None
    unless ``anchors``), or the exception the walk raised. The compiled twin walks on
    ``workers`` threads (with none, in ``take()``); this one always walks in ``take()``.

    >>> from urlsift.text.rules import TABLE, KNOWN
    >>> p = MailPipeline(b"", b"ascii\\0", 8, None, TABLE, KNOWN, 8192, 65536, 1)
    >>> p.put(b"From a\\n\\nsee http://a.example/\\n")
    True
    >>> (out, segs, msgs, names), triples, anchors = p.take()
    >>> bytes(out), list(triples), anchors[1:]
    (b'see http://a.example/\\n\\x00', [4, 21, 0], ([], set()))
    >>> p.close()
    """

    def __init__(self, headers: bytes, charsets: bytes, max_depth: int,
                 unescape: Optional[Callable[[str], str]], table: bytes, known: bytes,
                 max_wrapper: int, max_length: int, workers: int, anchors: bool = True) -> None:
        if workers < 0:
            raise ValueError("workers must not be negative")
        _scan_py.check_known(known)
        self._walk = (headers, charsets, max_depth, unescape)
        self._scan = (table, known, max_wrapper, max_length)
        self._depth = workers + 2
        self._anchors = anchors
        self._pieces: list[bytes] = []

    def put(self, piece: bytes) -> bool:
        """Hand over the next piece; False (and nothing done) when the ring is full."""
        if not isinstance(piece, bytes):
            raise TypeError("MailPipeline.put needs bytes")
        if len(self._pieces) >= self._depth:
            return False
        self._pieces.append(piece)
        return True

    def take(self) -> Any:
        """The oldest piece put and not taken, walked and scanned (see the class)."""
        if not self._pieces:
            raise ValueError("MailPipeline.take: no piece was put")
        piece = self._pieces.pop(0)
        try:
            walked = walk(piece, 0, len(piece), *self._walk)
        except MemoryError:
            raise
        except Exception as exc:   # as the compiled twin keeps it
            return exc
        # no octets table (_scan_py): a part is decoded by its charset already
        return (walked, _scan_py.scan(walked[0], 0, len(walked[0]), *self._scan),
                anchor_runs(walked[1], walked[0]) if self._anchors else None)

    def close(self) -> None:
        """Nothing runs in the background here; the pieces are let go."""
        self._pieces = []
