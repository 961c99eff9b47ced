"""JSON string escapes in logs: a URL written ``https:\\/\\/shop.example.com\\/cart``.

Encoders that escape ``/`` (PHP's ``json_encode``, Monolog, many loggers) write a URL in
a JSON string as ``"https:\\/\\/shop.example.com\\/cart"``; others write ``\\u002F``. A
``\\`` ends a URL, so the scanner found nothing there (``https:`` alone is no URL).

**Where**: a colon followed by two escaped slashes (``:\\/\\/``, each ``\\/`` or
``\\u002f``/``\\u002F``) starts a *JSON-escaped run*; nothing but a JSON string writes
that, so it is read wherever it stands (no option). The run goes on over the characters
of a bare URL, non-ASCII characters and the escapes ``\\/`` and ``\\uXXXX``; anything
else ends it: ``\\"`` (the end of a JSON string quoted inside another, read as the
``"`` it stands for, so the URL ends as it would at a quote), ``\\\\``, ``\\n``, ``"``,
white space.

**What**: in a run, ``\\/`` is ``/``; ``\\uXXXX`` (a surrogate pair as one character) is
its character, written as it is when a bare URL may hold it, else %-encoded as its UTF-8
octets (RFC 1738 §2.2: an octet that is not a safe character is written ``%HH``), so
``\\u0020`` is ``%20`` and ``\\u00e9`` is ``%C3%A9``; a lone surrogate (no character)
ends the run before it. :func:`unescape_json` rewrites the runs and keeps a
:class:`JsonMap` back to the offsets of the text as it stands.

>>> text, jmap = unescape_json('{"u":"https:\\\\/\\\\/shop.example.com\\\\/cart\\\\u003Fa=1\\\\u0026b=\\\\u00e9"}')
>>> text
'{"u":"https://shop.example.com/cart?a=1&b=%C3%A9"}'
>>> jmap.start(6), jmap.end(48)     # the URL's span in the text as it stands
(6, 61)
"""
from __future__ import annotations

import re
from bisect import bisect_right
from typing import Any, Optional

from .._scan_py import T_BARE
from .edits import EditMap, T
from .rules import TABLE

__all__ = ["EDIT_JSON_ESCAPES", "JsonMap", "REACH", "has_json_escapes", "run_starts",
           "unescape_json"]

#: The edit of a URL whose text held JSON escapes (``\\/``, ``\\uXXXX``) read as written.
EDIT_JSON_ESCAPES = "json-escapes"
#: Octets a run's start (``:\\u002f\\u002f``) may reach past the colon, less one: a piece
#: that ends right after a colon must still see the escapes that follow it.
REACH = 12

#: The ASCII characters a bare URL holds (the scanner's T_BARE), kept as they are.
_BARE = "".join(chr(c) for c in range(128) if TABLE[c] & T_BARE)
_SLASH = r"(?:\\/|\\u002[fF])"
_START = ":" + _SLASH + _SLASH
#: "\uXXXX" that is a character: not a surrogate, or a high and a low one (a pair)
_CHAR = (r"\\u(?![dD][89a-fA-F])[0-9a-fA-F]{{4}}"
         r"|\\u[dD][89abAB][0-9a-fA-F]{{2}}\\u[dD][c-fC-F][0-9a-fA-F]{{2}}")
#: a run (group 1), and the escaped quote that may close it (read as '"')
_RUN = "(" + _START + r"(?:[{bare}{high}]+|\\/|" + _CHAR + r')*)(?:\\")?'
_CLASS = "".join(re.escape(c) for c in _BARE)
#: the run patterns for str and bytes, compiled when first needed (the str one takes
#: milliseconds, which every start of the command would pay)
_RUNS: dict[bool, Any] = {}
_START_S = re.compile(_START)
_START_B = re.compile(_START.encode("ascii"))
_BACKSLASH_B = re.compile(rb"\\")
#: one escape of a run: "\/", or "\uXXXX" (a pair: a second "\uXXXX" after it)
_ESC = r"\\/|\\u([0-9a-fA-F]{4})(?:\\u([dD][c-fC-F][0-9a-fA-F]{2}))?"
_ESC_S = re.compile(_ESC)
_ESC_B = re.compile(_ESC.encode("ascii"))
#: the escaped quote that may close a run, by ``isinstance(text, str)``
_QUOTE = {True: '\\"', False: b'\\"'}


