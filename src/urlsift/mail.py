"""URLs in mail spools: mbox files and Maildir directories, message by message.

Each message is parsed with the standard library's :mod:`email`; its text parts are
decoded (quoted-printable and base64 undone, so ``=\\n`` soft breaks and ``=3D`` no
longer cut or corrupt URLs; the declared charset applied), ``href``/``src`` are read
out of HTML parts with :mod:`html.parser` (entities decoded; a link whose text is its
own URL counts once), the URL-bearing headers (``List-*``, ``Archived-At``...) are
scanned, and reply-quote prefixes (``> ``) are removed so that a wrapped
``<URL:...>`` spread over quoted lines comes out whole.

>>> msg = (b"Message-ID: <1@x>\\nList-Post: <mailto:l@x.example>\\n"
...        b"Content-Transfer-Encoding: quoted-printable\\n\\n"
...        b"see http://a.example/?a=3D1&b=\\n=3D2\\n")
>>> [(m.url, m.part) for m in iter_message_urls(msg)]
[('mailto:l@x.example', 'header:List-Post'), ('http://a.example/?a=1&b=2', '1 text/plain')]
"""
from __future__ import annotations

import email
import email.message
import email.utils
import mailbox
import os
import re
import sys
from html.parser import HTMLParser
from typing import IO, Any, Callable, Iterable, Iterator, NamedTuple, Optional

from ._edits import extract_rewritten
from .sources import PathLike, input_kind, open_input

__all__ = ["URL_HEADERS", "MailMatch", "iter_mail_urls", "iter_message_urls", "iter_messages"]

#: Headers whose values carry URLs (RFC 2369 List-*, RFC 5064 Archived-At, MIME).
URL_HEADERS: tuple[str, ...] = (
    "List-Help", "List-Unsubscribe", "List-Subscribe", "List-Post", "List-Owner",
    "List-Archive", "Archived-At", "Content-Base", "Content-Location",
)
_HTML_URL_ATTRS = frozenset({"href", "src"})


class MailMatch(NamedTuple):
    """A URL found in a message.

    ``start``/``end`` are offsets in the decoded text of ``part`` (for an HTML
    attribute: the offset of its tag); ``offset`` is the byte offset of the message in
    an mbox (None in a Maildir); ``source`` is the spool (or the Maildir message file).
    """

    url: str
    raw: str
    start: int
    end: int
    message_id: Optional[str]
    date: Optional[str]
    part: str
    refanged: bool
    source: str
    offset: Optional[int]
    match: Any  # the urlsift.extract.Match it came from

    @property
    def wrapped(self) -> bool:
        return bool(getattr(self.match, "wrapped", False))

    @property
    def hyphen_break(self) -> bool:
        return bool(getattr(self.match, "hyphen_break", False))

    @property
    def edits(self) -> tuple:
        """What turned the text into ``url`` (the Match's ``edits``)."""
        return tuple(getattr(self.match, "edits", ()))

    @property
    def line(self) -> None:
        """Always None: a mail URL's place is its message and part (Match compatibility)."""
        return None

    def parse(self, *, strict: bool = False):
        """The URL object of ``url`` (lenient by default)."""
        from .parsing import parse
        return parse(self.url, strict=strict)


class _Options(NamedTuple):
    schemes: Optional[tuple]
    valid: Optional[str]
    refang: bool


def iter_messages(path: PathLike) -> Iterator[tuple[str, Optional[int], Any]]:
    """``(source, offset, data_or_error)`` for each message of an mbox or Maildir.

    ``data_or_error`` is the message's bytes, or the ``OSError`` met reading it (a
    Maildir entry that cannot be read), so a caller can report it and go on.
    """
    name = os.fspath(path)
    if input_kind(name) == "maildir":
        yield from _maildir_messages(name)
        return
    with open_input(name) as stream:
        yield from _mbox_messages(stream, name)


def _mbox_messages(stream: IO[bytes], name: str) -> Iterator[tuple[str, Optional[int], bytes]]:
    # Like mailbox.mbox, every line starting with "From " begins a message; read as a
    # stream so that compressed spools and stdin work and memory holds one message.
    lines: list[bytes] = []
    start: Optional[int] = None
    pos = 0
    for line in stream:
        if line.startswith(b"From "):
            if start is not None or lines:
                yield name, start, b"".join(lines)
            lines = []
            start = pos
        else:
            lines.append(line)
        pos += len(line)
    if start is not None or any(line.strip() for line in lines):
        yield name, start, b"".join(lines)


