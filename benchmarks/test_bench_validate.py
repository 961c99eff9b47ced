"""Issue 3: validating the URL list, beside the libraries a user would pick instead.

urlsift: ``validate_many(list)`` (one call), ``is_valid`` per URL, ``parse`` per URL
(building the URL objects), all strict RFC 1738, from ``urlsift.model.parsing``. Peers, each
asked "do you accept this URL?" once per URL: ``urllib.parse.urlsplit``, ``yarl.URL``,
``can_ada.can_parse`` and ``can_ada.parse``, ``rfc3986`` (``uri_reference`` plus a
``Validator`` checking every component), ``httptools.parse_url`` (on bytes).
The peers follow other grammars (RFC 3986, WHATWG), so what they accept differs:
:func:`acceptance_report` tabulates, per peer, the share of the known-valid and
known-invalid URLs (by mutation, see ``corpus_urls``) that it accepts. It is a
report, printed (run with ``-s``) and written to ``data/acceptance-SIZE.txt``.

Suites skip, with a reason, while ``urlsift.model.parsing`` lacks a name.
"""
from __future__ import annotations

import importlib
import urllib.parse
from collections import Counter
from typing import Any, Callable, Optional

import pytest

Accepts = Callable[[Any], bool]


def urlsift_name(name: str) -> Callable:
    """``urlsift.model.parsing.NAME`` (looked up at call time, after a test switches cores)."""
    return getattr(importlib.import_module("urlsift.model.parsing"), name)


def _raises_not(fn: Callable, errors: tuple) -> Accepts:
    def accepts(u: Any) -> bool:
        try:
            fn(u)
        except errors:
            return False
        return True
    return accepts


def _urlsplit() -> Accepts:
    return _raises_not(urllib.parse.urlsplit, (ValueError,))


def _yarl() -> Accepts:
    yarl = pytest.importorskip("yarl")
    return _raises_not(yarl.URL, (ValueError, TypeError))


def _can_ada_can_parse() -> Accepts:
    return pytest.importorskip("can_ada").can_parse


def _can_ada_parse() -> Accepts:
    return _raises_not(pytest.importorskip("can_ada").parse, (ValueError,))


def _rfc3986() -> Accepts:
    rfc3986 = pytest.importorskip("rfc3986")
    from rfc3986 import exceptions, validators
    v = (validators.Validator().require_presence_of("scheme")
         .check_validity_of("scheme", "userinfo", "host", "port", "path", "query", "fragment"))
    validate, ref = v.validate, rfc3986.uri_reference

    def accepts(u: str) -> bool:
        try:
            validate(ref(u))
        except (exceptions.RFC3986Exception, ValueError):
            return False
        return True
    return accepts


def _httptools() -> Accepts:
    httptools = pytest.importorskip("httptools")
    return _raises_not(httptools.parse_url, (httptools.HttpParserInvalidURLError, ValueError))


#: peer name -> (factory of its accepts(item) function, takes bytes)
PEERS: dict[str, tuple[Callable[[], Accepts], bool]] = {
    "urlsplit": (_urlsplit, False),
    "yarl.URL": (_yarl, False),
    "can_ada.can_parse": (_can_ada_can_parse, False),
    "can_ada.parse": (_can_ada_parse, False),
    "rfc3986": (_rfc3986, False),
    "httptools.parse_url": (_httptools, True),
}


def _items(url_list: list[str], as_bytes: bool) -> list:
    return [u.encode("utf-8", "surrogateescape") for u in url_list] if as_bytes else url_list


# ---- timed -------------------------------------------------------------------------

@pytest.mark.benchmark(group="validate")
def test_validate_urlsift_validate_many(bench, url_list, urls_bytes):
    """``urlsift.model.parsing.validate_many(list)``: one call, a list of bools."""
    validate_many = urlsift_name("validate_many")
    out = bench(validate_many, url_list, bytes=urls_bytes, items=len(url_list))
    assert len(out) == len(url_list)


@pytest.mark.benchmark(group="validate")
def test_validate_urlsift_is_valid(bench, url_list, urls_bytes):
    """``urlsift.model.parsing.is_valid(u)`` per URL."""
    is_valid = urlsift_name("is_valid")
    bench(lambda items: [is_valid(u) for u in items], url_list, bytes=urls_bytes, items=len(url_list))


@pytest.mark.benchmark(group="validate")
def test_validate_urlsift_parse(bench, url_list, urls_bytes):
    """``urlsift.model.parsing.parse(u)`` per URL, building the URL objects (strict)."""
    accepts = _raises_not(urlsift_name("parse"), (ValueError,))
    bench(lambda items: [accepts(u) for u in items], url_list, bytes=urls_bytes, items=len(url_list))


