"""The examples in docstrings and in the README are run, on both cores."""
import doctest
import importlib
import pkgutil
from pathlib import Path

import pytest

import urlsift

MODULES = sorted(
    name for _, name, _ in pkgutil.walk_packages(urlsift.__path__, "urlsift.")
    if not name.endswith("_c") and not name.endswith("__main__")
)
README = Path(__file__).resolve().parent.parent / "README.md"


@pytest.mark.parametrize("name", ["urlsift"] + MODULES)
def test_docstring_examples(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0


@pytest.mark.skipif(not README.exists(), reason="README.md is not beside the tests")
def test_readme_examples():
    result = doctest.testfile(str(README), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.failed == 0 and result.attempted > 0
