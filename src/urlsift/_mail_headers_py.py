"""Header fields and parameters (twin of ``_mail_headers.pxi``), read as ``email``'s
compat32 policy reads them:

- a header block (RFC 5322 section 2.2): a field is ``name:`` (printable US-ASCII but
  ``:``) and its value, which runs over folded lines (section 2.2.3) and starts after
  the colon and the blanks after it; the block ends at a blank line, or at the first
  line that is no field (the body starts there, as ``email.feedparser`` has it);
- the URL-bearing headers' values, laid out as segments;
- Content-Type parameters (RFC 2045 section 5.1) as ``email.message._parseparam`` cuts
  them; RFC 2231 parameters (``name*=``) and quoted-pairs fall back;
- whether a charset is one whose octets 0x00-0x7F are ASCII (the caller's list);
- the Date value's one fixed form (RFC 5322 section 3.3) as ISO 8601 (:func:`iso_date`).

>>> fields, body = header_block(b"Subject: a\\n b\\nTo: x\\n\\nbody", 0, 21)
>>> fields, body
([(b'subject', 9, 13), (b'to', 18, 19)], 21)
>>> params(b'text/plain; charset="utf-8"')
(b'text/plain', [(b'charset', b'utf-8')])
"""
from __future__ import annotations

import re
from typing import Optional

from ._layout import FROM_LINE
from ._mail_records import BACKSLASH, DQUOTE, K_HEADER, SPACE, TAB
from ._mail_walker_py import Fallback, Walker, is_blank, line_end, strip_eol

__all__ = ["Field", "header_block", "url_headers", "first", "params", "param",
           "charset_ok", "is_utf8", "iso_date", "BAD_HEADER_OCTET"]

#: A field: (lower-case name, value start, value end).
Field = tuple[bytes, int, int]

_HEADER_NAME = re.compile(rb"[\041-\071\073-\176]*:")
#: What makes ``email`` turn a header value into a Header object, or a control.
BAD_HEADER_OCTET = re.compile(rb"[^\t\r\n\x20-\x7e]")


def header_block(buf: bytes, a: int, e: int) -> tuple[list[Field], int]:
    """The fields of the header block at ``buf[a]``, and where the body starts (after
    the blank line, or at the first line that is no header line)."""
    fields: list[list] = []      # [name, value start, value end]: a fold moves the end
    p = a
    while p < e:
        le = line_end(buf, p, e)
        if is_blank(buf, p, le):
            return _frozen(fields), le
        if buf[p] in (SPACE, TAB):               # a folded line continues the field
            if not fields:
                raise Fallback                   # first line a continuation: a defect
            fields[-1][2] = strip_eol(buf, p, le)
        else:
            m = _HEADER_NAME.match(buf, p, le)
            if m is None:
                if buf.startswith(FROM_LINE, p):
                    raise Fallback               # a misplaced envelope line
                return _frozen(fields), p
            colon = m.end() - 1
            if colon == p:
                raise Fallback                   # ":value": email drops it with a defect
            v = colon + 1
            while v < le and buf[v] in (SPACE, TAB):
                v += 1
            fields.append([buf[p:colon].lower(), v, strip_eol(buf, v, le)])
        p = le
    return _frozen(fields), e


def _frozen(fields: list[list]) -> list[Field]:
    return [(name, va, ve) for name, va, ve in fields]


def url_headers(w: Walker, index: int, fields: list[Field]) -> None:
    """The values of the URL-bearing headers ``w`` reports (in the order it names
    them), each a :data:`K_HEADER` segment labelled ``header:Name``."""
    for name, lower in zip(w.headers, w.lower_headers):
        for fname, va, ve in fields:
            if fname != lower:
                continue
            if BAD_HEADER_OCTET.search(w.buf, va, ve):
                raise Fallback                   # email makes it a Header object
            w.segment(index, va, ve, w.label(b"header:" + name), K_HEADER, 0)
            w.out.append(0)


def first(fields: list[Field], name: bytes) -> Optional[tuple[int, int]]:
    """The value span of the first field called ``name`` (lower case), or None."""
    for fname, va, ve in fields:
        if fname == name:
            return va, ve
    return None


def params(value: bytes) -> tuple[bytes, list[tuple[bytes, bytes]]]:
    """The value before the first ``;`` and its parameters, as ``email.message``'s
    ``_parseparam`` cuts them (a ``;`` inside quotes does not cut); RFC 2231 parameters
    (``name*=``) fall back."""
    main, sep, rest = value.partition(b";")
    found: list[tuple[bytes, bytes]] = []
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
            raise Fallback
        if eq:
            found.append((name, _unquote(val.strip())))
    return main, found


def _unquote(v: bytes) -> bytes:
    """A parameter value as RFC 2045 section 5.1 has it: the content of a quoted-string
    (``email.utils.unquote`` would also strip ``<...>``, and ``get_boundary`` does it
    twice: ``boundary="<b>"`` would look for ``--b``, docs/decisions-cli.md); a quoted
    value with a backslash (a quoted-pair, RFC 5322 section 3.2.1) falls back."""
    if len(v) > 1 and v[0] == DQUOTE and v[-1] == DQUOTE:
        if BACKSLASH in v[1:-1]:
            raise Fallback
        return v[1:-1]
    return v


def param(found: list[tuple[bytes, bytes]], name: bytes) -> Optional[bytes]:
    """The value of the first parameter called ``name``, or None."""
    for pname, value in found:
        if pname == name:
            return value
    return None


def charset_ok(charset: Optional[bytes], allowed: list[bytes]) -> bool:
    """No charset, or one of ``allowed`` (lower case; ``name*`` is a prefix)."""
    if charset is None:
        return True
    cs = charset.lower()
    for name in allowed:
        if name.endswith(b"*") and cs.startswith(name[:-1]) or cs == name:
            return True
    return False


def is_utf8(charset: Optional[bytes]) -> bool:
    """Is a part of this charset scanned as UTF-8 by ``email`` too (none said: UTF-8)?
    Only then may its non-ASCII octets be scanned as they stand: an IRI's letters
    continue a URL (``urlsift._scan_py``), and in another charset they are others: a
    part of another charset where a URL could go on into one falls back
    (``_mail_mime_py.url_glued_high``)."""
    return charset is None or charset.lower() in (b"utf-8", b"utf8")


# -- the Date value (RFC 5322 section 3.3) --------------------------------------------

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
    form, which the mail layer reads (``Tracing.date_of``). A reading of the one form,
    kept in the core for speed (a match's Date is made per message).

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
