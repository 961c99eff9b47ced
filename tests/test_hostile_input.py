"""Regression tests of a hostile-input audit: mail that hides its links, mail that stalls
the walk, unbounded and silent reads. Each test is built from the audit's example; the
expected values are worked out by hand from the example and docs/decisions-cli.md."""
from __future__ import annotations

import io
import mailbox
import os

import pytest

from urlsift.inputs import iter_mail_urls, open_input
from urlsift.mail import iter_message_urls
from urlsift.mail import message as mail_message
from urlsift.mail import spool

# -- 1. mail that hides its links ------------------------------------------------------

# A list mail, multipart/alternative: a text part, and an HTML part with "<![ x" in it,
# which made html.parser raise and the whole message be skipped.
HIDING = (b"From a Mon Jan  1 00:00:00 2026\n"
          b"Message-ID: <hide@x>\n"
          b"List-Unsubscribe: <http://list.example/unsub>\n"
          b"Content-Type: multipart/alternative; boundary=B\n"
          b"\n"
          b"--B\n"
          b"Content-Type: text/plain\n"
          b"\n"
          b"Plain: http://plain.example/page\n"
          b"--B\n"
          b"Content-Type: text/html\n"
          b"\n"
          b'<p>Click <a href="http://html.example/phish">here</a> <![ x</p>'
          b"<p>and http://after.example/more</p>\n"
          b"--B--\n")


def _spool(tmp_path, data, name="box.mbox"):
    path = tmp_path / name
    path.write_bytes(data)
    return path


def test_bogus_markup_in_html_costs_only_its_stretch(tmp_path):
    errors = []
    got = [(m.part, m.url) for m in iter_mail_urls(_spool(tmp_path, HIDING),
                                                    on_error=errors.append)]
    assert got == [("header:List-Unsubscribe", "http://list.example/unsub"),
                   ("1 text/plain", "http://plain.example/page"),
                   ("2 text/html href", "http://html.example/phish"),
                   # after "<![ x</p>" (a bogus comment up to its ">", as browsers read it)
                   ("2 text/html", "http://after.example/more")]
    # a bogus comment is no problem: the WHATWG tokenizer reads it (§13.2.5.41) as a
    # browser does, up to its ">", and nothing after it is hidden (docs/decisions-mail.md)
    assert errors == []


def test_html_offsets_of_the_recovered_rest():
    msg = HIDING.split(b"\n", 1)[1]
    html = [m for m in iter_message_urls(msg, on_error=lambda line: None)
            if m.part.startswith("2 ")]
    # the href value's first character ('<p>Click <a href="' is 3 + 6 + 9 = 18); the
    # text URL's own span in the decoded part
    assert [(m.start, m.end) for m in html] == [(18, 18), (70, 95)]
    part = (b'<p>Click <a href="http://html.example/phish">here</a> <![ x</p>'
            b"<p>and http://after.example/more</p>\n").decode()
    assert part[70:95] == "http://after.example/more"


def test_a_failing_part_costs_only_that_part(tmp_path, monkeypatch):
    real = mail_message._decoded_text

    def failing(part):  # any decoding failure the email package may raise
        if part.get_content_type() == "text/plain":
            raise ValueError("bad payload")
        return real(part)

    monkeypatch.setattr(mail_message, "_decoded_text", failing)
    errors = []
    got = [(m.part, m.url) for m in iter_mail_urls(_spool(tmp_path, HIDING),
                                                    on_error=errors.append)]
    assert got == [("header:List-Unsubscribe", "http://list.example/unsub"),
                   ("2 text/html href", "http://html.example/phish"),
                   ("2 text/html", "http://after.example/more")]
    assert len(errors) == 1  # the text part ("<![ x" is a bogus comment, read as one)
    assert "<hide@x>" in errors[0] and "part 1 text/plain" in errors[0]
    assert "bad payload" in errors[0]


