"""Hostile mail (issue 25): links hidden from the walker in ways a mail client still
shows them. Each case is run on both cores (``core_kind``) and through both mail paths:
the walker (``mail.walk``) and its oracle, the ``email`` path (``mail.message``), which
must agree; the expected URLs are worked out from the RFCs and the WHATWG specs named at
each test, not from either path's output.
"""
from __future__ import annotations

import pytest

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
