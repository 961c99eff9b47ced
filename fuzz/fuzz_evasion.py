"""Fuzz target: a link hidden by legal re-encodings is still found (issue 25).

A message with one link goes through random re-encodings a mail client reads through,
each legal (RFC 2045, RFC 2046, HTML):

- the part: ``text/plain`` or ``text/html``; in HTML the link is text or the value of
  a URL attribute of HTML's attribute index (``<a href>``, ``<area href>``, ``<form
  action>``, ``<button formaction>``, ``<td background>``, ``<img src>``/``srcset``,
  ``cite``, ``poster``, a ``style`` attribute's ``url()``, a meta refresh), quoted with
  ``"``, ``'`` or not at all, tag and attribute names in any case, character references
  for some of its characters, blanks or C0 controls around it (a browser strips them),
  after comments and raw-text elements in any of HTML5's forms (``<!-->``, ``<!--->``,
  ``--!>``, ``<!--`` inside ``<title>``, ``<textarea>``, ``<xmp>``, ``<iframe>``,
  ``<noembed>``, ``<noframes>``, ``<style>``);
- the Content-Transfer-Encoding: 7bit, quoted-printable (soft breaks anywhere, with or
  without transport blanks after the ``=``, every octet or only ``=`` encoded) or
  base64 (lines of any multiple of 4, or each line encoded by itself, padded), the
  mechanism in any case, with blanks, a comment or a fold around it;
- nesting: as it is, in a multipart/alternative beside a text part, in a
  multipart/mixed, in a ``message/rfc822`` part.

Asserts, on both cores: the walk (``mail.walk.spool_urls``) and the ``email`` path
(``iter_spool_urls``) each find the link, and agree on every URL.

Input: the choice bytes (see ``Input``), one per decision.
"""
from __future__ import annotations

import base64
import io
import sys

import _common
from _common import Input, on_both, require

with _common.instrumented():
    from urlsift.mail import iter_spool_urls
    from urlsift.mail import spool as mail_spool
    from urlsift.mail import walk as mail_walk

FROM = b"From sender@example.org Mon Oct 12 09:00:00 2026\n"
LINKS = [b"http://evil.example/login?next=%2Fa&id=7", b"https://b\xc3\xbccher.example/caf\xc3\xa9",
         b"ftp://files.example/pub/x.zip", b"http://evil.example/a=b/c"]
COMMENTS = [b"", b"<!-- hidden -->", b"<!---->", b"<!-- a -- b -->", b"<!--\n-->",
            b"<!-->", b"<!--->", b"<!-- x --!>", b"<!--<!-->", b"<!-- a --!b -->"] + [
            b"<%s><!--</%s>" % (e, e) for e in (b"title", b"textarea", b"xmp", b"iframe",
                                                  b"noembed", b"noframes", b"style")]
#: (tag, attribute, the value around the link V) of the URL attributes
CARRIERS = [(b"a", b"href", b"V"), (b"area", b"href", b"V"), (b"form", b"action", b"V"),
            (b"button", b"formaction", b"V"), (b"td", b"background", b"V"),
            (b"img", b"src", b"V"), (b"img", b"srcset", b"V 2x"), (b"q", b"cite", b"V"),
            (b"video", b"poster", b"V"), (b"div", b"style", b"background:url(V)"),
            (b"meta http-equiv=refresh", b"content", b"0; url=V")]
#: what a browser strips around a URL value (the URL Standard's C0-or-space clean-up)
PADDING = [b"", b" ", b"\n ", b"\t", b"\x01"]


def _reference(c: int, inp: Input) -> bytes:
    """The octet ``c`` as an HTML character reference (decimal, hex, or named)."""
    named = {ord("&"): b"&amp;", ord("/"): b"&sol;", ord(":"): b"&colon;", ord("."): b"&period;",
             ord("?"): b"&quest;", ord("="): b"&equals;"}
    form = inp.byte() % 3
    if form == 2 and c in named:
        return named[c]
    return b"&#%d;" % c if form == 0 else b"&#x%X;" % c


def _html_value(link: bytes, inp: Input) -> bytes:
    """``link`` in an attribute value or text, some ASCII octets as references
    (``&`` always: a bare one may start a reference)."""
    rate = inp.pick([0, 0, 2, 5])
    out = bytearray()
    for c in link:
        if c == ord("&") or (c < 0x80 and rate and inp.byte() % rate == 0 and c != ord("%")):
            out += _reference(c, inp)
        else:
            out.append(c)
    return bytes(out)


def _cased(word: bytes, inp: Input) -> bytes:
    how = inp.byte() % 3
    return word if how == 0 else word.upper() if how == 1 else word.capitalize()


