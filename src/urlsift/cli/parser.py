"""The ``urlsift`` command's arguments: subcommands, options, help and examples."""
from __future__ import annotations

import argparse
import os
import re
import sys
from typing import Any, NoReturn

from .. import __version__, _select
from .commands import cmd_parse, cmd_stats, cmd_validate
from .extract import cmd_extract
from .shipped import SHELLS, cmd_completion, cmd_man

__all__ = ["build_parser"]

EPILOG = """\
examples:
  urlsift extract access.log                     every URL, one a line
  urlsift extract --unique access.log.*.gz       distinct URLs with counts, rotated logs too
  zcat big.log.gz | urlsift extract --schemes http,https | head
  urlsift extract --format jsonl --with-position --parts access.log
  urlsift extract -r -c /var/log/nginx           URLs per file of a tree, as grep -rc
  urlsift extract --unique=plain --host '*.example.com' -r mail/
  urlsift extract --format csv -o urls.csv --mbox ~/mail/inbox
  urlsift extract --refang threat-report.txt     hxxp://evil[.]example -> http://evil.example
  urlsift extract --quoted old-thread.txt        <URL:...> wrapped over "> " lines, whole
  urlsift validate urls.txt                      one URL a line; exit 1 if any is invalid
  urlsift validate --print-valid urls.txt        a filter: only the valid URLs, as they are
  urlsift parse 'ftp://ftp.example/pub/file.txt;type=i'
  urlsift stats --json access.log

exit status: 0 ok (extract: a URL was found), 1 extract found no URL / validate or
parse found an invalid URL, 2 usage or I/O error, 130 interrupted, 141 output closed.
"""


def _schemes(text: str) -> tuple[str, ...]:
    names = tuple(s.strip().lower() for s in text.split(",") if s.strip())
    for name in names:
        if not re.fullmatch(r"[a-z0-9+.\-]+", name):
            raise argparse.ArgumentTypeError(f"not a scheme name: {name!r}")
    if not names:
        raise argparse.ArgumentTypeError("no scheme given")
    return names


def _jobs(text: str) -> int:
    try:
        n = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if n < 0:
        raise argparse.ArgumentTypeError("must be 0 (all cores) or more")
    return n or (os.cpu_count() or 1)


#: The modes of ``--unique=MODE`` (``-u``/``--unique`` alone: ``count``).
UNIQUE_MODES = ("count", "plain", "normalized")


def _unique_mode(arg: str) -> str:
    """The MODE of ``--unique=MODE`` (or of an abbreviation, ``--uniq=plain``, as getopt
    allows), or "" when ``arg`` is something else."""
    name, eq, mode = arg.partition("=")
    if not eq or len(name) < 4 or not "--unique".startswith(name):
        return ""
    if mode not in UNIQUE_MODES:
        raise argparse.ArgumentTypeError(
            f"argument -u/--unique: invalid choice: {mode!r} (choose from "
            f"{', '.join(UNIQUE_MODES)})")
    return mode


def _is_unique_flag(arg: str) -> bool:
    return arg == "-u" or (len(arg) >= 4 and "--unique".startswith(arg))


def _count(least: int, what: str = "") -> Any:
    """An argument type: a whole number of at least ``least``."""
    def number(text: str) -> int:
        try:
            n = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
        if n < least:
            raise argparse.ArgumentTypeError(f"{text} is not {what or f'{least} or more'}")
        return n
    number.__name__ = "count"
    return number


