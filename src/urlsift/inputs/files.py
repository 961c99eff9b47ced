"""The URLs of an input path: the one place that knows both text and mail.

:func:`extract_file` (``urlsift.extract_file``) opens a path as the command does
(:mod:`.sniffing`: decompressed by magic bytes, mail told from text by its first
octets) and reads it as text (memory-mapped when it is a plain file, else streamed)
or as a mail spool (an mbox stream, or a Maildir directory). The command sniffs its
inputs with the same :func:`~urlsift.inputs.sniffing.sniff_input`; its own entry
points (:func:`iter_file_matches`, :func:`iter_file_urls`, :func:`iter_mail_urls`) add
rewriting, progress and the fast path that builds no Python object per URL.

The mail layer is imported inside the functions that read mail: it loads the
standard library's ``email`` (and ``mailbox``), which ``import urlsift`` must not.
"""
from __future__ import annotations

import contextlib
import os
from itertools import chain, islice
from operator import itemgetter
from typing import (IO, TYPE_CHECKING, Any, Callable, Iterable, Iterator, Literal, Optional,
                    Union, overload)

from ..text.extraction import Validity, check_valid
from ..text.extraction import extract_file as extract_text_file
from ..text.files import check_counts, job_count
from ..text.match import Match
from ..text.shrinking import ReadWatch
from ..text.streams import Found, iter_stream_matches, text_of
from .kinds import MAILDIR, TEXT
from .opening import PathLike, input_kind, is_plain_file, open_input
from .sniffing import sniff_input, sniff_stream

if TYPE_CHECKING:         # the mail layer loads only when mail is read
    from ..mail.message import MailMatch

__all__ = ["extract_file", "iter_file_matches", "iter_file_urls", "iter_mail_urls",
           "iter_numbered_mail_urls", "mbox_match_lists",
           "mbox_url_lines",
           "iter_messages"]


@overload
def extract_file(path: Any, *, jobs: int = 1, line_numbers: bool = False,
                 schemes: Optional[Iterable[str]] = None, valid: Optional[Validity] = None,
                 block_size: Optional[int] = None,
                 mbox: Literal[False]) -> Iterator[Match]: ...
@overload
def extract_file(path: Any, *, jobs: int = 1, line_numbers: bool = False,
                 schemes: Optional[Iterable[str]] = None, valid: Optional[Validity] = None,
                 block_size: Optional[int] = None,
                 mbox: Literal[True]) -> Iterator[MailMatch]: ...
@overload
def extract_file(path: Any, *, jobs: int = 1, line_numbers: bool = False,
                 schemes: Optional[Iterable[str]] = None, valid: Optional[Validity] = None,
                 block_size: Optional[int] = None,
                 mbox: Optional[bool] = None) -> Iterator[Union[Match, MailMatch]]: ...


