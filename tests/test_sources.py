"""Inputs: compressed streams, block-wise scanning, mbox and Maildir spools (urlsift.inputs,
urlsift.text.streams, urlsift.mail). Expected URLs are worked out by reading the samples and the
extraction rules (docs/design.md#extraction-from-text), not copied from output."""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
import mailbox
import os
import sys
from pathlib import Path

import pytest

import urlsift
from urlsift import inputs as sources
from urlsift.inputs import iter_mail_urls
from urlsift.mail import iter_message_urls
from urlsift.inputs import compression_of, input_kind, open_input
from urlsift.text.streams import iter_stream_matches

SAMPLES = Path(__file__).resolve().parent.parent / "samples"

# samples/mail.mbox, message by message: (Message-ID, part, URL), in message order.
MBOX_EXPECTED = [
    # 1: a list mail (RFC 2369 List-* and RFC 5064 Archived-At headers; header order is
    #    urlsift.mail.URL_HEADERS), and a quoted reply whose <URL:...> wraps over two
    #    "> " lines: the prefixes go, the wrapper's line break goes (RFC 1738 appendix).
    ("<reply-1@example.org>", "header:List-Help",
     "mailto:url-list-request@lists.example.org?subject=help"),
    ("<reply-1@example.org>", "header:List-Unsubscribe",
     "mailto:url-list-request@lists.example.org?subject=unsubscribe"),
    ("<reply-1@example.org>", "header:List-Unsubscribe",
     "https://lists.example.org/mailman/options/url-list"),
    ("<reply-1@example.org>", "header:List-Post", "mailto:url-list@lists.example.org"),
    ("<reply-1@example.org>", "header:List-Archive", "https://lists.example.org/archives/url-list/"),
    ("<reply-1@example.org>", "header:Archived-At",
     "https://lists.example.org/archives/url-list/2026-October/000042.html"),
    ("<reply-1@example.org>", "1 text/plain",
     "http://www.ietf.example/internet-drafts/draft-ietf-uri-url-03.txt"),
    ("<reply-1@example.org>", "1 text/plain", "http://www.example.org/diffs/02-03.html"),
    # 2: quoted-printable: "=3D" is "=", "=\n" a soft break inside the URL.
    ("<qp-2@example.net>", "1 text/plain", "http://search.example.net/query?q=url&lang=en&page=2"),
    ("<qp-2@example.net>", "1 text/plain",
     "http://www.example.net/a/very/long/path/that/the/mailer/wrapped/index.html"),
    ("<qp-2@example.net>", "1 text/plain", "http://cafe.example.net/menu"),
    # 3: base64 text part.
    ("<b64-3@example.com>", "1 text/plain", "https://reports.example.com/2026/q3.pdf"),
    ("<b64-3@example.com>", "1 text/plain", "ftp://data.example.com/pub/q3.csv;type=i"),
    # 4: multipart/alternative. "&amp=1" in a header is not HTML: kept as written.
    ("<html-4@example.com>", "header:List-Unsubscribe",
     "https://www.example.com/unsubscribe?id=4711&amp=1"),
    ("<html-4@example.com>", "1 text/plain",
     "https://www.example.com/news/launch?utm_source=mail&utm_medium=email"),
    ("<html-4@example.com>", "1 text/plain", "https://docs.example.com/start"),
    # the HTML part: QP undone, then "&amp;" decoded; the docs link's text is its own
    # URL (reported once, from the href); relative links have no base: not URLs.
    ("<html-4@example.com>", "2 text/html href",
     "https://www.example.com/news/launch?utm_source=mail&utm_medium=email"),
    ("<html-4@example.com>", "2 text/html href", "https://docs.example.com/start"),
    ("<html-4@example.com>", "2 text/html src", "https://cdn.example.com/img/logo.png"),
    ("<html-4@example.com>", "2 text/html", "http://mirror.example.org/launch"),
    # 5: multipart/mixed: latin-1 QP text; the image/png attachment is not scanned.
    ("<mixed-5@example.org>", "1 text/plain", "http://photos.example.org/2026/caf%E9.jpg"),
    ("<mixed-5@example.org>", "1 text/plain", "hxxp://malware[.]example[.]net/payload"),
]


