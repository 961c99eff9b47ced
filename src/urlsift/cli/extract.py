"""``urlsift extract``: the URLs found, as text, JSON lines, CSV or Parquet."""
from __future__ import annotations

import argparse
import contextlib
import os
from collections import Counter
from typing import Any, Callable, Iterable, Optional, Sequence

from operator import itemgetter

from .._select import cores
from ..inputs.kinds import MBOX, TEXT
from ..inputs import is_plain_file, mbox_match_lists, mbox_url_lines, open_input
from ..model.equivalence import normalized
from ..model.parts import cached_by_url
from ..text.files import sink_batches
from ..text.sinks import UrlLines
from .common import batches, error, read_errors, reason, write_or_fail
from .grepstyle import POSITION_FIELDS, line_template, summary_line, use_color
from .output import TextWriter, Writer, checks_getter, parts_getter, plain_value
from .progress import Progress, Relay
from .filters import url_filter
from .records import Input, columns_for, iter_records, plan_inputs, scan_options
from .target import open_writer

__all__ = ["cmd_extract"]


def cmd_extract(args: argparse.Namespace) -> int:
    """Run ``urlsift extract``; the exit status."""
    if getattr(args, "dask", None):      # on a Dask cluster (imported only then)
        from .dask_run import run_dask
        return run_dask(args)
    _settle(args)
    problem = _refuse(args)
    if problem:
        error(f"{problem} (try 'urlsift extract --help')")
        return 2
    summary = args.count or args.files_with_matches
    with contextlib.ExitStack() as stack:
        relay = Relay()
        plan, status = plan_inputs(args, stack, relay)
        mail = any(inp.kind != TEXT for inp in plan)
        columns = ["url"] if summary else columns_for(args, mail)
        writer = stack.enter_context(open_writer(args.format, columns, args.output,
                                                 [inp.name for inp in plan]))
        color = use_color(args)
        if isinstance(writer, TextWriter):
            writer.style(null=args.null, color=color)
        if summary:
            found, failed = _summaries(args, plan, writer, color)
        else:
            found, failed = _extract_all(args, plan, columns, writer, relay)
    # as grep and rg: 2 when an input failed, else 0 when a URL was found, 1 when none
    return 2 if status or failed else (0 if found else 1)


def _settle(args: argparse.Namespace) -> None:
    """The file name shown as grep and rg show it: with several FILEs or ``-r`` over a
    directory (``-r`` alone: the current one), unless ``-h``; in JSON lines, CSV and
    Parquet that is the ``file`` column."""
    names = args.files or (["."] if args.recursive else [])
    several = len(names) > 1 or (args.recursive and any(os.path.isdir(n) for n in names))
    args.with_filename = (args.with_filename or several) and not args.no_filename


def _refuse(args: argparse.Namespace) -> str:
    """What these options cannot do together ("" when they can)."""
    if args.count and args.files_with_matches:
        return "-c and -l are two different outputs: give one"
    summary = "-c" if args.count else "-l" if args.files_with_matches else ""
    if summary and args.format != "text":
        return f"{summary} writes text, not {args.format}"
    if summary and (args.unique or args.parts or args.details or args.with_position):
        return f"{summary} counts or names files: leave out --unique, --parts, --details, positions"
    if _wants_context(args):
        if summary:
            return f"{summary} and -A/-B/-C: give one"
        if args.format != "text" or args.unique or args.parts or args.details:
            return ("-A/-B/-C write lines of text around each URL: leave out --format, "
                    "--unique, --parts, --details")
    return ""


