"""Builds the Cython core: every ``ext/urlsift/NAME_c.pyx`` becomes ``urlsift.NAME_c``.

(The twin of ``urlsift.NAME_c`` is ``src/urlsift/NAME_py.py``. ``ext/`` is the
Cython include path, so ``from urlsift._core_c cimport ...`` finds ``ext/urlsift/_core_c.pxd``.)

The extension is optional, as in multidict, yarl and frozenlist: when it cannot be
built (no C compiler, no Python headers, Cython missing or failing) the install goes on
with the pure-Python core (``urlsift._select`` picks it when a compiled core is missing)
and says so. ``URLSIFT_NO_EXTENSIONS=1`` skips the build on purpose;
``URLSIFT_REQUIRE_EXTENSIONS=1`` makes a failed build fail the install (CI: the tests
must run on both cores, never quietly on one). ``URLSIFT_EXTRA_COMPILE_ARGS`` replaces
the optimisation flags (.ci/sanitize). The core is all or nothing (``_select`` takes the
compiled one only when every module loads), so after the first module that fails the
others are not tried.

Metadata lives in pyproject.toml; this file only declares the extensions.
"""
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py
from setuptools.errors import CCompilerError, ExecError, PlatformError

HERE = Path(__file__).parent
# .ci/sanitize builds with -O1 -g (readable sanitizer reports); every other build -O3
COMPILE_ARGS = os.environ.get("URLSIFT_EXTRA_COMPILE_ARGS",
                              "/O2" if sys.platform == "win32" else "-O3").split()
SKIP = os.environ.get("URLSIFT_NO_EXTENSIONS", "") not in ("", "0")
REQUIRE = os.environ.get("URLSIFT_REQUIRE_EXTENSIONS", "") not in ("", "0")
#: What a compiler that is missing or failing raises (CompileError and LinkError are
#: CCompilerErrors; PlatformError: no compiler for this platform, e.g. no MSVC;
#: ValueError: MSVC's paths, as multidict and yarl catch it).
BUILD_ERRORS = (CCompilerError, ExecError, PlatformError, ValueError)
#: Measured on x86-64 (12 MB of log lines, 120,000 distinct URLs): finding URLs 54x,
#: is_valid 89x, parse 46x, tokenize 12x slower in the pure core.
SLOWER = "about 50x slower at finding and checking URLs"


def _warn(why: object) -> None:
    if REQUIRE:
        sys.exit(f"urlsift: URLSIFT_REQUIRE_EXTENSIONS is set and the C extension could "
                 f"not be built: {why}")
    sys.stderr.write(
        f"\n*** urlsift: the C extension could not be built ({why}); installing the "
        f"pure-Python core, which gives the same results, {SLOWER}. Install a C compiler "
        "and the Python headers (or a wheel) for the compiled one. ***\n\n")


class OptionalBuildExt(build_ext):
    """``build_ext`` whose failure leaves the pure-Python core in place of the compiled one."""

    failed = False

    def run(self):
        try:
            super().run()
        except (PlatformError, FileNotFoundError) as exc:     # no compiler at all
            self._give_up(exc)

    def build_extension(self, ext):
        if self.failed:
            return
        try:
            super().build_extension(ext)
        except BUILD_ERRORS as exc:     # no compiler, no Python.h, a compiler error
            self._give_up(f"{ext.name}: {exc}")

    def _give_up(self, why: object) -> None:
        self.failed = True
        _warn(why)


class FreshBuildPy(build_py):
    """``build_py`` that leaves no compiled module in the build folder: a ``build/`` kept
    from an earlier build (or a module built in place, ``build_ext --inplace``) would
    otherwise go into a pure-Python install, stale, beside the sources it was not built
    from. ``build_ext`` runs after this and puts there what it builds now."""

    def run(self):
        super().run()
        package = Path(self.build_lib) / "urlsift"
        for path in package.glob("*_c.*"):
            if path.suffix in (".so", ".pyd"):
                path.unlink()


def _extensions():
    if SKIP:
        sys.stderr.write("urlsift: URLSIFT_NO_EXTENSIONS is set: the pure-Python core only\n")
        return []
    try:
        from Cython.Build import cythonize
    except ImportError as exc:
        _warn(f"Cython is not installed: {exc}")
        return []
    extensions = [
        Extension(f"urlsift.{pyx.stem}", [str(pyx.relative_to(HERE))],
                  extra_compile_args=COMPILE_ARGS)
        for pyx in sorted((HERE / "ext" / "urlsift").glob("*.pyx"))
    ]
    try:
        return cythonize(
            extensions,
            language_level=3,
            include_path=[str(HERE / "ext")],
            compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
        )
    except Exception as exc:    # Cython failing (CompileError of its own, a bad version...)
        _warn(f"Cython failed: {exc}")
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt, "build_py": FreshBuildPy})
