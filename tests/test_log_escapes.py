"""Apache and nginx escapes in access logs (issue 12): with ``log_escapes`` a ``\\xHH``
inside a URL is the octet it stands for, written ``%HH`` (RFC 1738 §2.2), and the match
says so (edit ``log-escapes``). Without it nothing changes. Both cores.

The log line below is counted by hand: the referer's ``"`` is at octet 39, so its URL
starts at 40; ``http://`` (7) + ``\\xd0\\xb4\\xd0\\xbe`` (16) + ``.example/a`` (10) +
``\\x20`` (4) + ``b`` (1) = 38 octets, so it ends at 78.
"""
from __future__ import annotations

import gzip
import json

import pytest

import urlsift
from urlsift.cli.main import main
from urlsift.text.streams import iter_stream_matches

LINE = (b'1.2.3.4 - - [x] "GET / HTTP/1.1" 200 9 "http://\\xd0\\xb4\\xd0\\xbe.example/a\\x20b" '
        b'"UA \\"q\\" http://ua.example/"\n')
# the host's octets d0 b4 d0 be are the UTF-8 of "до": a host holds no %HH (RFC 1738
# §3.1), so it is given in its Unicode form (IDN); the path keeps %20 (§2.2)
URL = "http://до.example/a%20b"


@pytest.mark.parametrize("as_str", [False, True])
def test_escapes_are_read_as_octets(as_str):
    data = LINE.decode("ascii") if as_str else LINE
    got = list(urlsift.extract(data, log_escapes=True))
    assert [(m.url, m.start, m.end, m.edits) for m in got] == [
        (URL, 40, 78, ("log-escapes",)), ("http://ua.example/", 90, 108, ())]
    assert got[0].raw == LINE[40:78].decode("ascii")          # the text as it stands
    # an IDN host is beyond RFC 1738 (§2.2: no octet above 7F): lenient mode takes
    # it (code non-ascii), strict mode does not; its parts are those of the host
    assert urlsift.is_valid(got[0].url, strict=False)
    assert not urlsift.is_valid(got[0].url, strict=True)
    assert urlsift.parse(got[0].url, strict=False).host == "до.example"


@pytest.mark.parametrize("line, url", [
    (b'"http://\\xff.example/"', "http://%FF.example/"),        # no UTF-8: as octets
    (b'"http://\\x2f.example/"', "http://%2F.example/"),        # a "/" would move the host end
    (b'"http://u@\\xc3\\xa9.example:8080/\\xc3\\xa9"', "http://u@é.example:8080/%C3%A9"),
])
def test_only_a_host_of_utf8_letters_is_decoded(line, url):
    assert [m.url for m in urlsift.extract(line, log_escapes=True)] == [url]


def test_without_the_option_nothing_changes():
    assert [m.url for m in urlsift.extract(LINE)] == ["http://ua.example/"]


def test_an_escaped_quote_ends_the_url_and_bad_escapes_stay():
    text = b'"http://a.example/x\\"y" "http://b.example/\\xZZ" "http://c.example/\\xe9"'
    assert [m.url for m in urlsift.extract(text, log_escapes=True)] == [
        "http://a.example/x", "http://b.example/", "http://c.example/%E9"]


def test_streamed_blocks_give_what_one_pass_gives():
    import io
    data = b"".join(LINE.replace(b"a\\x20b", b"n%d\\x2%d" % (i, i % 10)) for i in range(500))
    whole = [(m.url, m.start) for m in urlsift.extract(data, log_escapes=True)]
    streamed = [(f.url, f.start) for f in
                iter_stream_matches(io.BytesIO(data), log_escapes=True, chunk=64)]
    assert streamed == whole and len(whole) == 1000


def test_the_command(tmp_path, capsys):
    plain = tmp_path / "access.log"
    plain.write_bytes(LINE)
    packed = tmp_path / "access.log.gz"
    packed.write_bytes(gzip.compress(LINE))
    for path in (plain, packed):
        assert main(["extract", "--log-escapes", "-b", str(path)]) == 0
        assert capsys.readouterr().out == f"40:{URL}\n90:http://ua.example/\n"
    assert main(["extract", "--log-escapes", "--details", "-f", "jsonl", str(plain)]) == 0
    first = json.loads(capsys.readouterr().out.splitlines()[0])
    assert first["edits"] == ["log-escapes"] and first["url"] == URL
    assert main(["stats", "--json", "--log-escapes", str(plain)]) == 0
    assert json.loads(capsys.readouterr().out)["urls"] == 2