def _summaries(args: argparse.Namespace, plan: list[Input], writer: Writer,
               color: bool) -> tuple[bool, bool]:
    """``-c``: each input's number of URLs (``FILE:N``; ``N`` alone for one FILE named,
    as grep, unless ``-H``: :func:`_settle`); ``-l``: the names of inputs with a URL,
    each read only up to its first URL. (a URL was found, an input failed)"""
    found = failed = False
    named = args.with_filename or args.files_with_matches

    def report(line: str) -> None:
        nonlocal failed
        error(line)
        failed = True

    sift = _LineSifter(args)
    for inp in plan:
        n = 0
        try:
            # -c over the URL lines made in the core (no Match built), where they are made
            lines = None if args.files_with_matches else _plain_lines(inp, args, ["url"], writer,
                                                                      None, report)
            if lines is not None:
                n = sum(sift.lines(chunk).count(b"\n") for chunk in lines)
            else:
                urls = iter(iter_records(inp, args, ["url"], None, on_error=report))
                try:
                    if args.files_with_matches:
                        n = 1 if next(urls, None) is not None else 0
                    else:
                        n = sum(len(batch) for batch in batches(urls))
                finally:
                    close = getattr(urls, "close", None)
                    if close is not None:
                        close()       # -l: the rest of the input is not read
        except read_errors() as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            report(f"cannot read '{inp.name}': {reason(exc)}")
            continue
        found = found or n > 0
        if args.files_with_matches and not n:
            continue
        line = summary_line(inp.name if named else None,
                            None if args.files_with_matches else n, null=args.null, color=color)
        write_or_fail(writer.write_lines, line.encode("utf-8", "surrogateescape"), args.output)
    return found, failed


def _extract_all(args: argparse.Namespace, plan: list[Input], columns: list[str],
                 writer: Writer, relay: Optional[Relay] = None) -> tuple[bool, bool]:
    """Scan every input of ``plan`` into ``writer``: (a URL was found, an input failed)."""
    failed = False
    found = False
    skipped: list[str] = []

    def report(line: str) -> None:       # a mail message skipped: said, and status 2
        error(line)
        skipped.append(line)

    parts = parts_getter(args.format == "jsonl") if args.parts else None
    checks = checks_getter() if getattr(args, "details", False) else None
    uniques = _Uniques(args, columns)
    # the same over the URL lines the core makes (text, URLs only): by their octets
    sift = _LineSifter(args) if args.format == "text" and columns in (["url"], ["url", "count"]) \
        else None
    context = _context(args, columns, writer)
    with Progress(args, plan, relay) as progress:
        for inp in plan:
            if context is not None and inp.kind == TEXT:      # -A/-B/-C
                hit, bad = _context_input(context, inp, args)
                found, failed = found or hit, failed or bad
                continue
            lines = _plain_lines(inp, args, columns, writer, progress.update, report)
            records = () if lines is not None else iter_records(
                inp, args, [c for c in columns if c != "count"], progress.update, parts, report,
                checks)
            try:
                for data in lines or ():
                    if sift is not None:
                        data = sift.lines(data)
                    found = found or bool(data)
                    if data:
                        write_or_fail(writer.write_lines, data, args.output)
                for batch in batches(records):
                    found = True
                    uniques.take(batch, writer, args.output)
            except read_errors() as exc:
                if isinstance(exc, BrokenPipeError):
                    raise  # our output closed, not an input error
                error(f"cannot read '{inp.name}': {reason(exc)}")
                failed = True
            uniques.input_ended(writer, args.output)
    if uniques.url_counts is not None:
        if sift is not None:
            sift.counted_into(uniques.url_counts, uniques.key)
            found = found or bool(uniques.url_counts)
        uniques.write_counts(writer, args.output)
    return found, failed or bool(skipped)


def _context_input(context: Any, inp: Input, args: argparse.Namespace) -> tuple[bool, bool]:
    """-A/-B/-C on a text input: (a URL was found, the input could not be read)."""
    try:
        with contextlib.ExitStack() as opened:
            stream = inp.stream or opened.enter_context(open_input(inp.name))
            return context.input(stream, plain_value(inp.name), context.scanner(args)) > 0, False
    except read_errors() as exc:
        if isinstance(exc, BrokenPipeError):
            raise
        error(f"cannot read '{inp.name}': {reason(exc)}")
        return False, True