class _Parser(argparse.ArgumentParser):
    """Usage errors in one line and a pointer to --help (argparse prints the whole usage
    block first: five lines a user must read past to find the one that matters)."""

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        """``--unique=MODE`` is one word: ``-u FILE`` and ``--unique FILE`` stay a file.
        No hidden option stands beside ``--unique`` (so ``--uniq`` is no "ambiguous
        option"); ``--unique plain`` with no file ``plain`` is refused, not read as a
        file after the output began."""
        if args is None:
            args = sys.argv[1:]
        args = list(args)
        mode = ""
        rest: list[str] = []
        for i, arg in enumerate(args):
            if arg == "--":
                rest += args[i:]
                break
            try:
                got = _unique_mode(arg)
            except argparse.ArgumentTypeError as exc:
                self.error(str(exc))
            if got:
                mode = got
                rest.append("--unique")
                continue
            nxt = args[i + 1] if i + 1 < len(args) else ""
            if (_is_unique_flag(arg) and nxt in UNIQUE_MODES
                    and not os.path.exists(nxt)):
                self.error(f"--unique takes its mode after '=': --unique={nxt} "
                           f"(no file '{nxt}' to read)")
            rest.append(arg)
        namespace, extra = super().parse_known_args(rest, namespace)
        if mode and getattr(namespace, "unique", None):
            namespace.unique = mode
        return namespace, extra

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"{self.prog}: error: {message} (try '{self.prog} --help')\n")


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the ``urlsift`` command."""
    fmt = argparse.RawDescriptionHelpFormatter
    parser = _Parser(
        prog="urlsift", formatter_class=fmt, epilog=EPILOG,
        description="Find, validate and take apart RFC 1738 URLs in logs, mail and text.")
    core = "compiled core" if _select.KIND == "cython" else "pure-Python core"
    parser.add_argument("--version", action="version", version=f"urlsift {__version__} ({core})")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", required=True,
                                parser_class=_Parser)

    scan = _scan_options()
    _add_extract(sub, scan, fmt)
    _add_stats(sub, scan, fmt)
    _add_validate(sub, fmt)
    _add_parse(sub, fmt)
    _add_tools(sub, fmt)
    return parser


def _scan_options() -> argparse.ArgumentParser:
    """The options of the commands that scan files (extract, stats): their parent parser."""
    scan = _Parser(add_help=False)
    scan.add_argument("files", nargs="*", metavar="FILE",
                      help="text, log or mail files; .gz .bz2 .xz .zst read as they are; "
                           "'-' or none: standard input (-r and none: the current directory)")
    scan.add_argument("-r", "--recursive", action="store_true",
                      help="read the files of directory trees (none given: the current "
                           "directory), as grep -r and rg: sorted, no symbolic link followed, "
                           "binary and hidden files, .git/ and what .gitignore lists skipped")
    scan.add_argument("--hidden", action="store_true",
                      help="-r: read hidden files and directories too (.git/ still skipped)")
    scan.add_argument("--no-ignore", action="store_true",
                      help="-r: read what .gitignore (and .ignore) files list too")
    scan.add_argument("-g", "--glob", action="append", metavar="GLOB",
                      help="-r: only the files whose path or name matches GLOB; '!GLOB' "
                           "leaves them out (repeatable; the last that matches decides, as rg)")
    scan.add_argument("-a", "--text", action="store_true",
                      help="-r: read binary files (a NUL in the first 8 KiB) as text too, "
                           "instead of skipping them")
    scan.add_argument("--schemes", type=_schemes, metavar="LIST",
                      help="only these schemes, comma-separated (e.g. http,https,ftp)")
    scan.add_argument("--exclude-schemes", type=_schemes, metavar="LIST",
                      help="not these schemes, comma-separated (e.g. mailto,news)")
    scan.add_argument("--host", action="append", metavar="GLOB",
                      help="only URLs whose host matches the shell pattern (e.g. '*.example.com'; "
                           "case-insensitive; repeatable)")
    scan.add_argument("--valid-lenient", "--valid-only", dest="valid_only", action="store_true",
                      help="only URLs lenient mode accepts (the real-world syntax; they may "
                           "still have problems: --details' valid_strict=false). --valid-only: "
                           "its old name, deprecated")
    scan.add_argument("--valid-strict", "--strict", dest="strict", action="store_true",
                      help="only URLs valid under RFC 1738 exactly (valid_strict=true). "
                           "--strict: its old name, deprecated")
    scan.add_argument("--mbox", action="store_true",
                      help="read the files as mbox mail spools (auto when a file starts "
                           "with 'From '; a Maildir directory is always read as mail)")
    scan.add_argument("--refang", action="store_true",
                      help="recognize defanged URLs (hxxp://evil[.]example) and give them back "
                           "refanged")
    scan.add_argument("--quoted", action="store_true",
                      help="remove reply-quote prefixes ('> ') first, so a <URL:...> wrapped "
                           "over quoted lines comes out whole (always on in mail)")
    scan.add_argument("--log-escapes", action="store_true",
                      help="read Apache/nginx escapes (\\xHH) in the text as the octet, written "
                           "%%HH in the URL: a referer \"http://\\xd0\\xb4.example/\" is found")
    scan.add_argument("-j", "--jobs", type=_jobs, default=1, metavar="N",
                      help="threads for large plain files (0: one per core)")
    scan.add_argument("--no-progress", action="store_true",
                      help="no progress bar (there is none anyway when stderr is not a terminal)")
    return scan


def _add_extract(sub: Any, scan: argparse.ArgumentParser, fmt: Any) -> None:
    """``urlsift extract``: print the URLs found."""
    ex = sub.add_parser("extract", parents=[scan], formatter_class=fmt, help="print the URLs found",
                        description="Print the URLs found in the files.", epilog=EPILOG,
                        add_help=False)      # -h is grep's --no-filename
    ex.add_argument("--help", action="help", help="show this help message and exit")
    ex.add_argument("-f", "--format", choices=("text", "jsonl", "csv", "parquet"),
                    default="text", help="output format (parquet needs pyarrow)")
    ex.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    ex.add_argument("-u", "--unique", action="store_const", const="count", default=None,
                    help="each distinct URL once with its count, most frequent first (per "
                         "file and line when -H/-n show them); the mode only after '=': "
                         "--unique=plain: once each, no count, in the order first found "
                         "(sort -u without the sort); --unique=normalized: with counts, URLs "
                         "equivalent under RFC 1738 counted as one")
    ex.add_argument("--with-position", action="store_true",
                    help="add file, line and byte offset (-H -n -b; mail: file, message offset, "
                         "Message-ID)")
    _add_grep_options(ex)
    ex.add_argument("--parts", action="store_true",
                    help="add the parsed parts: scheme, user, password, host, port, path...")
    ex.add_argument("--details", action="store_true",
                    help="add what a filter needs: valid_strict (RFC 1738 exactly), problems "
                         "(codes), "
                         "wrapped, hyphen_break and edits (how the URL was mended)")
    ex.add_argument("--dask", metavar="ADDRESS", default=None,
                    help="run on a Dask cluster (a scheduler address, or 'local': one worker "
                         "process per core) and write a Parquet dataset to -o DIR "
                         "(needs urlsift[dask])")
    ex.add_argument("--overwrite", action="store_true",
                    help="with --dask: replace the Parquet dataset an earlier run left in -o "
                         "DIR (a folder that is not empty is refused without it)")
    ex.set_defaults(func=cmd_extract)


def _add_grep_options(ex: argparse.ArgumentParser) -> None:
    """extract's options named and spelled as grep's and rg's."""
    grep = ex.add_argument_group("as grep and rg")
    grep.add_argument("-H", "--with-filename", action="store_true",
                      help="the file name before each URL (the default with several files "
                           "or -r, as grep; in jsonl/csv/parquet a file column)")
    grep.add_argument("-h", "--no-filename", action="store_true",
                      help="no file name, even with several files")
    grep.add_argument("-n", "--line-number", action="store_true",
                      help="the 1-based line number (mail: the URL's line in the file where "
                           "it stands as written; a URL of a decoded part: its message's "
                           "first line)")
    grep.add_argument("-A", "--after-context", type=_count(0), metavar="NUM",
                      help="NUM lines of text after the line of each URL ('--' between groups)")
    grep.add_argument("-B", "--before-context", type=_count(0), metavar="NUM",
                      help="NUM lines of text before the line of each URL")
    grep.add_argument("-C", "--context", type=_count(0), metavar="NUM",
                      help="NUM lines before and after (-A NUM -B NUM)")
    grep.add_argument("-b", "--byte-offset", action="store_true",
                      help="the byte offset of the URL's text in the (decompressed) file "
                           "(mail: of its message)")
    grep.add_argument("-c", "--count", action="store_true",
                      help="only a count of URLs per file (FILE:N; N alone for one file "
                           "named, as grep -c)")
    grep.add_argument("-l", "--files-with-matches", action="store_true",
                      help="only the names of files with a URL")
    grep.add_argument("-0", "--null", action="store_true",
                      help="a NUL after each file name instead of ':' (or the newline of -l): "
                           "unambiguous for names with ':' (Maildir)")
    grep.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto",
                      help="color file names, numbers and URLs in text output (auto: on a "
                           "terminal, unless NO_COLOR is set)")


