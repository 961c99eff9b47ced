"""Builds the Cython core: every ``ext/urlsift/NAME.pyx`` becomes ``urlsift.NAME_c``.

Metadata lives in pyproject.toml; this file only declares the extensions.
"""
from pathlib import Path

from Cython.Build import cythonize
from setuptools import Extension, setup

HERE = Path(__file__).parent
extensions = [
    Extension(f"urlsift.{pyx.stem}_c", [str(pyx.relative_to(HERE))], extra_compile_args=["-O3"])
    for pyx in sorted((HERE / "ext" / "urlsift").glob("*.pyx"))
]

setup(
    ext_modules=cythonize(
        extensions,
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True},
    )
)
