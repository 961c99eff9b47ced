"""The floor plan stays true: imports go down the layers, never up, never in a circle.

The layers (docs/layout.md), bottom to top: 1 the core (the ``_NAME_py`` twins, their
compiled ``_NAME_c`` modules, the mail walker's rooms ``_mail_ROOM_py``, ``charclass``,
``errors``, ``codec``, ``_layout``, ``_fields``, ``_grammar``, ``_select``, ``_marks``,
``_mail_records``, ``_hints``, ``_known``, ``_letters``, ``_entities``), 2 ``model``,
3 ``text``, 4 ``mail``, 5 ``inputs``, 6 the public API (``urlsift/__init__.py``), 7 ``cli``
and ``__main__``.

The import graph is read from the code with ``ast``: every ``import`` and
``from ... import`` anywhere in a module, inside functions too, except those under
``if TYPE_CHECKING:`` (they never run). The compiled cores' ``.pyx`` sources are read
for their ``import``/``cimport`` lines as well.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
EXT = ROOT / "ext"
PACKAGE = "urlsift"

pytestmark = pytest.mark.twins    # nothing here depends on the core in use

LAYERS = {"model": 2, "text": 3, "mail": 4, "inputs": 5, "dask": 6, "cli": 7, "__main__": 7}
CORE_MODULES = {"charclass", "errors", "codec", "_layout", "_fields", "_grammar", "_select",
                "_marks", "_hints", "_known", "_letters", "_mail_records", "_entities"}


def layer_of(module: str) -> int:
    """The layer of a module of the package (its dotted name)."""
    if module == PACKAGE:
        return 6
    first = module.split(".")[1]
    if first in LAYERS:
        return LAYERS[first]
    # a twin or its compiled module; the mail walker's rooms are _mail_ROOM_py
    if first in CORE_MODULES or re.fullmatch(r"_[a-z]+(_[a-z]+)?_(py|c)", first):
        return 1
    raise AssertionError(f"{module} is in no layer: add it to one (docs/layout.md)")


def modules(src: Path = SRC) -> dict[str, Path]:
    """Dotted name -> path of every Python module of the package."""
    out = {}
    for path in sorted((src / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(src).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking_nodes(tree: ast.AST) -> set[int]:
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip.update(id(n) for n in ast.walk(node))
    return skip


def _owner(name: str, known: set[str]) -> str | None:
    """The module of the package that ``name`` (a module or a name in one) falls in."""
    while name and name not in known:
        name = name.rpartition(".")[0]
    return name or None


def _from_module(module: str, is_pkg: bool, node: ast.ImportFrom) -> str:
    """The dotted module a ``from ... import`` in ``module`` reads (relative ones resolved)."""
    if not node.level:
        return node.module or ""
    base = module.split(".") if is_pkg else module.split(".")[:-1]
    base = base[:len(base) - (node.level - 1)]
    return ".".join(base + ([node.module] if node.module else []))


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """The modules of the package that ``module`` imports (function-level included)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip = _type_checking_nodes(tree)
    is_pkg = path.name == "__init__.py"
    found: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            prefix = _from_module(module, is_pkg, node)
            # "from . import x" imports submodule x when there is one, else a name of "."
            targets = [f"{prefix}.{a.name}" if f"{prefix}.{a.name}" in known else prefix
                       for a in node.names]
        else:
            continue
        for target in targets:
            owner = _owner(target, known)
            if owner is not None and owner != module:
                found.add(owner)
    return found


def private_imports(src: Path = SRC) -> list[str]:
    """Every ``from X import _name`` where ``X`` is a module of another layer than the
    importer's (docs/layout.md: no private name crosses a layer). A module of the package
    imported by its name (``from .. import _select``) is no private name, nor a dunder."""
    mods = modules(src)
    known = set(mods)
    found = []
    for module, path in mods.items():
        is_pkg = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.ImportFrom):
                continue
            prefix = _from_module(module, is_pkg, node)
            owner = _owner(prefix, known)
            if owner is None:
                continue
            for alias in node.names:
                name = alias.name
                if (name.startswith("_") and not name.endswith("__")
                        and f"{prefix}.{name}" not in known
                        and layer_of(owner) != layer_of(module)):
                    found.append(f"{module} imports {name} from {owner}")
    return found


