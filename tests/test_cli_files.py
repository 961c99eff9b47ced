"""The shell completions and the man page shipped in ``urlsift/cli/data`` are those the
parser gives today (``tools/gen_cli_files.py``), and each is well-formed for its tool.
"""
from __future__ import annotations

import importlib.util
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from urlsift.cli import build_parser
from urlsift.cli.main import main
from urlsift.cli.shipped import SHELLS, shipped_text

ROOT = Path(__file__).resolve().parent.parent


def _generator():
    spec = importlib.util.spec_from_file_location("gen_cli_files", ROOT / "tools" / "gen_cli_files.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_shipped_files_are_up_to_date():
    pytest.importorskip("shtab")
    pytest.importorskip("build_manpages")
    gen = _generator()
    for name, text in gen.generate().items():
        assert shipped_text(name) == text, (
            f"src/urlsift/cli/data/{name} is out of date: run python tools/gen_cli_files.py")


def test_bash_completion_parses_and_knows_the_options():
    bash = shutil.which("bash")
    if bash is None:
        pytest.skip("no bash")
    path = ROOT / "src" / "urlsift" / "cli" / "data" / "urlsift.bash"
    assert subprocess.run([bash, "-n", str(path)]).returncode == 0
    text = shipped_text("urlsift.bash")
    for option in ("--with-position", "--files-with-matches", "--exclude-schemes", "--details"):
        assert option in text


def test_fish_completion_has_every_option_of_every_subcommand():
    text = shipped_text("urlsift.fish")
    sub = [a for a in build_parser()._actions if a.dest == "command"][0]
    for name, parser in sub.choices.items():
        for action in parser._actions:
            for opt in action.option_strings:
                if action.help == "==SUPPRESS==":
                    continue
                flag = f"-l {opt[2:]}" if opt.startswith("--") else f"-s {opt[1:]}"
                assert any(f"__fish_seen_subcommand_from {name}'" in line and flag in line
                           for line in text.splitlines()), (name, opt)
    fish = shutil.which("fish")
    if fish is not None:
        assert subprocess.run([fish, "--no-execute", "-c", text]).returncode == 0


def test_man_page_renders():
    groff = shutil.which("groff")
    if groff is None:
        pytest.skip("no groff")
    done = subprocess.run([groff, "-man", "-Tutf8", "-ww"], input=shipped_text("urlsift.1").encode(),
                          capture_output=True)
    assert done.returncode == 0
    page = done.stdout.decode("utf-8", "replace")
    assert "urlsift extract" in page and "only the names of files with a URL" in page


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_completion_command_prints_the_script(shell, capsys):
    assert main(["completion", shell]) == 0
    assert capsys.readouterr().out == shipped_text(SHELLS[shell])


def test_man_command_prints_the_page(capsys):
    assert main(["man"]) == 0
    assert capsys.readouterr().out.startswith(".TH URLSIFT")
