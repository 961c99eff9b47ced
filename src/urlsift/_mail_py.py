"""Pure-Python twin of ``urlsift._mail_c``: the mail walker, on the bytes of a spool.

:func:`walk` takes a stretch of an mbox that holds whole messages and gives back, for
all of them at once, the text to scan and where each piece of it came from, without
building an ``email.message.Message``:

- **messages** are cut at the lines that start with ``From `` (as ``mailbox.mbox``);
- **headers** are read as ``email``'s compat32 policy reads them (RFC 5322 section
  2.2: a field runs over its folded lines; the value starts after the colon and the
  blanks after it); only Message-ID, Date, Content-Type, Content-Transfer-Encoding
  and the URL-bearing headers matter;
- **MIME parts** (RFC 2046 section 5.1.1): a body line ``--boundary`` (``--`` again
  at the close, blanks after) starts the next part; the line end before it belongs to
  the boundary; nested multiparts down to ``max_depth``;
- **text** parts go to the scan text as they stand (7bit, 8bit, binary: in place,
  ``src`` is their offset in the spool), or decoded (quoted-printable and base64,
  RFC 2045 sections 6.7 and 6.8, as ``email`` decodes them: :func:`decode_qp`,
  :func:`decode_base64`);
  a reply-quote prefix (``> ``) is left out only on a line that continues a ``<`` left
  open at the end of the line before (a ``<URL:...>`` wrapped over quoted lines);
- **HTML** parts give their ``href``/``src`` values and their text runs, character
  references undone by the caller's ``unescape`` (``html.unescape``).

Anything the walk does not understand exactly as ``email`` would (``message/*``
parts, RFC 2231 parameters, 8-bit or control octets in the headers it uses, a bare
CR, a charset not known to be ASCII-compatible, an odd base64 body, malformed HTML,
``<base href>``...) marks the message ``FALLBACK``: the caller walks that one message
with the standard library. The result is the same either way; the walk is faster.

Output (``walk`` returns ``(out, segs, msgs, names)``):

- ``out``: the scan text, segments one after another, a NUL octet after each part
  (no URL, wrapper or line join crosses a NUL);
- ``segs``: :data:`SEG` integers per segment: message index, start and end in
  ``out``, ``src`` (offset in the spool of ``out[start]`` when copied as it stands,
  else -1), kind (:data:`K_HEADER`...), label start and end in ``names``, offset in the
  decoded part, and for HTML text the index of the segment of the ``href`` of the
  ``<a>`` it is in (else -1);
- ``msgs``: :data:`MSG` integers per message: offset of its ``From `` line (-1 for
  text before the first one), start and end of its data, Message-ID and Date value
  spans (-1 when absent), flags;
- ``names``: the labels (``1.2 text/html``, ``header:List-Post``) the segments point to.

>>> spool = b"From a\\nMessage-ID: <1@x>\\n\\nsee http://a.example/\\n"
>>> HEADERS = b"List-Post\\0"     # the URL-bearing headers, NUL-terminated (the mail layer's)
>>> out, segs, msgs, names = walk(spool, 0, len(spool), HEADERS, CHARSETS, 8, None)
>>> bytes(out), bytes(names)
(b'see http://a.example/\\n\\x00', b'1 text/plain')
>>> list(msgs)    # From line at 0, data 7..48, Message-ID value 19..24, no Date
[0, 7, 48, 19, 24, -1, -1, 0]
>>> list(segs)    # message 0, out[0:22] is spool[26:48], a text part labelled names[0:12]
[0, 0, 22, 26, 1, 0, 12, 0, -1]
"""
from __future__ import annotations

import binascii
import re
from array import array
from bisect import bisect_right
from typing import Any, Callable, Optional

from ._layout import FROM_LINE, MBOX_SEPARATOR
from ._build_py import edits_index, triple_strings
from . import _scan_py
from ._scan_py import HYPHEN_BREAK, WRAPPED

__all__ = ["walk", "SEG", "MSG", "K_HEADER", "K_TEXT", "K_HTML_TEXT", "K_HREF", "K_SRC",
           "FALLBACK", "CHARSETS", "trace", "iso_date", "decode_qp", "decode_base64",
           "LABEL_CACHE", "url_triples", "anchor_runs", "same_link", "MailPipeline"]

#: Integers per segment and per message record.
SEG = 9
MSG = 8
#: Segment kinds.
K_HEADER, K_TEXT, K_HTML_TEXT, K_HREF, K_SRC = 0, 1, 2, 3, 4
#: Message flag: walk this message with the standard library instead.
FALLBACK = 1
#: How many of the last labels written are looked up before a label is written again.
LABEL_CACHE = 16
#: Charsets whose octets 0x00-0x7F are ASCII and never part of a wider character, so
#: URLs are found without decoding; ``*`` ends a prefix. Others fall back (UTF-16...).
CHARSETS = (b"us-ascii\0ascii\0utf-8\0utf8\0iso-8859-*\0iso8859-*\0iso_8859-*\0latin*\0"
            b"l1\0windows-125*\0cp125*\0cp437\0cp850\0koi8-*\0euc-jp\0euc-kr\0gb2312\0"
            b"tis-620\0x-unknown\0unknown-8bit\0")

