"""``urlsift validate``, ``parse`` and ``stats``: URLs checked one by one, and counted."""
from __future__ import annotations

import argparse
import contextlib
import json
import sys
from collections import Counter
from typing import IO, Any, Iterator, Optional, cast

from ..inputs import Input, open_input
from ..inputs.kinds import TEXT
from ..model.parsing import check, parse
from ..text.bom import without_bom
from .common import batches, error, read_errors, reason, write_or_fail
from .output import plain_value, reconfigure_stdout
from .progress import Progress, Relay
from .records import iter_records, plan_inputs
from .report import html_page
from .target import refuse_input_as_output, write_text_file
from .timeline import DatedStream, minute_of

__all__ = ["cmd_parse", "cmd_stats", "cmd_validate", "describe", "stats_report"]

#: Attributes ``urlsift parse`` shows, in this order, when the URL object has them.
ATTRIBUTES: tuple[str, ...] = (
    "scheme", "user", "password", "host", "port", "effective_port", "path", "search",
    "segments", "typecode", "gtype", "selector", "gopher_plus", "address", "group", "article",
    "database", "wtype", "wpath", "hsoname", "fields", "message_id", "content_id",
    "schemepart", "is_local", "fragment",
)


def _stdout(text: str) -> None:
    """Write to standard output; a failure is the output's (one line naming it), never
    taken for an error reading the input being checked."""
    write_or_fail(sys.stdout.write, text, None)


def _problem(p: Any, lead: Optional[int] = None) -> dict:
    """A problem as JSON; with ``lead`` (white space before the URL on its line) also its
    1-based ``column`` in the line, as compilers and ``grep --column`` count."""
    position = getattr(p, "position", None)
    out = {"position": position, "code": getattr(p, "code", None),
           "message": getattr(p, "message", str(p))}
    if lead is not None:
        out["column"] = lead + (position or 0) + 1
    return out


def _warning(w: Any) -> Any:
    if isinstance(w, str):
        return w
    out = {k: getattr(w, k) for k in ("code", "position", "message") if hasattr(w, k)}
    return out or str(w)


def _problems(url: str, lenient: bool) -> list:
    if not lenient:
        return list(check(url))
    try:
        parse(url, strict=False)
    except ValueError as exc:
        return [exc]
    return []


#: ``validate``: the longest line read as a URL (bytes); a longer one is reported and
#: skipped. A line with no end within LINE_GIVE_UP bytes ends the reading of its input.
LINE_MAX = 1 << 20
LINE_GIVE_UP = 64 << 20


def cmd_validate(args: argparse.Namespace) -> int:
    reconfigure_stdout("backslashreplace")
    write = _stdout
    status = checked = invalid = 0

    def size_of(n: int) -> str:
        return f"{n >> 20} MiB" if n and not n % (1 << 20) else f"{n} bytes"

    def lines(stream: Any, shown: str) -> Any:
        """``(lineno, line)`` of ``stream``, memory bounded by LINE_MAX: a longer line
        is one stderr line and read past in pieces; no line end within LINE_GIVE_UP
        is one stderr line and the end of this input (``/dev/zero``)."""
        nonlocal status
        lineno = 0
        while True:
            line = stream.readline(LINE_MAX + 1)
            if not line:
                return
            lineno += 1
            if len(line) <= LINE_MAX or line.endswith(b"\n"):
                yield lineno, line
                continue
            status = 2
            size = len(line)
            while line and not line.endswith(b"\n"):
                if size > LINE_GIVE_UP:
                    error(f"cannot read '{shown}': line {lineno} has no end within "
                          f"{size_of(LINE_GIVE_UP)}: not a list of URLs, the rest is not read")
                    return
                line = stream.readline(LINE_MAX)
                size += len(line)
            error(f"{shown}:{lineno}: line longer than {size_of(LINE_MAX)} ({size} bytes): "
                  f"skipped")

    for name in args.files or ["-"]:
        shown = "<stdin>" if name == "-" else name
        try:
            with open_input(name) as stream:
                for lineno, raw in lines(stream, shown):
                    if lineno == 1:
                        raw = without_bom(raw)    # columns as an editor shows the line
                    text = raw.strip()
                    if not text:
                        continue
                    lead = len(raw) - len(raw.lstrip())   # columns count from the line's start
                    url = text.decode("utf-8", "surrogateescape")
                    checked += 1
                    problems = _problems(url, args.lenient)
                    if args.print_valid or args.print_invalid:   # a filter, as grep [-v]
                        invalid += bool(problems)
                        if bool(problems) == args.print_invalid:
                            write(url + "\n")
                        continue
                    if not problems:
                        continue
                    invalid += 1
                    if args.json:
                        found = [_problem(p, lead) for p in problems]
                        write(json.dumps({"file": shown, "line": lineno,
                                          "column": found[0]["column"], "url": url,
                                          "problems": found}, ensure_ascii=False) + "\n")
                    else:
                        p = _problem(problems[0], lead)
                        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
                        write(f"{shown}:{lineno}:{p['column']}: {url}: {p['code']}: "
                              f"{p['message']}{more}\n")
        except read_errors() as exc:
            if isinstance(exc, BrokenPipeError):
                raise  # our output closed, not an input error
            error(f"cannot read '{name}': {reason(exc)}")
            status = 2
    write_or_fail(lambda _: sys.stdout.flush(), None, None)
    if not args.quiet:
        sys.stderr.write(f"{checked} checked, {invalid} invalid\n")
    return status or (1 if invalid else 0)


