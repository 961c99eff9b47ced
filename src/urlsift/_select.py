"""Which core is in use: the compiled Cython modules, or their pure-Python twins.

Like yarl: import the compiled module, fall back to the twin when it is missing,
and let ``URLSIFT_PURE=1`` force the twin. Every core ``NAME`` is a pair
``urlsift.NAME_c`` (built from ``ext/urlsift/NAME_c.pyx``) and ``urlsift.NAME_py``.

Modules above the core reach it through :data:`cores` at call time
(``cores.core.tokenize(s)``), or export a core function itself under a public name
with :func:`bind` (no wrapper: hot loops pay one call). :func:`use` switches both
to the other twin at once; the test suite runs each test under both this way.
"""
from __future__ import annotations

import contextlib
import importlib
import importlib.util
import os
import warnings
from types import ModuleType, SimpleNamespace
from typing import Iterator

#: The cores: attribute name in :data:`cores` -> module base name.
CORE_NAMES: dict[str, str] = {
    "core": "_core", "check": "_check", "scan": "_scan", "build": "_build", "pipe": "_pipe",
    "guard": "_guard", "mail": "_mail", "lines": "_lines", "json": "_json", "html": "_html",
    "records": "_records",
}
PURE = os.environ.get("URLSIFT_PURE", "") not in ("", "0")


def _import(name: str, kind: str) -> ModuleType:
    suffix = "_c" if kind == "cython" else "_py"
    return importlib.import_module(f"urlsift.{name}{suffix}")


def _compiled_built() -> bool:
    """Whether every compiled core is there, asked of the import system without importing
    one: each core is imported at its first use (a program that reads no spool never
    loads the mail walker; ``import urlsift`` loads none)."""
    return all(importlib.util.find_spec(f"urlsift.{name}_c") is not None
               for name in CORE_NAMES.values())


def _compiled_available() -> bool:
    """Whether every compiled core is there and imports (for the tests' choice of kinds)."""
    try:
        for name in CORE_NAMES.values():
            _import(name, "cython")
    except ModuleNotFoundError:
        return False           # not built: the pure twin serves, as designed
    except Exception as exc:   # built but broken (e.g. stale): say so, then fall back
        warnings.warn(f"urlsift: the compiled core does not load ({exc}); "
                      "using the pure-Python twin", RuntimeWarning, stacklevel=2)
        return False
    return True


#: "cython" when every compiled core is built (and URLSIFT_PURE is not set), else "python".
#: A compiled core that is there but does not load (a stale build) is said in a warning
#: at its first use, and its twin serves.
KIND: str = "python" if PURE or not _compiled_built() else "cython"


class _Cores(SimpleNamespace):
    """The modules in use, by attribute, each imported at its first use."""

    kind = KIND

    def __getattr__(self, attr: str) -> ModuleType:     # only for what is not set yet
        name = CORE_NAMES.get(attr)
        if name is None:
            raise AttributeError(attr)
        try:
            module = _import(name, self.kind)
        except Exception as exc:    # built but broken (a stale build): said, the twin serves
            if self.kind != "cython":
                raise
            warnings.warn(f"urlsift: the compiled {name} core does not load ({exc}); "
                          "using its pure-Python twin", RuntimeWarning, stacklevel=2)
            module = _import(name, "python")
        setattr(self, attr, module)
        return module


#: The modules in use, by attribute: ``cores.core``...
cores = _Cores()


def available_kinds() -> list[str]:
    """The kinds that can be imported here: always "python", and "cython" when built."""
    return ["cython", "python"] if _compiled_available() else ["python"]


def twins(name: str) -> dict[str, ModuleType]:
    """Both implementations of core ``name`` that can be imported, by kind (for tests)."""
    return {kind: _import(name, kind) for kind in available_kinds()}


_bound: list[tuple[dict, str, tuple[str, ...]]] = []


def bind(namespace: dict, attr: str, names: tuple[str, ...]) -> None:
    """Put the functions ``names`` of core ``attr`` into ``namespace`` (a module's globals)."""
    _bound.append((namespace, attr, names))
    _rebind()


def _rebind() -> None:
    for namespace, attr, names in _bound:
        module = getattr(cores, attr)
        for name in names:
            namespace[name] = getattr(module, name)


@contextlib.contextmanager
def use(kind: str) -> Iterator[None]:
    """Switch every module to the ``kind`` core ("cython" or "python") for a while."""
    saved = dict(vars(cores))
    for attr, name in CORE_NAMES.items():
        setattr(cores, attr, _import(name, kind))
    cores.kind = kind
    _rebind()
    try:
        yield
    finally:
        vars(cores).clear()
        vars(cores).update(saved)
        _rebind()