_HEADER_NAME = re.compile(rb"[\041-\071\073-\176]*:")
_BAD_HEADER_OCTET = re.compile(rb"[^\t\r\n\x20-\x7e]")
_LONE_CR = re.compile(rb"\r(?!\n)")
_QUOTE = re.compile(rb"[ \t]*>(?:[ \t]?>)*[ \t]?")
_SCHEME = re.compile(rb"[A-Za-z][A-Za-z0-9+.\-]*:")
_GRAPHIC_RUN = re.compile(rb"[\x21-\x7e]+")
_RAW_TEXT = (b"script", b"style")
_HTML_ATTRS = {b"href": K_HREF, b"src": K_SRC}
_NAME_END = b"\t\n\f\r />"
_SPACES = b"\t\n\f\r "


class _Fallback(Exception):
    """The message is not one the walk reads exactly as ``email`` does."""


def _names(table: bytes) -> list[bytes]:
    return [n for n in table.split(b"\0") if n]


def _charset_ok(charset: Optional[bytes], allowed: list[bytes]) -> bool:
    if charset is None:
        return True
    cs = charset.lower()
    for name in allowed:
        if name.endswith(b"*") and cs.startswith(name[:-1]) or cs == name:
            return True
    return False


def _utf8(charset: Optional[bytes]) -> bool:
    """Is a part of this charset scanned as UTF-8 by ``email`` too (none said: UTF-8)?
    Only then may its non-ASCII octets be scanned as they stand: an IRI's letters
    continue a URL (``urlsift._scan_py``), and in another charset they are others: a
    part of another charset where a URL could go on into one falls back
    (:func:`_url_glued_high`)."""
    return charset is None or charset.lower() in (b"utf-8", b"utf8")


def _url_glued_high(data: bytes) -> bool:
    """Is a non-ASCII octet glued to a run of ASCII graphic characters holding a ``:``
    or a ``&`` (where a URL may stand: every URL has its colon, in HTML perhaps as a
    character reference, ``http&#58;//``, and up to its first non-ASCII character it is
    such a run)? In Latin-1, ``café`` is not, ``http://a/café`` is. One pass.

    >>> latin1 = ["café là".encode("latin-1"), "http://a/café".encode("latin-1")]
    >>> [_url_glued_high(text) for text in latin1]
    [False, True]
    """
    n = len(data)
    for run in _GRAPHIC_RUN.finditer(data):
        a, e = run.span()
        if e < n and data[e] >= 0x80 and (data.find(b":", a, e) >= 0 or data.find(b"&", a, e) >= 0):
            return True
    return False


def _line_end(buf: Any, p: int, stop: int) -> int:
    """The offset after the line at ``p`` (after its LF), or ``stop``."""
    k = buf.find(b"\n", p, stop)
    return stop if k < 0 else k + 1


def _is_blank(buf: Any, p: int, e: int) -> bool:
    return buf[p:e] in (b"\n", b"\r\n")


def _strip_eol(buf: Any, a: int, e: int) -> int:
    """``e`` moved back over the CR and LF octets before it (``rstrip('\\r\\n')``)."""
    while e > a and buf[e - 1] in (10, 13):
        e -= 1
    return e


def walk(buf: Any, start: int, stop: int, headers: bytes, charsets: bytes, max_depth: int,
         unescape: Optional[Callable[[str], str]],
         whole: bool = False) -> tuple[bytearray, "array[int]", "array[int]", bytearray]:
    """Walk the messages in ``buf[start:stop]`` (see the module docstring); with
    ``whole`` the stretch is one message without a ``From `` line (a Maildir file).
    ``headers``: the URL-bearing header names to report, NUL-terminated, in their order
    (the mail layer's ``URL_HEADERS``); ``charsets``: :data:`CHARSETS` or another list."""
    buf = bytes(buf[start:stop]) if start or stop != len(buf) else bytes(buf)
    w = _Walk(buf, start, _names(headers), _names(charsets.lower()), max_depth, unescape)
    n = len(buf)
    p = 0
    first = True
    if whole:
        w.message(-1, 0, n)
        p = n
    while p < n:
        if buf.startswith(FROM_LINE, p):
            data = _line_end(buf, p, n)
            offset = p
        else:                                  # text before the first From line
            data, offset = p, -1
        k = buf.find(MBOX_SEPARATOR, data - 1 if data > 0 else 0)
        end = n if k < 0 else k + 1
        if offset >= 0 or not first or buf[data:end].strip():
            w.message(offset, data, end)
        first = False
        p = end
    return w.out, w.segs, w.msgs, w.names


