"""``urlsift completion SHELL`` and ``urlsift man``: the shell completions and the man
page shipped in the package (``cli/data/``, generated from the parser by
``tools/gen_cli_files.py``), printed for the user to put where their shell or ``man``
looks:

    urlsift completion bash > ~/.local/share/bash-completion/completions/urlsift
    urlsift completion zsh > ~/.zfunc/_urlsift          # a directory on $fpath
    urlsift completion fish > ~/.config/fish/completions/urlsift.fish
    urlsift man > ~/.local/share/man/man1/urlsift.1     # or: urlsift man | man -l -
"""
from __future__ import annotations

import argparse
import sys
from importlib import resources

from .common import write_or_fail

__all__ = ["SHELLS", "cmd_completion", "cmd_man", "shipped_text"]

#: The file of each shell's completion in ``cli/data``.
SHELLS = {"bash": "urlsift.bash", "zsh": "_urlsift", "fish": "urlsift.fish"}


def shipped_text(name: str) -> str:
    """The text of ``cli/data/NAME`` in the installed package."""
    return resources.files("urlsift.cli").joinpath("data", name).read_text(encoding="utf-8")


def cmd_completion(args: argparse.Namespace) -> int:
    write_or_fail(sys.stdout.write, shipped_text(SHELLS[args.shell]), None)
    return 0


def cmd_man(args: argparse.Namespace) -> int:
    write_or_fail(sys.stdout.write, shipped_text("urlsift.1"), None)
    return 0
