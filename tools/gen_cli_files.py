"""Write the shell completions and the man page of the ``urlsift`` command, generated
from its argument parser, into ``src/urlsift/cli/data/`` (shipped in the package;
``urlsift completion SHELL`` and ``urlsift man`` print them).

Run after changing an option (a test fails until then)::

    pip install -e '.[dev]'                 # shtab and argparse-manpage, pinned
    python tools/gen_cli_files.py           # --check: only say which files are stale

The three completions come from shtab (file names where an argument is a FILE), the
man page from argparse-manpage, both pinned in the ``dev`` extra (their output is
committed, so another version would show as a change).
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "urlsift" / "cli" / "data"

#: What each generated file is, by name in ``DATA``.
FILES = {"urlsift.bash": "bash", "_urlsift": "zsh", "urlsift.fish": "fish", "urlsift.1": "man"}
#: The man page's date: fixed, so the page is the same wherever it is generated.
MAN_DATE = "2026-11-24"
#: The width the usage lines of the man page are wrapped at (argparse reads $COLUMNS).
WIDTH = 80


def _subparsers(parser: argparse.ArgumentParser) -> dict[str, tuple[argparse.ArgumentParser, str]]:
    """Each subcommand's parser and its one-line help."""
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: a.help or "" for a in action._choices_actions}
            return {name: (sub, helps.get(name, "")) for name, sub in action.choices.items()}
    return {}


def _complete_files(parser: argparse.ArgumentParser) -> argparse.ArgumentParser:
    """Mark what takes a file name (the FILE positionals, ``-o FILE``) for shtab, so every
    shell completes file names there; the command itself never imports shtab."""
    import shtab

    parsers = [parser, *(sub for sub, _ in _subparsers(parser).values())]
    for each in parsers:
        for action in each._actions:
            if action.nargs != 0 and (action.metavar == "FILE" or action.dest == "files"):
                action.complete = shtab.FILE  # type: ignore[attr-defined]
    return parser


def _roff_text_lines(page: str) -> str:
    """A help text that starts a line with ``'`` (``'-' or none``) would be read by roff
    as a request and vanish: ``\\&`` before it keeps it text. argparse-manpage starts its
    own requests with ``.`` only."""
    return re.sub(r"(?m)^'", r"\\&'", page)


def generate() -> dict[str, str]:
    """The text of every file of :data:`FILES`."""
    import shtab
    from build_manpages.manpage import Manpage

    from urlsift import __version__
    from urlsift.cli.parser import build_parser

    # argparse wraps the usage lines of the man page at the terminal's width: fixed here,
    # so the page does not depend on the window it was generated in
    saved = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = str(WIDTH)
    try:
        out = {}
        for name, kind in FILES.items():
            parser = build_parser()
            if kind in ("bash", "zsh", "fish"):
                out[name] = shtab.complete(_complete_files(parser), shell=kind)
            else:
                out[name] = _roff_text_lines(str(Manpage(parser, _data={
                    "date": MAN_DATE, "version": __version__, "manual_title": "urlsift manual",
                    "description": "find, validate and take apart RFC 1738 URLs"})))
        return out
    finally:
        if saved is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = saved


def stale(out: Path) -> list[str]:
    """The files of ``out`` that differ from what the parser gives now (or are missing)."""
    names = []
    for name, text in generate().items():
        path = out / name
        if not path.is_file() or path.read_bytes() != text.encode("utf-8"):
            names.append(name)
    return names


def main(argv: list[str] | None = None) -> int:
    cli = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    cli.add_argument("--out", type=Path, default=DATA, metavar="DIR",
                     help="write (or check) the files here (default: src/urlsift/cli/data)")
    cli.add_argument("--check", action="store_true",
                     help="write nothing; exit 1 naming the files that are out of date")
    args = cli.parse_args(argv)
    if args.check:
        names = stale(args.out)
        for name in names:
            print(f"{args.out / name} is out of date: run python tools/gen_cli_files.py",
                  file=sys.stderr)
        return 1 if names else 0
    args.out.mkdir(parents=True, exist_ok=True)
    for name, text in generate().items():
        with open(args.out / name, "w", encoding="utf-8", newline="\n") as f:
            f.write(text)      # "\n" on every system: the files are compared as octets
        print(f"wrote {args.out / name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
