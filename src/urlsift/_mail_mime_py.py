"""The MIME structure of a message (twin of ``_mail_mime.pxi``): which parts hold
text, and each text part laid out.

- An entity's type is its Content-Type (RFC 2045 section 5.1; none, or one without
  exactly one ``/``: ``text/plain``, section 5.2); ``message/*`` falls back.
- A multipart (RFC 2046 section 5.1.1): a body line ``--boundary`` (``--`` again at
  the close, blanks after) starts the next part; the line end before it belongs to
  the boundary; nested multiparts down to ``max_depth``; a digest's parts default to
  ``message/rfc822`` (section 5.1.5) and fall back.
- A text part goes to the scan text as it stands (7bit, 8bit, binary: in place, its
  offset in the spool kept) or decoded (quoted-printable, base64: ``_mail_decode_py``);
  a reply-quote prefix (``> ``) is left out only on a line that continues a ``<`` left
  open at the end of the line before (a ``<URL:...>`` wrapped over quoted lines);
  ``text/html`` goes to the HTML reader (``_mail_html_py.html``).

>>> boundary_line(b"--b--\\n", 0, 6, b"--b"), boundary_line(b"--bx\\n", 0, 5, b"--b")
(2, 0)
"""
from __future__ import annotations

import re

from ._mail_decode_py import decode_base64, decode_qp
from ._mail_headers_py import (BAD_HEADER_OCTET, Field, charset_ok, first, header_block, is_utf8,
                               mechanism, param, params)
from ._mail_html_py import html
from ._mail_records import CR, K_TEXT, LF, SLASH, SPACE, TAB
from ._mail_walker_py import Fallback, Walker, line_end

__all__ = ["entity", "multipart", "text", "boundary_line", "eol_before", "url_glued_high",
           "NOT_BOUNDARY", "DELIMITER", "CLOSE_DELIMITER"]

#: What :func:`boundary_line` finds (RFC 2046 section 5.1.1).
NOT_BOUNDARY, DELIMITER, CLOSE_DELIMITER = 0, 1, 2

_QUOTE = re.compile(rb"[ \t]*>(?:[ \t]?>)*[ \t]?")
_GRAPHIC_RUN = re.compile(rb"[\x21-\x7e]+")
_AS_IT_STANDS = (b"", b"7bit", b"8bit", b"binary")


def entity(w: Walker, index: int, fields: list[Field], body: int, e: int, section: str,
           depth: int, in_digest: bool) -> None:
    """The leaf parts of the entity whose fields and body (``body``..``e``) are given."""
    full, found = _content_type(w.buf, fields, in_digest)
    maintype, _, subtype = full.partition(b"/")
    if maintype == b"message":
        raise Fallback
    if maintype == b"multipart":
        boundary = param(found, b"boundary")
        if boundary is None or depth >= w.max_depth:
            raise Fallback
        multipart(w, index, body, e, boundary.rstrip(), section, depth, subtype == b"digest")
        return
    if maintype != b"text":
        return                                    # images, archives...: not text
    charset = param(found, b"charset")
    if not charset_ok(charset, w.charsets):
        raise Fallback
    label = w.label(f"{section or '1'} ".encode() + full)
    data, src = _decoded(w.buf, fields, body, e)
    if not is_utf8(charset) and url_glued_high(data):
        raise Fallback     # letters of another charset may continue a URL once decoded
    if subtype == b"html":
        html(w, index, data, label)
    else:
        text(w, index, data, src, label)
    w.out.append(0)


def _content_type(buf: bytes, fields: list[Field],
                  in_digest: bool) -> tuple[bytes, list[tuple[bytes, bytes]]]:
    """The lower-case ``type/subtype`` of an entity and its parameters."""
    ctype = first(fields, b"content-type")
    if ctype is None:
        if in_digest:
            raise Fallback                        # message/rfc822 by default
        return b"text/plain", []
    value = buf[ctype[0]:ctype[1]]
    if BAD_HEADER_OCTET.search(value):
        raise Fallback
    main_value, found = params(value)
    full = main_value.strip().lower()
    if full.count(SLASH) != 1:
        full = b"text/plain"
    return full, found


def _decoded(buf: bytes, fields: list[Field], body: int, e: int) -> tuple[bytes, int]:
    """The body as its Content-Transfer-Encoding gives it (RFC 2045 section 6), and its
    offset in the spool when it stands as it is (else -1)."""
    cte_field = first(fields, b"content-transfer-encoding")
    value = buf[cte_field[0]:cte_field[1]] if cte_field else b""
    if BAD_HEADER_OCTET.search(value):
        raise Fallback
    cte = mechanism(value)
    if cte is None:
        raise Fallback                            # not one token: email's to read
    if cte in _AS_IT_STANDS:
        return buf[body:e], body
    if cte in (b"quoted-printable", b"base64"):
        decoded = decode_base64(buf[body:e]) if cte == b"base64" else decode_qp(buf[body:e])
        if decoded is None:
            raise Fallback                        # base64 email would read leniently
        return decoded, -1
    raise Fallback                                # uuencode, an unknown encoding