class _Walk:
    def __init__(self, buf: bytes, base: int, headers: list[bytes], charsets: list[bytes],
                 max_depth: int, unescape: Any) -> None:
        self.buf = buf
        self.base = base
        self.headers = headers
        self.lower_headers = [h.lower() for h in headers]
        self.charsets = charsets
        self.max_depth = max_depth
        self.unescape = unescape
        self.out = bytearray()
        self.segs = array("q")
        self.msgs = array("q")
        self.names = bytearray()
        self.recent: list[tuple[bytes, int, int]] = []   # the last labels written

    # -- messages ---------------------------------------------------------------------

    def message(self, offset: int, a: int, e: int) -> None:
        index = len(self.msgs) // MSG
        out_len, segs_len, names_len = len(self.out), len(self.segs), len(self.names)
        base = self.base
        record = [base + offset if offset >= 0 else -1, base + a, base + e, -1, -1, -1, -1, 0]
        try:
            if _LONE_CR.search(self.buf, a, e):
                raise _Fallback
            fields, body = self.header_block(a, e)
            for name, span in ((b"message-id", 3), (b"date", 5)):
                value = _first(fields, name)
                if value is not None:
                    if _BAD_HEADER_OCTET.search(self.buf, value[0], value[1]):
                        raise _Fallback          # email makes it a Header object
                    record[span], record[span + 1] = base + value[0], base + value[1]
            self.url_headers(index, fields)
            self.entity(index, fields, body, e, "", 0, False)
        except _Fallback:
            del self.out[out_len:]
            del self.segs[segs_len:]
            del self.names[names_len:]
            self.recent = [r for r in self.recent if r[1] < names_len]
            record[3:7] = [-1, -1, -1, -1]
            record[7] |= FALLBACK
        self.msgs.extend(record)

    def header_block(self, a: int, e: int) -> tuple[list[tuple[bytes, int, int]], int]:
        """The fields of the header block at ``a``: ``(lower-case name, value start, value
        end)``, and where the body starts (after the blank line, or at the first line
        that is no header line, as ``email.feedparser`` has it)."""
        buf = self.buf
        fields: list[list[Any]] = []
        p = a
        while p < e:
            le = _line_end(buf, p, e)
            if _is_blank(buf, p, le):
                return [tuple(f) for f in fields], le
            c = buf[p]
            if c in (32, 9):                     # a folded line continues the field
                if not fields:
                    raise _Fallback             # first line a continuation: a defect
                fields[-1][2] = _strip_eol(buf, p, le)
            else:
                m = _HEADER_NAME.match(buf, p, le)
                if m is None:
                    if buf.startswith(FROM_LINE, p):
                        raise _Fallback          # a misplaced envelope line
                    return [tuple(f) for f in fields], p   # the body starts here
                colon = m.end() - 1
                if colon == p:
                    raise _Fallback              # ":value": email drops it with a defect
                v = colon + 1
                while v < le and buf[v] in (32, 9):
                    v += 1
                fields.append([buf[p:colon].lower(), v, _strip_eol(buf, v, le)])
            p = le
        return [tuple(f) for f in fields], e

    def url_headers(self, index: int, fields: list[tuple[bytes, int, int]]) -> None:
        for name, lower in zip(self.headers, self.lower_headers):
            for fname, va, ve in fields:
                if fname != lower:
                    continue
                if _BAD_HEADER_OCTET.search(self.buf, va, ve):
                    raise _Fallback              # email makes it a Header object
                label = self.label(b"header:" + name)
                self.segment(index, va, ve, label, K_HEADER, 0)
                self.out.append(0)

    # -- MIME entities ------------------------------------------------------------------

    def entity(self, index: int, fields: list, body: int, e: int, section: str,
               depth: int, in_digest: bool) -> None:
        """The leaf parts of the entity whose fields and body (``body``..``e``) are given."""
        buf = self.buf
        ctype = _first(fields, b"content-type")
        params: list[tuple[bytes, bytes]] = []
        if ctype is None:
            if in_digest:
                raise _Fallback                 # message/rfc822 by default
            full = b"text/plain"
        else:
            value = buf[ctype[0]:ctype[1]]
            if _BAD_HEADER_OCTET.search(value):
                raise _Fallback
            main_value, params = _params(value)
            full = main_value.strip().lower()
            if full.count(b"/") != 1:
                full = b"text/plain"
        maintype, _, subtype = full.partition(b"/")
        if maintype == b"message":
            raise _Fallback
        if maintype == b"multipart":
            boundary = _param(params, b"boundary")
            if boundary is None or depth >= self.max_depth:
                raise _Fallback
            self.multipart(index, body, e, boundary.rstrip(), section, depth,
                           subtype == b"digest")
            return
        if maintype != b"text":
            return                                # images, archives...: not text
        cte_field = _first(fields, b"content-transfer-encoding")
        cte = buf[cte_field[0]:cte_field[1]].lower() if cte_field else b""
        if cte_field and _BAD_HEADER_OCTET.search(cte):
            raise _Fallback
        charset = _param(params, b"charset")
        if not _charset_ok(charset, self.charsets):
            raise _Fallback
        label = self.label(f"{section or '1'} ".encode() + full)
        if cte in (b"", b"7bit", b"8bit", b"binary"):
            data, src = buf[body:e], body
        elif cte in (b"quoted-printable", b"base64"):
            decoded = decode_base64(buf[body:e]) if cte == b"base64" else decode_qp(buf[body:e])
            if decoded is None:
                raise _Fallback                  # base64 email would read leniently
            data, src = decoded, -1
        else:
            raise _Fallback                      # uuencode, an unknown encoding
        if not _utf8(charset) and _url_glued_high(data):
            raise _Fallback     # letters of another charset may continue a URL once decoded
        if subtype == b"html":
            self.html(index, data, label)
        else:
            self.text(index, data, src, label)
        self.out.append(0)

    def multipart(self, index: int, a: int, e: int, boundary: bytes, section: str,
                  depth: int, digest: bool) -> None:
        """The parts between ``--boundary`` lines (RFC 2046 section 5.1.1)."""
        buf = self.buf
        sep = b"--" + boundary
        parts: list[tuple[int, int]] = []
        p = a
        part_start = -1
        closed = False
        while p < e:
            le = _line_end(buf, p, e)
            kind = _boundary_line(buf, p, le, sep)
            if kind == 2:
                if part_start >= 0:
                    parts.append((part_start, _eol_before(buf, part_start, p)))
                closed = True
                break
            if kind == 1:
                if part_start >= 0:
                    parts.append((part_start, _eol_before(buf, part_start, p)))
                # boundary lines right after it (a close one too) are passed over:
                # email reads no part between them
                p = le
                while p < e:
                    le = _line_end(buf, p, e)
                    if not _boundary_line(buf, p, le, sep):
                        break
                    p = le
                part_start = p
                continue
            p = le
        if part_start < 0:
            raise _Fallback                       # no boundary at all: email keeps the text
        if not closed:
            parts.append((part_start, _eol_before(buf, part_start, e)))
        for number, (pa, pe) in enumerate(parts, 1):
            sub = f"{section}.{number}" if section else str(number)
            fields, body = self.header_block(pa, pe)
            self.entity(index, fields, body, pe, sub, depth + 1, digest)

    # -- text ---------------------------------------------------------------------------

    def text(self, index: int, data: bytes, src: int, label: tuple[int, int]) -> None:
        """A text part: copied as it stands, but for the reply-quote prefixes of lines
        that continue a ``<`` left open; each such prefix starts a new segment."""
        n = len(data)
        p = 0           # where the current segment starts
        q = 0           # where the current line starts
        open_ = False   # a "<" left open at the end of the line before
        while q < n:
            le = data.find(b"\n", q)
            le = n if le < 0 else le + 1
            if open_:
                m = _QUOTE.match(data, q, le)   # always holds a ">" when it matches
                if m is not None:
                    self.segment(index, p, q, label, K_TEXT, p, data, src)
                    p = q = m.end()
            # the last "<" or ">" of the line says whether a "<" is left open
            lt = data.rfind(b"<", q, le)
            gt = data.rfind(b">", q, le)
            if lt != gt:
                open_ = lt > gt
            q = le
        self.segment(index, p, n, label, K_TEXT, p, data, src)

    # -- HTML ---------------------------------------------------------------------------

    def html(self, index: int, data: bytes, label: tuple[int, int]) -> None:
        """``href``/``src`` values and text runs of an HTML part, in document order (the
        tokenizer of :mod:`urlsift.mail.html`, on octets; anything it would report as
        malformed, and ``<base href>``, fall back)."""
        n = len(data)
        i = run = 0
        anchor = -1
        while True:
            j = data.find(b"<", i)
            if j < 0 or j + 1 >= n:
                break
            c = data[j + 1]
            letter = _letter(c)
            if not (letter or c in b"/!?"):
                i = j + 1
                continue
            if c == 47 and j + 2 < n and data[j + 2] == 62:        # "</>"
                self.html_text(index, data, run, j, label, anchor, True)
                i = run = j + 3
                continue
            self.html_text(index, data, run, j, label, anchor, True)
            if letter or (c == 47 and j + 2 < n and _letter(data[j + 2])):
                end, closing, tag, attrs = _tag(data, j)
                if end < 0:
                    raise _Fallback
                i = run = end
                if closing:
                    if tag == b"a":
                        anchor = -1
                    continue
                href = -1
                for name, va, ve in attrs:
                    kind = _HTML_ATTRS.get(name)
                    if kind is None or va < 0:
                        continue
                    value = _strip(self.unescaped(data[va:ve]))
                    if not value:
                        continue
                    if tag == b"base" and kind == K_HREF:
                        raise _Fallback            # relative links resolve against it
                    seg = len(self.segs) // SEG
                    if _SCHEME.match(value):
                        self.segment(index, 0, len(value), label, kind, j, value, -1)
                        self.out.append(0)
                    if kind == K_HREF:
                        href = seg if _SCHEME.match(value) else -2
                if tag == b"a":
                    anchor = href
                if tag in _RAW_TEXT:
                    m = re.compile(b"</" + tag + rb"[\t\n\f\r />]", re.IGNORECASE).search(data, i)
                    stop = m.start() if m else n
                    self.html_text(index, data, i, stop, label, anchor, False)
                    i = run = stop
                continue
            if data.startswith(b"<!--", j):
                k = data.find(b"-->", j + 4)
                if k < 0:
                    raise _Fallback
                i = run = k + 3
                continue
            k = data.find(b">", j + 2)
            if k < 0 or not (c == 63 or data[j + 2:j + 9].lower() == b"doctype"):
                raise _Fallback                   # never closed, or a bogus comment
            i = run = k + 1
        self.html_text(index, data, run, n, label, anchor, True)

    def html_text(self, index: int, data: bytes, a: int, e: int, label: tuple[int, int],
                  anchor: int, decode: bool) -> None:
        if a >= e:
            return
        raw = data[a:e]
        if decode and b"&" in raw:
            text = self.unescaped(raw)
            self.segment(index, 0, len(text), label, K_HTML_TEXT, a, text, -1, anchor)
        else:
            self.segment(index, a, e, label, K_HTML_TEXT, a, data, -1, anchor)
        self.out.append(0)

    def unescaped(self, raw: bytes) -> bytes:
        """``raw`` with its character references undone (``unescape``, on the text read
        as Latin-1 so octets map one to one; a reference to a character past U+00FF
        gives that character in UTF-8: it is not ASCII either way)."""
        if b"&" not in raw:
            return raw
        fast = _references(raw)
        if fast is not None:
            return fast
        if self.unescape is None:
            raise _Fallback
        return self.unescape(raw.decode("latin-1")).encode("utf-8", "surrogatepass")

    # -- output -------------------------------------------------------------------------

    def label(self, name: bytes) -> tuple[int, int]:
        """Where ``name`` is in ``names``: one of the last :data:`LABEL_CACHE` labels
        written (a bounded look-up: linear on any input), else written now."""
        for label, a, e in reversed(self.recent):
            if label == name:
                return a, e
        a = len(self.names)
        self.names += name
        self.recent = self.recent[-(LABEL_CACHE - 1):] + [(name, a, len(self.names))]
        return a, len(self.names)

    def segment(self, index: int, a: int, e: int, label: tuple[int, int], kind: int,
                part_offset: int, data: Optional[bytes] = None, src: int = -1,
                anchor: int = -1) -> None:
        """Append ``data[a:e]`` (the spool when ``data`` is None) to ``out``."""
        start = len(self.out)
        if data is None:
            self.out += self.buf[a:e]
            where = self.base + a
        else:
            self.out += data[a:e]
            where = self.base + src + a if src >= 0 else -1
        self.segs.extend((index, start, len(self.out), where, kind, label[0], label[1],
                          part_offset, anchor))