def describe(url: str, strict: bool) -> dict:
    """What ``urlsift parse`` tells about one URL, as a JSON-ready dict."""
    rec: dict = {"url": url}
    try:
        u = parse(url, strict=strict)
    except ValueError as exc:
        rec["type"] = None
        rec["error"] = _problem(exc)
        u = None
    else:
        rec["type"] = type(u).__name__
        parts = {}
        for name in ATTRIBUTES:
            try:
                parts[name] = plain_value(getattr(u, name))
            except AttributeError:
                continue
        rec["parts"] = parts
    problems = [_problem(p) for p in check(url)]
    rec["valid"] = not problems
    rec["problems"] = problems
    rec["warnings"] = [_warning(w) for w in getattr(u, "warnings", ())] if u is not None else []
    return rec


def _show(value: Any) -> str:
    if value is None:
        return "(none)"
    if value == "":
        return '""'
    if isinstance(value, list):
        return repr(tuple(value))
    return str(value)


def _urls_of(items: list[str]) -> Iterator[str]:
    """The URLs given, with ``-`` standing for the lines of standard input (opened as
    every input is: decompressed, a byte-order mark at its start passed over)."""
    for item in items:
        if item != "-":
            yield item
            continue
        with open_input("-") as stream:
            first = True
            for line in iter(stream.readline, b""):
                text = (without_bom(line) if first else line).strip()
                first = False
                if text:
                    yield text.decode("utf-8", "surrogateescape")


def cmd_parse(args: argparse.Namespace) -> int:
    reconfigure_stdout("backslashreplace")
    status = 0
    out = []
    try:
        urls = list(_urls_of(args.urls))
    except read_errors() as exc:
        error(f"cannot read '<stdin>': {reason(exc)}")
        return 2
    for url in urls:
        rec = describe(url, args.strict)
        if "error" in rec:
            status = 1
        if args.json:
            out.append(json.dumps(rec, ensure_ascii=False) + "\n")
            continue
        lines = [url]
        if "error" in rec:
            e = rec["error"]
            lines.append(f"  error           {e['code']} at {e['position']}: {e['message']}")
        else:
            lines.append(f"  type            {rec['type']}")
            lines += [f"  {name:<16}{_show(value)}" for name, value in rec["parts"].items()]
        if rec["problems"]:
            lines += [f"  problem         {p['code']} at {p['position']}: {p['message']}"
                      for p in rec["problems"] if p != rec.get("error")]
        else:
            lines.append("  problems        none (valid under RFC 1738)")
        for w in rec["warnings"]:
            text = w if isinstance(w, str) else w.get("message") or json.dumps(w)
            code = "" if isinstance(w, str) or not w.get("code") else f"{w['code']}: "
            lines.append(f"  warning         {code}{text}")
        out.append("\n".join(lines) + "\n\n")
    _stdout("".join(out).rstrip("\n") + "\n")
    return status