def extract_file(path: Any, *, jobs: int = 1, line_numbers: bool = False,
                 schemes: Optional[Iterable[str]] = None, valid: Optional[Validity] = None,
                 block_size: Optional[int] = None,
                 mbox: Optional[bool] = None) -> Iterator[Union[Match, MailMatch]]:
    """Every URL in a file, in file order, without reading the file into memory.

    ``path`` is a path, ``"-"`` (standard input) or an open binary file. It is opened
    as the command opens its inputs (:func:`~urlsift.inputs.sniffing.sniff_input`):
    gzip, bzip2, xz and zstd (with ``zstandard``) are recognized by their magic bytes
    and decompressed as they are read; then ``mbox=None`` (the default) reads an input
    starting with ``From `` (after a UTF-8 byte-order mark, if any) and a Maildir
    directory as mail, anything else as text; ``mbox=True`` reads it as mail and
    ``mbox=False`` as text, whatever it looks like. Arguments are checked and the
    input is opened and sniffed at once: a bad path raises ``OSError`` naming it here,
    not at the first ``next``.
    ``jobs=0`` means one thread per core, as the command's ``-j 0``; a negative
    ``jobs`` is a ``ValueError``.

    Text: :func:`urlsift.text.extract_file` — a plain regular file is memory-mapped
    and scanned on ``jobs`` threads; a compressed file, a pipe or ``"-"`` is streamed
    in blocks of ``block_size`` octets (one thread). ``Match`` objects; ``start`` and
    ``end`` are octets from the start of the file — of the decompressed text for a
    compressed file — and ``line_numbers=True`` fills ``Match.line`` (1-based, lines
    of the decompressed text).

    Mail: an mbox or a Maildir walked message by message (:func:`iter_mail_urls`,
    ``jobs`` threads for an mbox): text parts decoded, HTML links read, URL-bearing
    headers scanned; each match is a ``MailMatch`` with the message's ``message_id``,
    ``date`` and ``part``, and ``offset``, the octet of its ``From`` line in the
    (decompressed) spool. ``line_numbers`` and ``block_size`` are for text only.

    A UTF-8 byte-order mark at the start is passed over; offsets still count it (the
    first URL right after it starts at octet 3). A compressed input that is cut short
    or damaged raises :class:`~urlsift.inputs.checked.DamagedInputError` (an
    ``OSError``; :class:`~urlsift.inputs.checked.TruncatedInputError`, also an
    ``EOFError``, when cut short) naming the file and saying where, after the URLs
    before that point.

    >>> import gzip, tempfile, os
    >>> with tempfile.NamedTemporaryFile("wb", suffix=".gz", delete=False) as f:
    ...     _ = f.write(gzip.compress(b"GET /\\nsee http://g.example/x ok\\n"))
    >>> [(m.url, m.start, m.line) for m in extract_file(f.name, line_numbers=True)]
    [('http://g.example/x', 10, 2)]
    >>> with open(f.name, "wb") as out:
    ...     _ = out.write(b"From a\\nMessage-ID: <1@x>\\n\\nsee http://m.example/\\n")
    >>> [(m.url, m.message_id) for m in extract_file(f.name)]          # detected as mail
    [('http://m.example/', '<1@x>')]
    >>> [m.url for m in extract_file(f.name, mbox=False)]               # forced: text
    ['http://m.example/']
    >>> os.unlink(f.name)
    """
    check_valid(valid)
    jobs = check_counts(jobs, block_size)
    if mbox not in (None, True, False):
        raise ValueError(f"mbox must be None, True or False, not {mbox!r}")
    stack = contextlib.ExitStack()
    try:
        if hasattr(path, "read"):
            inp = sniff_stream(path, stack, mbox=mbox)
        else:
            inp = sniff_input(path, stack, mbox=mbox)
        if inp.kind == TEXT:
            source = inp.stream if inp.stream is not None else _text_source(inp.name, stack)
            found = extract_text_file(source, jobs=jobs, line_numbers=line_numbers,
                                      schemes=schemes, valid=valid, block_size=block_size)
            return _closing(found, stack)
        # mail: its matches come in lists, a piece of the spool each; closing around the
        # lists, not the matches, costs no Python step per match
        lists = _mail_urls(inp.name, schemes, valid, False, None, inp.stream, None,
                           jobs, False, None, True)
    except BaseException:
        stack.close()
        raise
    return chain.from_iterable(_closing(lists, stack))


def _text_source(name: str, stack: contextlib.ExitStack) -> Union[str, IO[bytes]]:
    """What the text layer reads of the regular file ``name``: its path when it is plain
    (memory-mapped there), else the file opened and decompressed (closed by ``stack``)."""
    if is_plain_file(name):
        return name
    return stack.enter_context(open_input(name))


def _closing(found: Iterator[Any], stack: contextlib.ExitStack) -> Iterator[Any]:
    """``found``, then what ``stack`` holds closed (also when the caller stops early)."""
    with stack:
        yield from found


def iter_messages(path: PathLike, *, stream: Optional[IO[bytes]] = None,
                  progress: Optional[Callable[[int], None]] = None
                  ) -> Iterator[tuple[str, Optional[int], Any]]:
    """``(source, offset, data_or_error)`` for each message of an mbox (``"-"``: stdin;
    compressed or not) or a Maildir (see :mod:`urlsift.mail.spool`). ``stream``: the
    input already opened (a pipe can be opened and read once only). ``progress``: told
    of the octets read of an mbox the call opens (as it lies on disk; a Maildir's
    files are not counted)."""
    from ..mail import spool   # lazy: see the module docstring

    name = os.fspath(path)
    if stream is None and input_kind(name) == MAILDIR:
        yield from spool.maildir_messages(name)
        return
    with _spool_opened(name, stream, progress) as opened:
        yield from spool.mbox_messages(opened, name)