class _Uniques:
    """The record batches written as ``--unique`` asks. ``count``/``normalized``: bare URLs
    are counted (a Counter: counted in C); of records, the first of each URL is kept, with
    a "count". ``plain``: each URL written when first found (nothing held back: works with
    ``| head``). With -H/-n shown, a URL is counted per file (and line): the rows of one
    input are written when it ends, each with its own count (-b alone: the first one's
    offset)."""

    def __init__(self, args: argparse.Namespace, columns: list[str]) -> None:
        self.mode = args.unique
        self.columns = columns
        self.key = _normalized_key() if self.mode == "normalized" else None
        counting = self.mode in ("count", "normalized")
        self.url_counts: Optional[Counter[str]] = Counter() if counting else None
        self.where = [c for c in ("file", "line") if c in columns]
        self.ident = _identity(self.where)
        self.url_records: dict[Any, dict[str, Any]] = {}
        self.seen: set = set()

    def take(self, batch: Any, writer: Writer, output: Optional[str]) -> None:
        """One batch of records (or bare URLs): written, or held and counted."""
        if self.key is not None:
            batch = _keyed(batch, self.key)
        if self.mode == "plain":
            batch = _first_seen(batch, self.seen, self.ident)
            if batch:
                write_or_fail(writer.write, batch, output)
        elif self.url_counts is None:
            write_or_fail(writer.write, batch, output)
        elif isinstance(batch[0], str):
            self.url_counts.update(batch)
        else:
            for rec in batch:
                k = self.ident(rec)
                first = self.url_records.get(k)
                if first is None:
                    self.url_records[k] = rec
                    rec["count"] = 1
                else:
                    first["count"] += 1

    def input_ended(self, writer: Writer, output: Optional[str]) -> None:
        """With the file shown, this input's own counts written."""
        if "file" in self.where and self.url_records:
            write_or_fail(writer.write, _unique_records(Counter(), self.url_records, self.columns),
                          output)
            self.url_records = {}

    def write_counts(self, writer: Writer, output: Optional[str]) -> None:
        """The counts of the whole run written."""
        assert self.url_counts is not None
        write_or_fail(writer.write, _unique_records(self.url_counts, self.url_records,
                                                    self.columns), output)


def _wants_context(args: argparse.Namespace) -> bool:
    return any(getattr(args, n, None) is not None
               for n in ("context", "after_context", "before_context"))


def _context(args: argparse.Namespace, columns: list[str], writer: Writer) -> Any:
    """``-A/-B/-C`` over the text inputs (a :class:`~urlsift.cli.context.Context`; a mail
    input is written as without them: a URL of a decoded part stands on no line), or
    None (the module is loaded only then)."""
    if not _wants_context(args):
        return None
    from .context import Context, context_of
    wanted = context_of(args) or (0, 0)
    fields = [c for c in columns if c in ("url", *POSITION_FIELDS)]
    return Context(*wanted, line_template(fields, null=args.null, color=use_color(args)),
                   lambda text: write_or_fail(writer.out.write, text, args.output))


def _identity(where: Sequence[str]) -> Callable[[Any], Any]:
    """What makes a URL found the same as another for ``--unique``: its URL, and the
    file and line when shown (``where``: a URL is counted per file with ``-H``, per line
    with ``-n``), as ``sort | uniq -c`` would count the lines shown."""
    if not where:
        return lambda item: item if isinstance(item, str) else item["url"]
    fields = tuple(where)
    return lambda rec: (rec["url"], *[rec.get(f) for f in fields])