def _add_stats(sub: Any, scan: argparse.ArgumentParser, fmt: Any) -> None:
    """``urlsift stats``: counts by scheme, top hosts, problems."""
    st = sub.add_parser("stats", parents=[scan], formatter_class=fmt,
                        help="counts by scheme, top hosts, invalid URLs by problem code",
                        description="Statistics of the URLs found in the files.")
    st.add_argument("--json", action="store_true", help="JSON instead of a table")
    st.add_argument("--top", type=_count(1), default=10, metavar="N",
                    help="how many hosts (10; 1 or more)")
    st.add_argument("--html", metavar="FILE", default=None,
                    help="also write the statistics as one self-contained HTML page (inline "
                         "SVG charts: schemes, top hosts, problems, URLs per file and over "
                         "time); never onto an input")
    st.set_defaults(func=cmd_stats)


def _add_validate(sub: Any, fmt: Any) -> None:
    """``urlsift validate``: check one URL a line."""
    va = sub.add_parser("validate", formatter_class=fmt, help="check one URL a line",
                        description="Check files holding one URL a line; print each invalid "
                                    "one with its position, code and message; exit 1 if any.")
    va.add_argument("files", nargs="*", metavar="FILE", help="'-' or none: standard input")
    va.add_argument("--lenient", action="store_true",
                    help="accept what lenient mode accepts (default: RFC 1738 strictly)")
    va.add_argument("-q", "--quiet", action="store_true", help="no summary line on stderr")
    only = va.add_mutually_exclusive_group()
    only.add_argument("--print-valid", action="store_true",
                      help="a filter: print the valid URLs themselves, one a line, nothing else")
    only.add_argument("--print-invalid", action="store_true",
                      help="a filter: print the invalid URLs themselves (like grep -v)")
    only.add_argument("--json", action="store_true", help="JSON lines instead of text")
    va.set_defaults(func=cmd_validate)


