"""The documents stand on their own: every relative Markdown link in README.md and
docs/*.md names a file of the repository and, with ``#anchor``, a heading of that file
(GitHub's anchors: the heading's text in lower case, punctuation dropped, spaces made
``-``, a repeated heading numbered ``-1``, ``-2``...); and nothing cites the steering
file that is not in the repository (its name is spelt below without being written).
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Iterator

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: The file the docs once cited and the repository never had (docs/design.md replaced it).
GONE = "DESIGN" + ".md"
#: Where no file may cite it.
CITING = [ROOT / "src", ROOT / "docs", ROOT / "tests", ROOT / "benchmarks", ROOT / "fuzz",
          ROOT / "README.md"]
TEXT_SUFFIXES = {".py", ".pyx", ".pxi", ".pxd", ".md", ".txt", ".toml", ".cfg", ".json",
                 ".rst", ".in", ".1", ".bash", ".zsh", ".fish", ""}

_FENCE = re.compile(r"^(```|~~~)")
_CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1")
_INLINE_LINK = re.compile(r"\[(?:[^\[\]]|\[[^\[\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REF_DEF = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$")
_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_HTML_ID = re.compile(r"<a\s+(?:name|id)=\"([^\"]+)\"")


def prose_lines(text: str) -> Iterator[tuple[int, str]]:
    """The lines outside fenced code blocks, numbered from 1."""
    fenced = False
    for n, line in enumerate(text.splitlines(), 1):
        if _FENCE.match(line.lstrip()):
            fenced = not fenced
            continue
        if not fenced:
            yield n, line


def slug(heading: str) -> str:
    """GitHub's anchor of a heading's text: the rendered text (code spans without their
    backticks, links as their text) in lower case, every character that is not a
    letter, digit, ``_``, ``-`` or space dropped, and each space made ``-``.

    >>> slug('`resolve` (rules="draft")'), slug("Edits of a match (`Match.edits`)")
    ('resolve-rulesdraft', 'edits-of-a-match-matchedits')
    """
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)     # a link: its text
    text = text.replace("`", "").strip().lower()
    text = "".join(ch for ch in text if ch.isalnum() or ch in "_- ")
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of ``path``'s headings (numbered when repeated) and HTML ids."""
    out: set[str] = set()
    seen: dict[str, int] = {}
    for _, line in prose_lines(path.read_text(encoding="utf-8")):
        m = _HEADING.match(line)
        if m:
            base = slug(m.group(2))
            k = seen.get(base, 0)
            seen[base] = k + 1
            out.add(base if k == 0 else f"{base}-{k}")
        out.update(_HTML_ID.findall(line))
    return out


def links(path: Path) -> Iterator[tuple[int, str]]:
    """Every link target of ``path`` (inline and reference definitions) outside code."""
    for n, line in prose_lines(path.read_text(encoding="utf-8")):
        m = _REF_DEF.match(line)
        if m:
            yield n, m.group(1)
            continue
        for target in _INLINE_LINK.findall(_CODE_SPAN.sub("", line)):
            yield n, target


def broken(path: Path) -> list[str]:
    """What is wrong with the relative links of ``path``: one line each."""
    out = []
    for n, target in links(path):
        if re.match(r"^[a-zA-Z][a-zA-Z0-9+.-]*:", target):      # http:, mailto: ...
            continue
        name, _, anchor = target.partition("#")
        dest = (path.parent / name).resolve() if name else path
        where = f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}:{n}"
        if not dest.exists():
            out.append(f"{where}: {target!r}: no file {name!r}")
        elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
            out.append(f"{where}: {target!r}: no heading with the anchor {anchor!r} "
                       f"in {dest.name}")
        elif anchor and dest.suffix != ".md":
            out.append(f"{where}: {target!r}: an anchor into a file that is no Markdown")
    return out


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_and_anchor_resolves(doc):
    assert broken(doc) == []


def test_the_documents_are_there():
    # the design document and the ones it leans on exist, so a wholesale loss of docs/
    # does not pass as "no broken link"
    names = {p.name for p in DOCS}
    assert {"README.md", "design.md", "layout.md", "codes.md", "cli.md"} <= names


def test_the_checker_finds_a_missing_file_a_missing_anchor_and_ignores_code(tmp_path):
    (tmp_path / "there.md").write_text("# A title\n\n## `resolve` (rules=\"draft\")\n\n"
                                       "## Twice\n\n## Twice\n", encoding="utf-8")
    doc = tmp_path / "doc.md"
    doc.write_text(
        "[ok](there.md) [ok](there.md#a-title) [ok](there.md#resolve-rulesdraft)\n"
        "[ok](there.md#twice-1) [ok](#here) [web](https://example.com/x#y)\n"
        "[gone](missing.md)\n"
        "[bad anchor](there.md#nowhere)\n"
        "`[in code](missing2.md)` and\n```\n[fenced](missing3.md)\n```\n"
        "## Here\n", encoding="utf-8")
    problems = broken(doc)
    assert len(problems) == 2
    assert "'missing.md'" in problems[0] and ":3:" in problems[0]
    assert "'nowhere'" in problems[1] and ":4:" in problems[1]


def citing_files() -> Iterator[Path]:
    for top in CITING:
        paths = [top] if top.is_file() else sorted(top.rglob("*"))
        for p in paths:
            if p.is_file() and p.suffix in TEXT_SUFFIXES and "__pycache__" not in p.parts:
                yield p


def test_no_file_cites_the_missing_steering_file():
    found = [f"{p.relative_to(ROOT)}:{n}" for p in citing_files()
             for n, line in enumerate(p.read_text(encoding="utf-8", errors="replace")
                                      .splitlines(), 1)
             if GONE in line]
    assert found == []


def test_the_citation_check_can_fail(tmp_path):
    # the search above is a plain substring search: it sees the name where it is written
    sample = tmp_path / "x.py"
    sample.write_text(f'"""see {GONE} §Equivalence"""\n', encoding="utf-8")
    assert GONE in sample.read_text(encoding="utf-8")
    assert sample.suffix in TEXT_SUFFIXES