class _LineSifter:
    """``--host``, ``--exclude-schemes`` and ``--unique`` over the URL lines made in the
    core (``urlsift extract -u FILE``: no Match built): each distinct URL decided once,
    by its octets, and counted in the core's line table (``urlsift._lines_py``), no
    object made per line; ``--unique`` counts are told at the end."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.keep = url_filter(args)
        self.mode = args.unique
        self.decided = cores.lines.LineTable() if self.keep is not None else None
        self.table = cores.lines.LineTable() if self.mode else None

    def lines(self, data: bytes) -> bytes:
        """What of ``data`` (URL lines) is written now: b"" while counting."""
        if self.decided is not None and self.keep is not None:
            keep = self.keep
            data = self.decided.sift(
                data, lambda octets: keep(octets.decode("utf-8", "surrogateescape")))
        if self.table is None:
            return data
        if self.mode == "plain":
            return self.table.first_seen(data)
        self.table.count(data)
        return b""

    def counted_into(self, counts: Counter[str], key: Optional[Callable[[str], str]]) -> None:
        """Add the URLs counted (their ``key``, for --unique=normalized) to ``counts``,
        in the order first seen."""
        if self.table is None:
            return
        for octets, n in self.table.counts():
            url = octets.decode("utf-8", "surrogateescape")
            counts[key(url) if key is not None else url] += n


def _plain_lines(inp: Input, args: argparse.Namespace, columns: Sequence[str], writer: Writer,
                 progress: Optional[Callable[[int], None]],
                 on_error: Callable[[str], None] = error) -> Optional[Iterable[bytes]]:
    """For ``urlsift extract [-H] [-n] [-b] FILE`` with nothing else asked (a plain
    file, no filter): the writer's lines made in the core by its sink
    (:meth:`~urlsift.cli.output.Writer.core_sink`), no Match built; for an mbox, the URLs
    of each piece of the spool joined at once. None when anything else is asked."""
    cols = [c for c in columns if c != "count"]
    # --unique and the filters are done on the lines (_LineSifter) when only URLs are
    # written as text; the bar is told of each piece scanned
    sifted = args.format == "text" and cols == ["url"]
    narrowed = bool(args.unique) or url_filter(args) is not None
    plain = not args.refang and (sifted or not narrowed)
    color = use_color(args)
    if inp.kind == MBOX and args.format == "text" and cols == ["url"] and plain and not color:
        schemes, valid = scan_options(args)
        if schemes is None and valid is None:       # lines made in the core
            return mbox_url_lines(inp.name, on_error=on_error, stream=inp.stream, jobs=args.jobs,
                                  progress=progress)
        lists = mbox_match_lists(inp.name, schemes=schemes, valid=valid, on_error=on_error,
                                 stream=inp.stream, jobs=args.jobs, progress=progress)
        return (("\n".join(map(itemgetter(0), ms)) + "\n").encode("utf-8", "surrogateescape")
                for ms in lists if ms)
    if not (plain and _core_records(inp, args) and cols[:1] == ["url"]
            and all(c in POSITION_FIELDS for c in cols[1:])):
        return None
    sink = writer.core_sink(inp.name, cols)
    if sink is None or (narrowed and not isinstance(sink, UrlLines)):
        return None         # (filters with colour or positions: the records sift them)
    return sink_batches(inp.name, sink, jobs=args.jobs, progress=progress)


def _core_records(inp: Input, args: argparse.Namespace) -> bool:
    """Whether the scanner's records of ``inp`` go to a sink as they are: a plain text
    file, read with nothing done to each URL found (no refang, quotes, log escapes,
    schemes or validity)."""
    return (inp.kind == TEXT and not args.refang and not args.quoted and not args.log_escapes
            and scan_options(args) == (None, None) and inp.stream is None
            and is_plain_file(inp.name))


def _normalized_key() -> Callable[[str], str]:
    """``--unique=normalized``: a URL's :func:`urlsift.normalized` form (the rules of
    docs/design.md#equivalence, each URL worked out once), or its text when it has none."""
    def key(url: str) -> str:
        try:
            return normalized(url)
        except ValueError:
            return url

    return cached_by_url(key)


def _keyed(batch: list, key: Callable[[str], str]) -> list:
    """The batch with each URL replaced by its key (records: their ``url`` field)."""
    if isinstance(batch[0], str):
        return [key(u) for u in batch]
    for rec in batch:
        rec["url"] = key(rec["url"])
    return batch


def _first_seen(batch: list, seen: set, ident: Callable[[Any], Any]) -> list:
    """The items of ``batch`` whose :func:`_identity` is not in ``seen`` yet, each once;
    ``seen`` grows."""
    out = []
    for item in batch:
        k = ident(item)
        if k not in seen:
            seen.add(k)
            out.append(item)
    return out


def _unique_records(url_counts: Counter[str], url_records: dict[Any, dict[str, Any]],
                    columns: Sequence[str]) -> list:
    if not url_records:
        items = sorted(url_counts.items(), key=lambda kv: -kv[1])  # stable: first seen first
        return [{"url": url, "count": n} for url, n in items]
    recs = sorted(url_records.values(), key=lambda r: -r["count"])
    return [{c: r.get(c) for c in columns} | _extra(r, columns) for r in recs]


def _extra(rec: dict, columns: Sequence[str]) -> dict:
    return {k: v for k, v in rec.items() if k not in columns}