def _add_parse(sub: Any, fmt: Any) -> None:
    """``urlsift parse``: show the parts of URLs."""
    pa = sub.add_parser("parse", formatter_class=fmt, help="show the parts of URLs",
                        description="Show the parts of each URL, its problems and its security "
                                    "warnings (RFC 1738 §6).")
    pa.add_argument("urls", nargs="+", metavar="URL", help="URLs; '-': one a line from "
                                                           "standard input")
    pa.add_argument("--json", action="store_true", help="one JSON object a line")
    pa.add_argument("--strict", action="store_true",
                    help="parse by RFC 1738 exactly (default: lenient, problems listed)")
    pa.set_defaults(func=cmd_parse)


def _add_tools(sub: Any, fmt: Any) -> None:
    """``urlsift completion`` and ``urlsift man``."""
    co = sub.add_parser("completion", formatter_class=fmt, help="print a shell completion script",
                        description="Print the completion script of a shell, e.g. "
                                    "urlsift completion bash > "
                                    "~/.local/share/bash-completion/completions/urlsift")
    co.add_argument("shell", choices=sorted(SHELLS), help="bash, fish or zsh")
    co.set_defaults(func=cmd_completion)
    ma = sub.add_parser("man", formatter_class=fmt, help="print the manual page (roff)",
                        description="Print the manual page, e.g. urlsift man | man -l -")
    ma.set_defaults(func=cmd_man)
