"""``urlsift.extract_file`` opens its input as the command does (issue 21): one code path
(``urlsift.inputs.sniffing``) decompresses by magic bytes and tells mail from text by
its first octets; ``mbox=None`` detects, ``mbox=False``/``True`` force. A compressed
input cut short or damaged is one clear error, after the URLs before the damage.

Expected values are worked out by hand in the comments (octet counts of the samples).
"""
from __future__ import annotations

import bz2
import gzip
import io
import lzma
from pathlib import Path

import pytest

import urlsift
from urlsift import cli
from urlsift.inputs import DamagedInputError, TruncatedInputError
from urlsift.mail import MailMatch
from conftest import fed_pipe


# "GET /a\n" is octets 0-6; line 2 "see http://g.example/x ok\n" (26 octets) starts at 7,
# its URL at 7 + 4 = 11 and ends at 11 + 18 = 29; line 3 starts at 33 with the wrapper
# "<URL:ftp://f.example/p>" (23 octets: 33-56).
LOG = b"GET /a\nsee http://g.example/x ok\n<URL:ftp://f.example/p>\n"
LOG_FOUND = [("http://g.example/x", 11, 29, 2), ("ftp://f.example/p", 33, 56, 3)]

# Message 1: the From line is 44 octets, "Message-ID: <1@example.org>\n" 28 (to 72), a
# blank line (73), then "see " and the URL at 77. Message 2 starts at 44 + 28 + 1 + 25
# = 98; its From line and Message-ID end at 170, the blank line at 171, where the
# wrapper "<URL:ftp://n.example/two>" starts.
SPOOL = (b"From a@example.org Mon Jan  3 10:00:00 1994\n"
         b"Message-ID: <1@example.org>\n"
         b"\n"
         b"see http://m.example/one\n"
         b"From b@example.org Mon Jan  3 11:00:00 1994\n"
         b"Message-ID: <2@example.org>\n"
         b"\n"
         b"<URL:ftp://n.example/two>\n")
MAIL_FOUND = [("http://m.example/one", "<1@example.org>", 0, "1 text/plain"),
              ("ftp://n.example/two", "<2@example.org>", 98, "1 text/plain")]
# the same spool read as text: lines 4 and 8
SPOOL_AS_TEXT = [("http://m.example/one", 77, 97, 4), ("ftp://n.example/two", 171, 196, 8)]


def _zstd(data: bytes) -> bytes:
    zstandard = pytest.importorskip("zstandard", reason="zstd input needs the optional "
                                    "'zstandard' package (urlsift[zstd])")
    return zstandard.ZstdCompressor().compress(data)


COMPRESS = {"gz": gzip.compress, "bz2": bz2.compress, "xz": lzma.compress, "zst": _zstd}


