"""Hostile mail (issue 25): links hidden from the walker in ways a mail client still
shows them. Each case is run on both cores (``core_kind``) and through both mail paths:
the walker (``mail.walk``) and its oracle, the ``email`` path (``mail.message``), which
must agree; the expected URLs are worked out from the RFCs and the WHATWG specs named at
each test, not from either path's output.
"""
from __future__ import annotations

import binascii

import pytest

from urlsift import _select

from test_mail_walk import FROM_LINE, assert_spool_agrees


def urls_of(spool: bytes) -> list[tuple[str, str]]:
    """The (url, part) of every URL of ``spool``, the walk and the ``email`` path agreeing."""
    found, errors = assert_spool_agrees(spool)
    assert errors == []
    return [(k[0], k[1]) for k in found]


def message(headers: bytes, body: bytes) -> bytes:
    return FROM_LINE + headers + b"\n" + body + b"\n"


# ---------------------------------------------------------------------------------------
# the mojibake: a UTF-8 HTML run with a reference outside the walker's fast set
# ---------------------------------------------------------------------------------------

#: What ``test_generated_spools_agree`` found with
#: ``--hypothesis-seed=256071130466142908453597024394548281309``: a run holding ``&nbsp;``
#: went through a Latin-1 round trip, and the UTF-8 ``é`` came out as ``Ã©``.
GENERATED = (
    b"From sender@example.org Mon Oct 12 09:00:00 2026\nContent-Type: text/plain\n"
    b"Content-Disposition: inline\n\n\nFrom sender@example.org Mon Oct 12 09:00:00 2026\n"
    b"Content-Type: multipart/mixed; boundary=00\n\n--00\nContent-Type: text/plain\n"
    b"Content-Disposition: inline\n\n\n--00\nContent-Type: multipart/mixed; boundary=01\n\n"
    b"--01\nContent-Type: text/plain\nContent-Disposition: inline\n\n\n--01\n"
    b"Content-Type: multipart/mixed; boundary=02\n\n--02\nContent-Type: text/html\n"
    b"Content-Disposition: inline\n\nhttp&#58;//ent.example/acaf\xc3\xa9&nbsp;\n"
    b"--02--\n--01--\n--00--\n")


def test_the_generated_spool_of_the_mojibake_agrees():
    # &#58; is ":" (HTML character reference), the octets C3 A9 are UTF-8 "é", &nbsp;
    # is U+00A0, which ends the URL
    assert [u for u, _ in urls_of(GENERATED)] == ["http://ent.example/acafé"]


@pytest.mark.parametrize("ref", [b"&nbsp;", b"&eacute;", b"&copy;", b"&#x2603;"])
def test_a_utf8_html_run_with_any_reference_keeps_its_non_ascii(ref):
    spool = message(b"Content-Type: text/html; charset=utf-8\n",
                    b"<p>" + ref + b" see http://b\xc3\xbccher.example/caf\xc3\xa9 " + ref
                    + b"</p>")
    assert urls_of(spool) == [("http://bücher.example/café", "1 text/html")]


def test_a_utf8_href_with_a_reference_keeps_its_non_ascii():
    spool = message(b"Content-Type: text/html; charset=utf-8\n",
                    b'<a href="http://a.example/\xc3\xa9t\xc3\xa9?x=&eacute;">x</a>')
    # the value's references undone (&eacute; is U+00E9), its UTF-8 octets kept
    assert urls_of(spool) == [("http://a.example/été?x=é", "1 text/html href")]


# ---------------------------------------------------------------------------------------
# MIME header values as RFC 2045 writes them (section 6.1: the mechanism is a token, and
# RFC 822's comments and folding white space may stand around it; tokens have no case)
# ---------------------------------------------------------------------------------------

LINK = b"http://hidden.example/path"
B64_LINK = b"aHR0cDovL2hpZGRlbi5leGFtcGxlL3BhdGg="       # base64 of LINK (RFC 4648 section 4)


@pytest.mark.parametrize("value", [
    b"base64", b"BASE64", b"Base64", b"base64 ", b"base64\t", b" base64 (sent by X) ",
    b"(comment (nested) \\) quoted-pair) base64", b"base64\n (a folded comment)", b"\n base64",
    b"base64(no blank)",
])
def test_a_base64_part_whatever_the_spelling_of_its_mechanism(value):
    spool = message(b"Content-Type: text/plain\nContent-Transfer-Encoding: " + value + b"\n",
                    B64_LINK)
    assert urls_of(spool) == [(LINK.decode(), "1 text/plain")]


@pytest.mark.parametrize("value", [b"Quoted-Printable ", b"quoted-printable (x)",
                                   b"\n\tQUOTED-PRINTABLE"])
def test_a_quoted_printable_part_whatever_the_spelling_of_its_mechanism(value):
    spool = message(b"Content-Type: text/plain\nContent-Transfer-Encoding: " + value + b"\n",
                    b"see http://hidden.example/pa=\nth=3D1\n")
    assert urls_of(spool) == [("http://hidden.example/path=1", "1 text/plain")]


def test_a_mechanism_of_two_tokens_is_no_encoding_both_paths_alike():
    # "base64 x" is not the token RFC 2045 section 6.1 allows: the body is read as it
    # stands, and the base64 text holds no URL
    spool = message(b"Content-Transfer-Encoding: base64 x\n", B64_LINK)
    assert urls_of(spool) == []


