"""Issue 2: the core — ``%hex`` decoding and tokenizing — beside the peers.

Group ``unquote``: every request target of the access log, decoded in one round by
urlsift (``urlsift.codec.unquote``, which is the selected core's own function: the
Cython core, and the pure twin for reference), ``urllib.parse.unquote`` and yarl's
Cython ``_Unquoter``. All decode leniently: malformed escapes are kept
(``strict=False`` for urlsift) and bad UTF-8 is replaced (urllib's default).

Group ``tokenize``: the URL list split into parts by urlsift's bulk
``tokenize_offsets`` (17 offsets per URL in one array, no object per URL), by ``tokenize`` called once per URL (the public wrapper and the
bare core function), and by ``urllib.parse.urlsplit`` (which has an LRU cache of 128
entries; the list is far larger, so it misses).

``extra_info`` holds ``bytes`` and ``items`` per round for ``report.py``.
"""
from __future__ import annotations

import urllib.parse

import pytest

from urlsift import _select, codec
from urlsift.model import tokens

KINDS = _select.available_kinds()


def _core(kind: str):
    if kind not in KINDS:
        pytest.skip(f"the {kind} core is not built (python setup.py build_ext --inplace)")
    return _select.twins("_core")[kind]


# ---- unquote ---------------------------------------------------------------------

@pytest.mark.benchmark(group="unquote")
@pytest.mark.parametrize("kind", ["cython", "python"])
def test_unquote_urlsift(bench, request_targets, targets_bytes, kind):
    """``urlsift.codec.unquote`` on the ``kind`` core, lenient like its peers."""
    _core(kind)
    with _select.use(kind):                       # look the function up after switching
        unquote = codec.unquote

        def run(items):
            return [unquote(t, "utf-8", "replace", strict=False) for t in items]

        out = bench(run, request_targets, bytes=targets_bytes, items=len(request_targets))
    assert out[0] == urllib.parse.unquote(request_targets[0])


@pytest.mark.benchmark(group="unquote")
def test_unquote_urllib(bench, request_targets, targets_bytes):
    """``urllib.parse.unquote`` (errors="replace" by default)."""
    unquote = urllib.parse.unquote

    def run(items):
        return [unquote(t) for t in items]

    bench(run, request_targets, bytes=targets_bytes, items=len(request_targets))


@pytest.mark.benchmark(group="unquote")
def test_unquote_yarl(bench, request_targets, targets_bytes):
    """yarl's Cython ``_Unquoter`` (keeps malformed and non-UTF-8 escapes as written)."""
    quoting_c = pytest.importorskip("yarl._quoting_c", reason="yarl's Cython extension is not installed")
    unquote = quoting_c._Unquoter()

    def run(items):
        return [unquote(t) for t in items]

    bench(run, request_targets, bytes=targets_bytes, items=len(request_targets))


# ---- tokenize --------------------------------------------------------------------

@pytest.mark.benchmark(group="tokenize")
@pytest.mark.parametrize("kind", ["cython", "python"])
def test_tokenize_urlsift_many(bench, url_list, urls_bytes, kind):
    """``urlsift.model.tokens.tokenize_offsets(list)``: one call for the whole list."""
    _core(kind)
    with _select.use(kind):
        tokenize_offsets = tokens.tokenize_offsets
        out = bench(tokenize_offsets, url_list, bytes=urls_bytes, items=len(url_list))
    assert len(out) == 17 * len(url_list)


@pytest.mark.benchmark(group="tokenize")
def test_tokenize_urlsift_per_call(bench, url_list, urls_bytes):
    """``urlsift.model.tokens.tokenize(u)`` once per URL (builds a ``Tokens`` each time)."""
    _core("cython")
    with _select.use("cython"):
        tokenize = tokens.tokenize

        def run(items):
            return [tokenize(u) for u in items]

        bench(run, url_list, bytes=urls_bytes, items=len(url_list))


@pytest.mark.benchmark(group="tokenize")
def test_tokenize_urlsift_core_per_call(bench, url_list, urls_bytes):
    """The Cython core's ``tokenize(u)`` once per URL (the bare 17-int tuple)."""
    tokenize = _core("cython").tokenize

    def run(items):
        return [tokenize(u) for u in items]

    bench(run, url_list, bytes=urls_bytes, items=len(url_list))


@pytest.mark.benchmark(group="tokenize")
def test_tokenize_urlsplit(bench, url_list, urls_bytes):
    """``[urllib.parse.urlsplit(u) for u in list]``."""
    urlsplit = urllib.parse.urlsplit

    def run(items):
        return [urlsplit(u) for u in items]

    bench(run, url_list, bytes=urls_bytes, items=len(url_list))
