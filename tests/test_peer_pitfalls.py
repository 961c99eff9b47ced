"""What other URL libraries got wrong, held as tests so urlsift never does.

Each case names the peer's bug; the expected values come from RFC 1738 (§2.2: control
and unsafe characters, §3.1/§5: hostport, port = digits) and from urlsift's own
stated rules (docs/codes.md).
"""
from __future__ import annotations

import threading

import pytest

import urlsift
from urlsift import URLSyntaxError


def test_no_part_is_ever_truncated():
    # httptools cut parts longer than 64 KiB
    n = 70000
    u = urlsift.parse("http://h.example/" + "a" * n + "?" + "q" * n + "#" + "f" * n)
    assert (len(u.path), len(u.search), len(u.fragment)) == (n + 1, n, n)
    assert u.segments == ("a" * n,)


@pytest.mark.parametrize("url, code", [
    ("http://a\x00b.example/", "control-char"),   # yarl #1829: NUL injected into a host
    ("http://a b.example/", "bad-host"),
    ("http://a<b.example/", "bad-host"),
    ("http://a%00b.example/", "bad-host"),         # an escape is no hostname character
    ("http://a/b.example:80/", None),              # "/" ends the host: host "a"
])
def test_host_validation_cannot_be_skipped(url, code):
    for check_it in (lambda: urlsift.parse(url, strict=False), lambda: urlsift.parse(url)):
        if code is None:
            assert check_it().host == "a"
            continue
        with pytest.raises(URLSyntaxError) as info:
            check_it()
        assert info.value.code == code
    if code is not None:
        assert not urlsift.is_valid(url, strict=False)
        assert urlsift.validate_many([url], strict=False) == [False]


@pytest.mark.parametrize("url", [" http://a.example/", "\thttp://a.example/",
                                 "\x00http://a.example/", "http://a.example/\n"])
def test_white_space_and_controls_are_never_stripped_before_validation(url):
    # CPython CVE-2023-24329: urlsplit stripped leading blanks and skipped the checks
    assert not urlsift.is_valid(url)
    assert not urlsift.is_valid(url, strict=False)
    assert urlsift.check(url)


def test_a_trailing_space_is_kept_and_reported_leniently():
    u = urlsift.parse("http://a.example/x ", strict=False)
    assert u.path == "/x " and [p.code for p in u.problems] == ["unsafe-char"]


@pytest.mark.parametrize("url", ["http://a:99999/", "http://a:8x/", "ftp://a:-1/"])
def test_a_bad_port_is_found_when_parsing_not_when_port_is_read(url):
    # CPython #64470: urlsplit raised only when .port was read
    with pytest.raises(URLSyntaxError) as info:
        urlsift.parse(url, strict=False)
    assert info.value.code == "bad-port"


def test_extract_file_from_several_threads_gives_each_its_whole_result(tmp_path):
    path = tmp_path / "many.log"
    lines = [f'1.2.3.4 "GET http://a.example/{i} HTTP/1.1" 200\n' for i in range(20000)]
    path.write_text("".join(lines))
    expected = [f"http://a.example/{i}" for i in range(20000)]
    results: dict[int, list[str]] = {}

    def run(k: int) -> None:
        results[k] = [m.url for m in urlsift.extract_file(path, jobs=2, block_size=16 << 10)]

    threads = [threading.Thread(target=run, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(results) == [0, 1, 2, 3]
    assert all(results[k] == expected for k in results)