def triples(matches):
    return [(m.message_id, m.part, m.url) for m in matches]


# -- compressed streams --------------------------------------------------------------

@pytest.mark.parametrize("head, name, kind", [
    (b"\x1f\x8b\x08\x00\x00\x00", "x.log", "gzip"),
    (b"BZh91AY&SY", "x", "bz2"),
    (b"\xfd7zXZ\x00\x00", "x", "xz"),
    (b"\x28\xb5\x2f\xfd\x00", "x", "zstd"),
    (b"GET / HTTP/1.1", "x.gz", None),   # magic bytes win over a misleading name
    (b"", "access.log.1.gz", "gzip"),    # too short to tell: the name decides
    (b"", "access.log", None),
])
def test_compression_of(head, name, kind):
    assert compression_of(head, name) == kind


COMPRESSORS = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress}


@pytest.mark.parametrize("ext", sorted(COMPRESSORS))
def test_open_input_decompresses(tmp_path, ext):
    data = b"line one http://a.example/1\nline two\n" * 100
    path = tmp_path / f"access.log.1.{ext}"
    path.write_bytes(COMPRESSORS[ext](data))
    with open_input(path) as stream:
        assert stream.read() == data


def test_open_input_zstd(tmp_path):
    zstandard = pytest.importorskip("zstandard")
    data = b"x http://z.example/ y\n"
    path = tmp_path / "a.log.zst"
    path.write_bytes(zstandard.ZstdCompressor().compress(data))
    with open_input(path) as stream:
        assert stream.read() == data


def test_zstd_missing_is_a_clear_error(tmp_path, monkeypatch):
    path = tmp_path / "a.log.zst"
    path.write_bytes(b"\x28\xb5\x2f\xfd" + b"\0" * 16)
    monkeypatch.setitem(sys.modules, "zstandard", None)  # import fails
    with pytest.raises(sources.MissingDependency, match="zstandard"):
        with open_input(path):
            pass


def test_open_input_errors(tmp_path):
    with pytest.raises(FileNotFoundError):
        with open_input(tmp_path / "missing.log"):
            pass
    with pytest.raises(IsADirectoryError):
        with open_input(tmp_path):
            pass


def test_input_kind(tmp_path):
    box = tmp_path / "box"
    mailbox.Maildir(box, create=True)
    assert input_kind(box) == "maildir"
    assert input_kind(tmp_path) == "directory"
    text = tmp_path / "a.txt"
    text.write_bytes(b"From: not an mbox separator\n")
    mbox = tmp_path / "b.mbox.gz"
    mbox.write_bytes(gzip.compress(b"From a@b Mon Jan  1 00:00:00 2026\n\nhi\n"))
    with open_input(text) as s:
        assert input_kind(text, s) == "text"
    with open_input(mbox) as s:
        assert input_kind(mbox, s) == "mbox"   # sniffed after decompression
        assert s.read(5) == b"From "           # peeking consumed nothing


def test_the_kinds_and_their_rules_are_one_definition():
    # One table for the API, the command and Dask (issue 23): the names are the strings
    # Input.kind holds, and the rules say mbox only for "From " at the start (RFC 4155),
    # a UTF-8 BOM passed over, and a Maildir only with both cur/ and new/.
    from urlsift.inputs import kinds
    assert (kinds.TEXT, kinds.MBOX, kinds.MAILDIR) == ("text", "mbox", "maildir")
    assert kinds.KINDS == ("text", "mbox", "maildir") and kinds.MAIL_KINDS == {"mbox", "maildir"}
    assert kinds.file_kind(b"\xef\xbb\xbfFrom a@b Mon Jan  1 00:00:00 2026\n") == "mbox"
    assert kinds.file_kind(b"From: a@b\n") == "text"          # a header, not the separator
    assert kinds.file_kind(b" From a\n") == "text"            # not at the start
    assert kinds.file_kind(b"") == "text" and kinds.file_kind(None) == "text"
    assert kinds.file_kind(b"From a\n", mbox=False) == "text"  # --no-mbox: not looked at
    assert kinds.file_kind(b"GET /\n", mbox=True) == "mbox"
    dirs = {"m/cur", "m/new", "h/cur"}
    assert kinds.is_maildir("m", dirs.__contains__)            # a Dask worker's fs.isdir
    assert not kinds.is_maildir("h", dirs.__contains__)        # cur/ without new/


