"""Regression tests of a hostile-input audit: mail that hides its links, mail that stalls
the walk, unbounded and silent reads. Each test is built from the audit's example; the
expected values are worked out by hand from the example and docs/decisions-cli.md."""
from __future__ import annotations

import time

import pytest

from urlsift.inputs import iter_mail_urls
from urlsift.mail import iter_message_urls
from urlsift.mail import message as mail_message

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
    # one line naming the message and the part; "<![" is at offset 54 of the part:
    # '<p>Click <a href="http://html.example/phish">here</a> ' is 3+6+36+4+4+1 = 54
    assert len(errors) == 1
    assert "<hide@x>" in errors[0] and "part 2 text/html" in errors[0]
    assert "offset 54" in errors[0] and "at offset 0 in" in errors[0]


def test_html_offsets_of_the_recovered_rest():
    msg = HIDING.split(b"\n", 1)[1]
    html = [m for m in iter_message_urls(msg, on_error=lambda line: None)
            if m.part.startswith("2 ")]
    # the tag's offset for the href; the text URL's own span in the decoded part
    assert [(m.start, m.end) for m in html] == [(9, 9), (70, 95)]
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
    assert len(errors) == 2  # the text part, and the "<![" of the HTML part
    assert "<hide@x>" in errors[0] and "part 1 text/plain" in errors[0]
    assert "bad payload" in errors[0]


def test_a_failing_html_reader_costs_only_that_part(tmp_path, monkeypatch):
    def broken(text, scan, on_problem=None):
        raise RuntimeError("reader broke")
        yield  # a generator, like the real one

    monkeypatch.setattr(mail_message, "html_hits", broken)
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
    # "</ " is a bogus comment up to ">"; the text after it is read again
    ('x </ y> http://c.example/', ["http://c.example/"], "offset 2: malformed markup"),
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

def _html_seconds(body: str) -> float:
    msg = b"Content-Type: text/html\n\n" + body.encode()
    best = float("inf")
    for _ in range(2):
        t = time.perf_counter()
        assert list(iter_message_urls(msg, on_error=lambda line: None)) == []
        best = min(best, time.perf_counter() - t)
    return best


@pytest.mark.parametrize("shape", ["<a ", "</"])
def test_html_that_stalled_html_parser_is_linear(shape):
    # html.parser: '<a ' * 50000 did not end in 120 s, '</' * 200000 took 22 s.
    n = 50_000
    small = _html_seconds(shape * n)
    assert small < 10
    large = _html_seconds(shape * (4 * n))
    # linear: about 4 times; quadratic would be 16. The slack absorbs a shared machine.
    assert large < 8 * small + 0.5