def iter_mail_urls(path: PathLike, *, schemes: Optional[Iterable[str]] = None,
                   valid: Optional[Validity] = None, refang: bool = False,
                   on_error: Optional[Callable[[str], None]] = None,
                   stream: Optional[IO[bytes]] = None,
                   engine: Optional[Literal["walk", "email"]] = None,
                   jobs: int = 1,
                   progress: Optional[Callable[[int], None]] = None) -> Iterator[MailMatch]:
    """Every URL of every message of the mbox or Maildir at ``path`` (``"-"``: stdin),
    as :class:`urlsift.mail.MailMatch` objects (``stream``: see :func:`iter_messages`).

    A message that cannot be read or decoded is reported through ``on_error`` (one
    line; default: printed on stderr) and skipped; the walk goes on.

    The messages are walked on their bytes (:mod:`urlsift.mail.walk`), each message the
    walk does not read itself by the standard library's ``email``; with ``refang``
    (which rewrites the text first) every message goes through ``email``. An mbox is
    walked on ``jobs`` threads (pieces in file order). ``engine``
    is for tests and benchmarks: ``"email"`` walks every message with ``email``, as
    urlsift did before (also ``URLSIFT_MAIL_ENGINE=email`` in the environment).
    ``progress(n)`` is told of the octets read of an mbox the call opens (see
    :func:`iter_messages`), as :func:`iter_file_matches` tells those of a text.
    """
    return _mail_urls(path, schemes, valid, refang, on_error, stream, engine, jobs, False,
                      progress)


def iter_numbered_mail_urls(path: PathLike, *, schemes: Optional[Iterable[str]] = None,
                            valid: Optional[Validity] = None, refang: bool = False,
                            on_error: Optional[Callable[[str], None]] = None,
                            stream: Optional[IO[bytes]] = None, jobs: int = 1,
                            progress: Optional[Callable[[int], None]] = None
                            ) -> Iterator[tuple[MailMatch, Optional[int]]]:
    """:func:`iter_mail_urls` with the 1-based line of the file of each URL (the
    command's ``-n``): where its text stands as written (a 7-bit part, a header), or
    where its message starts for a URL of a decoded part (base64, quoted-printable
    joined, HTML; with ``refang``, read through ``email``, every URL) — the mbox's
    ``From`` line, a Maildir file's line 1; None when unknown (after a message too
    large to hold, whose lines are not counted)."""
    return _mail_urls(path, schemes, valid, refang, on_error, stream, None, jobs, True,
                      progress)


def _mail_urls(path: PathLike, schemes: Optional[Iterable[str]], valid: Optional[Validity],
               refang: bool, on_error: Optional[Callable[[str], None]],
               stream: Optional[IO[bytes]], engine: Optional[str], jobs: int,
               line_numbers: bool,
               progress: Optional[Callable[[int], None]] = None,
               lists: bool = False) -> Iterator[Any]:
    """What :func:`iter_mail_urls` and :func:`iter_numbered_mail_urls` give; ``lists``:
    in iterables of them instead, a piece of the spool each (an mbox walked) or one each
    (a 1-tuple, made by ``zip`` without a Python step: the other paths stay as lazy)."""
    from ..mail import iter_spool_urls, walk   # lazy: see the module docstring

    jobs = job_count(jobs)

    engine = engine or os.environ.get("URLSIFT_MAIL_ENGINE") or "walk"
    if engine not in ("walk", "email"):
        raise ValueError(f"engine must be 'walk' or 'email', not {engine!r}")
    if refang or engine == "email":
        starts: dict[Optional[int], Optional[int]] = {None: 1}   # a Maildir file: line 1
        messages = iter_messages(path, stream=stream, progress=progress)
        urls = iter_spool_urls(_message_lines(messages, starts) if line_numbers else messages,
                               schemes=schemes, valid=valid, refang=refang, on_error=on_error)
        # no file_offset on this path: a URL's line is its message's first line
        found: Iterator[Any] = (((m, starts.get(m.offset)) for m in urls) if line_numbers
                                else urls)
        return zip(found) if lists else found
    name = os.fspath(path)
    if stream is None and input_kind(name) == MAILDIR:
        found = walk.maildir_urls(name, schemes=schemes, valid=valid, on_error=on_error,
                                  line_numbers=line_numbers)
        return zip(found) if lists else found
    pieces = mbox_match_lists(name, schemes=schemes, valid=valid, on_error=on_error,
                              stream=stream, jobs=jobs, line_numbers=line_numbers,
                              progress=progress)
    return pieces if lists else chain.from_iterable(pieces)