# -- block-wise scanning -------------------------------------------------------------

def test_stream_blocks_never_cut_a_url(tmp_path):
    # Lines of varying length, scanned in blocks far smaller than the data: every URL
    # comes out whole, at its byte offset, on its line.
    lines = [f"{i} {'x' * (i % 37)} http://h{i}.example/{'p' * (i % 53)} end\n" for i in range(400)]
    data = "".join(lines).encode()
    found = list(iter_stream_matches(io.BytesIO(data), line_numbers=True, chunk=97))
    assert [f.url for f in found] == [f"http://h{i}.example/{'p' * (i % 53)}" for i in range(400)]
    for i, f in enumerate(found):
        assert data[f.start:f.end] == f.url.encode()
        assert f.line == i + 1


def test_stream_keeps_a_wrapper_spread_over_lines_whole():
    # RFC 1738 appendix: white space and line breaks inside <URL:...> are removed. The
    # block boundary falls inside the wrapper; the wrapper still comes out whole.
    data = b"a" * 50 + b"\n<URL:ftp://ftp.example/pub/\n   file.txt>\n" + b"b" * 50 + b"\n"
    found = list(iter_stream_matches(io.BytesIO(data), chunk=70))
    assert [f.url for f in found] == ["ftp://ftp.example/pub/file.txt"]
    assert data[found[0].start:found[0].end].startswith(b"<URL:")


def test_stream_line_numbers_and_refang():
    data = b"first\nsecond hxxp://a[.]example/x\nthird http://b.example/\n"
    found = list(iter_stream_matches(io.BytesIO(data), refang=True, line_numbers=True))
    assert [(f.url, f.line, f.refanged) for f in found] == [
        ("http://a.example/x", 2, True), ("http://b.example/", 3, False)]
    assert data[found[0].start:found[0].end] == b"hxxp://a[.]example/x"


def test_empty_stream():
    assert list(iter_stream_matches(io.BytesIO(b""))) == []


def test_file_matches_plain_and_compressed_agree(tmp_path):
    data = (SAMPLES / "access.log").read_bytes()
    plain = tmp_path / "access.log"
    plain.write_bytes(data)
    packed = tmp_path / "access.log.2.gz"
    packed.write_bytes(gzip.compress(data))
    a = [(f.url, f.start) for f in sources.iter_file_matches(plain)]
    b = [(f.url, f.start) for f in sources.iter_file_matches(packed)]
    assert a == b and len(a) == 40


# -- mail ----------------------------------------------------------------------------

def test_mbox_sample_urls():
    assert triples(iter_mail_urls(SAMPLES / "mail.mbox")) == MBOX_EXPECTED


def test_mbox_dates_and_offsets():
    found = list(iter_mail_urls(SAMPLES / "mail.mbox"))
    by_id = {m.message_id: m for m in found}
    # Date headers in ISO 8601 with their own offsets
    assert by_id["<qp-2@example.net>"].date == "2026-10-12T10:15:00+02:00"
    assert by_id["<b64-3@example.com>"].date == "2026-10-13T08:00:00-05:00"
    data = (SAMPLES / "mail.mbox").read_bytes()
    for m in found:  # offset: where the message's "From " line is in the spool
        assert data[m.offset:m.offset + 5] == b"From "
    assert by_id["<reply-1@example.org>"].offset == 0


