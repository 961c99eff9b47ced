"""``news:<message-id>`` and ``mid:<...>`` in running text (issue 12): Usenet replies read
``wrote in message news:<d9c91082.0108191032.e8bdfa3@posting.google.com>...``. The
brackets are not the URL's (RFC 1738 §3.6: ``news:`` then the article; draft-www-uri-00:
``mid:`` is the msg-id "with the constant <> wrapper removed"), so the URL is the span
without them, with the edit ``angle-brackets-removed``. Both cores; the fast paths (lines
made in the core) say the same.

Offsets by hand: ``wrote in message `` is 17 characters, so the match starts at 17; the
span ``news:<...>`` is 5 + 1 + 46 + 1 = 53 long, so it ends at 70.
"""
from __future__ import annotations

import pytest

import urlsift
from urlsift.cli.main import main

ID = "d9c91082.0108191032.e8bdfa3@posting.google.com"


@pytest.mark.parametrize("as_bytes", [False, True])
def test_news_message_id_in_running_text(as_bytes):
    text = f"wrote in message news:<{ID}>..."
    m, = urlsift.extract(text.encode() if as_bytes else text)
    assert (m.url, m.start, m.end, m.raw) == (f"news:{ID}", 17, 70, f"news:<{ID}>")
    assert m.edits == ("angle-brackets-removed",) and not m.wrapped
    assert m.parse().article == ID


def test_mid_and_cid():
    got = [(m.url, m.start, m.end) for m in urlsift.extract("mid:<a@b.example> and cid:<p1@x>")]
    assert got == [("mid:a@b.example", 0, 17), ("cid:p1@x", 22, 32)]   # "cid:<p1@x>" is 10


@pytest.mark.parametrize("text", [
    "news:<comp.lang.misc>",          # no "@": a group, and groups take no brackets
    "news:<>",                         # nothing inside
    "news:<a b@c>",                    # white space: not a message-id
    "news:<a@b",                       # never closed
    "mailto:<a@b.example>",            # only news, mid and cid
    "news:<" + "a" * 998 + "@b>",      # longer than an RFC 5322 line
])
def test_what_is_not_an_angle_id(text):
    assert [m.url for m in urlsift.extract(text)] == []


def test_the_command_and_its_fast_paths(tmp_path, capsys):
    path = tmp_path / "thread.txt"
    path.write_text(f"wrote in message news:<{ID}>...\nsee mid:<a@b.example>\n")
    assert main(["extract", str(path)]) == 0
    assert capsys.readouterr().out == f"news:{ID}\nmid:a@b.example\n"
    assert main(["extract", "-n", "-b", str(path)]) == 0
    assert capsys.readouterr().out == f"1:17:news:{ID}\n2:78:mid:a@b.example\n"


def test_in_mail():
    import io
    spool = (b"From a@b Mon Jan  1 00:00:00 2026\nMessage-ID: <m@x>\n\n"
             b"wrote in message news:<d9@posting.google.com>...\n")
    from urlsift.inputs import iter_mail_urls
    got = [(m.url, m.edits) for m in iter_mail_urls("-", stream=io.BufferedReader(io.BytesIO(spool)))]
    assert got == [("news:d9@posting.google.com", ("angle-brackets-removed",))]