def has_json_escapes(buf: Any, a: int = 0, b: Optional[int] = None) -> bool:
    """Does ``buf[a:b]`` (str, or any bytes-like object: bytes, bytearray, mmap,
    memoryview) hold the start of a JSON-escaped run? One ``find`` of ``\\`` first, so
    text without a backslash costs a ``memchr``.

    >>> has_json_escapes(b'"https:\\\\/\\\\/a.example\\\\/x"'), has_json_escapes(b'a\\\\"b https://x/')
    (True, False)
    """
    if b is None:
        b = len(buf)
    if isinstance(buf, str):
        i = buf.find("\\", a, b)
        return i >= 0 and _START_S.search(buf, max(a, i - 1), b) is not None
    find = getattr(buf, "find", None)
    if find is not None:
        i = find(b"\\", a, b)
    else:                                   # a memoryview: re reads any buffer
        m = _BACKSLASH_B.search(buf, a, b)
        i = m.start() if m else -1
    return i >= 0 and _START_B.search(buf, max(a, i - 1), b) is not None


def run_starts(buf: Any, a: int = 0, b: Optional[int] = None) -> list[int]:
    r"""Where the JSON-escaped runs of ``buf[a:b]`` (str or bytes-like) start: their colons.

    >>> run_starts(b'"http:\\/\\/a" "x:\\u002F\\u002f" "y:\\/"')
    [5, 15]
    """
    rx = _START_S if isinstance(buf, str) else _START_B
    return [m.start() for m in rx.finditer(buf, a, len(buf) if b is None else b)]


def _run_pattern(is_str: bool) -> Any:
    """The compiled run pattern for str (``is_str``) or bytes."""
    rx = _RUNS.get(is_str)
    if rx is None:
        if is_str:
            rx = re.compile(_RUN.format(bare=_CLASS, high="\u0080-\U0010ffff"))
        else:
            rx = re.compile(_RUN.format(bare=_CLASS, high="\\x80-\\xff").encode("ascii"))
        _RUNS[is_str] = rx
    return rx


def _char(cp: int, is_str: bool) -> Any:
    """The text a character read from ``\\uXXXX`` stands as in a URL."""
    ch = chr(cp)
    if cp < 128 and TABLE[cp] & T_BARE:
        out = ch
    else:
        out = "".join("%%%02X" % o for o in ch.encode("utf-8"))
    return out if is_str else out.encode("ascii")


def _escape(m: "re.Match[Any]", is_str: bool) -> Any:
    """The replacement of one escape of a run (matched by ``_ESC``)."""
    if m.group(1) is None:
        return "/" if is_str else b"/"
    cp = int(m.group(1), 16)
    if m.group(2) is not None:       # a surrogate pair (a run holds no lone surrogate)
        cp = 0x10000 + ((cp - 0xD800) << 10) + int(m.group(2), 16) - 0xDC00
    return _char(cp, is_str)


def _rewritten(run: Any) -> Any:
    """The run as a URL holds it."""
    is_str = isinstance(run, str)
    if ("\\u" if is_str else b"\\u") not in run:
        return run.replace("\\/" if is_str else b"\\/", "/" if is_str else b"/")
    return (_ESC_S if is_str else _ESC_B).sub(lambda m: _escape(m, is_str), run)