def test_a_failing_html_reader_costs_only_that_part(tmp_path, monkeypatch):
    def broken(text, scan, on_problem=None):
        raise RuntimeError("reader broke")
        yield  # a generator, like the real one

    monkeypatch.setattr(mail_message, "whatwg_links", broken)
    errors = []
    got = [(m.part, m.url) for m in iter_mail_urls(_spool(tmp_path, HIDING),
                                                    on_error=errors.append)]
    assert got == [("header:List-Unsubscribe", "http://list.example/unsub"),
                   ("1 text/plain", "http://plain.example/page")]
    assert errors == ["message at offset 0 in '%s' (<hide@x>), part 2 text/html: "
                      "skipped: reader broke" % (tmp_path / "box.mbox")]


@pytest.mark.parametrize("html, urls, problem", [
    # an unclosed tag runs to the end of the part (as in a browser): what came before stays
    ('<a href="http://a.example/">a</a> <img src="http://b.example/x.png',
     ["http://a.example/"], "offset 34: tag not closed"),
    ('<a href="http://a.example/">a</a><!-- http://hidden.example/',
     ["http://a.example/"], "offset 33: comment not closed"),
    # "</ " is a bogus comment up to ">" (invalid-first-character-of-tag-name, read as
    # the spec reads it: no problem); the text after it is read again
    ('x </ y> http://c.example/', ["http://c.example/"], None),
    # a decimal reference past 4300 digits (int() raises on it): U+FFFD, not an error;
    # U+FFFD is no URL character, so the URL ends before it
    ('<a href="http://d.example/?q=&#' + "1" * 5000 + ';">d</a>',
     ["http://d.example/?q="], None),
])
def test_malformed_html_is_read_past_and_reported(html, urls, problem):
    msg = b"Message-ID: <m@x>\nContent-Type: text/html\n\n" + html.encode()
    errors = []
    got = [m.url for m in iter_message_urls(msg, on_error=errors.append)]
    assert got == urls
    if problem is None:
        assert errors == []
    else:
        assert len(errors) == 1 and "<m@x>" in errors[0] and problem in errors[0]


def test_entities_in_text_keep_offsets_into_the_part():
    html = "<p>a &amp; b: http://e.example/?a=1&amp;b=2 now</p>"
    msg = b"Content-Type: text/html\n\n" + html.encode()
    (m,) = iter_message_urls(msg)
    assert m.url == "http://e.example/?a=1&b=2"
    # 3 + len("a &amp; b: ") = 14; the span as written ends before " now"
    assert (m.start, m.end) == (14, 14 + len("http://e.example/?a=1&amp;b=2"))
    assert html[m.start:m.end] == "http://e.example/?a=1&amp;b=2"


# -- 2. mail that stalls the walk ------------------------------------------------------

@pytest.mark.parametrize("shape", ["<a ", "</"])
def test_html_that_stalled_html_parser_is_read_to_its_end(shape):
    # html.parser: '<a ' * 50000 did not end in 120 s, '</' * 200000 took 22 s. That
    # the walk is linear in them is measured, not asserted here (no timing in tests/):
    # benchmarks/test_linear_time.py ("mail html: n '<a '", "mail html: n '</'").
    msg = b"Content-Type: text/html\n\n" + (shape * 50_000).encode() + b"http://after.example/"
    urls = [m.url for m in iter_message_urls(msg, on_error=lambda line: None)]
    # the tag never closes, so what follows is inside it: no URL, no error
    assert urls == []


# -- 3. unbounded and silent reads -----------------------------------------------------



def test_validate_dev_zero_is_one_line_then_the_next_file(run, tmp_path):
    urls = tmp_path / "urls.txt"
    urls.write_bytes(b"http://a.example/\nhttp://b example/\n")
    proc = run("validate", "/dev/zero", urls)
    assert proc.returncode == 2
    assert proc.stderr.decode().splitlines() == [
        "urlsift: cannot read '/dev/zero': line 1 has no end within 64 MiB: "
        "not a list of URLs, the rest is not read",
        "2 checked, 1 invalid"]
    assert proc.stdout.decode() == (
        f"{urls}:2:9: http://b example/: bad-host: ' ' is not allowed in the host "
        "'b example' (RFC 1738 §5)\n")


