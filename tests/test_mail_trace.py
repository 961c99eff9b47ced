"""The mail core's trace, as the pipeline hands it over (issue 27): the texts of the
links read once per distinct text (``anchor_runs``, on the pipeline's worker), looked up
by segment in ``trace``, and the messages marked ``FALLBACK`` after the walk passed over
by ``url_triples``. Every test runs on both cores (conftest); expected values are worked
out from the messages written here.
"""
from __future__ import annotations

import pytest

from urlsift import _select
from urlsift._mail_records import (FALLBACK, K_HREF, MSG, MSG_FLAGS, SEG, SEG_END, SEG_KIND,
                                    SEG_START)
from urlsift.mail.walk import CHARSETS, HEADERS

TWINS = _select.twins("_mail")


def test_anchor_runs_gives_each_distinct_link_text_once():
    # three <a> over two texts: the repeated text is one run, both hrefs point at it; an
    # <a> without text and an <img src> get no run; a non-ASCII text marks its message
    spool = (b"From a\nContent-Type: text/html\n\n"
             b'<a href="http://a.example/">Log in</a> <a href="http://b.example/">Help</a>\n'
             b'<a href="http://c.example/">Log in</a><a href="http://d.example/"></a>'
             b'<img src="http://i.example/">\n'
             b"From b\nContent-Type: text/html; charset=utf-8\n\n"
             b'<a href="http://e.example/">caf\xc3\xa9</a>\n')
    out, segs, msgs, names = _select.cores.mail.walk(spool, 0, len(spool), HEADERS, CHARSETS, 8,
                                                     None)
    index, runs, marked = _select.cores.mail.anchor_runs(segs, out)
    assert runs == [b"Log in", b"Help"]
    by_href = {bytes(out[segs[h * SEG + SEG_START]:segs[h * SEG + SEG_END]]): index[h]
               for h in range(len(segs) // SEG) if segs[h * SEG + SEG_KIND] == K_HREF}
    assert by_href == {b"http://a.example/": 0, b"http://b.example/": 1,
                       b"http://c.example/": 0, b"http://d.example/": -1,
                       b"http://e.example/": -1}
    assert all(index[h] == -1 for h in range(len(segs) // SEG)
               if segs[h * SEG + SEG_KIND] != K_HREF)
    assert marked == {1}


def test_trace_shows_the_text_of_each_link_and_refuses_an_index_past_the_texts():
    from urlsift.mail.walk import tracing
    from urlsift.text.extraction import scan
    spool = (b"From a\nContent-Type: text/html\n\n"
             b'<a href="http://a.example/">Log in</a> <a href="http://c.example/">Log in</a>\n')
    walked = _select.cores.mail.walk(spool, 0, len(spool), HEADERS, CHARSETS, 8, None)
    index, runs, _ = _select.cores.mail.anchor_runs(walked[1], walked[0])
    how = tracing(1 << 20, lambda i: [])
    found = _select.cores.mail.trace(scan(walked[0]), walked, spool, 0, "s", how,
                                     (index, ["Log in"]))
    assert [(m.url, m.raw, m.text) for m in found] == [
        ("http://a.example/", "http://a.example/", "Log in"),
        ("http://c.example/", "http://c.example/", "Log in")]
    # segment 0 is the first href, its index 0: past an empty list of texts
    with pytest.raises(ValueError, match=r"^texts: index 0 of segment 0 past the texts$"):
        _select.cores.mail.trace(scan(walked[0]), walked, spool, 0, "s", how, (index, []))
    with pytest.raises(ValueError, match=r"^texts: an index for each segment$"):
        _select.cores.mail.trace(scan(walked[0]), walked, spool, 0, "s", how,
                                 (index[:1], ["Log in"]))


@pytest.mark.twins
def test_pipeline_gives_the_links_texts_only_when_asked():
    from urlsift.text.rules import KNOWN, MAX_LENGTH, MAX_WRAPPER, TABLE
    spool = (b'From a\nContent-Type: text/html\n\n<a href="http://a.example/">Log in</a>\n'
             b'<a href="http://b.example/">Log in</a>\n')
    for twin, workers in [(t, w) for t in TWINS.values() for w in (0, 1)]:
        for anchors in (True, False):
            pipe = twin.MailPipeline(HEADERS, CHARSETS, 3, None, TABLE, KNOWN, MAX_WRAPPER,
                                     MAX_LENGTH, workers, anchors)
            try:
                assert pipe.put(spool)
                walked, _, got = pipe.take()
            finally:
                pipe.close()
            if not anchors:
                assert got is None
                continue
            index, runs, marked = got
            assert runs == [b"Log in"] and marked == set()
            segs = walked[1]
            hrefs = [h for h in range(len(segs) // SEG) if segs[h * SEG + SEG_KIND] == K_HREF]
            assert [index[h] for h in hrefs] == [0, 0]


def test_url_triples_passes_over_a_message_marked_after_the_walk():
    # a message marked FALLBACK once walked (a JSON escape, a non-ASCII link text) keeps
    # its triples in the scan; its lines are read by email, at its cut
    from urlsift.text.extraction import scan
    spool = b"From a\n\nsee http://a.example/\nFrom b\n\nsee http://b.example/\n"
    out, segs, msgs, names = _select.cores.mail.walk(spool, 0, len(spool), HEADERS, CHARSETS, 8,
                                                     None)
    msgs[0 * MSG + MSG_FLAGS] |= FALLBACK
    keep, checks, cuts = _select.cores.mail.url_triples(scan(out), segs, msgs, 1 << 20)
    assert [bytes(out[keep[k]:keep[k + 1]]) for k in range(0, len(keep), 3)] == [
        b"http://b.example/"]
    assert list(checks) == [] and list(cuts) == [0, 0]


def _lines_kept(spool: bytes, fallback: int = -1, same_link=None):
    """Walk ``spool``, scan it, keep its triples (``url_triples``) and drop the link texts
    that are their href (the ``_records`` core's ``without_same_urls`` over the segments,
    as ``urlsift.mail.walk`` asks it): the URL lines left, the cuts, and the pairs
    ``same_link`` was asked about."""
    from urlsift.text.extraction import scan, url_lines_of
    from urlsift.text.rules import TABLE
    mail = _select.cores.mail
    out, segs, msgs, names = mail.walk(spool, 0, len(spool), HEADERS, CHARSETS, 8, None)
    if fallback >= 0:
        msgs[fallback * MSG + MSG_FLAGS] |= FALLBACK
    keep, checks, cuts = mail.url_triples(scan(out), segs, msgs, 1 << 20)
    asked = []

    def recorded(url, href):
        asked.append((url, href))
        return (same_link or (lambda u, h: u.rstrip(b"/") == h.rstrip(b"/")))(url, href)

    kept, moved = _select.cores.records.without_same_urls(keep, checks, cuts, out, segs, SEG,
                                                          SEG_START, TABLE, recorded)
    return url_lines_of(out, kept).split(b"\n")[:-1], list(moved), asked, (keep, cuts, kept, moved)


_LINKS = (b"From a\nContent-Type: text/html\n\n"
          b'<a href="http://a.example/">http://a.example/</a>\n'     # its href: once
          b'<a href="http://b.example/">http://b.example</a>\n'      # same_link says so
          b'<a href="http://c.example/">http://d.example/</a>\n'     # another URL: both
          b"<p>see http://f.example/</p>\n"
          b"From b\n\nsee http://g.example/\n"
          b"From c\nContent-Type: text/html; charset=utf-8\n\n"
          b'<a href="http://e.example/x">http://e.example/x</a>\n')


def test_a_link_text_that_is_its_href_is_dropped_and_the_cuts_move():
    # the command's lines: a link's text that is its href counts once (the href's); the
    # octets compared first, same_link asked only where they differ; message b is read
    # by email (FALLBACK), at a cut that counts the kept lines before it, dropped ones not
    lines, cuts, asked, _ = _lines_kept(_LINKS, fallback=1)
    assert lines == [b"http://a.example/", b"http://b.example/", b"http://c.example/",
                     b"http://d.example/", b"http://f.example/", b"http://e.example/x"]
    assert cuts == [1, 5]
    assert asked == [(b"http://b.example", b"http://b.example/"),
                     (b"http://d.example/", b"http://c.example/")]


def test_link_texts_kept_where_same_link_says_no():
    # same_link is the rule (the mail layer's policy): here only equal octets are the same
    lines, cuts, asked, _ = _lines_kept(_LINKS, fallback=1, same_link=lambda u, h: False)
    assert lines == [b"http://a.example/", b"http://b.example/", b"http://b.example",
                     b"http://c.example/", b"http://d.example/", b"http://f.example/",
                     b"http://e.example/x"]
    assert cuts == [1, 6]


def test_a_link_text_written_in_unicode_is_asked_about_as_its_utf8_octets():
    # an IRI in the text, its href %-encoded: the line is the IRI's UTF-8 (as the command
    # writes it), not the href's octets; same_link decides (texts: two links here)
    spool = (b"From a\nContent-Type: text/html; charset=utf-8\n\n"
             b'<a href="http://x.example/caf%C3%A9">http://x.example/caf\xc3\xa9</a>\n')
    lines, cuts, asked, _ = _lines_kept(spool)
    assert lines == [b"http://x.example/caf%C3%A9", b"http://x.example/caf\xc3\xa9"]
    assert asked == [(b"http://x.example/caf\xc3\xa9", b"http://x.example/caf%C3%A9")]
    lines, cuts, asked, _ = _lines_kept(spool, same_link=lambda u, h: True)
    assert lines == [b"http://x.example/caf%C3%A9"]


def test_nothing_dropped_gives_the_arrays_back():
    spool = (b"From a\nContent-Type: text/html\n\n"
             b'<a href="http://c.example/">http://d.example/</a>\n')
    lines, cuts, asked, (keep, cuts_in, kept, moved) = _lines_kept(spool)
    assert lines == [b"http://c.example/", b"http://d.example/"]
    assert kept is keep and moved is cuts_in


def test_a_check_past_the_records_or_the_spans_is_refused():
    from array import array
    from urlsift.text.extraction import scan
    from urlsift.text.rules import TABLE
    out = b"http://a.example/"
    same = _select.cores.records.without_same_urls
    for checks, spans, field in (([1, 0], [0, 17], 0), ([0, 1], [0, 17], 0),
                                 ([-1, 0], [0, 17], 0), ([0, 0], [0, 17], 1),
                                 ([0, 0], [0, 99], 0)):
        with pytest.raises(ValueError, match="out of"):
            same(scan(out), array("q", checks), array("q"), out, array("q", spans), 2, field,
                 TABLE, lambda u, h: False)
    kept, moved = same(scan(out), array("q", [0, 0]), array("q", [3, 1]), out,
                       array("q", [0, 17]), 2, 0, TABLE, lambda u, h: False)
    assert list(kept) == [] and list(moved) == [3, 0]


def test_heads_show_each_message_as_its_matches_do():
    # a plain Message-ID as it stands, a folded one by id_of; the fixed Date form read by
    # the core, another by date_of; a message without either; one marked FALLBACK: None
    spool = (b"From a\nMessage-ID: <1@x.example>\nDate: Thu, 26 Nov 2026 10:00:00 +0000\n\nhi\n"
             b"From b\nMessage-ID:\n <2@x.example>\nDate: 26 Nov 2026 10:00 GMT\n\nho\n"
             b"From c\n\nhey\n"
             b"From d\nMessage-ID: <4@x.example>\n\nhum\n")
    out, segs, msgs, names = _select.cores.mail.walk(spool, 0, len(spool), HEADERS, CHARSETS, 8,
                                                     None)
    msgs[3 * MSG + MSG_FLAGS] |= FALLBACK
    got = _select.cores.mail.heads(spool, msgs, lambda raw: raw.decode().strip(),
                                   lambda raw: "date: " + raw.decode())
    assert got == [("<1@x.example>", "2026-11-26T10:00:00+00:00"),
                   ("<2@x.example>", "date: 26 Nov 2026 10:00 GMT"),
                   (None, None), None]