def _maildir_messages(name: str) -> Iterator[tuple[str, Optional[int], Any]]:
    """The messages of a Maildir in the order of their paths under it (``cur/...``
    before ``new/...``): the files of ``cur`` and ``new``, as ``mailbox.Maildir`` lists
    them (a sub-directory is skipped; a message in both, by its unique name before the
    info suffix, counts once, from ``cur``)."""
    seen: set[str] = set()
    subpaths = []
    for sub in ("cur", "new"):
        try:
            entries = sorted(os.listdir(os.path.join(name, sub)))
        except FileNotFoundError:
            raise mailbox.NoSuchMailboxError(name) from None
        for entry in entries:
            uniq = entry.split(":")[0]
            if uniq in seen or os.path.isdir(os.path.join(name, sub, entry)):
                continue
            seen.add(uniq)
            subpaths.append(os.path.join(sub, entry))
    for sub in subpaths:
        path = os.path.join(name, sub)
        try:
            with open(path, "rb") as f:
                yield path, None, f.read()
        except OSError as exc:
            yield path, None, exc


def iter_mail_urls(path: PathLike, *, schemes: Optional[Iterable[str]] = None,
                   valid: Optional[str] = None, refang: bool = False,
                   on_error: Optional[Callable[[str], None]] = None) -> Iterator[MailMatch]:
    """Every URL of every message of the mbox or Maildir at ``path`` (``"-"``: stdin).

    A message that cannot be read or decoded is reported through ``on_error`` (one
    line; default: printed on stderr) and skipped; the walk goes on.
    """
    opts = _Options(tuple(schemes) if schemes is not None else None, valid, refang)
    report = on_error or _print_error
    for source, offset, data in iter_messages(path):
        where = f"at offset {offset} in '{source}'" if offset is not None else f"'{source}'"
        if isinstance(data, Exception):
            report(f"skipping message {where}: {_reason(data)}")
            continue
        try:
            found = list(_message_urls(data, source, offset, opts))
        except Exception as exc:  # a malformed message must not end the run
            report(f"skipping malformed message {where}: {_reason(exc)}")
            continue
        yield from found


def iter_message_urls(data: bytes, *, schemes: Optional[Iterable[str]] = None,
                      valid: Optional[str] = None, refang: bool = False,
                      source: str = "", offset: Optional[int] = None) -> Iterator[MailMatch]:
    """Every URL of one message given as bytes (headers, text and HTML parts)."""
    opts = _Options(tuple(schemes) if schemes is not None else None, valid, refang)
    return iter(list(_message_urls(data, source, offset, opts)))


def _print_error(line: str) -> None:
    print(f"urlsift: {line}", file=sys.stderr)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def _message_urls(data: bytes, source: str, offset: Optional[int],
                  opts: _Options) -> Iterator[MailMatch]:
    msg = email.message_from_bytes(data)
    message_id = _clean(msg.get("Message-ID"))
    date = _iso_date(msg.get("Date"))

    def made(hit: tuple, part: str) -> MailMatch:
        m, start, end, raw, refanged = hit
        return MailMatch(m.url, raw, start, end, message_id, date, part, refanged,
                         source, offset, m)

    for header in URL_HEADERS:
        for value in msg.get_all(header, ()):
            for hit in _scan(str(value), opts, quoted=False):
                yield made(hit, f"header:{header}")
    for section, part in _leaf_parts(msg, ""):
        ctype = part.get_content_type()
        maintype = part.get_content_maintype()
        if maintype not in ("text", "multipart"):
            continue  # images, archives...: not text
        text = _decoded_text(part)
        label = f"{section} {ctype}"
        if ctype == "text/html":
            for hit, how in _html_hits(text, opts):
                yield made(hit, label if how == "text" else f"{label} {how}")
        else:  # text/*, and a multipart whose boundary is missing (its text is all we have)
            for hit in _scan(text, opts, quoted=True):
                yield made(hit, label)


def _leaf_parts(msg: email.message.Message, prefix: str) -> Iterator[tuple[str, email.message.Message]]:
    """Non-multipart parts with IMAP-style section numbers ("1", "2.1")."""
    if not msg.is_multipart():
        yield prefix or "1", msg
        return
    payload = msg.get_payload()
    for i, sub in enumerate(payload, 1):
        yield from _leaf_parts(sub, f"{prefix}.{i}" if prefix else str(i))