def _first(fields: list, name: bytes) -> Optional[tuple[int, int]]:
    for fname, va, ve in fields:
        if fname == name:
            return va, ve
    return None


def _params(value: bytes) -> tuple[bytes, list[tuple[bytes, bytes]]]:
    """The value before the first ``;`` and its parameters, as ``email.message``'s
    ``_parseparam`` cuts them (a ``;`` inside quotes does not cut); RFC 2231 parameters
    (``name*=``) fall back."""
    main, sep, rest = value.partition(b";")
    params: list[tuple[bytes, bytes]] = []
    s = b";" + rest if sep else b""
    while s[:1] == b";":
        s = s[1:]
        end = s.find(b";")
        while end > 0 and (s.count(b'"', 0, end) - s.count(b'\\"', 0, end)) % 2:
            end = s.find(b";", end + 1)
        if end < 0:
            end = len(s)
        f = s[:end]
        s = s[end:]
        name, eq, val = f.partition(b"=")
        name = name.strip().lower()
        if b"*" in name:
            raise _Fallback
        if eq:
            params.append((name, _unquote(val.strip())))
    return main, params


def _unquote(v: bytes) -> bytes:
    """A parameter value as RFC 2045 section 5.1 has it: the content of a quoted-string
    (``email.utils.unquote`` would also strip ``<...>``, and ``get_boundary`` does it
    twice: ``boundary="<b>"`` would look for ``--b``, docs/decisions-cli.md); a quoted
    value with a backslash (an escape) falls back."""
    if len(v) > 1 and v[:1] == b'"' and v[-1:] == b'"':
        if b"\\" in v[1:-1]:
            raise _Fallback
        return v[1:-1]
    return v


