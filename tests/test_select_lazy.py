"""The mail core is imported at its first use, not with the package (issue 27: start-up).

``import urlsift`` leaves the mail walker and its twin unloaded; the first spool read
loads the core of the kind in use; a compiled mail core that is there but does not load
(a stale build) is said in a warning and its twin serves.
"""
from __future__ import annotations

import sys
import warnings

import pytest

from urlsift import _select


def test_import_urlsift_loads_no_mail_core(fresh):
    out = fresh("import sys, urlsift, urlsift._select\n"
                "print(sorted(m for m in sys.modules if m.startswith('urlsift._mail')))\n"
                "urlsift._select.cores.mail\n"
                "print(sorted(m for m in sys.modules if m.startswith('urlsift._mail')))\n")
    assert out[0] == "[]"
    kind = "_mail_c" if _select.KIND == "cython" else "_mail_py"
    assert f"urlsift.{kind}" in out[1]


@pytest.mark.twins
def test_a_compiled_mail_core_that_does_not_load_gives_way_to_its_twin(monkeypatch):
    real = _select._import

    def broken(name, kind):
        if name == "_mail" and kind == "cython":
            raise ImportError("undefined symbol: stale_build")
        return real(name, kind)

    monkeypatch.setattr(_select, "_import", broken)
    cores = _select._Cores()
    cores.kind = "cython"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        module = cores.mail
    assert module.__name__ == "urlsift._mail_py"
    assert any("stale_build" in str(w.message) for w in caught)


def test_an_unknown_core_is_an_attribute_error():
    with pytest.raises(AttributeError):
        _select.cores.no_such_core   # noqa: B018
