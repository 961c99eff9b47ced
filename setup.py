"""Builds the Cython core: every ``ext/urlsift/NAME_c.pyx`` becomes ``urlsift.NAME_c``.

(The twin of ``urlsift.NAME_c`` is ``src/urlsift/NAME_py.py``. ``ext/`` is the
Cython include path, so ``from urlsift._core_c cimport ...`` finds ``ext/urlsift/_core_c.pxd``.)

The extension is optional, as in multidict, yarl and frozenlist: when it cannot be
built (no C compiler, no Python headers, Cython failing) the install goes on with the
pure-Python core (``urlsift._select`` picks it when a compiled core is missing) and
says so. ``URLSIFT_NO_EXTENSIONS=1`` skips the build on purpose;
``URLSIFT_REQUIRE_EXTENSIONS=1`` makes a failed build fail the install (CI: the tests
must run on both cores, never quietly on one).

Metadata lives in pyproject.toml; this file only declares the extensions.
"""
import os
import sys
from pathlib import Path

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).parent
# .ci/sanitize builds with -O1 -g (readable sanitizer reports); every other build -O3
COMPILE_ARGS = os.environ.get("URLSIFT_EXTRA_COMPILE_ARGS",
                              "/O2" if sys.platform == "win32" else "-O3").split()
SKIP = os.environ.get("URLSIFT_NO_EXTENSIONS", "") not in ("", "0")
REQUIRE = os.environ.get("URLSIFT_REQUIRE_EXTENSIONS", "") not in ("", "0")


def _warn(why: object) -> None:
    if REQUIRE:
        raise RuntimeError(f"urlsift: URLSIFT_REQUIRE_EXTENSIONS is set and the C extension "
                           f"could not be built: {why}")
    sys.stderr.write(
        "\n*** urlsift: the C extension could not be built ({}); installing the pure-Python "
        "core, which gives the same results, several times slower. Install a C compiler "
        "and the Python headers (or a wheel) for the fast one. ***\n\n".format(why))


class OptionalBuildExt(build_ext):
    """``build_ext`` whose failure leaves the pure-Python core in place of the compiled one."""

    def run(self):
        try:
            super().run()
        except Exception as exc:       # no compiler at all (DistutilsPlatformError...)
            _warn(exc)

    def build_extension(self, ext):
        try:
            super().build_extension(ext)
        except Exception as exc:       # CCompilerError, DistutilsExecError, a missing header
            _warn(f"{ext.name}: {exc}")


def _extensions():
    if SKIP:
        sys.stderr.write("urlsift: URLSIFT_NO_EXTENSIONS is set: the pure-Python core only\n")
        return []
    try:
        from Cython.Build import cythonize
        extensions = [
            Extension(f"urlsift.{pyx.stem}", [str(pyx.relative_to(HERE))],
                      extra_compile_args=COMPILE_ARGS)
            for pyx in sorted((HERE / "ext" / "urlsift").glob("*.pyx"))
        ]
        return cythonize(
            extensions,
            language_level=3,
            include_path=[str(HERE / "ext")],
            compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
        )
    except Exception as exc:           # Cython missing or failing: still installable
        _warn(f"Cython: {exc}")
        return []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})