def _param(params: list[tuple[bytes, bytes]], name: bytes) -> Optional[bytes]:
    for pname, value in params:
        if pname == name:
            return value
    return None


def _boundary_line(buf: bytes, p: int, le: int, sep: bytes) -> int:
    """1 for a ``--boundary`` line, 2 for the closing ``--boundary--``, else 0."""
    if not buf.startswith(sep, p):
        return 0
    q = p + len(sep)
    kind = 1
    if buf.startswith(b"--", q):
        q += 2
        kind = 2
    while q < le and buf[q] in (32, 9):
        q += 1
    rest = buf[q:le]
    return kind if rest in (b"", b"\n", b"\r\n") else 0


def _eol_before(buf: bytes, a: int, p: int) -> int:
    """The end of a part whose boundary line starts at ``p``: the line end before the
    boundary belongs to it (RFC 2046 section 5.1.1)."""
    if p - 2 >= a and buf[p - 2:p] == b"\r\n":
        return p - 2
    if p - 1 >= a and buf[p - 1] in (10, 13):
        return p - 1
    return p


_BASE64 = re.compile(rb"[A-Za-z0-9+/]*={0,2}")


def decode_qp(body: bytes) -> bytes:
    """A quoted-printable body decoded (RFC 2045 section 6.7) as ``email`` decodes it:
    ``quopri.decodestring`` is ``binascii.a2b_qp``."""
    return binascii.a2b_qp(body)


def decode_base64(body: bytes) -> Optional[bytes]:
    """A base64 body (RFC 2045 section 6.8) decoded as ``email`` decodes a clean one
    (``email._encoded_words.decode_b``'s first try): the lines joined, padded with ``=``
    to a multiple of 4, then ``validate=True``; None when ``email`` would have to read
    it leniently (that message then falls back).

    >>> decode_base64(b"aHR0cDovL2Eu\\nZXhhbXBsZS8=\\n"), decode_base64(b"aHR0cD*=\\n")
    (b'http://a.example/', None)
    """
    data = body.replace(b"\r", b"").replace(b"\n", b"")
    if len(data) % 4:
        data += b"==="[:4 - len(data) % 4]
    if not _BASE64.fullmatch(data):
        return None
    try:
        return binascii.a2b_base64(data)
    except binascii.Error:
        return None


