"""The installed package really carries the compiled core."""
import os

import pytest

import urlsift
from urlsift import _select


@pytest.mark.skipif(os.environ.get("URLSIFT_PURE", "") not in ("", "0"),
                    reason="URLSIFT_PURE forces the twin")
def test_normal_install_loads_the_cython_core():
    # A broken build must not pass silently on the twin (issue: core selection).
    assert urlsift.CORE == "cython"
    assert "cython" in _select.available_kinds()
    assert _select.twins("_core")["cython"].__name__ == "urlsift._core_c"


def test_use_switches_every_module(core_kind):
    assert _select.cores.core.__name__ == f"urlsift._core_{'c' if core_kind == 'cython' else 'py'}"


def test_public_codec_functions_are_the_core_in_use(core_kind):
    # No wrapper between a user's hot loop and the core; switching cores rebinds them.
    import urlsift.codec

    for name in ("unquote", "unquote_to_bytes", "quote"):
        assert getattr(urlsift, name) is getattr(_select.cores.core, name)
        assert getattr(urlsift.codec, name) is getattr(_select.cores.core, name)


def test_url_objects_decode_with_the_core_in_use(core_kind, monkeypatch):
    # A module that kept an import-time reference to a core function would escape
    # the switch between cores, and half the suite would test the wrong twin.
    from urlsift.model.parsing import parse

    module = _select.cores.core
    calls = []
    real = module.unquote

    def spy(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(module, "unquote", spy)
    _select._rebind()
    try:
        assert parse("ftp://h/a%20b/c%2Fd").segments == ("a b", "c/d")
    finally:
        monkeypatch.undo()
        _select._rebind()
    assert calls, "decoding did not go through the core in use"