def _decoded_text(part: email.message.Message) -> str:
    payload = part.get_payload(decode=True)  # undoes quoted-printable and base64
    if isinstance(payload, str):
        return payload
    if not isinstance(payload, bytes):
        return ""  # None: a multipart part has no payload of its own to decode
    charset = part.get_content_charset() or "utf-8"
    try:
        return payload.decode(charset, "replace")
    except (LookupError, ValueError):
        return payload.decode("latin-1")  # unknown charset: URLs are ASCII anyway


def _clean(value: Any) -> Optional[str]:
    if value is None:
        return None
    text = " ".join(str(value).split())
    return text or None


def _iso_date(value: Any) -> Optional[str]:
    """ISO 8601 with the header's own UTC offset; as written when it will not parse."""
    text = _clean(value)
    if text is None:
        return None
    try:
        return email.utils.parsedate_to_datetime(text).isoformat()
    except (TypeError, ValueError, IndexError, OverflowError):
        return text


def _scan(text: str, opts: _Options, *, quoted: bool) -> Iterator[tuple]:
    """(match, start, end, raw, refanged) of the URLs in ``text``; offsets into ``text``."""
    for m, start, end, refanged in extract_rewritten(text, quoted=quoted, refang=opts.refang,
                                                     schemes=opts.schemes, valid=opts.valid):
        yield m, start, end, text[start:end], refanged


class _LinkParser(HTMLParser):
    """Collects href/src attribute values and text runs, with their offsets."""

    def __init__(self, text: str) -> None:
        super().__init__(convert_charrefs=True)
        self._line_starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.links: list[tuple[str, str, int]] = []      # (value, attribute, offset)
        self.texts: list[tuple[str, int, Optional[str]]] = []  # (text, offset, anchor href)
        self.base: Optional[str] = None
        self._anchor: Optional[str] = None

    def _offset(self) -> int:
        line, col = self.getpos()
        return self._line_starts[min(line, len(self._line_starts)) - 1] + col

    def handle_starttag(self, tag: str, attrs: list) -> None:
        pos = self._offset()
        href = None
        for name, value in attrs:
            if name in _HTML_URL_ATTRS and value and value.strip():
                if tag == "base" and name == "href":
                    self.base = value.strip()
                    continue
                self.links.append((value.strip(), name, pos))
                if name == "href":
                    href = value.strip()
        if tag == "a":
            self._anchor = href

    def handle_endtag(self, tag: str) -> None:
        if tag == "a":
            self._anchor = None

    def handle_data(self, data: str) -> None:
        self.texts.append((data, self._offset(), self._anchor))


def _html_hits(text: str, opts: _Options) -> Iterator[tuple[tuple, str]]:
    parser = _LinkParser(text)
    parser.feed(text)
    parser.close()
    # Text runs and attributes in document order, so output follows the message.
    events: list[tuple[int, int, tuple, str]] = []
    for value, attr, pos in parser.links:
        target = _absolute(value, parser.base)
        if target is None:
            continue
        for hit in _scan(target, opts, quoted=False):
            m, _, _, _, refanged = hit
            events.append((pos, 0, (m, pos, pos, value, refanged), attr))
    for data, pos, anchor in parser.texts:
        for hit in _scan(data, opts, quoted=False):
            m, start, end, raw, refanged = hit
            if anchor is not None and _same_link(m.url, anchor):
                continue  # <a href="U">U</a>: the href has reported it already
            events.append((pos + start, 1, (m, pos + start, pos + end, raw, refanged), "text"))
    events.sort(key=lambda e: (e[0], e[1]))
    for _, _, hit, how in events:
        yield hit, how


def _same_link(url: str, href: str) -> bool:
    return url == href or url.rstrip("/") == href.rstrip("/")


def _absolute(value: str, base: Optional[str]) -> Optional[str]:
    """An attribute value as an absolute URL: itself when it has a scheme, resolved
    against ``<base href>`` (RFC 3986) when there is one, else None (a relative link
    in a mail has nothing to be relative to)."""
    colon = value.find(":")
    if colon > 0 and re.match(r"[A-Za-z][A-Za-z0-9+.\-]*:", value):
        return value
    if base is None:
        return None
    try:
        from .partial import resolve
    except ImportError:  # pragma: no cover - resolve() is part of urlsift
        return None
    try:
        return resolve(base, value, rules="rfc3986")
    except ValueError:
        return None