def _strip(value: bytes) -> bytes:
    """``value`` without the ASCII white space around it; with a non-ASCII octet or an
    information separator at either end (``str.strip`` would take U+00A0...) the
    message falls back."""
    value = value.strip()
    if value and (value[0] >= 0x80 or value[-1] >= 0x80 or 0x1c <= value[0] <= 0x1f
                  or 0x1c <= value[-1] <= 0x1f):
        raise _Fallback
    return value


_FAST_REF = re.compile(rb"&(?:#([0-9]{1,7});|#[xX]([0-9a-fA-F]{1,6});|(amp|lt|gt|quot|apos);)")
_NAMED = {b"amp": 38, b"lt": 60, b"gt": 62, b"quot": 34, b"apos": 39}


def _references(raw: bytes) -> Optional[bytes]:
    """``raw`` with its character references undone when each is one mail HTML is full
    of and ``html.unescape`` reads as one printable ASCII character (``&amp;``,
    ``&lt;``, ``&gt;``, ``&quot;``, ``&apos;``, ``&#NN;``/``&#xHH;`` for U+0020 to
    U+007E, the ``;`` written); else None, and ``html.unescape`` reads the text."""
    out = bytearray()
    p = 0
    while True:
        k = raw.find(b"&", p)
        if k < 0:
            out += raw[p:]
            return bytes(out)
        out += raw[p:k]
        m = _FAST_REF.match(raw, k)
        if m is None:
            return None
        v = int(m[1]) if m[1] else int(m[2], 16) if m[2] else _NAMED[m[3]]
        if not 32 <= v <= 126:
            return None
        out.append(v)
        p = m.end()


def _letter(c: int) -> bool:
    return 65 <= c <= 90 or 97 <= c <= 122


def _past(data: bytes, p: int, stop_set: bytes, inside: bool) -> int:
    """The offset after the run at ``p`` of octets in (``inside``) or not in ``stop_set``."""
    n = len(data)
    while p < n and ((data[p] in stop_set) == inside):
        p += 1
    return p


def _tag(data: bytes, j: int) -> tuple[int, bool, bytes, list[tuple[bytes, int, int]]]:
    """The tag at ``data[j]``: (offset after its ``>``, closing, name, attributes as
    (name, value start, value end), -1 when without value); (-1, ...) when it never ends."""
    n = len(data)
    closing = data[j + 1] == 47
    p = j + 2 if closing else j + 1
    q = _past(data, p, _NAME_END, False)
    tag = data[p:q].lower()
    attrs: list[tuple[bytes, int, int]] = []
    p = q
    while True:
        p = _past(data, p, b"\t\n\f\r /", True)
        if p >= n:
            return -1, closing, tag, attrs
        if data[p] == 62:
            break
        q = _past(data, p + 1, b"\t\n\f\r />=", False)
        name = data[p:q].lower()
        p = _past(data, q, _SPACES, True)
        va = ve = -1
        if p < n and data[p] == 61:
            p = _past(data, p + 1, _SPACES, True)
            if p >= n:
                return -1, closing, tag, attrs
            quote = data[p]
            if quote in (34, 39):
                q = data.find(bytes((quote,)), p + 1)
                if q < 0:
                    return -1, closing, tag, attrs
                va, ve = p + 1, q
                p = q + 1
            else:
                q = _past(data, p, b"\t\n\f\r >", False)
                va, ve = p, q
                p = q
        attrs.append((name, va, ve))
    return p + 1, closing, tag, attrs


# -- from matches of the scan text back to messages ---------------------------------------

_MONTHS = {m: i for i, m in enumerate(
    (b"Jan", b"Feb", b"Mar", b"Apr", b"May", b"Jun", b"Jul", b"Aug", b"Sep", b"Oct", b"Nov",
     b"Dec"), 1)}
_DATE = re.compile(rb"(?:(?:Mon|Tue|Wed|Thu|Fri|Sat|Sun), )?([0-9]{1,2}) ([A-Z][a-z][a-z]) "
                   rb"([0-9]{4}) ([0-9]{2}):([0-9]{2}):([0-9]{2}) ([+-])([0-9]{2})([0-9]{2})")


def _days(year: int, month: int) -> int:
    if month == 2:
        return 29 if year % 4 == 0 and (year % 100 != 0 or year % 400 == 0) else 28
    return 30 if month in (4, 6, 9, 11) else 31


def iso_date(raw: bytes) -> Optional[str]:
    """The RFC 5322 section 3.3 date ``raw`` in ISO 8601 with its own offset, as
    ``email.utils.parsedate_to_datetime(...).isoformat()`` gives it, for the one form
    mail programs write (``Sat, 01 Jan 2000 00:00:30 +0000``); None for any other
    form, which the caller leaves to the standard library.

    >>> iso_date(b"Mon, 12 Oct 2026 10:15:00 +0200"), iso_date(b"12 Oct 2026 10:15:00 -0000")
    ('2026-10-12T10:15:00+02:00', '2026-10-12T10:15:00')
    """
    m = _DATE.fullmatch(raw)
    if m is None:
        return None
    day, month, year = int(m[1]), _MONTHS.get(m[2]), int(m[3])
    hour, minute, second, tzh, tzm = int(m[4]), int(m[5]), int(m[6]), int(m[8]), int(m[9])
    if (month is None or year < 1000 or not 1 <= day <= _days(year, month) or hour > 23
            or minute > 59 or second > 59 or tzh > 23 or tzm > 59):
        return None
    text = f"{year:04d}-{month:02d}-{day:02d}T{hour:02d}:{minute:02d}:{second:02d}"
    if m[7] == b"-" and tzh == tzm == 0:
        return text                  # -0000: the local time is not known (RFC 5322)
    return f"{text}{m[7].decode()}{tzh:02d}:{tzm:02d}"