def cmd_stats(args: argparse.Namespace) -> int:
    urls: Counter = Counter()
    skipped: list[str] = []
    html = getattr(args, "html", None)
    files: dict[str, int] = {}
    minutes: Counter = Counter()

    def tell_skipped(line: str) -> None:   # a mail message skipped: said, and status 2
        error(line)
        skipped.append(line)

    with contextlib.ExitStack() as stack:
        relay = Relay()
        plan, status = plan_inputs(args, stack, relay)
        if html is not None:   # refused before anything is read
            refuse_input_as_output(html, [*(args.files or ["-"]), *(inp.name for inp in plan)])
        with Progress(args, plan, relay) as progress:
            for inp in plan:
                before = sum(urls.values())
                try:
                    if html is None:
                        for batch in batches(iter_records(inp, args, ["url"], progress.update,
                                                          on_error=tell_skipped)):
                            urls.update(batch)
                    else:
                        _dated_urls(inp, args, stack, progress.update, tell_skipped, urls,
                                    minutes)
                except read_errors() as exc:
                    if isinstance(exc, BrokenPipeError):
                        raise  # our output closed, not an input error
                    error(f"cannot read '{inp.name}': {reason(exc)}")
                    status = 2
                shown = plain_value(inp.name)
                files[shown] = files.get(shown, 0) + sum(urls.values()) - before
    report = stats_report(urls, args.top)
    reconfigure_stdout("backslashreplace")
    if html is not None:
        report.update(files=files, timeline=dict(minutes))
        write_text_file(html, html_page(report, list(files), args.top),
                        [*(args.files or ["-"]), *files])
        if args.json:
            del report["files"], report["timeline"]
    if args.json:
        _stdout(json.dumps(report, ensure_ascii=False, indent=2) + "\n")
    else:
        _stdout(_table(report, args.top))
    return 2 if skipped else status


def stats_report(urls: Counter, top: int) -> dict:
    """``stats``'s numbers of the URLs counted in ``urls``: all, distinct, invalid
    (strictly: any problem code), by scheme, the ``top`` hosts, invalid by code."""
    schemes: Counter = Counter()
    hosts: Counter = Counter()
    codes: Counter = Counter()
    invalid = 0
    for url, n in urls.items():
        schemes[url.split(":", 1)[0].lower()] += n
        try:
            host = parse(url, strict=False).host
        except ValueError:
            host = None
        if host:
            hosts[host.lower()] += n
        found = {p.code for p in check(url)}
        if found:
            invalid += n
            for code in found:
                codes[code] += n
    return {
        "urls": sum(urls.values()), "distinct": len(urls), "invalid": invalid,
        "schemes": dict(schemes.most_common()),
        "hosts": dict(hosts.most_common(top)),
        "problems": dict(codes.most_common()),
    }


def _dated_urls(inp: Input, args: argparse.Namespace, stack: contextlib.ExitStack,
                progress: Any, on_error: Any, urls: Counter, minutes: Counter) -> None:
    """The URLs of one input counted into ``urls`` (the same records as ``stats``
    counts), and by the minute of their line's timestamp (a mail URL: its message's
    Date) into ``minutes``; the input read once, through :class:`DatedStream`."""
    if inp.kind != TEXT:
        for rec in iter_records(inp, args, ["url", "message_id", "date", "part"], progress,
                                on_error=on_error):
            url = rec if isinstance(rec, str) else rec["url"]
            urls[url] += 1
            date = None if isinstance(rec, str) else rec.get("date")
            minute = minute_of(date.encode("utf-8", "replace")) if date else None
            if minute is not None:
                minutes[minute] += 1
        return
    raw = inp.stream if inp.stream is not None else stack.enter_context(
        open_input(inp.name, progress))
    dated = DatedStream(raw)
    for rec in iter_records(Input(inp.name, "text", cast(IO[bytes], dated)), args,
                            ["url", "offset"], progress,
                            on_error=on_error):
        urls[rec["url"]] += 1
        minute = dated.minute_at(rec["offset"])
        if minute is not None:
            minutes[minute] += 1


def _columns(text: str) -> int:
    """Terminal columns of ``text``: East Asian wide and full-width characters take two
    (an IDN host such as ``例え.jp``), combining marks none."""
    import unicodedata
    return sum(0 if unicodedata.combining(ch) else
               2 if unicodedata.east_asian_width(ch) in "WF" else 1 for ch in text)


def _padded(text: str, width: int) -> str:
    return text + " " * max(0, width - _columns(text))


def _table(report: dict, top: int) -> str:
    width = max([24] + [_columns(k) + 2 for section in ("schemes", "hosts", "problems")
                        for k in report[section]])
    lines = [f"{'URLs found':<{width}}{report['urls']:>10}",
             f"{'distinct URLs':<{width}}{report['distinct']:>10}",
             f"{'invalid (RFC 1738)':<{width}}{report['invalid']:>10}"]
    for title, section in (("scheme", "schemes"), (f"top {top} hosts", "hosts"),
                           ("invalid by code", "problems")):
        lines += ["", f"{title:<{width}}{'URLs':>10}"]
        lines += [f"{_padded(k, width)}{v:>10}"
                  for k, v in report[section].items()] or ["  (none)"]
    return "\n".join(lines) + "\n"