def test_mbox_refang():
    found = list(iter_mail_urls(SAMPLES / "mail.mbox", refang=True))
    last = found[-1]
    assert (last.url, last.refanged) == ("http://malware.example.net/payload", True)
    assert not any(m.refanged for m in found[:-1])


def test_quoted_wrapped_url_offsets_point_into_the_decoded_part():
    msg = (b"Message-ID: <q@x>\n\nBob wrote:\n> see <URL:http://a.example/very-\n"
           b">> long/path> ok\n")
    (m,) = list(iter_message_urls(msg))
    assert m.url == "http://a.example/very-long/path"
    # a break right after "-" is flagged (docs/design.md#wrappers-and-the-url-prefix)
    assert m.hyphen_break
    body = msg.split(b"\n\n", 1)[1].decode()
    assert body[m.start:m.end] == "<URL:http://a.example/very-\n>> long/path>"


def test_compressed_mbox_and_stdin_like_streams(tmp_path):
    path = tmp_path / "mail.mbox.xz"
    path.write_bytes(lzma.compress((SAMPLES / "mail.mbox").read_bytes()))
    assert triples(iter_mail_urls(path)) == MBOX_EXPECTED


def test_maildir(tmp_path):
    box = mailbox.Maildir(tmp_path / "Mail", create=True)
    box.add(b"Message-ID: <m1@x>\nList-Archive: <http://lists.example/arch/>\n\n"
            b"body http://one.example/\n")
    box.add(b"Message-ID: <m2@x>\nContent-Type: text/html\n\n"
            b"<a href='http://two.example/?a=1&amp;b=2'>two</a>\n")
    got = sorted(triples(iter_mail_urls(tmp_path / "Mail")))
    assert got == [("<m1@x>", "1 text/plain", "http://one.example/"),
                   ("<m1@x>", "header:List-Archive", "http://lists.example/arch/"),
                   ("<m2@x>", "1 text/html href", "http://two.example/?a=1&b=2")]


def test_maildir_unreadable_entry_is_reported_and_skipped(tmp_path):
    box = mailbox.Maildir(tmp_path / "Mail", create=True)
    box.add(b"Message-ID: <ok@x>\n\nhttp://ok.example/\n")
    # an entry that vanished (or is a dangling link) between listing and reading
    os.symlink(tmp_path / "gone", tmp_path / "Mail" / "cur" / "1700000000.broken:2,S")
    errors = []
    got = triples(iter_mail_urls(tmp_path / "Mail", on_error=errors.append))
    assert got == [("<ok@x>", "1 text/plain", "http://ok.example/")]
    assert len(errors) == 1 and "broken" in errors[0]


def test_malformed_message_is_reported_and_skipped(tmp_path, monkeypatch):
    from urlsift.mail import message as mail

    spool = tmp_path / "box.mbox"
    spool.write_bytes(b"From a Mon Jan  1 00:00:00 2026\nMessage-ID: <1@x>\n\nhttp://one.example/\n\n"
                      b"From b Mon Jan  1 00:00:00 2026\nMessage-ID: <2@x>\n\nhttp://two.example/\n\n"
                      b"From c Mon Jan  1 00:00:00 2026\nMessage-ID: <3@x>\n\nhttp://three.example/\n")
    real = mail._decoded_text

    def failing(part):  # stands for any decoding failure the email package may raise
        if "two" in str(part.get_payload()):
            raise ValueError("bad payload")
        return real(part)

    monkeypatch.setattr(mail, "_decoded_text", failing)
    errors = []
    got = [m.url for m in iter_mail_urls(spool, on_error=errors.append, engine="email")]
    assert got == ["http://one.example/", "http://three.example/"]
    assert len(errors) == 1 and "bad payload" in errors[0] and "offset" in errors[0]


