"""Which files of a tree ``urlsift extract -r`` leaves out, as ``rg`` does: the paths a
``.gitignore`` (or ``.ignore``) file lists, and the ``-g/--glob`` patterns.

The rules of gitignore(5) that matter for a walk, with the standard library only:

* blank lines and lines starting with ``#`` are nothing; ``\\#`` and ``\\!`` stand for a
  ``#`` or ``!`` at the start; spaces at the end are dropped;
* ``!PATTERN`` takes a path back in (the last rule that matches decides);
* ``PATTERN/`` matches directories only;
* a pattern with a ``/`` at its start or in its middle is relative to the directory of
  its ``.gitignore``; one without matches a name at any depth below it;
* ``*`` and ``?`` match within a name (never ``/``), ``[a-z]`` and ``[!a-z]`` one
  character; ``**/`` any number of directories, ``/**`` everything inside.

A directory left out is not entered, so nothing below it can be taken back in (as git).

>>> rules = Rules.parse("*.log\\n!keep.log\\nbuild/\\n/top.txt\\n", "")
>>> [rules.verdict(p, d) for p, d in [("a.log", False), ("x/keep.log", False),
...  ("x/build", True), ("x/build", False), ("top.txt", False), ("x/top.txt", False)]]
[True, False, True, None, True, None]
"""
from __future__ import annotations

import re
from typing import Optional, Sequence

__all__ = ["Rules", "glob_rules"]


def _translate(pattern: str) -> str:
    """The regular expression of one gitignore ``pattern`` (no ``!``, no end ``/``),
    over paths with ``/`` between names."""
    out = []
    i, n = 0, len(pattern)
    while i < n:
        if pattern.startswith("**/", i) and (i == 0 or pattern[i - 1] == "/"):
            out.append("(?:.*/)?")
            i += 3
        elif pattern.startswith("/**", i) and i + 3 == n:
            out.append("/.*")
            i += 3
        elif pattern.startswith("**", i):
            out.append(".*")
            i += 2
        elif pattern[i] == "*":
            out.append("[^/]*")
            i += 1
        elif pattern[i] == "?":
            out.append("[^/]")
            i += 1
        elif pattern[i] == "[" and "]" in pattern[i + 2:]:
            end = pattern.index("]", i + 2)
            body = pattern[i + 1:end]
            if body[:1] in "!^":
                body = "^" + body[1:]
            out.append("[" + body.replace("\\", "\\\\") + "]")
            i = end + 1
        elif pattern[i] == "\\" and i + 1 < n:
            out.append(re.escape(pattern[i + 1]))
            i += 2
        else:
            out.append(re.escape(pattern[i]))
            i += 1
    return "".join(out)


class Rules:
    """Compiled ignore rules, each ``(regex, taken_back, directories_only)``, over paths
    relative to the top of the walk; the last that matches decides."""

    def __init__(self, rules: Optional[list[tuple[re.Pattern[str], bool, bool]]] = None) -> None:
        self.rules = rules or []

    @classmethod
    def parse(cls, text: str, base: str) -> "Rules":
        """The rules of a ``.gitignore`` holding ``text`` in the directory ``base``
        (relative to the top of the walk, ``""`` for the top)."""
        rules = cls()
        rules.add(text.splitlines(), base)
        return rules

    def add(self, lines: Sequence[str], base: str) -> None:
        """Add the rules of ``lines`` read in directory ``base``."""
        prefix = base + "/" if base else ""
        for line in lines:
            line = line.rstrip("\n").rstrip(" ") if not line.endswith("\\ ") else line
            if not line or line.startswith("#"):
                continue
            taken_back = line.startswith("!")
            if taken_back:
                line = line[1:]
            elif line.startswith(("\\#", "\\!")):
                line = line[1:]
            dir_only = line.endswith("/")
            line = line.rstrip("/")
            if not line:
                continue
            anywhere = "/" not in line
            body = _translate(line.lstrip("/"))
            regex = re.escape(prefix) + ("(?:.*/)?" + body if anywhere else body)
            self.rules.append((re.compile(regex + r"\Z", re.S), taken_back, dir_only))

    def verdict(self, path: str, is_dir: bool) -> Optional[bool]:
        """True: ``path`` is left out; False: taken back in; None: no rule matches."""
        for regex, taken_back, dir_only in reversed(self.rules):
            if dir_only and not is_dir:
                continue
            if regex.match(path):
                return not taken_back
        return None

    def extended(self, text: str, base: str) -> "Rules":
        """These rules and those of ``text`` read in ``base`` (which come later, so
        they decide first), as a new object: a sibling directory keeps the old ones."""
        more = Rules(list(self.rules))
        more.add(text.splitlines(), base)
        return more


def glob_rules(globs: Sequence[str]) -> tuple[Rules, bool]:
    """``-g/--glob`` as rules (a glob leaves out what it matches when it starts with
    ``!``, keeps it otherwise), and whether any glob keeps (then a file that no glob
    keeps is left out, as ``rg -g``).

    >>> rules, keeping = glob_rules(["*.log", "!old/**"])
    >>> keeping, rules.verdict("a.log", False), rules.verdict("old/a.log", False)
    (True, False, True)
    """
    rules = Rules()
    # rg's globs say what to keep: the negation of an ignore rule
    rules.add([g[1:] if g.startswith("!") else "!" + g for g in globs], "")
    return rules, any(not g.startswith("!") for g in globs)
