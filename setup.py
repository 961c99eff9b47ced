"""Builds the Cython core: every ``ext/urlsift/NAME_c.pyx`` becomes ``urlsift.NAME_c``.

(The twin of ``urlsift.NAME_c`` is ``src/urlsift/NAME_py.py``. ``ext/`` is the
Cython include path, so ``from urlsift._core_c cimport ...`` finds ``ext/urlsift/_core_c.pxd``.)

Metadata lives in pyproject.toml; this file only declares the extensions.
"""
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent
extensions = [
    Extension(f"urlsift.{pyx.stem}", [str(pyx.relative_to(HERE))], extra_compile_args=["-O3"])
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
