"""Builds the Cython core: every ``ext/urlsift/NAME_c.pyx`` becomes ``urlsift.NAME_c``.

(The twin of ``urlsift.NAME_c`` is ``src/urlsift/NAME_py.py``. ``ext/`` is the
Cython include path, so ``from urlsift._core_c cimport ...`` finds ``ext/urlsift/_core_c.pxd``.)

Metadata lives in pyproject.toml; this file only declares the extensions.
"""
import os
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent
# .ci/sanitize builds with -O1 -g (readable sanitizer reports); every other build -O3
COMPILE_ARGS = os.environ.get("URLSIFT_EXTRA_COMPILE_ARGS", "-O3").split()
extensions = [
    Extension(f"urlsift.{pyx.stem}", [str(pyx.relative_to(HERE))], extra_compile_args=COMPILE_ARGS)
    for pyx in sorted((HERE / "ext" / "urlsift").glob("*.pyx"))
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        include_path=[str(HERE / "ext")],
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    )
)