def _message_lines(messages: Iterable[Any], starts: dict) -> Iterator[Any]:
    """``messages`` (of :func:`iter_messages`) as they are, noting in ``starts`` the line
    of each mbox message's ``From`` line by its offset (the messages lie end to end, each
    after its ``From`` line; a message passed over, too large, leaves the rest unknown)."""
    line: Optional[int] = 1
    for source, offset, data in messages:
        if offset is not None:
            starts[offset] = line
            line = line + 1 + data.count(b"\n") if line and isinstance(data, bytes) else None
        yield source, offset, data


def mbox_url_lines(path: PathLike, *, on_error: Optional[Callable[[str], None]] = None,
                   stream: Optional[IO[bytes]] = None, jobs: int = 1,
                   progress: Optional[Callable[[int], None]] = None) -> Iterator[bytes]:
    """The URLs of an mbox, one per line, as bytes a piece of the spool at a time: the
    ``url`` of :func:`iter_mail_urls` without a Python object per URL (the command's
    ``urlsift extract MBOX``), ``jobs`` threads; ``progress`` as there."""
    from ..mail import walk

    jobs = job_count(jobs)

    name = os.fspath(path)
    if os.environ.get("URLSIFT_MAIL_ENGINE") == "email":   # see iter_mail_urls
        for ms in mbox_match_lists(name, on_error=on_error, stream=stream, progress=progress):
            yield walk.url_lines(ms)
        return
    with _spool_opened(name, stream, progress) as opened:
        yield from walk.spool_url_lines(opened, name, on_error=on_error, jobs=jobs)


def mbox_match_lists(path: PathLike, *, schemes: Optional[Iterable[str]] = None,
                     valid: Optional[Validity] = None,
                     on_error: Optional[Callable[[str], None]] = None,
                     stream: Optional[IO[bytes]] = None, jobs: int = 1,
                     line_numbers: bool = False,
                     progress: Optional[Callable[[int], None]] = None) -> Iterator[list[Any]]:
    """:func:`iter_mail_urls` of an mbox in lists (a piece of the spool each), for the
    command's output without a Python step per URL; ``line_numbers``: lists of
    ``(match, line)`` (:func:`iter_numbered_mail_urls`); ``progress`` as there."""
    from ..mail import walk

    jobs = job_count(jobs)

    name = os.fspath(path)
    if os.environ.get("URLSIFT_MAIL_ENGINE") == "email":   # see iter_mail_urls
        found = _mail_urls(name, schemes, valid, False, on_error, stream, "email", 1,
                           line_numbers, progress)
        yield from iter(lambda: list(islice(found, 1 << 12)), [])
        return
    with _spool_opened(name, stream, progress) as opened:
        yield from walk.spool_match_lists(opened, name, schemes=schemes, valid=valid,
                                          on_error=on_error, jobs=jobs,
                                          line_numbers=line_numbers)


def iter_file_matches(path: PathLike, *, schemes: Optional[Iterable[str]] = None,
                      valid: Optional[Validity] = None, refang: bool = False,
                      quoted: bool = False, line_numbers: bool = False, jobs: int = 1,
                      progress: Optional[Callable[[int], None]] = None,
                      stream: Optional[IO[bytes]] = None,
                      log_escapes: bool = False) -> Iterator[Found]:
    """The URLs of one text input (plain, compressed or ``"-"``), in order; ``stream``:
    the input already opened (decompressed), for what cannot be opened twice.

    A plain regular file goes through :func:`urlsift.text.extract_file` (memory map,
    ``jobs`` threads); anything else through
    :func:`~urlsift.text.streams.iter_stream_matches` when the text is rewritten
    (``refang``, ``quoted``), else through ``extract_file``'s streaming mode.
    """
    name = os.fspath(path)
    rewrite = refang or quoted or log_escapes
    if stream is None and not rewrite and name != "-" and is_plain_file(name):
        yield from _via_extract_file(name, schemes, valid, line_numbers, jobs, progress)
        return
    with _opened(name, stream, progress) as opened:
        if rewrite:  # the text is rewritten: our own block loop with its offset maps
            yield from iter_stream_matches(opened, schemes=schemes, valid=valid, refang=refang,
                                           quoted=quoted, line_numbers=line_numbers,
                                           log_escapes=log_escapes)
        else:       # extract_file's streaming mode (blocks cut where no URL can cross)
            yield from _via_extract_file(opened, schemes, valid, line_numbers, 1, None)


