"""``-H``: a file name is shown the same way for a text input and a mail input (issue
25): its octets in text lines, as grep and rg print it, whether it is UTF-8 or not; in
JSON lines, valid Unicode with each octet that is not UTF-8 as ``%XX`` (docs/cli.md)."""
from __future__ import annotations

import json
import os

import pytest

MBOX = (b"From a@example.org Thu Jan  1 00:00:00 2026\nSubject: x\n\n"
        b"see http://m.example/ ok\n")


@pytest.fixture
def names(tmp_path):
    """A text file and an mbox whose names hold the octet 0xFF (not UTF-8)."""
    folder = os.fsencode(str(tmp_path))
    text, box = os.path.join(folder, b"t\xff.txt"), os.path.join(folder, b"m\xff.mbox")
    with open(text, "wb") as f:
        f.write(b"see http://t.example/ ok\n")
    with open(box, "wb") as f:
        f.write(MBOX)
    return tmp_path


@pytest.mark.parametrize("extra", [[], ["-n"], ["-j", "2"], ["--host", "*.example"],
                                   ["--exclude-schemes", "news"], ["-b"]])
def test_text_lines_show_both_names_as_their_octets(run, names, extra):
    got = run("extract", "-H", *extra, "t\udcff.txt", cwd=names)
    assert got.returncode == 0, got.stderr
    assert got.stdout.startswith(b"t\xff.txt:")
    got = run("extract", "-H", "--mbox", *extra, "m\udcff.mbox", cwd=names)
    assert got.returncode == 0, got.stderr
    assert got.stdout.startswith(b"m\xff.mbox:")
    assert got.stdout.endswith(b"http://m.example/\n")


def test_json_lines_show_both_names_as_percent_octets(run, names):
    for name, mbox in (("t\udcff.txt", []), ("m\udcff.mbox", ["--mbox"])):
        got = run("extract", "-H", "--format", "jsonl", *mbox, name, cwd=names)
        assert got.returncode == 0, got.stderr
        assert json.loads(got.stdout)["file"] == name.replace("\udcff", "%FF")