def import_graph(src: Path = SRC) -> dict[str, set[str]]:
    mods = modules(src)
    known = set(mods)
    return {name: imports_of(name, path, known) for name, path in mods.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (``[a, b, ..., a]``), or None when there is none."""
    state: dict[str, int] = {}     # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def test_the_cycle_finder_finds_a_circle_through_a_function_level_import(tmp_path):
    # A made-up package whose only circle runs through an import inside a function:
    # the finder must see it (the check below would pass vacuously otherwise).
    pkg = tmp_path / PACKAGE
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from .sub import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from .. import a\n    return a\n")
    (pkg / "c.py").write_text("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n"
                              "    from . import a\n")
    graph = import_graph(tmp_path)
    assert graph[f"{PACKAGE}.sub.b"] == {f"{PACKAGE}.a"}
    assert graph[f"{PACKAGE}.c"] == set()                 # TYPE_CHECKING-only: left out
    assert find_cycle(graph) == [f"{PACKAGE}.a", f"{PACKAGE}.sub.b", f"{PACKAGE}.a"]


def test_no_import_circle_in_the_package():
    graph = import_graph()
    assert len(graph) > 40            # the walk found the package
    assert find_cycle(graph) is None, " -> ".join(find_cycle(graph) or ())


def test_imports_go_down_the_layers():
    upward = [f"{a} (layer {layer_of(a)}) imports {b} (layer {layer_of(b)})"
              for a, targets in import_graph().items() for b in targets
              if layer_of(b) > layer_of(a)]
    assert upward == []


def test_the_compiled_cores_import_only_the_core():
    pattern = re.compile(r"^\s*(?:from\s+(urlsift[\w.]*)\s+c?import|c?import\s+(urlsift[\w.]*))",
                         re.MULTILINE)
    seen = 0
    for pyx in sorted(EXT.rglob("*.p*")):
        for m in pattern.finditer(pyx.read_text(encoding="utf-8")):
            target = m.group(1) or m.group(2)
            if target == PACKAGE:      # "from urlsift import _scan_py": a core module
                continue
            seen += 1
            assert layer_of(target) == 1, f"{pyx.name} imports {target}"
    assert seen > 0


def test_import_urlsift_stays_light(fresh):
    # The mail layer and the command load what a scan of logs never needs.
    heavy = ["email", "mailbox", "html.parser", "argparse", "urlsift.mail", "urlsift.cli",
             "urlsift.dask", "dask", "distributed"]
    assert fresh(f"import sys, urlsift; print([m for m in {heavy!r} if m in sys.modules])") == [
        "[]"]


@pytest.mark.twins
def test_import_urlsift_loads_a_name_at_its_first_use(fresh):
    # issue 27, start-up: "load what a call needs when it is called" (PEP 562)
    out = fresh("import sys, urlsift\n"
                "def loaded(): return sorted(m for m in sys.modules if m.startswith('urlsift.'))\n"
                "print(loaded()); urlsift.parse; print(loaded())\n"
                "print(urlsift.CORE)\n")
    assert out[0] == "[]"
    after_parse = eval(out[1])
    assert "urlsift.model.parsing" in after_parse
    assert not [m for m in after_parse if m.startswith(("urlsift.text", "urlsift.inputs"))]
    assert out[2].split()[0] in ("cython", "python")


def test_the_private_import_finder_sees_a_private_name_crossing_a_layer(tmp_path):
    # A made-up package: text imports a private name of model (another layer: found),
    # model.b one of model.a (the same layer: allowed), and text a private *module* of
    # the core by its name (allowed: the core's modules are all named "_...").
    pkg = tmp_path / PACKAGE
    for sub in ("model", "text"):
        (pkg / sub).mkdir(parents=True)
        (pkg / sub / "__init__.py").write_text("")
    (pkg / "__init__.py").write_text("__version__ = '1'\n")
    (pkg / "_layout.py").write_text("")
    (pkg / "model" / "a.py").write_text("_hidden = 1\n")
    (pkg / "model" / "b.py").write_text("from .a import _hidden\n")
    (pkg / "text" / "c.py").write_text("from .. import _layout, __version__\n"
                                       "def f():\n    from ..model.a import _hidden\n")
    assert private_imports(tmp_path) == [f"{PACKAGE}.text.c imports _hidden from {PACKAGE}.model.a"]


def test_no_private_name_is_imported_across_a_layer():
    assert private_imports() == []


@pytest.mark.twins
def test_the_command_on_a_log_loads_no_mail_layer(fresh, tmp_path):
    # start-up (issue 27): what a text input never needs stays unloaded, whatever the format
    log = tmp_path / "a.log"
    log.write_bytes(b'1.2.3.4 - - "GET / HTTP/1.1" 200 9 "http://a.example/"\n')
    out = fresh("import io, sys, contextlib\n"
                "from urlsift.cli import main\n"
                f"for fmt in ('text', 'jsonl', 'csv'):\n"
                f"    with contextlib.redirect_stdout(io.StringIO()):\n"
                f"        main(['extract', '-f', fmt, {str(log)!r}])\n"
                "print(sorted(m for m in sys.modules if m == 'email' or m.startswith('urlsift.mail')))\n")
    assert out == ["[]"]
