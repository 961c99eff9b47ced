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


class _Parser(argparse.ArgumentParser):
    """Usage errors in one line and a pointer to --help (argparse prints the whole usage
    block first: five lines a user must read past to find the one that matters)."""

    def parse_known_args(self, args: Any = None, namespace: Any = None) -> Any:
        """``--unique=MODE`` is spelled as one word: ``-u FILE`` must stay a file."""
        if args is None:
            args = sys.argv[1:]
        args = [a for arg in args for a in (["--unique-mode", arg.split("=", 1)[1]]
                                           if arg.startswith("--unique=") else [arg])]
        return super().parse_known_args(args, namespace)

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

    scan = _Parser(add_help=False)
    scan.add_argument("files", nargs="*", metavar="FILE",
                      help="text, log or mail files; .gz .bz2 .xz .zst read as they are; "
                           "'-' or none: standard input")
    scan.add_argument("-r", "--recursive", action="store_true",
                      help="read the files of directory trees, as grep -r: sorted, no symbolic "
                           "link followed, binary files skipped")
    scan.add_argument("--schemes", type=_schemes, metavar="LIST",
                      help="only these schemes, comma-separated (e.g. http,https,ftp)")
    scan.add_argument("--exclude-schemes", type=_schemes, metavar="LIST",
                      help="not these schemes, comma-separated (e.g. mailto,news)")
    scan.add_argument("--host", action="append", metavar="GLOB",
                      help="only URLs whose host matches the shell pattern (e.g. '*.example.com'; "
                           "case-insensitive; repeatable)")
    scan.add_argument("--valid-only", action="store_true",
                      help="only URLs valid in lenient mode (the real-world syntax)")
    scan.add_argument("--strict", action="store_true",
                      help="only URLs valid under RFC 1738 exactly (implies --valid-only)")
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

    ex = sub.add_parser("extract", parents=[scan], formatter_class=fmt, help="print the URLs found",
                        description="Print the URLs found in the files.", epilog=EPILOG)
    ex.add_argument("-f", "--format", choices=("text", "jsonl", "csv", "parquet"),
                    default="text", help="output format (parquet needs pyarrow)")
    ex.add_argument("-o", "--output", metavar="FILE", help="write here instead of stdout")
    ex.add_argument("-u", "--unique", action="store_const", const="count", default=None,
                    help="each distinct URL once with its count, most frequent first; "
                         "--unique=plain: once each, no count, in the order first found "
                         "(sort -u without the sort); --unique=normalized: with counts, URLs "
                         "equivalent under RFC 1738 counted as one")
    ex.add_argument("--unique-mode", choices=("count", "plain", "normalized"), dest="unique",
                    help=argparse.SUPPRESS)
    ex.add_argument("--with-position", action="store_true",
                    help="add file, line and byte offset (-H -n -b; mail: file, message offset, "
                         "Message-ID)")
    grep = ex.add_argument_group("as grep and rg")
    grep.add_argument("-H", "--with-filename", action="store_true",
                      help="the file name before each URL")
    grep.add_argument("-n", "--line-number", action="store_true",
                      help="the 1-based line number (mail: none, a URL may come from a decoded "
                           "part; -b gives its place)")
    grep.add_argument("-b", "--byte-offset", action="store_true",
                      help="the byte offset of the URL's text in the (decompressed) file "
                           "(mail: of its message)")
    grep.add_argument("-c", "--count", action="store_true",
                      help="only a count of URLs per file (FILE:N; N alone for one file)")
    grep.add_argument("-l", "--files-with-matches", action="store_true",
                      help="only the names of files with a URL")
    grep.add_argument("-0", "--null", action="store_true",
                      help="a NUL after each file name instead of ':' (or the newline of -l): "
                           "unambiguous for names with ':' (Maildir)")
    grep.add_argument("--color", "--colour", choices=("auto", "always", "never"), default="auto",
                      help="color file names, numbers and URLs in text output (auto: on a "
                           "terminal, unless NO_COLOR is set)")
    ex.add_argument("--parts", action="store_true",
                    help="add the parsed parts: scheme, user, password, host, port, path...")
    ex.add_argument("--details", action="store_true",
                    help="add what a filter needs: valid (RFC 1738 exactly), problems (codes), "
                         "wrapped, hyphen_break and edits (how the URL was mended)")
    ex.add_argument("--dask", metavar="ADDRESS", default=None,
                    help="run on a Dask cluster (a scheduler address, or 'local': one worker "
                         "process per core) and write a Parquet dataset to -o DIR "
                         "(needs urlsift[dask])")
    ex.add_argument("--overwrite", action="store_true",
                    help="with --dask: replace the Parquet dataset an earlier run left in -o "
                         "DIR (a folder that is not empty is refused without it)")
    ex.set_defaults(func=cmd_extract)

    st = sub.add_parser("stats", parents=[scan], formatter_class=fmt,
                        help="counts by scheme, top hosts, invalid URLs by problem code",
                        description="Statistics of the URLs found in the files.")
    st.add_argument("--json", action="store_true", help="JSON instead of a table")
    st.add_argument("--top", type=int, default=10, metavar="N", help="how many hosts (10)")
    st.add_argument("--html", metavar="FILE", default=None,
                    help="also write the statistics as one self-contained HTML page (inline "
                         "SVG charts: schemes, top hosts, problems, URLs per file and over "
                         "time); never onto an input")
    st.set_defaults(func=cmd_stats)

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

    pa = sub.add_parser("parse", formatter_class=fmt, help="show the parts of URLs",
                        description="Show the parts of each URL, its problems and its security "
                                    "warnings (RFC 1738 §6).")
    pa.add_argument("urls", nargs="+", metavar="URL", help="URLs; '-': one a line from "
                                                           "standard input")
    pa.add_argument("--json", action="store_true", help="one JSON object a line")
    pa.add_argument("--strict", action="store_true",
                    help="parse by RFC 1738 exactly (default: lenient, problems listed)")
    pa.set_defaults(func=cmd_parse)

    co = sub.add_parser("completion", formatter_class=fmt, help="print a shell completion script",
                        description="Print the completion script of a shell, e.g. "
                                    "urlsift completion bash > "
                                    "~/.local/share/bash-completion/completions/urlsift")
    co.add_argument("shell", choices=sorted(SHELLS), help="bash, fish or zsh")
    co.set_defaults(func=cmd_completion)
    ma = sub.add_parser("man", formatter_class=fmt, help="print the manual page (roff)",
                        description="Print the manual page, e.g. urlsift man | man -l -")
    ma.set_defaults(func=cmd_man)
    return parser
