"""URLs in mail messages, and in the messages of a spool, one after another.

Each message is parsed with the standard library's :mod:`email`; its text parts are
decoded (quoted-printable and base64 undone, so ``=\\n`` soft breaks and ``=3D`` no
longer cut or corrupt URLs; the declared charset applied), ``href``/``src`` are read
out of HTML parts by :mod:`urlsift.mail.html` (entities decoded; a link whose text is its
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
import sys
from functools import partial
from typing import Any, Callable, Iterable, Iterator, NamedTuple, Optional

from ..model.parsing import parse
from ..text.extraction import Validity
from ..text.rewrite import extract_rewritten
from .anchors import is_deceptive
from .charsets import decode_part
from .html import whatwg_links
from .spool import Message
from .params import repaired
from .transfer import transfer_decoded

__all__ = ["URL_HEADERS", "MailMatch", "iter_message_urls", "iter_spool_urls", "message_matches",
           "ScanOptions", "options", "print_error", "clean", "iso_date", "where_of"]

#: Headers whose values carry URLs (RFC 2369 List-*, RFC 5064 Archived-At, MIME).
URL_HEADERS: tuple[str, ...] = (
    "List-Help", "List-Unsubscribe", "List-Subscribe", "List-Post", "List-Owner",
    "List-Archive", "Archived-At", "Content-Base", "Content-Location",
)


class MailMatch(NamedTuple):
    """A URL found in a message.

    ``start``/``end`` are offsets in the decoded text of ``part`` (for an HTML
    attribute: the offset of its tag); ``offset`` is the byte offset of the message in
    an mbox (None in a Maildir); ``source`` is the spool (or the Maildir message file).

    >>> msg = (b"Content-Type: text/html\\n\\n"
    ...        b'<a href="http://evil.example/">https://bank.example/</a>\\n')
    >>> [(m.url, m.part, m.text, m.deceptive) for m in iter_message_urls(msg)]
    [('http://evil.example/', '1 text/html href', 'https://bank.example/', True), ('https://bank.example/', '1 text/html', None, False)]
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
    #: What the scan said of the URL's text (as :class:`urlsift.Match` says it): inside a
    #: ``<URL:...>``-style wrapper, broken at a hyphen, what turned ``raw`` into ``url``.
    wrapped: bool = False
    hyphen_break: bool = False
    edits: tuple[str, ...] = ()
    #: Where the URL's text starts in the spool file, for a part scanned as it stands
    #: (7bit, 8bit, binary, and the URL-bearing headers); None for a decoded part.
    file_offset: Optional[int] = None
    #: For the ``href`` of an HTML ``<a>``: the text the reader sees on the link
    #: (character references decoded, white space collapsed, at most
    #: :data:`urlsift.mail.anchors.TEXT_MAX` characters); None for any other URL and
    #: for a link without text (an image).
    text: Optional[str] = None

    @property
    def deceptive(self) -> bool:
        """The link's ``text`` is itself a URL or host name, and ``url`` goes to
        another host (:func:`urlsift.mail.anchors.is_deceptive`): the phishing link."""
        return is_deceptive(self.url, self.text)

    @property
    def line(self) -> None:
        """Always None: a mail URL's place is its message and part (Match compatibility)."""
        return None

    def parse(self, *, strict: bool = False):
        """The URL object of ``url`` (lenient by default)."""
        return parse(self.url, strict=strict)


class ScanOptions(NamedTuple):
    """What a mail walk keeps: the schemes (None: all), the validity mode (None: all),
    and whether defanged URLs are refanged; made by :func:`options`.

    >>> options(["http"], None, False)
    ScanOptions(schemes=('http',), valid=None, refang=False)
    """

    schemes: Optional[tuple]
    valid: Optional[str]
    refang: bool


def iter_spool_urls(messages: Iterable[Message], *, schemes: Optional[Iterable[str]] = None,
                    valid: Optional[Validity] = None, refang: bool = False,
                    on_error: Optional[Callable[[str], None]] = None) -> Iterator[MailMatch]:
    """Every URL of every message of a spool (:mod:`urlsift.mail.spool` gives them).

    A message that cannot be read is reported through ``on_error`` (one line; default:
    printed on stderr) and skipped; the walk goes on. A part (or header) that cannot be
    decoded or scanned costs only that part, and malformed HTML only its malformed
    stretch: one line each, naming the message and the part.
    """
    opts = options(schemes, valid, refang)
    report = on_error or print_error
    for source, offset, data in messages:
        yield from message_matches(source, offset, data, opts, report)


def options(schemes: Optional[Iterable[str]], valid: Optional[str], refang: bool) -> "ScanOptions":
    """The scan options as the walks take them."""
    return ScanOptions(tuple(schemes) if schemes is not None else None, valid, refang)


def message_matches(source: str, offset: Optional[int], data: Any, opts: "ScanOptions",
                    report: Callable[[str], None]) -> list[MailMatch]:
    """The URLs of one message, read with the standard library's ``email`` (the walk of
    :mod:`urlsift.mail.walk` sends here what it does not read itself). ``data`` may be
    the exception met reading the message: it is reported, and nothing is found."""
    where = where_of(source, offset)
    if isinstance(data, Exception):
        report(f"skipping message {where}: {_reason(data)}")
        return []
    found: list[MailMatch] = []
    try:
        for m in _message_urls(data, source, offset, opts, report):
            found.append(m)
    except Exception as exc:  # a malformed message must not end the run
        report(f"skipping the rest of malformed message {where}: {_reason(exc)}")
    return found