@pytest.mark.benchmark(group="validate")
@pytest.mark.parametrize("peer", list(PEERS))
def test_validate_peer(bench, url_list, urls_bytes, peer):
    """A peer asked once per URL whether it accepts it."""
    factory, as_bytes = PEERS[peer]
    accepts = factory()
    items = _items(url_list, as_bytes)
    bench(lambda xs: [accepts(u) for u in xs], items, bytes=urls_bytes, items=len(url_list))


# ---- parse and keep: the objects outlive the loop, the cycle collector runs -----------

@pytest.fixture(scope="session")
def valid_urls(url_list, url_labels) -> list[str]:
    """The valid URLs of the list (both parsers accept every one of them)."""
    return [u for u, (ok, _) in zip(url_list, url_labels) if ok]


#: URLs kept per round in the ``keep`` group at size ``full`` (issue 12: "parse and keep
#: 1 M URLs"): the valid ones of the list, taken again from the start up to a million.
KEEP_FULL = 1_000_000


@pytest.fixture(scope="session")
def keep_urls(valid_urls, size_name) -> list[str]:
    if size_name != "full":
        return valid_urls
    return [valid_urls[i % len(valid_urls)] for i in range(KEEP_FULL)]


@pytest.mark.benchmark(group="keep")
def test_keep_urlsift_parse(bench, keep_urls):
    """``[urlsift.parse(u) for u in urls]``, the list kept: URL objects are untracked by
    the cycle collector (compiled core), so keeping a million costs no collections."""
    parse = urlsift_name("parse")
    kept = bench(lambda items: [parse(u) for u in items], keep_urls,
                 bytes=_as_bytes_len(keep_urls), items=len(keep_urls))
    assert len(kept) == len(keep_urls)


@pytest.mark.benchmark(group="keep")
def test_keep_can_ada_parse(bench, keep_urls):
    """``[can_ada.parse(u) for u in urls]``, the list kept (the peer of the same job)."""
    parse = pytest.importorskip("can_ada").parse
    kept = bench(lambda items: [parse(u) for u in items], keep_urls,
                 bytes=_as_bytes_len(keep_urls), items=len(keep_urls))
    assert len(kept) == len(keep_urls)


def _as_bytes_len(items: list[str]) -> int:
    return sum(len(u) for u in items)


# ---- acceptance: a report, not an assertion ---------------------------------------

def acceptance_report(url_list: list[str], labels: list[tuple[bool, Optional[str]]],
                      peers: dict[str, Accepts]) -> str:
    """A table: per peer, the % of valid URLs and of each mutation's URLs it accepts.

    RFC 1738 strict refuses every invalid one, so 0% in the invalid columns and 100%
    in ``valid`` is strict RFC 1738 agreement; peers built for other grammars differ.
    """
    kinds = Counter("valid" if ok else f"{m}" for ok, m in labels)
    cols = ["valid", "invalid"] + sorted(k for k in kinds if k != "valid")
    lines = [f"{'peer':<24}" + "".join(f"{c:>11}" for c in cols),
             f"{'(count)':<24}" + "".join(f"{kinds[c] if c != 'invalid' else len(labels) - kinds['valid']:>11}"
                                         for c in cols)]
    for name, accepts in peers.items():
        ok: Counter = Counter()
        for (valid, mutation), u in zip(labels, url_list):
            if accepts(u):
                ok["valid" if valid else mutation] += 1
                if not valid:
                    ok["invalid"] += 1
        total = dict(kinds, invalid=len(labels) - kinds["valid"])
        lines.append(f"{name:<24}" + "".join(f"{100 * ok[c] / total[c]:>10.1f}%" if total[c] else f"{'-':>11}"
                                             for c in cols))
    return "\n".join(lines)


def test_acceptance_report(url_list, url_labels, data_dir, size_name):
    """Print (``-s``) and save the acceptance table of urlsift and every peer present."""
    peers: dict[str, Accepts] = {}
    try:
        from urlsift.model import parsing
        if hasattr(parsing, "is_valid"):
            peers["urlsift strict"] = parsing.is_valid
            peers["urlsift lenient"] = lambda u: parsing.is_valid(u, strict=False)
    except ImportError:
        pass
    for name, (factory, as_bytes) in PEERS.items():
        try:
            fn = factory()
        except pytest.skip.Exception:
            continue
        peers[name] = (lambda f: lambda u: f(u.encode("utf-8", "surrogateescape")))(fn) if as_bytes else fn
    table = acceptance_report(url_list, url_labels, peers)
    out = data_dir / f"acceptance-{size_name}.txt"
    out.write_text(table + "\n", encoding="utf-8")
    print("\n% of URLs accepted, by label (valid / invalid by mutation):\n" + table)
    assert len(url_labels) == len(url_list)