def test_validate_overlong_line_is_reported_and_skipped(run, tmp_path):
    urls = tmp_path / "urls.txt"
    long_line = b"http://x.example/" + b"a" * (1 << 20) + b"\n"   # 17 + 1 MiB + 1 bytes
    urls.write_bytes(b"http://a.example/\n" + long_line + b"http://b example/\n")
    proc = run("validate", urls)
    assert proc.returncode == 2  # not everything could be checked
    assert proc.stderr.decode().splitlines() == [
        f"urlsift: {urls}:2: line longer than 1 MiB ({(1 << 20) + 18} bytes): skipped",
        "2 checked, 1 invalid"]
    assert proc.stdout.decode().startswith(f"{urls}:3:9: http://b example/: bad-host")


def test_mbox_dev_zero_is_one_line():
    errors = []
    assert list(iter_mail_urls("/dev/zero", on_error=errors.append)) == []
    assert errors == ["skipping message '/dev/zero': no line end within 64 MiB at offset 0: "
                      "not an mbox, the rest of it is not read"]


def test_cli_mbox_dev_zero_has_no_traceback(run):
    proc = run("extract", "--mbox", "/dev/zero")
    assert b"Traceback" not in proc.stderr and proc.stdout == b""
    assert proc.stderr.decode().splitlines() == [
        "urlsift: skipping message '/dev/zero': no line end within 64 MiB at offset 0: "
        "not an mbox, the rest of it is not read"]


def test_mbox_message_past_the_bound_is_skipped_and_the_walk_goes_on(tmp_path, monkeypatch):
    monkeypatch.setattr(spool, "MESSAGE_MAX", 100)
    big = b"Message-ID: <2@x>\n\n" + b"http://big.example/\n" * 10       # 19 + 200 bytes
    data = (b"From a\nMessage-ID: <1@x>\n\nhttp://one.example/\n"       # offset 0, 46 bytes
            b"From b\n" + big +                                       # offset 46
            b"From c\nMessage-ID: <3@x>\n\nhttp://three.example/\n")  # offset 46 + 7 + 219
    errors = []
    got = [(m.offset, m.url) for m in iter_mail_urls(_spool(tmp_path, data),
                                                      on_error=errors.append)]
    assert got == [(0, "http://one.example/"), (272, "http://three.example/")]
    assert errors == [f"skipping message at offset 46 in '{tmp_path / 'box.mbox'}': "
                      "message larger than 100 bytes"]
    # one line of more than the bound is no mail at all: the rest is not read; that line
    # begins at 46 + len("From b\\n") + len("Message-ID: <2@x>\\n\\n") = 46 + 7 + 19 = 72
    errors = []
    one_line = data.replace(b"http://big.example/\n" * 10, b"http://big.example/ " * 10 + b"\n")
    got = [(m.offset, m.url) for m in iter_mail_urls(_spool(tmp_path, one_line, "line.mbox"),
                                                      on_error=errors.append)]
    assert got == [(0, "http://one.example/")]
    assert errors == [f"skipping message at offset 46 in '{tmp_path / 'line.mbox'}': no line "
                      "end within 100 bytes at offset 72: not an mbox, the rest of it is not read"]


def test_mbox_long_lines_within_the_bound_are_kept():
    # lines longer than the read piece (1 MiB) are joined again; a "From " inside one
    # is no message start
    line = b"x" * (1 << 20) + b" From y http://tail.example/\n"
    data = b"From a\n" + line + b"From b\nz\n"
    got = list(spool.mbox_messages(io.BytesIO(data), "s"))
    assert got == [("s", 0, line), ("s", 7 + len(line), b"z\n")]