@pytest.mark.parametrize("body", [
    # each line encoded by itself, its last quantum padded (RFC 2045 section 6.8 ends the
    # data at "="; mail clients go on, and show the link)
    b"aHR0cA==\nOi8vaGlkZGVuLmV4YW1wbGUvcGF0aA==\n",
    b"aHR0cDo=Ly9oaWRkZW4uZXhhbXBsZS9wYXRo\n",
    b"aA==dA==dA==cA==Og==Lw==Lw==aGlkZGVuLmV4YW1wbGUvcGF0aA==",
])
def test_base64_is_decoded_past_a_padded_quantum(body):
    spool = message(b"Content-Transfer-Encoding: base64\n", body)
    assert urls_of(spool) == [(LINK.decode(), "1 text/plain")]


def test_base64_with_octets_outside_the_alphabet_ignores_them():
    # section 6.8: characters outside the alphabet are ignored (the walk falls back to
    # the email path, which leaves them out)
    spool = message(b"Content-Transfer-Encoding: base64\n",
                    b"aHR0cDovL2hp*ZGRlbi5leGFt\ncGxlL3BhdGg= \n")
    assert urls_of(spool) == [(LINK.decode(), "1 text/plain")]


def test_a_quoted_printable_part_with_an_eight_bit_octet_keeps_it_an_octet():
    # found by test_mutated_spools_agree: the email path took the body from
    # get_payload(), which writes an 8-bit octet as U+FFFD (then "\\ufffd" text before
    # the URL); in a us-ascii part the octet 0xA0 is no letter, the URL starts after it
    spool = message(b"Content-Type: text/plain\nContent-Transfer-Encoding: quoted-printable\n",
                    b"=\n \xa0=\nftp=3A//h.example:8080=\n/\n")
    assert urls_of(spool) == [("ftp://h.example:8080/", "1 text/plain")]


@pytest.mark.parametrize("blanks", [b" ", b"\t", b"  \t ", b" \r"])
def test_a_quoted_printable_soft_break_followed_by_blanks(blanks):
    # section 6.7 rule 3: blanks at the end of an encoded line were added in transport
    # and are deleted; "=" then ends the line: a soft break, the URL goes on
    spool = message(b"Content-Transfer-Encoding: quoted-printable\n",
                    b"see http://hidden.example/pa=" + blanks + b"\nth and more\n")
    assert urls_of(spool) == [(LINK.decode(), "1 text/plain")]


def test_a_quoted_printable_soft_break_with_blanks_in_an_html_href():
    spool = message(b"Content-Type: text/html\nContent-Transfer-Encoding: quoted-printable\n",
                    b'<a href=3D"http://hidden.example/pa= \nth">x</a>\n')
    assert urls_of(spool) == [(LINK.decode(), "1 text/html href")]


def test_decoders_of_both_cores_read_pads_and_blanks_alike(core_kind):
    # the walker's decoders, which the email path uses too (mail.transfer)
    core = _select.cores.mail
    assert core.decode_base64(b"aGk=aGk=") == b"hihi"
    assert core.decode_base64(b"aGk") == b"hi"                # no pad at the end: as padded
    assert core.decode_base64(b"aGkx\nY") == b"hi1"           # one sextet makes no octet
    assert core.decode_qp(b"a=  \r\nb= x") == b"ab= x"        # "= x": no line end, kept
    assert core.mechanism(b" (a) BASE64 (b)\n ") == b"base64"
    assert core.mechanism(b"base64 (open") is None


# ---------------------------------------------------------------------------------------
# Content-Type parameters: ";" inside a quoted-string (RFC 2045 section 5.1: a value may
# be a quoted-string, RFC 822's quoted-string may hold ";"); read in linear time
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [1, 8, 9, 20, 2000])
def test_semicolons_inside_a_quoted_parameter_do_not_cut_it(count):
    # name="a;;;...": one parameter; charset after it is still read (the part's UTF-8
    # letters are scanned as they stand)
    spool = message(b'Content-Type: text/plain; name="a' + b";" * count
                    + b'"; charset=utf-8\n', b"see http://b\xc3\xbccher.example/\n")
    assert urls_of(spool) == [("http://bücher.example/", "1 text/plain")]


@pytest.mark.parametrize("count", [3, 9, 20000])
def test_a_quoted_string_left_open_over_many_semicolons(count):
    # the quote never closes: the rest of the field is that one parameter; the part is
    # text/plain still, and its link found
    spool = message(b'Content-Type: text/plain; name="a' + b";" * count + b"\n",
                    b"see http://a.example/x\n")
    assert urls_of(spool) == [("http://a.example/x", "1 text/plain")]


def test_a_multipart_whose_part_has_an_open_quoted_string():
    spool = message(b"Content-Type: multipart/mixed; boundary=b\n",
                    b"--b\nContent-Type: text/html; x=\"" + b";" * 50 + b"\n\n"
                    b'<a href="http://a.example/in">x</a>\n--b\n'
                    b"Content-Type: text/plain\n\nhttp://a.example/after\n--b--")
    assert urls_of(spool) == [("http://a.example/in", "1 text/html href"),
                              ("http://a.example/after", "2 text/plain")]


def test_the_walkers_fall_back_past_the_same_count_of_quoted_semicolons(core_kind):
    assert _select.cores.mail.QUOTED_SEMICOLONS == 8


@pytest.mark.parametrize("at", range(40))
def test_quoted_printable_runs_of_every_length_decode_as_binascii(core_kind, at):
    # the runs between "=" are copied many octets at a time: an "=" at every place of
    # such a block, runs longer than one, and a body ending inside one (RFC 2045 6.7)
    body = (b"a" * at + b"=3D" + b"b" * (39 - at) + b"=\n" + b"c" * at + b"==" + b"d" * 50
            + b"=4" + b"e" * (at % 17))
    assert _select.cores.mail.decode_qp(body) == binascii.a2b_qp(body)