class JsonMap(EditMap):
    """An :class:`EditMap` of the runs :func:`unescape_json` rewrote, exact inside a run
    too (a URL that ends in the middle of one: trimmed, or cut by the scanner).

    >>> _, jmap = unescape_json("x https:\\\\/\\\\/a\\\\/b\\\\u00e9!")
    >>> jmap.end(13), jmap.end(16), jmap.new_offset(9)   # after "b"; in "%C3%A9"; in the run
    (16, 22, 20)
    """

    __slots__ = ("_runs", "_escapes")

    def __init__(self) -> None:
        super().__init__()
        self._runs: list[Any] = []
        #: per run looked into, its escapes: (starts read, starts written, widths, sizes)
        self._escapes: dict[int, tuple[list[int], list[int], list[int], list[int]]] = {}

    def _map(self, p: int, is_end: bool) -> int:
        k = bisect_right(self._new_starts, p) - 1
        if k < 0 or p <= self._new_starts[k] or p >= self._new_ends[k]:
            return super()._map(p, is_end)
        esc = self._escapes.get(k)
        if esc is None:
            esc = self._escapes[k] = _escapes_of(self._runs[k])
        return self._old_starts[k] + _old_offset(esc, p - self._new_starts[k], is_end)

    def new_offset(self, old: int) -> int:
        """The offset in the rewritten text of ``old``; one inside a run maps to the run's
        end (a piece cut inside a run leaves the whole run to the piece it started in)."""
        k = bisect_right(self._old_starts, old) - 1
        if k < 0:
            return old
        if old >= self._old_ends[k]:
            return self._new_ends[k] + old - self._old_ends[k]
        return self._new_starts[k] if old == self._old_starts[k] else self._new_ends[k]

    def open_at(self, end: int) -> int:
        """Where the last run starts when it reaches ``end`` of the original text (it may
        go on past a text cut there), else -1."""
        return self._old_starts[-1] if self._old_ends and self._old_ends[-1] >= end else -1

    def escaped(self, start: int, end: int) -> bool:
        """Does ``[start, end)`` of the original text hold an escape that was read?"""
        k = bisect_right(self._old_starts, end - 1) - 1
        while k >= 0 and self._old_ends[k] > start:
            run, base = self._runs[k], self._old_starts[k]
            if (run.find("\\" if isinstance(run, str) else b"\\",
                         max(start - base, 0), end - base) >= 0):
                return True
            k -= 1
        return False


def _escapes_of(run: Any) -> tuple[list[int], list[int], list[int], list[int]]:
    """Where the escapes of ``run`` start in it as written and as read, and how wide they
    are there (the '\"' that may close a run too): what maps an offset inside the run."""
    is_str = isinstance(run, str)
    olds: list[int] = []
    news: list[int] = []
    widths: list[int] = []
    sizes: list[int] = []
    grown = 0
    for m in (_ESC_S if is_str else _ESC_B).finditer(run):
        size = len(_escape(m, is_str))
        olds.append(m.start())
        news.append(m.start() + grown)
        widths.append(m.end() - m.start())
        sizes.append(size)
        grown += size - (m.end() - m.start())
    if run[-2:] == _QUOTE[is_str]:
        olds.append(len(run) - 2)
        news.append(len(run) - 2 + grown)
        widths.append(2)
        sizes.append(1)
    return olds, news, widths, sizes


def _old_offset(esc: tuple[list[int], list[int], list[int], list[int]], q: int,
                is_end: bool) -> int:
    """Where the offset ``q`` of a run's rewritten text falls in the run as written
    (``esc``: :func:`_escapes_of`); inside a replacement, a start goes to the escape's
    start and an end to its end."""
    olds, news, widths, sizes = esc
    k = bisect_right(news, q) - 1
    if k < 0:
        return q
    if q == news[k]:
        return olds[k]
    if q < news[k] + sizes[k]:
        return olds[k] + widths[k] if is_end else olds[k]
    return olds[k] + widths[k] + q - news[k] - sizes[k]


def unescape_json(text: T) -> tuple[T, JsonMap]:
    """``text`` with each JSON-escaped run read (see the module), and the map back.

    >>> unescape_json('"http:\\\\/\\\\/a\\\\/x\\\\"y\\\\" and \\\\/z"')[0]   # its closing \\" too
    '"http://a/x"y\\\\" and \\\\/z"'
    """
    jmap = JsonMap()
    is_str = isinstance(text, str)
    rx = _run_pattern(is_str)
    quote: Any = _QUOTE[is_str]
    delta = 0               # what the runs rewritten so far changed the length by

    def read(m: "re.Match[Any]") -> Any:
        nonlocal delta
        s, e = m.span()
        whole = m.group()
        rewritten = _rewritten(m.group(1))
        if m.end(1) < e:                # the run's closing \" (read as '"')
            rewritten += quote[1:]
        new = s + delta
        jmap._add(new, new + len(rewritten), s, e)
        jmap._runs.append(whole)
        delta += len(rewritten) - (e - s)
        return rewritten

    out = rx.sub(read, text)
    return (out if jmap else text), jmap