def same_link(url: Any, href: Any) -> bool:
    """``url`` is the ``href`` of the ``<a>`` whose text it is (a trailing ``/`` aside):
    such a link counts once (``urlsift.mail.html`` and ``urlsift.mail.walk`` use this
    rule too). Both str, or both UTF-8 octets (equal exactly when their text is).

    >>> same_link("http://a.example", "http://a.example/"), same_link(b"http://a/x", b"http://a/y")
    (True, False)
    """
    slash = "/" if isinstance(url, str) else b"/"
    return url == href or url.rstrip(slash) == href.rstrip(slash)


def trace(triples: Any, out: Any, segs: Any, msgs: Any, names: Any, piece: Any, base: int,
          source: str, cls: type, limit: int, other: Callable[[int], list],
          id_of: Callable[[bytes], Optional[str]], date_of: Callable[[bytes], Optional[str]],
          edits: tuple, table: bytes, texts: Optional[dict] = None) -> list:
    """The ``cls`` tuples (``urlsift.mail.MailMatch``) of the scanner's ``triples`` over
    the scan text ``out`` of :func:`walk`, in message order: each traced back to its
    segment, part and message, its URL and raw text cut as ``_build.build`` cuts them
    (``edits`` and ``table`` as it takes them). A message marked ``FALLBACK``, or larger
    than ``limit``, is handed to ``other(index)``, which returns its matches, or None to
    end the trace there (what was traced before is returned). A URL in the text of an
    ``<a>`` that is its ``href`` is left out (:func:`same_link`); the Message-ID and
    Date come from ``id_of`` and from :func:`iso_date` or ``date_of``. ``texts``: the
    value of the last field (``text``) of a URL found in an ``href`` segment, by the
    segment's index (the mail layer makes them: the text of its ``<a>``); None else.
    """
    result: list = []
    starts = segs[1::SEG]
    labels: dict[bytes, str] = {}
    suffix = {K_HREF: " href", K_SRC: " src"}
    k = 0
    total = len(triples) // 3
    n = len(out)
    for i in range(0, len(msgs), MSG):
        offset, a, e, ida, ide, da, de, flags = msgs[i:i + MSG]
        index = i // MSG
        big = e - a > limit or (offset >= 0 and a - offset > limit)
        if flags & FALLBACK or big:
            while k < total and segs[(bisect_right(starts, triples[3 * k]) - 1) * SEG] == index:
                k += 1             # a message too large may still have been walked
            got = other(index)
            if got is None:
                return result      # the spool turned out to be no mbox: nothing after
            result.extend(got)
            continue
        if k >= total or segs[(bisect_right(starts, triples[3 * k]) - 1) * SEG] != index:
            continue
        message_id = id_of(bytes(piece[ida:ide])) if ida >= 0 else None
        date = None
        if da >= 0:
            raw_date = bytes(piece[da:de])
            date = iso_date(raw_date) or date_of(raw_date)
        at = base + offset if offset >= 0 else None
        while k < total:
            ms, me, mf = triples[3 * k:3 * k + 3]
            r = (bisect_right(starts, ms) - 1) * SEG
            if segs[r] != index:
                break
            k += 1
            url, raw = triple_strings(out, n, ms, me, mf, table)
            kind, seg_start = segs[r + 4], segs[r + 1]
            if kind == K_HTML_TEXT and segs[r + 8] >= 0:
                h = segs[r + 8] * SEG
                if same_link(url, bytes(out[segs[h + 1]:segs[h + 2]]).decode("utf-8", "replace")):
                    continue        # <a href="U">U</a>: the href has said it already
            key = bytes(names[segs[r + 5]:segs[r + 6]])
            label = labels.get(key)
            if label is None:
                label = labels[key] = key.decode("latin-1")
            where = None
            shown = None
            if kind in suffix:
                part = label + suffix[kind]
                if texts:
                    shown = texts.get(r // SEG)
                start = end = segs[r + 7]
                raw = bytes(out[seg_start:segs[r + 2]]).decode("utf-8", "replace")
            else:
                part = label
                start = segs[r + 7] + ms - seg_start
                if me <= segs[r + 2]:
                    end = segs[r + 7] + me - seg_start
                else:                           # a wrapper over lines split at "> "
                    t = (bisect_right(starts, me - 1) - 1) * SEG
                    end = segs[t + 7] + me - segs[t + 1]
                    if segs[r + 3] >= 0:        # as it stands, prefixes included
                        raw = bytes(piece[segs[r + 3] + ms - seg_start:
                                          segs[t + 3] + me - segs[t + 1]]).decode("latin-1")
                if segs[r + 3] >= 0:
                    where = base + segs[r + 3] + ms - seg_start
            low = mf & 0xFF
            result.append(tuple.__new__(cls, (
                url, raw, start, end, message_id, date, part, False, source, at,
                bool(low & WRAPPED), bool(low & HYPHEN_BREAK),
                edits[edits_index(url, mf)], where, shown)))
    return result


def anchor_runs(segs: Any, out: Any) -> tuple[dict, set]:
    """The text of each ``<a href>`` as the walk laid it out: ``({href segment: octets of
    its text runs joined}, {messages where those octets are not all ASCII})``. The runs
    of an ``<a>`` follow its href segment (an ``<img src>``, ``<area href>`` between
    them), each :data:`K_HTML_TEXT` with that segment as its anchor.

    >>> spool = (b"From a\\nContent-Type: text/html\\n\\n"
    ...          b'<a href="http://a.example/">see <b>this</b></a> x\\n')
    >>> out, segs, msgs, names = walk(spool, 0, len(spool), b"", CHARSETS, 8, None)
    >>> anchor_runs(segs, out)      # segment 0 is the href; "see " and "this" its runs
    ({0: b'see this'}, set())
    """
    runs: dict[int, bytes] = {}
    marked: set[int] = set()
    end = len(segs)
    for h in range(len(segs) // SEG):
        if segs[h * SEG + 4] != K_HREF:
            continue
        message = segs[h * SEG]
        parts = []
        r = h * SEG + SEG
        while r < end and segs[r] == message:
            kind = segs[r + 4]
            if kind == K_HTML_TEXT:
                if segs[r + 8] != h:
                    break
                parts.append(bytes(out[segs[r + 1]:segs[r + 2]]))
            elif kind not in (K_HREF, K_SRC):
                break
            r += SEG
        if parts:
            joined = b"".join(parts)
            if joined.isascii():
                runs[h] = joined
            else:
                marked.add(message)
    return runs, marked


def url_triples(triples: Any, segs: Any, msgs: Any,
                limit: int) -> tuple["array[int]", "array[int]", "array[int]"]:
    """For the command's lines without a Match per URL: the scan's ``triples`` (of the
    text of :func:`walk`) kept, without those of messages larger than ``limit``; the
    ``(index in the kept ones, segment of the href)`` of each found in the text of an
    ``<a href>`` (the caller drops it when it is the href itself); and ``(message,
    kept triples before it)`` of each message to be read otherwise (``FALLBACK``, or
    too large), where its lines go.

    >>> spool = b"From a\\nList-Post: <mailto:l@x>\\n\\nsee http://a.example/\\n"
    >>> out, segs, msgs, names = walk(spool, 0, len(spool), b"List-Post\\0", CHARSETS, 8, None)
    >>> from urlsift.text.extraction import scan
    >>> keep, checks, cuts = url_triples(scan(out), segs, msgs, 1 << 20)
    >>> len(keep) // 3, list(checks), list(cuts)
    (2, [], [])
    """
    keep, checks, cuts = array("q"), array("q"), array("q")
    starts = segs[1::SEG]
    big = [msgs[i + 2] - msgs[i + 1] > limit or (msgs[i] >= 0 and msgs[i + 1] - msgs[i] > limit)
           for i in range(0, len(msgs), MSG)]
    t = 0
    for index in range(len(big)):
        flags = msgs[index * MSG + 7]
        if flags & FALLBACK or big[index]:
            cuts.extend((index, len(keep) // 3))
        while t < len(triples):
            r = (bisect_right(starts, triples[t]) - 1) * SEG
            if segs[r] != index:
                break
            if not big[index]:
                if segs[r + 4] == K_HTML_TEXT and segs[r + 8] >= 0:
                    checks.extend((len(keep) // 3, segs[r + 8]))
                keep.extend(triples[t:t + 3])
            t += 3
    return keep, checks, cuts


class MailPipeline:
    """``MailPipeline(headers, charsets, max_depth, unescape, table, known, max_wrapper,
    max_length, workers)``: pieces of whole messages handed over with ``put(piece)``
    (False when ``workers + 2`` wait to be taken) and given back in order by ``take()``
    as ``((out, segs, msgs, names), triples)`` (:func:`walk` and the scan of its text),
    or the exception the walk raised. The compiled twin walks on ``workers`` threads
    (with none, in ``take()``); this one always walks in ``take()``.

    >>> from urlsift.text.rules import TABLE, KNOWN
    >>> p = MailPipeline(b"", b"ascii\\0", 8, None, TABLE, KNOWN, 8192, 65536, 1)
    >>> p.put(b"From a\\n\\nsee http://a.example/\\n")
    True
    >>> (out, segs, msgs, names), triples = p.take()
    >>> bytes(out), list(triples)
    (b'see http://a.example/\\n\\x00', [4, 21, 0])
    >>> p.close()
    """

    def __init__(self, headers: bytes, charsets: bytes, max_depth: int,
                 unescape: Optional[Callable[[str], str]], table: bytes, known: bytes,
                 max_wrapper: int, max_length: int, workers: int) -> None:
        if workers < 0:
            raise ValueError("workers must not be negative")
        _scan_py.check_known(known)
        self._walk = (headers, charsets, max_depth, unescape)
        self._scan = (table, known, max_wrapper, max_length)
        self._depth = workers + 2
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
        return walked, _scan_py.scan(walked[0], 0, len(walked[0]), *self._scan)

    def close(self) -> None:
        """Nothing runs in the background here; the pieces are let go."""
        self._pieces = []
