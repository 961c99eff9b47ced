"""The shell completions and the man page shipped in ``urlsift/cli/data`` are those the
parser gives today (``tools/gen_cli_files.py``), and each works in its tool: bash, zsh
and fish complete the subcommands, options, choices and file names (each shell that is
installed here), groff renders the page without a warning.
"""
from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from urlsift.cli import build_parser
from urlsift.cli.main import main
from urlsift.cli.shipped import SHELLS, shipped_text

ROOT = Path(__file__).resolve().parent.parent
DATA = ROOT / "src" / "urlsift" / "cli" / "data"
GENERATOR = ROOT / "tools" / "gen_cli_files.py"
pytestmark = pytest.mark.twins


def _generate(*args: str, columns: str = "80") -> subprocess.CompletedProcess:
    pytest.importorskip("shtab")
    pytest.importorskip("build_manpages")
    return subprocess.run([sys.executable, str(GENERATOR), *args], capture_output=True,
                          text=True, env={**os.environ, "COLUMNS": columns}, timeout=120)


def test_shipped_files_are_up_to_date(tmp_path):
    # a narrow terminal must not change the files (argparse wraps at $COLUMNS)
    done = _generate("--out", str(tmp_path), columns="37")
    assert done.returncode == 0, done.stderr
    made = sorted(p.name for p in tmp_path.iterdir())
    assert made == sorted([*SHELLS.values(), "urlsift.1"])
    for name in made:
        assert (tmp_path / name).read_bytes() == (DATA / name).read_bytes(), (
            f"src/urlsift/cli/data/{name} is out of date: run python tools/gen_cli_files.py")


def test_check_names_the_stale_file(tmp_path):
    assert _generate("--out", str(tmp_path)).returncode == 0
    assert _generate("--check", "--out", str(tmp_path)).returncode == 0
    fish = tmp_path / "urlsift.fish"
    fish.write_text(fish.read_text().replace("-l with-position", "-l with-place"))
    done = _generate("--check", "--out", str(tmp_path))
    assert done.returncode == 1
    assert done.stderr == f"{fish} is out of date: run python tools/gen_cli_files.py\n"
    assert fish.read_text().count("with-place") == 1          # --check writes nothing


def _bash_complete(line: str) -> list[str]:
    """What bash offers for the last word of ``line`` (as the shell would call the
    completion function), in the repository's top folder."""
    words = line.split(" ")
    script = (f"source {DATA / 'urlsift.bash'}\n"
              f"COMP_WORDS=({' '.join(words)}); COMP_CWORD={len(words) - 1}\n"
              f"COMP_LINE='{line}'; COMP_POINT=${{#COMP_LINE}}\n"
              f"_shtab_urlsift urlsift '{words[-1]}' '{words[-2]}'\n"
              "printf '%s\\n' \"${COMPREPLY[@]}\"\n")
    done = subprocess.run(["bash", "--norc", "--noprofile", "-c", script], cwd=ROOT,
                          capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return sorted(w.strip() for w in done.stdout.splitlines() if w.strip())


@pytest.mark.skipif(shutil.which("bash") is None, reason="no bash")
def test_bash_completes_commands_options_choices_and_files():
    assert subprocess.run(["bash", "-n", str(DATA / "urlsift.bash")]).returncode == 0
    assert _bash_complete("urlsift ext") == ["extract"]
    assert _bash_complete("urlsift extract --with-p") == ["--with-position"]
    assert _bash_complete("urlsift extract -f j") == ["jsonl"]
    assert _bash_complete("urlsift stats --exclude-s") == ["--exclude-schemes"]
    assert _bash_complete("urlsift completion ") == ["bash", "fish", "zsh"]
    assert "samples" in _bash_complete("urlsift extract sam")          # a FILE positional
    assert "samples" in _bash_complete("urlsift extract -o sam")       # -o FILE


@pytest.mark.skipif(shutil.which("zsh") is None, reason="no zsh")
def test_zsh_completion_parses():
    assert subprocess.run(["zsh", "-n", str(DATA / "_urlsift")]).returncode == 0
    assert shipped_text("_urlsift").startswith("#compdef urlsift")


def test_fish_completion_has_every_option_of_every_subcommand():
    text = shipped_text("urlsift.fish")
    sub = [a for a in build_parser()._actions if a.dest == "command"][0]
    for name, parser in sub.choices.items():
        for action in parser._actions:
            for opt in action.option_strings if action.help != argparse.SUPPRESS else ():
                flag = f"-l {opt[2:]}" if opt.startswith("--") else f"-s {opt[1:]}"
                assert any(f"'_shtab_urlsift_using {name}'" in line and flag in line
                           for line in text.splitlines()), (name, opt)


def _fish_complete(line: str) -> list[str]:
    done = subprocess.run(["fish", "--no-config", "-c",
                           f"source {DATA / 'urlsift.fish'}; complete -C '{line}'"],
                          cwd=ROOT, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    return sorted(w.split("\t")[0] for w in done.stdout.splitlines())


@pytest.mark.skipif(shutil.which("fish") is None, reason="no fish")
def test_fish_completes_commands_options_choices_and_files():
    assert subprocess.run(["fish", "--no-execute", str(DATA / "urlsift.fish")]).returncode == 0
    assert _fish_complete("urlsift ext") == ["extract"]
    assert _fish_complete("urlsift extract --with-p") == ["--with-position"]
    assert _fish_complete("urlsift extract --format ") == ["csv", "jsonl", "parquet", "text"]
    assert _fish_complete("urlsift completion ") == ["bash", "fish", "zsh"]
    assert "samples/" in _fish_complete("urlsift extract sam")
    assert "samples/" in _fish_complete("urlsift extract -o sam")


def test_man_page_renders():
    groff = shutil.which("groff")
    if groff is None:
        pytest.skip("no groff")
    done = subprocess.run([groff, "-man", "-Tutf8", "-ww"], input=shipped_text("urlsift.1").encode(),
                          capture_output=True)
    assert done.returncode == 0
    assert done.stderr == b""                                  # -ww: not one warning
    page = re.sub(".\x08", "", done.stdout.decode("utf-8", "replace"))   # no overstrike
    for command in ("extract", "stats", "validate", "parse", "completion", "man"):
        assert f"urlsift {command}" in page, command
    assert "only the names of files with a URL" in page       # the help of -l
    assert "FILE   '-' or none: standard input" in page       # validate's: a line from '


@pytest.mark.parametrize("shell", sorted(SHELLS))
def test_completion_command_prints_the_script(shell, capsys):
    assert main(["completion", shell]) == 0
    assert capsys.readouterr().out == shipped_text(SHELLS[shell])


def test_man_command_prints_the_page(capsys):
    assert main(["man"]) == 0
    assert capsys.readouterr().out.startswith(".TH URLSIFT")