def _html(link: bytes, inp: Input) -> bytes:
    comment = inp.pick(COMMENTS)
    value = _html_value(link, inp)
    if inp.byte() % 2:
        return b"<html><body>" + comment + b"<p>see " + value + b" now</p></body></html>\n"
    tag, attr, around = inp.pick(CARRIERS)
    if around == b"V":
        value = inp.pick(PADDING) + value + inp.pick(PADDING)
    value = around.replace(b"V", value)
    quote = inp.pick([b'"', b"'", b""])
    if not quote and any(c in value for c in b" \t\n\x01\"'=<>`"):
        quote = b'"'
    a, href = _cased(tag, inp), _cased(attr, inp)
    name = a.split(b" ")[0]
    blank = inp.pick([b"", b" ", b"\n"])
    return (b"<html><body>" + comment + b"<" + a + b" " + href + blank + b"=" + blank
            + quote + value + quote + b">click</" + name + b"></body></html>\n")


def _quoted_printable(body: bytes, inp: Input) -> bytes:
    every = inp.byte() % 2
    out = bytearray()
    line = 0
    for c in body:
        octet = (b"=%02X" % c if (every and c != 10) or c == ord("=") or c > 126
                 else bytes((c,)))
        if c == 10:
            out += b"\n"
            line = 0
            continue
        if line + len(octet) > 72 or (line and inp.byte() % 11 == 0):
            out += b"=" + inp.pick([b"", b"", b" ", b"\t", b"  "]) + b"\n"   # rule 3
            line = 0
        out += octet
        line += len(octet)
    return bytes(out) + b"\n"


def _base64(body: bytes, inp: Input) -> bytes:
    if inp.byte() % 2:                        # each piece encoded by itself, padded
        size = inp.pick([1, 2, 5, 10, 31])
        return b"".join(base64.b64encode(body[i:i + size]) + b"\n"
                        for i in range(0, len(body), size))
    width = 4 * inp.pick([1, 5, 16, 19])
    text = base64.b64encode(body)
    return b"".join(text[i:i + width] + b"\n" for i in range(0, len(text), width))


def _mechanism(name: bytes, inp: Input) -> bytes:
    word = _cased(name, inp)
    return inp.pick([b"", b" ", b"\t"]) + word + inp.pick(
        [b"", b" ", b" (by X)", b"\n (folded)", b"(x)"])


def _part(link: bytes, inp: Input) -> bytes:
    html = inp.byte() % 2
    body = _html(link, inp) if html else b"see " + link + b" now\n"
    ctype = b"text/html" if html else b"text/plain"
    charset = inp.pick([b"", b"; charset=utf-8", b'; charset="UTF-8"'])
    cte = inp.byte() % 3
    if cte == 1:
        body = _quoted_printable(body, inp)
        field = b"Content-Transfer-Encoding:" + _mechanism(b"quoted-printable", inp) + b"\n"
    elif cte == 2:
        body = _base64(body, inp)
        field = b"Content-Transfer-Encoding:" + _mechanism(b"base64", inp) + b"\n"
    else:
        field = inp.pick([b"", b"Content-Transfer-Encoding: 8bit\n"])
    return b"Content-Type: " + ctype + charset + b"\n" + field + b"\n" + body


def _nested(part: bytes, inp: Input, depth: int = 0) -> bytes:
    how = inp.byte() % 4 if depth < 3 else 0
    if how == 0:
        return part
    inner = _nested(part, inp, depth + 1)
    b = b"b%d" % depth
    if how == 3:
        return b"Content-Type: message/rfc822\n\nSubject: fwd\n" + inner
    sub = b"alternative" if how == 1 else b"mixed"
    other = b"Content-Type: text/plain\n\nnothing here\n"
    return (b"Content-Type: multipart/" + sub + b"; boundary=" + b + b"\n\n--" + b + b"\n"
            + other + b"--" + b + b"\n" + inner + b"\n--" + b + b"--\n")


def _urls(spool: bytes, oracle: bool) -> tuple:
    errors: list[str] = []
    if oracle:
        found = iter_spool_urls(mail_spool.mbox_messages(io.BytesIO(spool), "box"),
                                on_error=errors.append)
    else:
        found = mail_walk.spool_urls(io.BytesIO(spool), "box", on_error=errors.append)
    return [(m.url, m.part) for m in found], errors


def message(data: bytes) -> tuple[bytes, str]:
    """The message ``data``'s choices make, and the URL its link is."""
    inp = Input(data)
    link = inp.pick(LINKS)
    spool = FROM + b"Subject: hi\n" + _nested(_part(link, inp), inp)
    return spool, link.decode("utf-8")


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris's name
    spool, url = message(data)
    for oracle in (False, True):
        got = on_both(_urls, spool, oracle)
        require(got[0] == "ok", "spool_urls raised", spool, oracle, got[:3])
        urls = [u for u, _ in got[1][0]]
        require(url in urls, "the link is not found", spool, oracle, url, got[1])
    walked = on_both(_urls, spool, False)[1]
    require(walked == on_both(_urls, spool, True)[1], "the walk and the email path differ",
            spool, walked)


if __name__ == "__main__":
    _common.main(TestOneInput, sys.argv)