def multipart(w: Walker, index: int, a: int, e: int, boundary: bytes, section: str,
              depth: int, digest: bool) -> None:
    """The parts between ``--boundary`` lines (RFC 2046 section 5.1.1)."""
    buf = w.buf
    sep = b"--" + boundary
    if b"\n" in boundary:
        raise Fallback                            # no line holds it: email keeps the text
    parts: list[tuple[int, int]] = []
    p = a
    part_start = -1
    closed = False
    while p < e:
        p, kind = next_boundary(buf, a, p, e, sep)
        if p >= e:
            break
        le = line_end(buf, p, e)
        if kind == CLOSE_DELIMITER:
            if part_start >= 0:
                parts.append((part_start, eol_before(buf, part_start, p)))
            closed = True
            break
        if part_start >= 0:                       # a DELIMITER
            parts.append((part_start, eol_before(buf, part_start, p)))
        # boundary lines right after it (a close one too) are passed over:
        # email reads no part between them
        p = le
        while p < e:
            le = line_end(buf, p, e)
            if not boundary_line(buf, p, le, sep):
                break
            p = le
        part_start = p
    if part_start < 0:
        raise Fallback                            # no boundary at all: email keeps the text
    if not closed:
        parts.append((part_start, eol_before(buf, part_start, e)))
    for number, (pa, pe) in enumerate(parts, 1):
        sub = f"{section}.{number}" if section else str(number)
        fields, body = header_block(buf, pa, pe)
        entity(w, index, fields, body, pe, sub, depth + 1, digest)


def next_boundary(buf: bytes, a: int, p: int, e: int, sep: bytes) -> tuple[int, int]:
    """The start and kind of the first boundary line of ``buf[p:e]`` (``sep`` is
    ``--boundary``, no LF in it; ``p`` a line start of the body at ``a``), or ``(e,
    NOT_BOUNDARY)``. ``sep`` is searched for, not each line's start: where a hit is no
    boundary line, the search goes on at the next line.

    >>> next_boundary(b"x--b\\n--bc\\n--b--\\n", 0, 0, 16, b"--b")
    (10, 2)
    """
    q = p
    while True:
        x = buf.find(sep, q, e)
        if x < 0:
            return e, NOT_BOUNDARY
        if x == a or buf[x - 1] == LF:
            kind = boundary_line(buf, x, line_end(buf, x, e), sep)
            if kind != NOT_BOUNDARY:
                return x, kind
        q = line_end(buf, x, e)


def text(w: Walker, index: int, data: bytes, src: int, label: tuple[int, int]) -> None:
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
                w.segment(index, p, q, label, K_TEXT, p, data, src)
                p = q = m.end()
        # the last "<" or ">" of the line says whether a "<" is left open
        lt = data.rfind(b"<", q, le)
        gt = data.rfind(b">", q, le)
        if lt != gt:
            open_ = lt > gt
        q = le
    w.segment(index, p, n, label, K_TEXT, p, data, src)


def boundary_line(buf: bytes, p: int, le: int, sep: bytes) -> int:
    """:data:`DELIMITER` for a ``--boundary`` line, :data:`CLOSE_DELIMITER` for the
    closing ``--boundary--`` (blanks after either), else :data:`NOT_BOUNDARY`."""
    if not buf.startswith(sep, p):
        return NOT_BOUNDARY
    q = p + len(sep)
    kind = DELIMITER
    if buf.startswith(b"--", q):
        q += 2
        kind = CLOSE_DELIMITER
    while q < le and buf[q] in (SPACE, TAB):
        q += 1
    rest = buf[q:le]
    return kind if rest in (b"", b"\n", b"\r\n") else NOT_BOUNDARY


def eol_before(buf: bytes, a: int, p: int) -> int:
    """The end of a part whose boundary line starts at ``p``: the line end before the
    boundary belongs to it (RFC 2046 section 5.1.1)."""
    if p - 2 >= a and buf[p - 2:p] == b"\r\n":
        return p - 2
    if p - 1 >= a and buf[p - 1] in (LF, CR):
        return p - 1
    return p


def url_glued_high(data: bytes) -> bool:
    """Is a non-ASCII octet glued to a run of ASCII graphic characters holding a ``:``
    or a ``&`` (where a URL may stand: every URL has its colon, in HTML perhaps as a
    character reference, ``http&#58;//``, and up to its first non-ASCII character it is
    such a run)? In Latin-1, ``café`` is not, ``http://a/café`` is. One pass.

    >>> latin1 = ["café là".encode("latin-1"), "http://a/café".encode("latin-1")]
    >>> [url_glued_high(text) for text in latin1]
    [False, True]
    """
    n = len(data)
    for run in _GRAPHIC_RUN.finditer(data):
        a, e = run.span()
        if e < n and data[e] >= 0x80 and (data.find(b":", a, e) >= 0 or data.find(b"&", a, e) >= 0):
            return True
    return False