def test_maildir_skips_what_is_no_regular_file(tmp_path, monkeypatch):
    box = mailbox.Maildir(tmp_path / "Mail", create=True)
    box.add(b"Message-ID: <ok@x>\n\nhttp://ok.example/\n")
    cur, new = tmp_path / "Mail" / "cur", tmp_path / "Mail" / "new"
    os.symlink("/dev/zero", cur / "1.zero:2,S")
    os.mkfifo(new / "2.fifo")                    # opening it for reading used to hang
    (cur / "3.big:2,S").write_bytes(b"Message-ID: <big@x>\n\n" + b"http://big.example/\n" * 10)
    monkeypatch.setattr(spool, "MESSAGE_MAX", 100)
    errors = []
    got = [m.url for m in iter_mail_urls(tmp_path / "Mail", on_error=errors.append)]
    assert got == ["http://ok.example/"]
    assert sorted(errors) == sorted([
        f"skipping message '{cur / '1.zero:2,S'}': not a regular file",
        f"skipping message '{new / '2.fifo'}': not a regular file",
        f"skipping message '{cur / '3.big:2,S'}': message larger than 100 bytes"])


def _text_before(data, cut):
    """The octets of text zstandard itself makes of the cut stream ``cut`` (its reader
    ends a cut frame silently): what urlsift hands out before the error."""
    import zstandard
    made = zstandard.ZstdDecompressor().stream_reader(io.BytesIO(cut), read_across_frames=True)
    text = made.read()
    assert data.startswith(text)
    return len(text)


@pytest.fixture
def zst_lines():
    zstandard = pytest.importorskip("zstandard")
    data = b"".join(b"http://h%d.example/\n" % i for i in range(20000))
    return zstandard, data


def test_truncated_zstd_is_a_one_line_read_error(run, tmp_path, zst_lines):
    zstandard, data = zst_lines
    whole = zstandard.ZstdCompressor().compress(data)
    for cut in (len(whole) - 1, len(whole) // 2, 6):
        path = tmp_path / "urls.zst"
        path.write_bytes(whole[:cut])
        proc = run("validate", path)
        assert proc.returncode == 2, cut
        assert proc.stderr.decode().splitlines()[0] == (
            f"urlsift: cannot read '{path}': zstd data cut short: the file ends at octet "
            f"{cut} inside the compressed data, after {_text_before(data, whole[:cut])} "
            f"octets of text"), cut
        with pytest.raises(EOFError), open_input(path) as stream:
            stream.read()


def test_whole_zstd_frames_read_without_error(tmp_path, zst_lines):
    zstandard, data = zst_lines
    skippable = b"\x50\x2a\x4d\x18" + (3).to_bytes(4, "little") + b"abc"
    whole = (zstandard.ZstdCompressor(write_checksum=True).compress(data[:1000])
             + skippable + zstandard.ZstdCompressor(write_content_size=False).compress(data)
             + zstandard.ZstdCompressor().compress(b""))
    path = tmp_path / "urls.zst"
    path.write_bytes(whole)
    with open_input(path) as stream:
        assert stream.read() == data[:1000] + data


def test_mbox_from_line_past_the_bound_costs_only_its_own_message(tmp_path, monkeypatch):
    # the email walk lost the message before a From line longer than the bound and
    # named that message's offset (docs/decisions-cli.md); the walk keeps it and names
    # the message whose From line it is: 46 = len(the first message)
    monkeypatch.setattr(spool, "MESSAGE_MAX", 100)
    data = (b"From a\nMessage-ID: <1@x>\n\nhttp://one.example/\n"
            b"From " + b"x" * 200 + b"\n\nhttp://two.example/\n")
    errors = []
    got = [m.url for m in iter_mail_urls(_spool(tmp_path, data), on_error=errors.append)]
    assert got == ["http://one.example/"]
    assert errors == [f"skipping message at offset 46 in '{tmp_path / 'box.mbox'}': no line end "
                      "within 100 bytes at offset 46: not an mbox, the rest of it is not read"]