def iter_message_urls(data: bytes, *, schemes: Optional[Iterable[str]] = None,
                      valid: Optional[Validity] = None, refang: bool = False,
                      source: str = "", offset: Optional[int] = None,
                      on_error: Optional[Callable[[str], None]] = None) -> Iterator[MailMatch]:
    """Every URL of one message given as bytes (headers, text and HTML parts).

    A part that cannot be decoded, and malformed HTML, are reported through
    ``on_error`` (one line each; default: printed on stderr); the rest is scanned."""
    opts = ScanOptions(tuple(schemes) if schemes is not None else None, valid, refang)
    return iter(list(_message_urls(data, source, offset, opts, on_error or print_error)))


def where_of(source: str, offset: Optional[int]) -> str:
    """A message as the reports name it: ``at offset N in 'SPOOL'``, or ``'FILE'``."""
    return f"at offset {offset} in '{source}'" if offset is not None else f"'{source}'"


def print_error(line: str) -> None:
    """Say ``line`` on stderr (the default ``on_error``)."""
    print(f"urlsift: {line}", file=sys.stderr)


def _reason(exc: BaseException) -> str:
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc) or type(exc).__name__


def _message_urls(data: bytes, source: str, offset: Optional[int], opts: ScanOptions,
                  report: Callable[[str], None]) -> Iterator[MailMatch]:
    """The URLs of one message; a header or part that fails is reported (one line,
    naming the message and the part) and costs only itself."""
    msg = email.message_from_bytes(repaired(data))   # no field email reads in quadratic time
    message_id = clean(msg.get("Message-ID"))
    date = iso_date(msg.get("Date"))
    where = where_of(source, offset)
    if message_id:
        where = f"{where} ({message_id})" if source else message_id

    def failed(part: str, what: str) -> None:
        report(f"message {where}, part {part}: {what}")

    def made(hit: tuple, part: str, text: Optional[str] = None) -> MailMatch:
        m, start, end, raw, refanged = hit
        return MailMatch(m.url, raw, start, end, message_id, date, part, refanged,
                         source, offset, m.wrapped, m.hyphen_break, m.edits, None, text)

    for header in URL_HEADERS:
        try:
            for value in msg.get_all(header, ()):
                for hit in _scan(str(value), opts, quoted=False):
                    yield made(hit, f"header:{header}")
        except Exception as exc:  # one header must not cost the message
            failed(f"header:{header}", f"skipped: {_reason(exc)}")
    for section, part in _leaf_parts(msg, ""):
        label = section
        try:
            ctype = part.get_content_type()
            label = f"{section} {ctype}"
            if part.get_content_maintype() not in ("text", "multipart"):
                continue  # images, archives...: not text
            text, problem = _decoded_text(part)
            if problem:
                failed(label, problem)
            if ctype == "text/html":
                problems: list[tuple[int, str]] = []
                hits = whatwg_links(text, partial(_scan, opts=opts, quoted=False),
                                  lambda at, what: problems.append((at, what)))
                try:
                    for hit, how, shown in hits:
                        yield made(hit, label if how == "text" else f"{label} {how}", shown)
                finally:
                    if problems:
                        at, what = problems[0]
                        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
                        failed(label, f"malformed HTML at offset {at}: {what}{more}")
            else:  # text/*, and a multipart whose boundary is missing (its text is all we have)
                for hit in _scan(text, opts, quoted=True):
                    yield made(hit, label)
        except Exception as exc:  # one part must not cost the message
            failed(label, f"skipped: {_reason(exc)}")


def _leaf_parts(msg: email.message.Message, prefix: str) -> Iterator[tuple[str, email.message.Message]]:
    """Non-multipart parts with IMAP-style section numbers ("1", "2.1")."""
    if not msg.is_multipart():
        yield prefix or "1", msg
        return
    payload = msg.get_payload()
    for i, sub in enumerate(payload, 1):
        yield from _leaf_parts(sub, f"{prefix}.{i}" if prefix else str(i))


def _decoded_text(part: email.message.Message) -> tuple[str, Optional[str]]:
    """The part's text, and a problem to report or None: decoded by its charset only
    with a codec that takes linear time (:mod:`urlsift.mail.charsets`)."""
    payload = transfer_decoded(part)  # undoes quoted-printable and base64 (RFC 2045 section 6)
    if isinstance(payload, str):
        return payload, None
    if not isinstance(payload, bytes):
        return "", None  # None: a multipart part has no payload of its own to decode
    return decode_part(payload, part.get_content_charset())


def clean(value: Any) -> Optional[str]:
    if value is None:
        return None
    text = " ".join(str(value).split())
    return text or None


def iso_date(value: Any) -> Optional[str]:
    """ISO 8601 with the header's own UTC offset; as written when it will not parse."""
    text = clean(value)
    if text is None:
        return None
    try:
        return email.utils.parsedate_to_datetime(text).isoformat()
    except (TypeError, ValueError, IndexError, OverflowError):
        return text


def _scan(text: str, opts: ScanOptions, *, quoted: bool) -> Iterator[tuple]:
    """(match, start, end, raw, refanged) of the URLs in ``text``; offsets into ``text``."""
    # decoded: scanned as the walk scans a part (urlsift._scan_py, the octets table)
    for m, start, end, refanged in extract_rewritten(text, quoted=quoted, refang=opts.refang,
                                                     schemes=opts.schemes, valid=opts.valid,
                                                     decoded=True):
        yield m, start, end, text[start:end], refanged