def iter_file_urls(path: PathLike, *, schemes: Optional[Iterable[str]] = None,
                   valid: Optional[Validity] = None, jobs: int = 1,
                   progress: Optional[Callable[[int], None]] = None,
                   stream: Optional[IO[bytes]] = None) -> Iterable[str]:
    """Just the URL strings of one text input: the CLI's fast path (``stream``: see
    :func:`iter_file_matches`).

    For a plain file this is ``map(itemgetter(0), extract_file(...))``: no Python code
    runs per URL (the CLI must cost little beyond ``extract_file`` itself).
    """
    name = os.fspath(path)
    kwargs: dict[str, Any] = {"schemes": tuple(schemes) if schemes is not None else None,
                              "valid": valid}
    if stream is not None or name == "-" or not is_plain_file(name):
        return _stream_urls(name, kwargs, stream, progress)
    kwargs["jobs"] = jobs
    matches = extract_text_file(name, **kwargs)
    if progress is None:
        return map(itemgetter(0), matches)
    return _urls_with_progress(matches, progress, os.path.getsize(name))


def _stream_urls(name: str, kwargs: dict, stream: Optional[IO[bytes]],
                 progress: Optional[Callable[[int], None]] = None) -> Iterator[str]:
    with _opened(name, stream, progress) as opened:
        yield from map(itemgetter(0), extract_text_file(opened, **kwargs))


@contextlib.contextmanager
def _opened(name: str, stream: Optional[IO[bytes]],
            progress: Optional[Callable[[int], None]] = None) -> Iterator[IO[bytes]]:
    """``stream`` when the caller opened the input already (it closes it, and counts
    what is read of it), else the input opened here (and closed when done), ``progress``
    told of the octets read from the file as it lies on disk (compressed or not)."""
    if stream is not None:
        yield stream
        return
    with open_input(name, progress) as opened:
        yield opened


@contextlib.contextmanager
def _spool_opened(name: str, stream: Optional[IO[bytes]],
                  progress: Optional[Callable[[int], None]] = None) -> Iterator[Any]:
    """An mbox opened as :func:`_opened` opens it (``progress`` told of what is read),
    read through a :class:`~urlsift.text.shrinking.ReadWatch`: a regular file that ends
    before its size when opened (truncated meanwhile) is the same ``FileShrankError`` as
    a text input's, after the URLs of the messages read whole before the cut."""
    with _opened(name, stream, progress) as opened:
        yield ReadWatch(opened)


def _urls_with_progress(matches: Iterator[Any], progress: Callable[[int], None],
                        size: int) -> Iterator[str]:
    done = 0
    while True:
        batch = list(islice(matches, 1 << 16))
        if not batch:
            break
        end = batch[-1].end
        progress(end - done)
        done = end
        yield from map(itemgetter(0), batch)
    progress(size - done)


def _via_extract_file(name: Any, schemes: Optional[Iterable[str]], valid: Optional[Validity],
                      line_numbers: bool, jobs: int,
                      progress: Optional[Callable[[int], None]]) -> Iterator[Found]:
    matches = extract_text_file(name, jobs=jobs, line_numbers=line_numbers, valid=valid,
                           schemes=tuple(schemes) if schemes is not None else None)
    done = 0
    step = 1 << 16
    for i, m in enumerate(matches):
        yield Found(text_of(m.url), m.start, m.end, m.line if line_numbers else None, False, m)
        if progress is not None and not i % step:
            progress(m.end - done)
            done = m.end
    if progress is not None and isinstance(name, str):
        progress(os.path.getsize(name) - done)