def _write(tmp_path, name: str, data: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(data)
    return path


def _text(found):
    return [(m.url, m.start, m.end, m.line) for m in found]


def _mail(found):
    return [(m.url, m.message_id, m.offset, m.part) for m in found]


# -- compressed text -------------------------------------------------------------------

@pytest.mark.parametrize("jobs", [1, 2])
@pytest.mark.parametrize("ext", sorted(COMPRESS))
def test_every_compression_is_read_with_offsets_of_the_text(tmp_path, ext, jobs):
    # before: extract_file("access.log.gz") scanned the compressed octets: no URL at all
    path = _write(tmp_path, f"access.log.{ext}", COMPRESS[ext](LOG))
    assert _text(urlsift.extract_file(path, line_numbers=True, jobs=jobs)) == LOG_FOUND
    assert _text(urlsift.extract_file(path, line_numbers=True, jobs=jobs, mbox=False)) == LOG_FOUND
    assert all(isinstance(m, urlsift.Match) for m in urlsift.extract_file(path, jobs=jobs))


@pytest.mark.parametrize("ext", sorted(COMPRESS))
def test_the_magic_bytes_decide_not_the_name(tmp_path, ext):
    path = _write(tmp_path, "access.log", COMPRESS[ext](LOG))        # misnamed
    assert _text(urlsift.extract_file(path, line_numbers=True)) == LOG_FOUND


@pytest.mark.parametrize("ext", sorted(COMPRESS))
def test_the_command_and_the_api_agree_on_compressed_text(tmp_path, capsys, ext):
    path = _write(tmp_path, f"a.log.{ext}", COMPRESS[ext](LOG))
    for jobs in ("1", "2"):
        assert cli.main(["extract", "-n", "-b", "-j", jobs, str(path)]) == 0
        assert capsys.readouterr().out == "2:11:http://g.example/x\n3:33:ftp://f.example/p\n"


def test_an_open_compressed_file_object_and_a_bytesio(tmp_path):
    path = _write(tmp_path, "a.log.gz", gzip.compress(LOG))
    with open(path, "rb") as f:
        assert _text(urlsift.extract_file(f, line_numbers=True)) == LOG_FOUND
        assert not f.closed                      # the caller's file stays the caller's
    assert _text(urlsift.extract_file(io.BytesIO(gzip.compress(LOG)), line_numbers=True)) == LOG_FOUND
    assert _text(urlsift.extract_file(io.BytesIO(LOG), line_numbers=True)) == LOG_FOUND


def test_a_compressed_pipe_is_read_once(tmp_path):
    # a pipe cannot be opened twice: sniffed (gzip, then mail) on the stream that is read
    with fed_pipe(gzip.compress(SPOOL)) as path:
        got = _mail(urlsift.extract_file(path))
    assert got == MAIL_FOUND


# -- mail by its shape -----------------------------------------------------------------

@pytest.mark.parametrize("jobs", [1, 2])
def test_a_gzipped_mbox_is_detected_as_mail(tmp_path, jobs):
    path = _write(tmp_path, "inbox.gz", gzip.compress(SPOOL))
    found = list(urlsift.extract_file(path, jobs=jobs))
    assert _mail(found) == MAIL_FOUND
    assert all(isinstance(m, MailMatch) for m in found)
    assert _mail(urlsift.extract_file(path, jobs=jobs, mbox=True)) == MAIL_FOUND
    plain = _write(tmp_path, "x.mbox", SPOOL)    # the brief: x.mbox was scanned as text
    assert _mail(urlsift.extract_file(plain, jobs=jobs)) == MAIL_FOUND


@pytest.mark.parametrize("jobs", [1, 2])
def test_mbox_false_forces_text(tmp_path, jobs):
    for path in (_write(tmp_path, "inbox.gz", gzip.compress(SPOOL)), _write(tmp_path, "x.mbox", SPOOL)):
        found = list(urlsift.extract_file(path, jobs=jobs, line_numbers=True, mbox=False))
        assert _text(found) == SPOOL_AS_TEXT
        assert all(isinstance(m, urlsift.Match) for m in found)


@pytest.mark.parametrize("jobs", [1, 2])
def test_mbox_true_forces_mail(tmp_path, jobs):
    # no From line at all: one message (no offset), read as mail only when asked
    data = b"Message-ID: <9@example.org>\n\nsee http://q.example/\n"
    path = _write(tmp_path, "msg.txt.bz2", bz2.compress(data))
    assert _mail(urlsift.extract_file(path, jobs=jobs, mbox=True)) == [
        ("http://q.example/", "<9@example.org>", None, "1 text/plain")]
    # as text (the default here): "Message-ID: <9@example.org>\n" is 28 octets, the
    # blank line ends at 29, "see " at 33, where the 17-octet URL starts (line 3)
    assert _text(urlsift.extract_file(path, jobs=jobs, line_numbers=True)) == [
        ("http://q.example/", 33, 50, 3)]


def test_a_maildir_is_mail_and_refused_as_text(tmp_path):
    import mailbox
    box = mailbox.Maildir(tmp_path / "box", create=True)
    box.add(b"Message-ID: <7@example.org>\n\nsee http://d.example/\n")
    assert [(m.url, m.message_id) for m in urlsift.extract_file(tmp_path / "box")] == [
        ("http://d.example/", "<7@example.org>")]
    with pytest.raises(IsADirectoryError, match="a Maildir, not text"):
        urlsift.extract_file(tmp_path / "box", mbox=False)



def test_extract_file_reads_mail_through_email_match_by_match(tmp_path, monkeypatch):
    # URLSIFT_MAIL_ENGINE=email: the matches come one at a time (not a piece's list),
    # in order; a caller who stops after the first still gets it
    monkeypatch.setenv("URLSIFT_MAIL_ENGINE", "email")
    path = _write(tmp_path, "box.mbox", b"From a\nMessage-ID: <1@x>\n\nsee http://a.example/\n"
                                        b"From b\nMessage-ID: <2@x>\n\nftp://b.example/f\n")
    assert [(m.url, m.message_id, m.offset) for m in urlsift.extract_file(path, mbox=True)] == [
        ("http://a.example/", "<1@x>", 0), ("ftp://b.example/f", "<2@x>", 48)]
    assert next(urlsift.extract_file(path, mbox=True)).url == "http://a.example/"

def test_the_command_detects_a_gzipped_mbox_on_a_file_and_on_stdin(tmp_path, run):
    # docs/decisions-cli.md said a compressed mbox on stdin was not detected: it is
    data = gzip.compress(SPOOL)
    want = ("0\t<1@example.org>\thttp://m.example/one\n"
            "98\t<2@example.org>\tftp://n.example/two\n")
    path = _write(tmp_path, "inbox.gz", data)
    for args, stdin in (([path], b""), (["-"], data), ([], data)):
        proc = run("extract", "-f", "csv", "-b", *args, stdin=stdin)
        assert proc.returncode == 0, proc.stderr
        rows = proc.stdout.decode().splitlines()
        assert rows[0] == "url,offset,message_id,date,part,text,deceptive"   # issue 24: link text
        got = "".join(f"{r.split(',')[1]}\t{r.split(',')[2]}\t{r.split(',')[0]}\n"
                      for r in rows[1:])
        assert got == want


def test_bad_arguments_fail_before_anything_is_opened(tmp_path):
    with pytest.raises(ValueError, match="mbox must be None, True or False"):
        urlsift.extract_file(tmp_path / "missing", mbox="yes")
    with pytest.raises(FileNotFoundError, match="missing"):
        urlsift.extract_file(tmp_path / "missing", mbox=True)


# -- compressed input cut short or damaged ---------------------------------------------

LINES = b"".join(b"http://h%04d.example/\n" % i for i in range(4000))   # 22 octets a line


def _cut_gz(tmp_path):
    import zlib
    whole = gzip.compress(LINES)
    cut = len(whole) // 2
    path = _write(tmp_path, "urls.log.gz", whole[:cut])
    # what zlib itself makes of the cut stream: the text urlsift hands out before the error
    before = len(zlib.decompressobj(wbits=31).decompress(whole[:cut]))
    return path, cut, before


def test_a_truncated_gz_is_one_clear_error_after_the_urls_before_it(tmp_path):
    path, cut, before = _cut_gz(tmp_path)
    assert 0 < before < len(LINES)
    found = []
    with pytest.raises(TruncatedInputError) as err:
        for m in urlsift.extract_file(path):
            found.append(m.url)
    e = err.value
    assert isinstance(e, EOFError) and isinstance(e, OSError) and isinstance(e, DamagedInputError)
    assert e.filename == str(path)
    assert e.strerror == (f"gzip data cut short: the file ends at octet {cut} inside the "
                          f"compressed data, after {before} octets of text")
    assert (e.compression, e.file_offset, e.text_offset) == ("gzip", cut, before)
    # nothing before the cut is lost: every whole line's URL, then perhaps the cut one
    whole_lines = before // 22
    assert found[:whole_lines] == [f"http://h{i:04d}.example/" for i in range(whole_lines)]
    assert len(found) in (whole_lines, whole_lines + 1)


def test_the_command_reports_a_truncated_gz_in_one_line_and_keeps_what_came_before(tmp_path, run):
    path, cut, before = _cut_gz(tmp_path)
    api = []
    with pytest.raises(TruncatedInputError):
        for m in urlsift.extract_file(path):
            api.append(m.url)
    other = _write(tmp_path, "ok.log", b"see http://z.example/\n")
    proc = run("extract", "-h", path, other)
    assert proc.returncode == 2
    assert proc.stderr.decode() == (
        f"urlsift: cannot read '{path}': gzip data cut short: the file ends at octet {cut} "
        f"inside the compressed data, after {before} octets of text\n")
    assert proc.stdout.decode().splitlines() == api + ["http://z.example/"]   # the next file too


@pytest.mark.parametrize("ext,name", [("bz2", "bz2"), ("xz", "xz"), ("zst", "zstd")])
def test_other_formats_cut_short(tmp_path, ext, name):
    whole = COMPRESS[ext](LINES)
    path = _write(tmp_path, f"urls.{ext}", whole[:len(whole) // 2])
    with pytest.raises(TruncatedInputError, match=f"^.*{name} data cut short: the file ends "
                       f"at octet {len(whole) // 2} inside the compressed data"):
        list(urlsift.extract_file(path))


def test_damaged_gz_data_says_what_and_where(tmp_path):
    # the first octet of the deflate data (after the 10-octet gzip header) set to 0xff:
    # a final block of the reserved type 3, refused at once; the file (under 8 KiB) is
    # read whole by then, and no text was made
    whole = bytearray(gzip.compress(LINES[:22 * 100]))
    whole[10] = 0xFF
    path = _write(tmp_path, "urls.gz", bytes(whole))
    with pytest.raises(DamagedInputError) as err:
        list(urlsift.extract_file(path))
    assert not isinstance(err.value, EOFError)
    assert err.value.strerror == (
        f"gzip data damaged within the first {len(whole)} octets of the file, after 0 "
        f"octets of text: Error -3 while decompressing data: invalid block type")
    assert err.value.filename == str(path)
    # damage the decompressor takes for data: the check at the end says so
    whole = bytearray(gzip.compress(LINES))
    whole[len(whole) // 2:len(whole) // 2 + 16] = b"\xff" * 16
    path.write_bytes(bytes(whole))
    with pytest.raises(DamagedInputError, match="gzip data damaged within the first "
                       f"{len(whole)} octets of the file, after .* octets of text: CRC check failed"):
        list(urlsift.extract_file(path))


def test_a_truncated_gzipped_mbox_is_the_same_error(tmp_path):
    whole = gzip.compress(SPOOL * 200)
    path = _write(tmp_path, "inbox.gz", whole[:len(whole) - 10])
    with pytest.raises(TruncatedInputError, match="gzip data cut short"):
        list(urlsift.extract_file(path))