def test_html_entities_base_and_duplicates():
    msg = (b"Message-ID: <h@x>\nContent-Type: text/html; charset=utf-8\n\n"
           b"<base href='http://base.example/dir/'>"
           b"<a href=\"http://a.example/?x=1&amp;y=2\">http://a.example/?x=1&amp;y=2</a>"
           b"<a href=\"page.html\">rel</a> <p>text http://t.example/</p>")
    got = [(m.part, m.url) for m in iter_message_urls(msg)]
    # the relative link resolved against <base href> by RFC 3986 §5.2 (what a browser does)
    assert got == [("1 text/html href", "http://a.example/?x=1&y=2"),
                   ("1 text/html href", "http://base.example/dir/page.html"),
                   ("1 text/html", "http://t.example/")]


def test_stream_quoted_wrapper_across_a_block_boundary():
    # A quoted reply (like the diff in the 1994 URI working group mail): the wrapper's
    # second line starts with "> ", whose ">" must not be taken for the wrapper's end,
    # neither by the scanner nor by the block cutting.
    data = (b"x" * 60 + b"\n> you can pick it up from <ftp://ds.internic.ne\n> t/rfc>.\n"
            + b"y" * 60 + b"\n")
    for chunk in (64, 100, 4096):
        found = list(iter_stream_matches(io.BytesIO(data), quoted=True, line_numbers=True,
                                         chunk=chunk))
        assert [(f.url, f.line) for f in found] == [("ftp://ds.internic.net/rfc", 2)], chunk
        assert data[found[0].start:found[0].end] == b"<ftp://ds.internic.ne\n> t/rfc>"
    # without the option too (issue 12): the ">" that starts the wrapper's second line is
    # a quote prefix, since that line goes on to the wrapper's own ">"
    for chunk in (64, 100, 4096):
        plain = [(f.url, f.match.edits) for f in iter_stream_matches(io.BytesIO(data), chunk=chunk)]
        assert plain == [("ftp://ds.internic.net/rfc",
                          ("wrapper-removed", "whitespace-removed", "quote-prefixes-removed"))]


# -- the walk on the bytes: threads, lines, engines ------------------------------------

def _spool_of(tmp_path, n=300):
    """A spool of ``n`` messages of every kind the walk reads (and one it leaves to
    ``email``), long enough to make several pieces of ``mail.walk.MATCH_PIECE``."""
    sample = (SAMPLES / "mail.mbox").read_bytes()
    odd = (b"From x\nMessage-ID: <odd@x>\nContent-Type: message/rfc822\n\n"
           b"Subject: inner\n\nhttp://inner.example/\n")
    path = tmp_path / "many.mbox"
    path.write_bytes((sample + odd) * n)
    return path


def test_mbox_jobs_give_the_same_matches_in_the_same_order(tmp_path):
    path = _spool_of(tmp_path, 800)
    assert path.stat().st_size > 3 * (1 << 20)          # several pieces
    one = [tuple(m) for m in urlsift.extract_file(path, mbox=True)]
    assert [tuple(m) for m in urlsift.extract_file(path, mbox=True, jobs=3)] == one
    assert len(one) == 800 * (len(MBOX_EXPECTED) + 1)


def test_mbox_url_lines_are_the_urls_of_the_matches(tmp_path):
    from urlsift.inputs import mbox_url_lines

    path = _spool_of(tmp_path, 60)
    want = "".join(m.url + "\n" for m in iter_mail_urls(path)).encode()
    assert b"".join(mbox_url_lines(path)) == want
    assert b"".join(mbox_url_lines(path, jobs=2)) == want
    assert b"http://inner.example/\n" in want              # the message email read


def test_mail_engines_agree_on_the_sample():
    fast = [(m.url, m.part, m.message_id, m.date, m.offset)
            for m in iter_mail_urls(SAMPLES / "mail.mbox")]
    slow = [(m.url, m.part, m.message_id, m.date, m.offset)
            for m in iter_mail_urls(SAMPLES / "mail.mbox", engine="email")]
    assert fast == slow
    with pytest.raises(ValueError, match="engine"):
        iter_mail_urls(SAMPLES / "mail.mbox", engine="regex")
