"""Which core is in use: the compiled Cython modules, or their pure-Python twins.

Like yarl: import the compiled module, fall back to the twin when it is missing,
and let ``URLSIFT_PURE=1`` force the twin (for debugging and for the tests).
"""
from __future__ import annotations

import importlib
import os
from types import ModuleType

PURE = os.environ.get("URLSIFT_PURE", "") not in ("", "0")


def load(name: str) -> tuple[ModuleType, str]:
    """Return (module, kind) for core ``name``: ``urlsift.{name}_c`` or ``urlsift.{name}_py``."""
    if not PURE:
        try:
            return importlib.import_module(f"urlsift.{name}_c"), "cython"
        except ImportError:
            pass
    return importlib.import_module(f"urlsift.{name}_py"), "python"


def twins(name: str) -> dict[str, ModuleType]:
    """Both implementations of core ``name`` that can be imported, by kind (for tests)."""
    found = {"python": importlib.import_module(f"urlsift.{name}_py")}
    try:
        found["cython"] = importlib.import_module(f"urlsift.{name}_c")
    except ImportError:
        pass
    return found
