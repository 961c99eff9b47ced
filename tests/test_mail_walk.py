"""The fast mail walker (``urlsift.mail.walk``, on the bytes) against its oracle, the
``email``-based path (``urlsift.mail.message``): for every spool and every message the
two must give the same URLs, in the same order, with the same part, Message-ID and date,
and the same error reports.

- the sample spool and the benchmark corpus (``benchmarks/corpus.py``, a few seeds);
- generated messages (hypothesis): nested multiparts, digests and ``message/rfc822``
  (which the walker hands to ``email``), quoted-printable with soft breaks inside URLs,
  base64 (valid and not), HTML with entities, ``mboxrd`` escaping, CRLF and bare CR,
  8-bit headers and bodies, charsets, reply quoting, odd headers;
- hand-written cases whose expected values come from RFC 2045 (6.7 quoted-printable,
  6.8 base64), RFC 2046 (5.1.1 boundaries), RFC 1738 (the appendix on URLs in text)
  and the documented part labels, not from the output of either path;
- bad input: truncated spools, unclosed boundaries, false base64, unknown charsets,
  messages over the size bound.

Each difference found between the paths is kept below as a minimal test with the
judgement which path is right: fixed where the walk was wrong, written down in
docs/decisions-cli.md where the ``email`` path is.
"""
from __future__ import annotations

import base64
import functools
import io
import os
import re
import sys
from contextlib import contextmanager
from pathlib import Path
from unittest import mock

import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from urlsift.mail import iter_message_urls, iter_spool_urls
from urlsift.mail import message as mail_message
from urlsift.mail import spool as mail_spool
from urlsift.mail import walk as mail_walk

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "mail.mbox"

OPTS = mail_message.options(None, None, False)
FROM_LINE = b"From sender@example.org Mon Oct 12 09:00:00 2026\n"

# ---------------------------------------------------------------------------------------
# the two paths side by side
# ---------------------------------------------------------------------------------------


def key(m):
    """What must agree: the URL, its part, its message's Message-ID and date; and where
    the message is, and how the URL was found (wrapper, hyphen break, edits). Not
    ``start``/``end``/``raw``: see the differences found, at the end."""
    return (m.url, m.part, m.message_id, m.date, m.source, m.offset, m.wrapped,
            m.hyphen_break, m.edits)


@contextmanager
def block_size(block):
    """``spool_urls`` reading its pieces ``block`` octets at a time (the defaults,
    ``walk.MATCH_PIECE`` for matches and ``spool.BLOCK`` for lines, are more than most
    generated spools: this puts piece boundaries inside them)."""
    if block is None:
        yield
        return
    real = mail_spool.mbox_blocks
    with mock.patch.object(mail_spool, "mbox_blocks", functools.partial(real, block=block)), \
            mock.patch.object(mail_walk, "MATCH_PIECE", block):
        yield


def old_spool(data, name="box", **scan):
    errors = []
    found = [key(m) for m in iter_spool_urls(mail_spool.mbox_messages(io.BytesIO(data), name),
                                             on_error=errors.append, **scan)]
    return found, errors


def fast_spool(data, name="box", block=None, **scan):
    errors = []
    with block_size(block):
        found = [key(m) for m in mail_walk.spool_urls(io.BytesIO(data), name,
                                                      on_error=errors.append, **scan)]
    return found, errors


def old_message(data, source="msg"):
    errors = []
    found = [key(m) for m in mail_message.message_matches(source, None, data, OPTS,
                                                          errors.append)]
    return found, errors


def fast_message(data, source="msg"):
    errors = []
    found = [key(m) for m in mail_walk.message_urls_fast(data, source, OPTS, errors.append)]
    return found, errors


def assert_spool_agrees(data, block=None, **scan):
    old = old_spool(data, **scan)
    assert fast_spool(data, block=block, **scan) == old
    return old


def assert_message_agrees(data):
    old = old_message(data)
    assert fast_message(data) == old
    return old


def brief(result):
    """A result with each match cut to (url, part, message_id, date, source, offset)."""
    found, errors = result
    return [k[:6] for k in found], errors


def fast_matches(data, name="box"):
    errors = []
    found = list(mail_walk.spool_urls(io.BytesIO(data), name, on_error=errors.append))
    return found, errors


def parts_urls(found):
    return [(m[1], m[0]) for m in found]


# ---------------------------------------------------------------------------------------
# whole spools: the sample and the benchmark corpus
# ---------------------------------------------------------------------------------------


def test_sample_spool_agrees():
    data = SAMPLE.read_bytes()
    found, errors = assert_spool_agrees(data)
    assert len(found) > 10 and errors == []


@pytest.mark.parametrize("block", [97, 1000, 4096])
def test_sample_spool_agrees_in_small_pieces(block):
    assert_spool_agrees(SAMPLE.read_bytes(), block=block)


def test_sample_spool_agrees_message_by_message():
    data = SAMPLE.read_bytes()
    messages = [d for _, _, d in mail_spool.mbox_messages(io.BytesIO(data), "s")]
    assert len(messages) > 3
    for msg in messages:
        assert_message_agrees(msg)


@pytest.fixture(scope="module")
def corpus_spools(tmp_path_factory):
    """The benchmark spool at 1.5 MB for two seeds (written once for both cores)."""
    sys.path.insert(0, str(ROOT / "benchmarks"))
    import corpus  # benchmarks/corpus.py: the generator of the benchmark spool

    out = {}
    for seed in (1, 7):
        path = tmp_path_factory.mktemp("corpus") / f"mail-{seed}.mbox"
        corpus.write_mbox(path, 1.5, seed)
        out[seed] = path.read_bytes()
    return out


@pytest.mark.parametrize("seed", [1, 7])
def test_benchmark_corpus_agrees(corpus_spools, seed):
    data = corpus_spools[seed]
    assert len(data) > 1_400_000                     # more than one 1 MiB piece
    found, errors = assert_spool_agrees(data)
    assert len(found) > 1000 and errors == []


def test_benchmark_corpus_agrees_in_odd_pieces(corpus_spools):
    data = corpus_spools[7][:300_000]
    assert_spool_agrees(data, block=65_537)


# ---------------------------------------------------------------------------------------
# generated messages
# ---------------------------------------------------------------------------------------

HOSTS = [b"www.example.com", b"a.example", b"192.0.2.44", b"h.example:8080",
         b"lists.example.org", b"[2001:db8::1]"]
PATH_CHARS = list(b"abcxyz0189-._~/?=&%;:@+$,!*'()#")
WORDS = [b"see", b"the", b"link", b"at", b"and", b"http", b"URL", b"mailto", b"From",
         b"caf\xc3\xa9", b"na\xefve", b"\xe2\x82\xac", b"\xff\xfe", b"=", b"&", b"<", b">",
         b"(", b")", b"--", b"a-", b":", b"\t", b"\x0c", b"\x00", b"\x1b", b"\x7f",
         b"\x85", b"\xc2\xa0", b"=3D", b"=\n", b"&amp;"]
QUOTES = [b"> ", b">> ", b"> > ", b" > ", b">", b">\t"]


def rare(draw, n, wild=True):
    """True one time in ``n + 1`` (never in a tame message); False for hypothesis's
    simplest draw (0), so that rare cases stay rare. A generated message is "wild" one
    time in three: only then does it get what makes the walker leave it to ``email``
    (bare CR, 8-bit in the headers it reads, message/rfc822, odd encodings, malformed
    HTML...), so that most messages are walked and compared, not handed over."""
    return wild and draw(st.integers(0, n)) == n


@st.composite
def urls(draw):
    kind = draw(st.integers(0, 11))
    host = draw(st.sampled_from(HOSTS))
    if kind == 0:
        return b"mailto:" + draw(st.sampled_from([b"info", b"j.doe", b"a+b"])) + b"@" + host
    if kind == 1:
        return b"news:" + draw(st.sampled_from([b"comp.infosystems.www", b"*", b"123@h.example"]))
    if kind == 2:
        return b"urn:x:" + draw(st.sampled_from([b"a", b"b/c"]))
    scheme = draw(st.sampled_from([b"http", b"https", b"ftp", b"HTTP", b"gopher", b"x-foo",
                                   b"wais", b"file"]))
    path = bytes(draw(st.lists(st.sampled_from(PATH_CHARS), max_size=24)))
    return scheme + b"://" + host + b"/" + path


@st.composite
def broken(draw, token):
    """``token`` with a line break (and maybe a reply-quote prefix) somewhere inside."""
    if len(token) < 3:
        return token
    at = draw(st.integers(1, len(token) - 1))
    prefix = draw(st.sampled_from([b"", b"  ", b"\t"] + QUOTES))
    return token[:at] + b"\n" + prefix + token[at:]


@st.composite
def text_tokens(draw):
    x = draw(st.integers(0, 19))
    if x < 8:
        return draw(st.sampled_from(WORDS))
    u = draw(urls())
    if x < 11:
        return u
    if x < 13:
        tok = b"<URL:" + u + b">"
    elif x < 14:
        tok = b"<" + u + b">"
    elif x < 15:
        return b"(" + u + b")."
    elif x < 16:
        return b"URL:" + u
    elif x < 17:
        return b'"' + u + b'",'
    else:
        tok = b"<URL: " + u + b" >"
    if draw(st.booleans()):
        tok = draw(broken(tok))
    return tok


@st.composite
def plain_text(draw, wild=True):
    """Lines of words and URLs, some quoted, some wrappers broken over lines."""
    lines = []
    for _ in range(draw(st.integers(0, 6))):
        prefix = draw(st.sampled_from([b""] * 4 + QUOTES))
        toks = draw(st.lists(text_tokens(), max_size=6))
        seps = [draw(st.sampled_from([b" ", b" ", b"  ", b""])) for _ in toks]
        line = b"".join(s + t for s, t in zip(seps, toks))
        lines.append(prefix + line)
    if rare(draw, 9):
        lines.append(b"From the desk of http://from.example/x")    # mboxrd escapes it
    if rare(draw, 9):
        lines.append(b">From http://gt-from.example/y")
    end = draw(st.sampled_from([b"\n", b"\n", b"", b"\n\n"]))
    return b"\n".join(lines) + end


def html_escape_variants(draw, value):
    amp = draw(st.sampled_from([b"&amp;", b"&#38;", b"&#x26;", b"&", b"&AMP;", b"&amp"]))
    return value.replace(b"&", amp)


@st.composite
def html_pieces(draw, wild=True):
    x = draw(st.integers(0, 29 if wild else 25))
    if x < 5:
        return draw(st.sampled_from(WORDS))
    if x < 8:
        return draw(st.sampled_from([
            b"&lt;", b"&gt;", b"&nbsp;", b"&unknown;", b"&#160;", b"&#x3a;", b"&#58;",
            b"&#x2F;", b"&#9999999999;", b"&amp", b"&ampx", b"&#0;", b"&#x110000;",
            b"&lt;http://lt.example/&gt;", b"http&#58;//ent.example/a", b"&#104;ttp://e.example/",
            b"http://nb.example/&nbsp;x", b"&eacute;", b"&Eacute", b"&#x41;&#66;"]))
    if x < 11:
        return html_escape_variants(draw, draw(urls()))
    if x < 19:
        u = draw(urls())
        value = html_escape_variants(draw, u)
        q = draw(st.sampled_from([b'"', b"'", b""]))
        if not q:
            value = value.replace(b">", b"").replace(b" ", b"")
        else:
            value = value.replace(q, b"")
        name = draw(st.sampled_from([b"href", b"HREF", b"Href"]))
        space = draw(st.sampled_from([b"", b" ", b"\n"]))
        attr = name + space + b"=" + space + q + value + q
        extra = draw(st.sampled_from([b"", b' target="_blank"', b" name=x", b" /"]))
        inner = draw(st.sampled_from([0, 1, 2, 3, 4]))
        if inner == 0:
            text = html_escape_variants(draw, u)              # <a href=U>U</a>
        elif inner == 1:
            text = html_escape_variants(draw, u).rstrip(b"/") + b"/"
        elif inner == 2:
            text = b"click here"
        elif inner == 3:
            text = html_escape_variants(draw, draw(urls()))
        else:
            text = b"see " + html_escape_variants(draw, u) + b" now"
        close = draw(st.sampled_from([b"</a>", b"</A>", b"", b"</a >"]))
        return b"<a " + attr + extra + b">" + text + close
    if x < 20:
        u = html_escape_variants(draw, draw(urls())).replace(b'"', b"")
        return b'<img alt="x" src="' + u + b'">'
    if x < 21:
        return draw(url_attribute_tags())
    if x < 26:
        return draw(st.sampled_from([
            b"<p>", b"</p>", b"<br/>", b"<br>", b"<!-- http://comment.example/ -->",
            b"<!DOCTYPE html>", b"<?xml version='1.0'?>", b"</>", b"a < b", b"a > b",
            b"<script>var u = 'http://script.example/a?b=1&amp;c';</script>",
            b"<style>body { background: url(http://style.example/i.png) }</style>",
            b'<a href="relative/page.html">rel</a>', b"<a name=top>", b"<a href>x</a>",
            b'<a href="">empty</a>', b'<a href="  http://space.example/  ">s</a>',
            b"<A HREF=http://upper.example/>u</A>", b"<div\nclass=x>", b"<td>",
            b'<a href="mailto:a@b.example?subject=x&amp;body=y">m</a>',
            # issue 25's forms (HTML5 comment ends, raw text, the other URL attributes,
            # values the URL Standard cleans): the walk reads them or falls back
            b"<!-->", b"<!--->", b"<!-- a --!>", b"<title>a<!--</title>",
            b"<textarea>&amp; <b></textarea>", b"<xmp><a href=http://xmp.example/></xmp>",
            b"<iframe><!--</iframe>", b"<style>p { color: red }</style>",
            b'<form action="http://form.example/post">',
            b'<img srcset="http://s1.example/a.png 1x, http://s2.example/b.png 2x">',
            b"<td background=http://bg.example/i.gif>",
            b'<meta http-equiv=refresh content="0;url=http://refresh.example/">',
            b"<div style=\"background:url('http://st.example/')\">",
            b'<a href="http:\\bs.example\\x">b</a>', b'<a href=" http:/one.example/">o</a>',
            b'<a href="http://q.example/?a=1&copy=2">q</a>',
            b'<a href="http://d1.example/" href="http://d2.example/">d</a>']))
    return draw(st.sampled_from([                          # malformed, rare
        b"<!x>", b"</ x>", b"<a href='http://open.example/", b"<!-- never closed",
        b'<base href="http://base.example/">', b"<![CDATA[ http://cdata.example/ ]]>",
        b"<a href=\"http://\xc2\xa0nb.example/\">x</a>", b"<a href=\x1chttp://fs.example/>x</a>",
        b"<p", b"<", b"&", b"<plaintext><!-- ", b"x\x00y"]))


#: the URL attributes besides href and src (HTML's attribute index), and their tags
OTHER_URL_ATTRIBUTES = [(b"form", b"action"), (b"button", b"formaction"), (b"td", b"background"),
                        (b"blockquote", b"cite"), (b"img", b"longdesc"), (b"object", b"data"),
                        (b"div", b"data"), (b"video", b"poster"), (b"a", b"xlink:href"),
                        (b"a", b"ping"), (b"img", b"srcset"), (b"p", b"style")]


@st.composite
def url_attribute_tags(draw):
    """A tag with one of the other URL attributes: a URL, a srcset's candidates (with
    descriptors, commas, parentheses), a ping's tokens, CSS with url() and @import."""
    tag, attr = draw(st.sampled_from(OTHER_URL_ATTRIBUTES))
    us = [html_escape_variants(draw, draw(urls())) for _ in range(draw(st.integers(1, 3)))]
    if attr == b"srcset":
        descs = [draw(st.sampled_from([b"", b" 1x", b" 2x", b" 100w", b" (a,b) 1x", b","]))
                 for _ in us]
        value = draw(st.sampled_from([b", ", b",", b" ,, "])).join(u + d for u, d in zip(us, descs))
    elif attr == b"ping":
        value = draw(st.sampled_from([b" ", b"\t", b"  \n"])).join(us)
    elif attr == b"style":
        forms = [b"url(%s)", b"url( '%s' )", b'URL("%s")', b"url(%s", b"@import '%s'",
                 b"@import url(%s)", b"url('%s"]
        value = b"; ".join(draw(st.sampled_from(forms)) % u for u in us)
        value = b"color: red; " + value if draw(st.booleans()) else value
    else:
        value = us[0]
    q = draw(st.sampled_from([b'"', b"'"]))
    value = value.replace(q, b"")
    # a duplicate after it, or one without a value before it (the first one stands)
    twice = draw(st.sampled_from([b"", b"", b"", b" " + attr + b"=x"]))
    bare = draw(st.sampled_from([b"", b"", b"", b" " + attr]))
    return b"<" + tag + bare + b" " + attr + b"=" + q + value + q + twice + b">"


@st.composite
def html_text(draw, wild=True):
    pieces = draw(st.lists(html_pieces(wild), max_size=10))
    seps = [draw(st.sampled_from([b"", b" ", b"\n"])) for _ in pieces]
    body = b"".join(s + p for s, p in zip(seps, pieces))
    if draw(st.booleans()):
        body = b"<html><body>\n" + body + b"\n</body></html>"
    return body + draw(st.sampled_from([b"\n", b""]))


def qp_encode(draw, data, wild=True):
    """Quoted-printable (RFC 2045 6.7) with soft breaks (``=\\n``) put anywhere between
    encoded characters, URLs included, and some safe characters encoded anyway."""
    out = bytearray()
    col = 0
    hexd = draw(st.sampled_from(["upper", "lower"]))
    for i, c in enumerate(data):
        if c == 10:
            out += b"\n"
            col = 0
            continue
        nxt = data[i + 1] if i + 1 < len(data) else 10
        if c == 61 or c >= 128 or (c < 32 and c != 9) or (c in (32, 9) and nxt == 10):
            enc = b"=%02X" % c
        elif c in b":/.&?" and draw(st.integers(0, 15)) == 0:
            enc = b"=%02X" % c
        else:
            enc = bytes((c,))
        if hexd == "lower" and enc[:1] == b"=":
            enc = enc.lower()
        if col + len(enc) > 75 or draw(st.integers(0, 11)) == 0:
            out += b"=\n"
            col = 0
        out += enc
        col += len(enc)
    if rare(draw, 9):
        out += b"=\n"                                     # a soft break at the very end
    if rare(draw, 9, wild) and out:
        at = draw(st.integers(0, len(out)))
        bad = draw(st.sampled_from([b"=ZZ", b"=4", b"= \n", b"=\t\n", b"=  ", b"="]))
        out[at:at] = bad                                  # malformed or padded soft break
    return bytes(out)


def b64_encode(draw, data, wild=True):
    """Base64 (RFC 2045 6.8) in lines of 60 to 76 characters; sometimes broken."""
    enc = base64.b64encode(data)
    width = draw(st.integers(60, 76))
    lines = [enc[i:i + width] for i in range(0, len(enc), width)]
    body = b"\n".join(lines) + (b"\n" if lines else b"")
    bad = draw(st.integers(0, 11)) if wild else 0
    if bad == 11 and body:
        at = draw(st.integers(0, len(body) - 1))
        body = body[:at] + draw(st.sampled_from([b"!", b"*", b"=", b"-", b"\x80", b" "])) + body[at:]
    elif bad == 10 and len(enc) > 2:
        body = body.rstrip(b"\n=")[:-1] + b"\n"           # length 1 more than 4k, or bad
    elif bad == 9:
        body = body.replace(b"=", b"")                    # padding left out
    return body


#: Charsets the walker reads on the octets, then those it leaves to email (UTF-16...).
CHARSETS = [None, b"utf-8", b"UTF-8", b'"utf-8"', b"us-ascii", b"iso-8859-1", b"latin-1",
            b"windows-1252", b"koi8-r", b"euc-jp", b"utf8", b"cp1252", b"x-unknown"]
ODD_CHARSETS = [b"utf-16", b"no-such-charset", b"utf-8 ", b"shift_jis", b"\xe9", b"utf-7"]
CTES = [None, b"7bit", b"8bit", b"binary", b"quoted-printable", b"Quoted-Printable",
        b"base64", b"BASE64"]
ODD_CTES = [b"x-uuencode", b"bogus", b"base64 "]


@st.composite
def leaf(draw, digest=False, wild=True):
    """A leaf entity: (header lines, body)."""
    ctype = draw(st.sampled_from([b"text/plain"] * 4 + [b"text/html"] * 3 + [
        None, b"TEXT/HTML", b"image/png", b"application/octet-stream", b"text/enriched",
        b"text", b"text/plain (comment)"]))
    if rare(draw, 19, wild):
        ctype = b"message/rfc822"
    if ctype == b"message/rfc822":
        inner_headers, inner_body = draw(leaf())
        inner = b"".join(inner_headers) + b"\n" + inner_body
        return [b"Content-Type: message/rfc822\n"], inner
    if ctype is None and digest:
        # a digest part without Content-Type is message/rfc822 (RFC 2046 5.1.5)
        inner_headers, inner_body = draw(leaf())
        return [], b"".join(inner_headers) + b"\n" + inner_body
    html = ctype is not None and ctype.lower() == b"text/html"
    body = draw(html_text(wild)) if html else draw(plain_text(wild))
    headers = []
    charset = draw(st.sampled_from(ODD_CHARSETS if rare(draw, 7, wild) else CHARSETS))
    if ctype is not None:
        value = ctype
        if charset is not None:
            value += draw(st.sampled_from([b"; charset=", b";charset=", b";\n charset="])) + charset
        headers.append(b"Content-Type: " + value + b"\n")
    elif charset is not None and draw(st.booleans()):
        headers.append(b"Content-Type: text/plain; charset=" + charset + b"\n")
    if charset is not None and charset.strip(b'"').lower() in (b"utf-16", b"utf-7"):
        body = body.decode("latin-1").encode(charset.decode())
    cte = draw(st.sampled_from(ODD_CTES if rare(draw, 9, wild) else CTES))
    if cte is not None:
        headers.append(b"Content-Transfer-Encoding: " + cte + b"\n")
        low = cte.lower()
        if low == b"quoted-printable":
            body = qp_encode(draw, body, wild)
        elif low == b"base64":
            body = b64_encode(draw, body, wild)
    if draw(st.integers(0, 5)) == 0:
        headers.append(b"Content-Disposition: inline\n")
    if draw(st.booleans()):
        headers.reverse()
    return headers, body


BCHARS = "abcXYZ0189'()+_,-./:=?"


@st.composite
def boundaries(draw):
    b = draw(st.text(alphabet=BCHARS + " ", min_size=1, max_size=20))
    assume(not b.endswith(" "))
    return b.encode("ascii")


@st.composite
def entity(draw, depth=0, digest=False, wild=True):
    """A MIME entity: (header lines, body), multipart down to depth 3."""
    if depth >= 3 or draw(st.integers(0, 9)) < 6:
        return draw(leaf(digest, wild))
    subtype = draw(st.sampled_from([b"mixed", b"alternative", b"related", b"Mixed",
                                    b"x-unknown"]))
    if rare(draw, 7, wild):
        subtype = b"digest"
    b = draw(boundaries())
    if not rare(draw, 5):
        b += b"%d" % depth            # mostly not the same boundary at every depth
    quoted = draw(st.sampled_from(["plain", "quoted", "quoted-blanks"]))
    if quoted == "plain" and re.fullmatch(rb"[A-Za-z0-9'+_.\-]+", b):
        param = b"boundary=" + b
    elif quoted == "quoted-blanks":
        param = b'boundary="' + b + b'  "'                     # email rstrips it
    else:
        param = b'boundary="' + b + b'"'
    sep = draw(st.sampled_from([b"; ", b";", b";\n\t", b" ;\n "]))
    odd = b""
    if rare(draw, 4, wild):
        odd = draw(st.sampled_from([b"; charset=utf-8", b'; x="a;b"', b"; x", b"; BOUNDARY=zz",
                                    b"; boundary*=us-ascii''zz", b"; x*0=y"]))
    order = draw(st.booleans())
    params = (sep + param + odd) if order else (odd + sep + param)
    headers = [b"Content-Type: multipart/" + subtype + params + b"\n"]
    children = draw(st.lists(entity(depth + 1, subtype.lower() == b"digest", wild),
                             min_size=1, max_size=3))
    body = bytearray()
    if draw(st.booleans()):
        body += b"This is a MIME message, see http://preamble.example/\n"
    for ch_headers, ch_body in children:
        blanks = draw(st.sampled_from([b"", b"", b" ", b"\t ", b"  "]))
        gap = draw(st.sampled_from([b"\n"] * 5 + [b""]))     # "": no blank line
        body += b"--" + b + blanks + b"\n" + b"".join(ch_headers) + gap + ch_body
        if rare(draw, 7):                                  # not a boundary line
            body += draw(st.sampled_from([b"--" + b + b"x", b"--" + b + b"--x", b" --" + b,
                                          b"--" + b[:-1], b"-- " + b])) + b"\n"
        if not ch_body.endswith(b"\n") or draw(st.booleans()):
            body += b"\n"
    close = draw(st.sampled_from(["close", "close", "close-blanks", "missing"]))
    if close == "close":
        body += b"--" + b + b"--\n"
    elif close == "close-blanks":
        body += b"--" + b + b"-- \n"
    if draw(st.booleans()):
        body += b"epilogue http://epilogue.example/\n"
    return headers, bytes(body)


MESSAGE_IDS = [b"<id.1@example.org>", b"  <id.2@example.org>  ", b"<id.3@example.org> (c)",
               b"<id.4@example.org>\n ", b"\n <id.5@example.org>", b"", b"no-brackets@example.org"]
DATES = [b"Mon, 12 Oct 2026 09:00:00 +0000", b"12 Oct 2026 09:00 -0500",
         b"Mon, 12 Oct 26 09:00:00 EST", b"Monday, 12-Oct-26 09:00:00 GMT", b"garbage",
         b"", b"Tue, 30 Feb 2026 00:00:00 +0000", b"Mon, 12 Oct 2026\n 09:00:00 -0000",
         b"Mon, 12 Oct 2026 09:00:00 +0000 (UTC)", b"1 Jan 1970 00:00:00 +2400"]
LIST_HEADERS = [b"List-Help", b"List-Unsubscribe", b"List-Subscribe", b"List-Post",
                b"List-Owner", b"List-Archive", b"Archived-At", b"Content-Base",
                b"Content-Location", b"list-post", b"LIST-ARCHIVE", b"List-Id"]


@st.composite
def messages(draw):
    """One message (without its ``From `` line), as bytes."""
    wild = rare(draw, 2)
    ent_headers, body = draw(entity(wild=wild))
    headers = list(ent_headers)
    if draw(st.integers(0, 4)):
        value = draw(st.sampled_from(MESSAGE_IDS))
        if rare(draw, 19, wild):
            value = b"<caf\xc3\xa9@example.org>"                 # 8-bit: email's Header
        headers.append(b"Message-ID: " + value + b"\n")
    if draw(st.integers(0, 4)):
        value = draw(st.sampled_from(DATES))
        if rare(draw, 19, wild):
            value += b" \xff"
        headers.append(b"Date: " + value + b"\n")
    for _ in range(draw(st.integers(0, 3))):
        name = draw(st.sampled_from(LIST_HEADERS))
        u1, u2 = draw(urls()), draw(urls())
        value = draw(st.sampled_from([
            b"<" + u1 + b">", b"<" + u1 + b">,\n <" + u2 + b">", b"<" + u1 + b">, <" + u2 + b">",
            u1, b"(comment) <" + u1 + b">", b"NO"]))
        if rare(draw, 19, wild):
            value += b" caf\xe9"                                # 8-bit: email's Header
        headers.append(name + b": " + value + b"\n")
    if draw(st.booleans()):
        headers.append(b"Subject: " + draw(st.sampled_from(
            [b"hello", b"caf\xc3\xa9 http://subject.example/", b"=?utf-8?q?caf=C3=A9?=",
             b"folded\n subject"])) + b"\n")
    if draw(st.booleans()):
        headers.append(b"MIME-Version: 1.0\n")
    order = draw(st.permutations(range(len(headers))))
    headers = [headers[i] for i in order]
    odd = draw(st.integers(0, 24)) if wild else 0
    if odd == 24:
        headers.insert(0, b" continuation first\n")
    elif odd == 23:
        headers.append(b": no name\n")
    elif odd == 22:
        headers.append(b"X-Bad Header: x\n")                 # ends the header block
    elif odd == 21:
        headers.insert(len(headers) // 2, b"From someone else\n")
    elif odd >= 19:
        headers.append(b"X-Eight: caf\xe9\n")
    sep = draw(st.sampled_from([b"\n"] * 6 + [b""]))          # "" : no blank line
    msg = b"".join(headers) + sep + body
    # mboxrd: a body line ">*From " gets one more ">" (mostly)
    if not rare(draw, 9):
        msg = re.sub(rb"(?m)^(>*From )", rb">\1", msg)
    ends = draw(st.integers(0, 11))
    if ends >= 9:
        msg = msg.replace(b"\n", b"\r\n")                    # CRLF
    elif ends == 8 and msg and wild:
        at = draw(st.integers(0, len(msg)))
        msg = msg[:at] + b"\r" + msg[at:]                      # a bare CR
    elif ends == 7:
        lines = msg.split(b"\n")                             # some lines CRLF, some LF
        flags = draw(st.lists(st.booleans(), min_size=len(lines), max_size=len(lines)))
        msg = b"".join(ln + (b"\r\n" if f else b"\n") for ln, f in zip(lines, flags))[:-1]
    return msg


@st.composite
def spools(draw):
    """An mbox of a few generated messages; returns (spool, messages)."""
    msgs = draw(st.lists(messages(), min_size=1, max_size=4))
    out = bytearray()
    if rare(draw, 9):
        out += b"text before the first From line http://pre.example/\n"
    for msg in msgs:
        out += draw(st.sampled_from([FROM_LINE, b"From a@b Sat Jan  3 01:05:34 1996\n",
                                     b"From \n", b"From x\r\n"]))
        out += msg
        if not msg.endswith(b"\n"):
            out += b"\n"
        if draw(st.booleans()):
            out += b"\n"
    return bytes(out), msgs


_KNOWN = re.compile(rb'\xa4\xd4|^content-type:[ \t]*charset|boundary[ \t]*=[ \t]*"?<',
                    re.IGNORECASE | re.MULTILINE)


def assume_no_known_difference(data):
    """Leave out the inputs of the known differences (section at the end), so that a
    generated test fails only on a new one."""
    assume(not _KNOWN.search(data))


#: HYPOTHESIS_PROFILE=ci runs three times the examples.
SCALE = 3 if os.environ.get("HYPOTHESIS_PROFILE") == "ci" else 1
#: How many spools the walk-vs-email properties draw (.ci/sanitize asks for more: the
#: Latin-1 round trip of issue 25 took a seed of its own to be found at 120).
WALK_EXAMPLES = int(os.environ.get("URLSIFT_WALK_EXAMPLES", 120 * SCALE))

GEN = settings(max_examples=WALK_EXAMPLES, deadline=None,
               suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                      HealthCheck.filter_too_much])


SCAN_OPTIONS = [{}, {}, {}, {"schemes": ["mailto", "news", "HTTPS"]}, {"valid": "strict"},
                {"valid": "lenient"}]


@GEN
@given(spools(), st.sampled_from([None, None, 64, 300]), st.sampled_from(SCAN_OPTIONS))
def test_generated_spools_agree(spool, block, scan):
    data, _ = spool
    assume_no_known_difference(data)
    assert_spool_agrees(data, block=block, **scan)


@GEN
@given(messages())
def test_generated_messages_agree(msg):
    assume_no_known_difference(msg)
    assert_message_agrees(msg)


MUTATIONS = [b"\n", b"\r\n", b"\n\n", b"--", b"=", b"=\n", b"<", b">", b"> ", b'"', b";", b":",
             b" ", b"\t", b"&", b"&amp;", b"From ", b"\nFrom x\n", b"\xa0", b"\x00", b"\xe9",
             b"\nContent-Type: multipart/mixed; boundary=x\n", b"\n--x\n", b"\n--x--\n",
             b"\nContent-Transfer-Encoding: base64\n", b"\nContent-Type: text/html\n",
             b"<a href=", b"http://m.example/", b"<URL:", b"\n> "]


@st.composite
def mutated(draw, data):
    """``data`` with a few insertions or deletions at random places."""
    data = bytearray(data)
    for _ in range(draw(st.integers(1, 4))):
        at = draw(st.integers(0, len(data)))
        if draw(st.integers(0, 3)) or not data:
            data[at:at] = draw(st.sampled_from(MUTATIONS))
        else:
            data[at:at + draw(st.integers(1, 8))] = b""
    return bytes(data)


@GEN
@given(spools(), st.data())
def test_mutated_spools_agree(spool, data):
    """The generated spools with random bytes put in or taken out: odd corners of the
    header, boundary and HTML grammars."""
    whole, _ = spool
    spool = data.draw(mutated(whole))
    assume_no_known_difference(spool)
    assert_spool_agrees(spool)


@settings(max_examples=60 * SCALE, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(spools(), st.data())
def test_generated_spools_agree_when_cut_anywhere(spool, data):
    """A spool cut short (a copy interrupted) is read alike up to the cut."""
    whole, _ = spool
    cut = data.draw(st.integers(0, len(whole)))
    assume_no_known_difference(whole)
    assert_spool_agrees(whole[:cut])


@settings(max_examples=60 * SCALE, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(spools(), st.integers(0, 600), st.sampled_from([None, 64, 100, 200]))
def test_generated_spools_agree_with_a_small_size_bound(spool, extra, block):
    """Messages over ``MESSAGE_MAX`` are reported alike, and the walk goes on. (The
    bound stays above the longest line, and the pieces are longer than the ``From ``
    lines: see the known differences ``test_known_long_line_in_a_message_too_large``
    and ``test_known_from_line_longer_than_a_piece``.)"""
    data, _ = spool
    assume_no_known_difference(data)
    limit = max(len(line) for line in data.split(b"\n")) + 1 + extra
    with mock.patch.object(mail_spool, "MESSAGE_MAX", limit):
        assert_spool_agrees(data, block=block)


# ---------------------------------------------------------------------------------------
# hand-written cases: expected values from the RFCs, not from either path
# ---------------------------------------------------------------------------------------


def both_agree_on(spool):
    """Both paths on ``spool``; the fast path's matches (for file_offset) and the
    (part, url) pairs, after checking that they agree with the oracle."""
    old = old_spool(spool)
    found, errors = fast_matches(spool)
    assert ([key(m) for m in found], errors) == old
    return found, errors


def test_quoted_printable_soft_break_inside_a_url_gives_the_joined_url():
    # RFC 2045 6.7 rule (5): "=" at the end of an encoded line is a soft line break,
    # not part of the text; rule (1): "=3D" is the octet 0x3D "=". So the URL is whole.
    msg = (b"Message-ID: <qp@example.org>\n"
           b"Content-Type: text/plain; charset=us-ascii\n"
           b"Content-Transfer-Encoding: quoted-printable\n"
           b"\n"
           b"See http://www.example.org/a/very/long/pa=\n"
           b"th?x=3D1&y=3D2 and ftp://ftp.example.net/=\n"
           b"pub/file.txt=\n"
           b" today.\n")
    found, errors = both_agree_on(FROM_LINE + msg)
    assert parts_urls([key(m) for m in found]) == [
        ("1 text/plain", "http://www.example.org/a/very/long/path?x=1&y=2"),
        ("1 text/plain", "ftp://ftp.example.net/pub/file.txt")]
    assert errors == []
    assert [m.message_id for m in found] == ["<qp@example.org>"] * 2
    assert [m.file_offset for m in found] == [None, None]      # a decoded part
    assert_message_agrees(msg)
    assert [m.url for m in iter_message_urls(msg)] == [m.url for m in found]


def test_a_url_in_a_base64_text_part_is_found():
    # RFC 2045 6.8: the body is the base64 of the text; line breaks in it are ignored.
    text = b"Visit http://b64.example/path?q=1 for more.\n"
    enc = base64.b64encode(text)
    body = enc[:20] + b"\n" + enc[20:] + b"\n"
    msg = (b"Content-Type: text/plain; charset=utf-8\n"
           b"Content-Transfer-Encoding: base64\n\n" + body)
    found, errors = both_agree_on(FROM_LINE + msg)
    assert [(m.part, m.url, m.file_offset) for m in found] == [
        ("1 text/plain", "http://b64.example/path?q=1", None)]
    assert errors == []


def test_an_image_part_is_skipped():
    # RFC 2046 section 4.2 and 4.5: image/* and application/octet-stream are not text.
    msg = (b"Content-Type: multipart/mixed; boundary=XYZ\n\n"
           b"--XYZ\nContent-Type: text/plain\n\nsee http://text.example/\n"
           b"--XYZ\nContent-Type: image/png\nContent-Transfer-Encoding: base64\n\n"
           + base64.b64encode(b"http://image.example/") + b"\n"
           b"--XYZ\nContent-Type: application/octet-stream\n\nhttp://binary.example/\n"
           b"--XYZ--\n")
    found, _ = both_agree_on(FROM_LINE + msg)
    assert [(m.part, m.url) for m in found] == [("1 text/plain", "http://text.example/")]


NESTED = (b"Message-ID: <nested@example.org>\n"
          b"Content-Type: multipart/mixed; boundary=outer\n"
          b"\n"
          b"preamble http://preamble.example/ is not a part\n"
          b"--outer\n"
          b"Content-Type: text/plain\n"
          b"\n"
          b"one http://one.example/\n"
          b"--outer\n"
          b"Content-Type: multipart/alternative; boundary=\"in ner\"\n"
          b"\n"
          b"--in ner\n"
          b"Content-Type: text/html; charset=utf-8\n"
          b"\n"
          b'<p><a href="http://two.example/x?a=1&amp;b=2">here</a> and http://three.example/</p>\n'
          b"--in ner\n"
          b"Content-Type: text/plain\n"
          b"\n"
          b"four http://four.example/\n"
          b"--in ner--\n"
          b"--outer--\n"
          b"epilogue http://epilogue.example/\n")


def test_nested_multipart_part_labels():
    # Section numbers as IMAP has them (RFC 3501 6.4.5 BODY[section]): the parts of the
    # multipart/alternative inside part 2 are 2.1 and 2.2; an href is "<label> href".
    # Preamble and epilogue are not parts (RFC 2046 5.1.1): they are not read.
    found, errors = both_agree_on(FROM_LINE + NESTED)
    assert [(m.part, m.url) for m in found] == [
        ("1 text/plain", "http://one.example/"),
        ("2.1 text/html href", "http://two.example/x?a=1&b=2"),     # "&amp;" is "&"
        ("2.1 text/html", "http://three.example/"),
        ("2.2 text/plain", "http://four.example/")]
    assert errors == [] and {m.message_id for m in found} == {"<nested@example.org>"}


def test_nested_multipart_with_crlf_line_ends_reads_the_same():
    # RFC 2046 5.1.1: the CRLF before a boundary belongs to the boundary.
    found, _ = both_agree_on((FROM_LINE + NESTED).replace(b"\n", b"\r\n"))
    assert [(m.part, m.url) for m in found] == [
        ("1 text/plain", "http://one.example/"),
        ("2.1 text/html href", "http://two.example/x?a=1&b=2"),
        ("2.1 text/html", "http://three.example/"),
        ("2.2 text/plain", "http://four.example/")]


def test_a_link_whose_text_is_its_own_url_counts_once():
    msg = (b"Content-Type: text/html\n\n"
           b'<a href="http://same.example/">http://same.example/</a> '
           b"<a href=http://other.example/>click</a> "
           b"<a href='http://third.example/a'>http://fourth.example/</a>\n")
    found, _ = both_agree_on(FROM_LINE + msg)
    assert [(m.part, m.url) for m in found] == [
        ("1 text/html href", "http://same.example/"),
        ("1 text/html href", "http://other.example/"),
        ("1 text/html href", "http://third.example/a"),
        ("1 text/html", "http://fourth.example/")]


def test_html_character_references_in_attributes_and_text():
    # HTML: &amp; &#38; &#x26; are all "&"; &lt; &gt; are "<" ">", so the text
    # "&lt;http://lt.example/&gt;" reads "<http://lt.example/>"; &nbsp; is U+00A0, not
    # ASCII, so it ends a URL.
    msg = (b"Content-Type: text/html; charset=utf-8\n\n"
           b'<a href="http://e.example/?a=1&amp;b=2&#38;c=3&#x26;d=4">x</a>'
           b"<img src=http://img.example/a.png?x=1&amp;y=2>"
           b"<p>&lt;http://lt.example/&gt; http://nb.example/a&nbsp;b</p>\n")
    found, _ = both_agree_on(FROM_LINE + msg)
    assert [(m.part, m.url) for m in found] == [
        ("1 text/html href", "http://e.example/?a=1&b=2&c=3&d=4"),
        ("1 text/html src", "http://img.example/a.png?x=1&y=2"),
        ("1 text/html", "http://lt.example/"), ("1 text/html", "http://nb.example/a")]


def test_file_offset_is_the_offset_in_the_spool_of_a_part_read_as_it_stands():
    first = (FROM_LINE + b"Message-ID: <a@x>\n\nhello\n\n")
    head = (b"From b@example.org Mon Oct 12 09:00:00 2026\n"
            b"Message-ID: <b@x>\n"
            b"List-Post: <mailto:list@l.example>\n"
            b"Content-Type: multipart/mixed; boundary=B\n\n"
            b"--B\n"
            b"Content-Type: text/plain; charset=utf-8\n"
            b"Content-Transfer-Encoding: 8bit\n\n"
            b"caf\xc3\xa9 ")
    tail = (b" ok\n"
            b"--B\n"
            b"Content-Type: text/plain\n"
            b"Content-Transfer-Encoding: quoted-printable\n\n"
            b"http://qp.example/\n"
            b"--B\n"
            b"Content-Type: text/plain\n"
            b"Content-Transfer-Encoding: base64\n\n"
            + base64.b64encode(b"http://b64.example/\n") + b"\n"
            b"--B--\n")
    spool = first + head + b"http://eight.example/p" + tail
    found, errors = both_agree_on(spool)
    assert [(m.part, m.url) for m in found] == [
        ("header:List-Post", "mailto:list@l.example"),
        ("1 text/plain", "http://eight.example/p"),
        ("2 text/plain", "http://qp.example/"),
        ("3 text/plain", "http://b64.example/")]
    header, eight, qp, b64 = found
    assert eight.file_offset == len(first) + len(head)
    assert eight.offset == len(first)
    # the header's match starts where its raw text stands in the file
    assert spool[header.file_offset:header.file_offset + len(header.raw)] == header.raw.encode()
    assert spool.index(b"<mailto:list@l.example>") <= header.file_offset
    assert qp.file_offset is None and b64.file_offset is None


@pytest.mark.parametrize("block", [None, 40, 200])
def test_file_offset_holds_across_pieces_and_crlf(block):
    body = b"x http://crlf.example/a y\r\n"
    spool = b""
    expected = []
    for n in range(4):
        head = (b"From n@example.org Mon Oct 12 09:00:00 2026\r\n"
                b"Message-ID: <%d@x>\r\n\r\n" % n)
        expected.append(len(spool) + len(head) + 2)
        spool += head + body
    assert_spool_agrees(spool, block=block)
    with block_size(block):
        found = list(mail_walk.spool_urls(io.BytesIO(spool), "box", on_error=pytest.fail))
    assert [m.file_offset for m in found] == expected
    assert [m.message_id for m in found] == [f"<{n}@x>" for n in range(4)]


def test_a_wrapper_broken_over_quoted_lines_comes_out_whole():
    # RFC 1738, appendix: in <URL:...> white space and line breaks are ignored; the
    # reply prefixes ("> ", ">> ") are no part of the text (docs/design.md#mail).
    msg = (b"Content-Type: text/plain\n\n"
           b"Bob wrote:\n"
           b"> The draft is at <URL:http://www.ietf.example/drafts/\n"
           b"> url-03.txt> and\n"
           b">> <URL:ftp://ftp.example.net/pub/\n"
           b">>   file.txt>\n"
           b"> not joined: http://a.example/b\n"
           b"> c\n")
    found, _ = both_agree_on(FROM_LINE + msg)
    assert [m.url for m in found] == ["http://www.ietf.example/drafts/url-03.txt",
                                      "ftp://ftp.example.net/pub/file.txt",
                                      "http://a.example/b"]


def test_headers_message_id_and_date():
    # RFC 5322 3.3: "12 Oct 2026 09:00:00 -0500" (no day of week) is a date; a
    # Message-ID folded onto the next line is the same msg-id; List-* headers come out
    # in the order of URL_HEADERS (List-Help before List-Unsubscribe before
    # List-Archive), a folded one gives both its URLs (RFC 2369 2: a list of <URL>s).
    msg = (b"List-Archive: <http://l.example/archive/>\n"
           b"Date: 12 Oct 2026 09:00:00 -0500\n"
           b"Message-ID:\n <fold@example.org>\n"
           b"List-Unsubscribe: <mailto:l-request@l.example?subject=unsubscribe>,\n"
           b"\t<https://l.example/options>\n"
           b"List-Help: <mailto:l-request@l.example?subject=help>\n"
           b"\n"
           b"body http://body.example/\n")
    found, _ = both_agree_on(FROM_LINE + msg)
    assert [(m.part, m.url) for m in found] == [
        ("header:List-Help", "mailto:l-request@l.example?subject=help"),
        ("header:List-Unsubscribe", "mailto:l-request@l.example?subject=unsubscribe"),
        ("header:List-Unsubscribe", "https://l.example/options"),
        ("header:List-Archive", "http://l.example/archive/"),
        ("1 text/plain", "http://body.example/")]
    assert {(m.message_id, m.date) for m in found} == {
        ("<fold@example.org>", "2026-10-12T09:00:00-05:00")}


@pytest.mark.parametrize("date, expected", [
    (b"Mon, 12 Oct 2026 09:00:00 +0000", "2026-10-12T09:00:00+00:00"),
    (b"Mon, 12 Oct 26 09:00:00 EST", "2026-10-12T09:00:00-05:00"),   # RFC 5322 4.3
    (b"garbage", "garbage"),                                           # as written
    (None, None),
])
def test_odd_dates_and_a_missing_message_id(date, expected):
    msg = (b"Date: " + date + b"\n" if date else b"") + b"\nhttp://d.example/\n"
    found, _ = both_agree_on(FROM_LINE + msg)
    assert [(m.url, m.message_id, m.date) for m in found] == [
        ("http://d.example/", None, expected)]


def test_mboxrd_escaped_from_lines_stay_in_their_message():
    # mboxrd: a body line ">From " is an escaped "From " and belongs to the message; an
    # unescaped "From " line at a line start begins the next message (its envelope,
    # not scanned).
    spool = (FROM_LINE + b"Message-ID: <1@x>\n\n"
             b">From http://gt.example/ here\n"
             b">>From http://gtgt.example/\n"
             b"From http://split.example/ the envelope of the next\n"
             b"Message-ID: <2@x>\n\nhttp://second.example/\n")
    found, _ = both_agree_on(spool)
    assert [(m.message_id, m.url) for m in found] == [
        ("<1@x>", "http://gt.example/"), ("<1@x>", "http://gtgt.example/"),
        ("<2@x>", "http://second.example/")]
    assert found[-1].offset == spool.index(b"From http://split")


def test_boundary_with_quotes_blanks_and_specials():
    # RFC 2046 5.1.1: bchars include ' ( ) + _ , - . / : = ? and space (not last); the
    # parameter is then a quoted-string; transport padding (blanks) may follow a
    # boundary line.
    b = b"a'(b)+_,-./:=? c"
    msg = (b'Content-Type: multipart/mixed; boundary="' + b + b'"\n\n'
           b"--" + b + b"  \n\nfirst http://first.example/\n"
           b"--" + b + b"\t\nContent-Type: text/plain\n\nsecond http://second.example/\n"
           b"--" + b + b"-- \n")
    found, _ = both_agree_on(FROM_LINE + msg)
    assert [(m.part, m.url) for m in found] == [("1 text/plain", "http://first.example/"),
                                                ("2 text/plain", "http://second.example/")]


@pytest.mark.parametrize("msg", [
    # RFC 2046 5.1.1: a boundary delimiter is a line of its own that starts with "--";
    # "--B" inside a line, "x--B" and "--Bx" are part of the text (the walk searches
    # for the boundary and must take only the hits at a line start)
    b"Content-Type: multipart/mixed; boundary=B\n\n"
    b"preamble x--B --B\n"
    b"--B\n\nfirst http://first.example/ --B\nx--B\n--Bx\n--B-x\n"
    b"--B\nContent-Type: text/plain\n\nsecond http://second.example/\n"
    b"--B--\nepilogue http://epilogue.example/\n",
    # boundary="" (RFC 2046 asks 1 to 70 characters; email takes it): its delimiter
    # lines are "--" and "----"
    b'Content-Type: multipart/mixed; boundary=""\n\n'
    b"-- x\n--\n\nfirst http://first.example/\n--\n\nsecond http://second.example/\n"
    b"----\n",
])
def test_boundary_lines_are_lines_of_their_own(msg):
    found, _ = both_agree_on(FROM_LINE + msg)
    assert [(m.part, m.url) for m in found] == [("1 text/plain", "http://first.example/"),
                                                ("2 text/plain", "http://second.example/")]


def test_a_boundary_with_a_line_feed_in_it_is_on_no_line():
    # a folded quoted boundary keeps its line feed: no line of the body can be it, and
    # the walk leaves the message to email, as for any multipart without a boundary
    msg = (b'Content-Type: multipart/mixed; boundary="a\n b"\n\n'
           b"--a\n b\n\nin http://in.example/\n--a\n b--\n")
    both_agree_on(FROM_LINE + msg)


@pytest.mark.parametrize("charset, body, url", [
    # UTF-16: the ASCII of the URL is two octets per character; it is found decoded
    (b"utf-16", "see http://utf16.example/a\n".encode("utf-16"), "http://utf16.example/a"),
    # an IRI's letters go on in the part's own charset (latin-1 0xE9 is "é"): the walk
    # hands such a part to email, which decodes it (the walk reads UTF-8 only)
    (b"iso-8859-1", b"caf\xe9 http://latin.example/\xe9t\xe9\n", "http://latin.example/\u00e9t\u00e9"),
    (b"x-no-such-charset", b"caf\xe9 http://unknown.example/\n", "http://unknown.example/"),
    (b"utf-8", b"caf\xc3\xa9 http://utf8.example/\xc3\xa9\n", "http://utf8.example/\u00e9"),
    (None, "見て http://例え.jp/パス。\n".encode(), "http://例え.jp/パス"),
    (b"us-ascii", b"8-bit http://ascii.example/a\xe9\n", "http://ascii.example/a"),   # U+FFFD
    (b"koi8-r", "http://ru.example/Москва\n".encode("koi8-r"), "http://ru.example/Москва"),
])
def test_charsets(charset, body, url):
    msg = (b"Content-Type: text/plain" + (b"; charset=" + charset if charset else b"")
           + b"\n\n" + body)
    found, errors = both_agree_on(FROM_LINE + msg)
    assert [m.url for m in found] == [url] and errors == []
    assert_message_agrees(msg)


def test_message_rfc822_and_digest_parts_fall_back_and_agree():
    # RFC 2046 5.2.1: message/rfc822 holds a message; 5.1.5: in multipart/digest a part
    # without Content-Type is message/rfc822. Both carry their own parts.
    msg = (b"Content-Type: multipart/digest; boundary=D\n\n"
           b"--D\n\n"
           b"Message-ID: <inner1@x>\n\nin digest http://digest.example/\n"
           b"--D\nContent-Type: message/rfc822\n\n"
           b"Content-Type: text/plain\n\nforwarded http://forwarded.example/\n"
           b"--D--\n")
    found, errors = both_agree_on(FROM_LINE + msg)
    assert {m.url for m in found} == {"http://digest.example/", "http://forwarded.example/"}
    assert errors == []


def test_html_in_quoted_printable_with_a_soft_break_inside_an_href():
    # RFC 2045 6.7 (5) first, then the HTML: the href is whole, "=3D" is "=".
    msg = (b"Content-Type: text/html; charset=us-ascii\n"
           b"Content-Transfer-Encoding: quoted-printable\n\n"
           b'<a href=3D"http://qp.example/lo=\nng?a=3D1">http://qp.example/lo=\nng?a=3D1</a>\n')
    found, _ = both_agree_on(FROM_LINE + msg)
    assert [(m.part, m.url) for m in found] == [("1 text/html href", "http://qp.example/long?a=1")]


def test_nesting_deeper_than_the_walk_goes_agrees():
    # 40 multiparts one in another (past mail.walk.MAX_DEPTH): the innermost text part is
    # section 1.1.1...1, forty ones.
    depth = 40
    msg = b""
    for level in range(depth):
        msg += b"Content-Type: multipart/mixed; boundary=b%d\n\n--b%d\n" % (level, level)
    msg += b"Content-Type: text/plain\n\ndeep http://deep.example/\n"
    for level in reversed(range(depth)):
        msg += b"--b%d--\n" % level
    found, errors = both_agree_on(FROM_LINE + msg)
    assert [(m.part, m.url) for m in found] == [
        (".".join(["1"] * depth) + " text/plain", "http://deep.example/")]
    assert errors == []


def test_a_bare_cr_and_eight_bit_headers_agree():
    # A bare CR ends a bare URL (a control character,
    # docs/design.md#where-a-bare-url-ends-and-trimming); 8-bit octets in the headers do not
    # hide the body's URLs.
    msg = (b"Subject: caf\xc3\xa9\n"
           b"Message-ID: <cr@example.org>\n\n"
           b"see http://cr.example/a\rb and http://after.example/\n")
    found, _ = both_agree_on(FROM_LINE + msg)
    assert [m.url for m in found] == ["http://cr.example/a", "http://after.example/"]
    assert_message_agrees(msg)


def test_a_part_without_headers_whose_first_line_looks_like_a_header():
    # RFC 5322 2.2 / email's feedparser: "http://x" at the top of a part is a header
    # field named "http" (its name is printable ASCII up to ":"), so it is no body text.
    msg = (b"Content-Type: multipart/mixed; boundary=B\n\n"
           b"--B\nhttp://header-like.example/\n\nbody http://body.example/\n--B--\n")
    found, _ = both_agree_on(FROM_LINE + msg)
    assert [m.url for m in found] == ["http://body.example/"]


# ---------------------------------------------------------------------------------------
# bad input: reported alike, and the walk goes on
# ---------------------------------------------------------------------------------------


def test_a_truncated_spool_agrees_wherever_it_is_cut():
    data = SAMPLE.read_bytes()
    for cut in range(0, len(data), 53):
        assert fast_spool(data[:cut]) == old_spool(data[:cut]), cut


def test_a_boundary_that_never_closes():
    # The close delimiter is missing: the last part runs to the end of the message
    # (and the outer one closes the inner multipart).
    msg = (b"Content-Type: multipart/mixed; boundary=outer\n\n"
           b"--outer\nContent-Type: multipart/alternative; boundary=inner\n\n"
           b"--inner\n\nin http://in.example/\n"
           b"--outer\n\nafter http://after.example/\n"
           b"--outer\n\nlast http://last.example/\n")
    found, errors = both_agree_on(FROM_LINE + msg + FROM_LINE + b"\nnext http://next.example/\n")
    assert [(m.part, m.url) for m in found] == [
        ("1.1 text/plain", "http://in.example/"), ("2 text/plain", "http://after.example/"),
        ("3 text/plain", "http://last.example/"), ("1 text/plain", "http://next.example/")]
    assert errors == []


def test_a_part_that_claims_base64_but_is_not():
    # RFC 2045 6.8: characters outside the base64 alphabet are ignored, so the text is
    # read as (garbage) base64: its URL is not there any more.
    msg = (b"Content-Type: multipart/mixed; boundary=B\n\n"
           b"--B\nContent-Transfer-Encoding: base64\n\nsee http://notb64.example/ (plain)\n"
           b"--B\n\nok http://ok.example/\n--B--\n")
    found, errors = both_agree_on(FROM_LINE + msg)
    assert [(m.part, m.url) for m in found] == [("2 text/plain", "http://ok.example/")]
    assert errors == []


def _sized_spool():
    small1 = FROM_LINE + b"Message-ID: <s1@x>\n\nsmall http://one.example/\n"
    big = FROM_LINE + b"Message-ID: <big@x>\n\n" + b"line http://big.example/ padding\n" * 12
    small2 = FROM_LINE + b"Message-ID: <s2@x>\n\nsmall http://two.example/\n"
    return small1 + big + small2, len(small1)


@pytest.mark.parametrize("block", [None, 64, 1000])
def test_a_message_over_the_size_bound_is_reported_alike(monkeypatch, block):
    monkeypatch.setattr(mail_spool, "MESSAGE_MAX", 200)
    spool, at = _sized_spool()
    old = old_spool(spool)
    assert fast_spool(spool, block=block) == old
    found, errors = old
    assert parts_urls(found) == [("1 text/plain", "http://one.example/"),
                                 ("1 text/plain", "http://two.example/")]
    assert errors == [f"skipping message at offset {at} in 'box': message larger than 200 bytes"]


def test_a_line_longer_than_the_bound_ends_the_spool_alike(monkeypatch):
    monkeypatch.setattr(mail_spool, "MESSAGE_MAX", 100)
    first = FROM_LINE + b"\nhttp://one.example/\n"
    second = FROM_LINE + b"\n" + b"x" * 150 + b"\nhttp://lost.example/\n"
    spool = first + second + FROM_LINE + b"\nhttp://never.example/\n"
    found, errors = assert_spool_agrees(spool)
    assert parts_urls(found) == [("1 text/plain", "http://one.example/")]
    line = len(first) + len(FROM_LINE) + 1
    assert errors == [f"skipping message at offset {len(first)} in 'box': no line end within "
                      f"100 bytes at offset {line}: not an mbox, the rest of it is not read"]


def test_a_maildir_agrees(tmp_path, monkeypatch):
    # message_urls_fast reads one Maildir file: as maildir_messages + the old walk.
    for sub in ("cur", "new", "tmp"):
        (tmp_path / sub).mkdir()
    (tmp_path / "cur" / "1:2,S").write_bytes(NESTED)
    (tmp_path / "new" / "2").write_bytes(b"Message-ID: <2@x>\n\nhttp://m2.example/\n")
    (tmp_path / "new" / "3").write_bytes(b"From x\nhttp://from-line.example/\n")
    limit = len(NESTED) + 10
    (tmp_path / "new" / "4").write_bytes(b"\nhttp://big.example/ " + b"x" * limit + b"\n")
    monkeypatch.setattr(mail_spool, "MESSAGE_MAX", limit)
    old_errors, fast_errors = [], []
    old = [key(m) for m in iter_spool_urls(mail_spool.maildir_messages(str(tmp_path)),
                                           on_error=old_errors.append)]
    fast = []
    for path in sorted(p for p in tmp_path.glob("[cn]*/*")):
        source = str(path)
        fast += [key(m) for m in mail_walk.message_urls_fast(path.read_bytes(), source, OPTS,
                                                             fast_errors.append)]
    assert (fast, fast_errors) == (old, old_errors)
    # NESTED's four URLs and new/2's; new/3's URL is a header line ("http:"); new/4 is
    # over the bound
    assert [u for u, *_ in old] == ["http://one.example/", "http://two.example/x?a=1&b=2",
                                    "http://three.example/", "http://four.example/",
                                    "http://m2.example/"]
    assert old_errors == [f"skipping message '{tmp_path / 'new' / '4'}': message larger "
                          f"than {limit} bytes"]


# ---------------------------------------------------------------------------------------
# Differences found (helper's oracle run), each with the judgement which path is right.
# Where the walk was wrong it was fixed: the test asserts the two agree. Where the email
# path is wrong (docs/decisions-cli.md), the test asserts the walk gives the right answer
# and the email path what it gives, so a change in either shows.
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("spool, right, old_errors", [
    (b"From a\n\nhttp://a.example/\nFrom " + b"x" * 30 + b"\n\nhttp://b.example/\n",
     ([("http://a.example/", "1 text/plain", None, None, "box", 0)],
      ["skipping message at offset 26 in 'box': no line end within 20 bytes at offset 26: "
       "not an mbox, the rest of it is not read"]),
     ["skipping message at offset 0 in 'box': no line end within 20 bytes at offset 26: "
      "not an mbox, the rest of it is not read"]),
    (b"From " + b"x" * 30 + b"\n",
     ([], ["skipping message at offset 0 in 'box': no line end within 20 bytes at offset 0: "
           "not an mbox, the rest of it is not read"]),
     ["skipping message 'box': no line end within 20 bytes at offset 0: not an mbox, the "
      "rest of it is not read"]),
], ids=["after-a-message", "first-line"])
def test_long_from_line_the_email_path_loses_the_message_before(monkeypatch, spool, right,
                                                                 old_errors):
    # mbox_messages checks the line length before it sees that the line starts a
    # message: it drops the message before, complete as it is, and names that one (or
    # none). The walk keeps it and names the message the long line starts: right.
    monkeypatch.setattr(mail_spool, "MESSAGE_MAX", 20)
    assert brief(fast_spool(spool)) == right
    assert old_spool(spool) == ([], old_errors)


def test_long_line_in_a_message_too_large_reports_both_in_order(monkeypatch):
    # both are true and the email path says them as it reads (the walk said only the
    # second before the fix)
    monkeypatch.setattr(mail_spool, "MESSAGE_MAX", 20)
    spool = b"From a\n" + b"x" * 15 + b"\n" + b"y" * 15 + b"\n" + b"z" * 30 + b"\n"
    right = ([], ["skipping message at offset 0 in 'box': message larger than 20 bytes",
                  "skipping message at offset 0 in 'box': no line end within 20 bytes at "
                  "offset 39: not an mbox, the rest of it is not read"])
    fast, old = fast_spool(spool), old_spool(spool)
    assert fast == old and brief(fast) == right


def test_euc_kr_filler_at_the_end_of_a_part_the_email_path_loses_ascii():
    # CPython's euc_kr decoder takes 0xA4 0xD4 as the start of an 8-octet composed
    # syllable and, the input ending first, replaces all of it, ASCII included, by one
    # U+FFFD. EUC-KR octets of a double-byte character are 0xA1-0xFE, so ASCII is never
    # inside one: the walk (on the octets) is right.
    msg = b"Content-Type: text/plain; charset=euc-kr\n\n\xa4\xd4a://b"
    assert brief(fast_message(msg)) == ([("a://b", "1 text/plain", None, None, "msg", None)], [])
    assert old_message(msg) == ([], [])


@pytest.mark.parametrize("limit, block, from_line", [
    (20, 16, b"From " + b"x" * 14 + b"\n"),                 # 20 octets, over a 16-octet piece
    (2 << 20, None, b"From " + b"x" * ((2 << 20) - 100) + b"\n"),   # the default piece
], ids=["16-octet-piece", "default-piece"])
def test_from_line_longer_than_a_piece_does_not_count_toward_the_bound(monkeypatch, limit,
                                                                      block, from_line):
    # the bound is on the message's data (mbox_messages does not count the From line);
    # mbox_blocks counted it (fixed)
    monkeypatch.setattr(mail_spool, "MESSAGE_MAX", limit)
    body = b"\nhttp://a.example/\n" + (b"y" * 70 + b"\n") * (limit * 3 // 4 // 71)
    spool = from_line + body
    assert len(from_line) <= limit and len(body) <= limit
    right = ([("http://a.example/", "1 text/plain", None, None, "box", 0)], [])
    fast, old = fast_spool(spool, block=block), old_spool(spool)
    assert fast == old and brief(fast) == right


def test_charset_in_place_of_the_content_type_is_no_charset():
    # email's _parseparam reads the first item as a parameter too and decodes the body
    # as UTF-16; RFC 2045 5.2: an invalid Content-Type is text/plain; charset=us-ascii,
    # so the walk reads the octets (no URL in UTF-16 octets): the walk is right
    msg = (b"Content-Type: charset=utf-16\n\n"
           + "see http://u16.example/\n".encode("utf-16"))
    assert fast_message(msg) == ([], [])
    assert brief(old_message(msg)) == ([("http://u16.example/", "1 text/plain", None, None,
                                         "msg", None)], [])


@pytest.mark.parametrize("param", [b'"<abc>"', b"<abc>"])
def test_boundary_in_angle_brackets_is_taken_as_written(param):
    # email.utils.unquote strips <...> (made for addresses), twice for the boundary, so
    # the email path looks for '--abc' and reads the multipart as one text part; RFC
    # 2045 5.1: a quoted-string's value is what is between the quotes: the walk is right
    msg = (b"Content-Type: multipart/mixed; boundary=" + param + b"\n\n"
           b"--<abc>\n\nhttp://in.example/\n--<abc>--\n")
    assert brief(fast_message(msg)) == ([("http://in.example/", "1 text/plain", None, None,
                                          "msg", None)], [])
    assert brief(old_message(msg)) == ([("http://in.example/", "1 multipart/mixed", None, None,
                                         "msg", None)], [])


# Beyond (url, part, message_id, date): MailMatch.start, .end and .raw. The email path
# gives offsets in the part's decoded text (a str: characters; for HTML, the HTML source
# with its character references as written); the walk octets (docs/decisions-cli.md).


def spans(found):
    return [(m.url, m.start, m.end, m.raw) for m in found]


def old_spans(msg):
    return spans(mail_message.message_matches("msg", None, msg, OPTS, pytest.fail))


def fast_spans(msg):
    return spans(mail_walk.message_urls_fast(msg, "msg", OPTS, pytest.fail))


@pytest.mark.parametrize("msg, chars, octets", [
    (b"\ncaf\xc3\xa9 http://a.example/\n", (5, 22), (6, 23)),
    (b"Content-Type: text/html; charset=utf-8\n\n\xc3\xa9<a href='http://a.example/'>x</a>\n",
     (10, 10), (11, 11)),                # the value's first character: 1 + 9, 2 + 9
])
def test_offsets_are_octets_in_the_walk_characters_in_the_email_path(msg, chars, octets):
    assert fast_spans(msg) == [("http://a.example/", *octets, "http://a.example/")]
    assert old_spans(msg) == [("http://a.example/", *chars, "http://a.example/")]


def test_offsets_after_a_character_reference_are_in_the_decoded_run():
    # the email path maps the offset back to the HTML source (9: where 'http' stands in
    # '<p>&amp; http://a.example/</p>'); the walk gives the offset in the decoded run
    # from the run's start (documented; not in the url/part/id/date contract)
    msg = b"Content-Type: text/html\n\n<p>&amp; http://a.example/</p>\n"
    assert old_spans(msg) == [("http://a.example/", 9, 26, "http://a.example/")]
    assert fast_spans(msg) == [("http://a.example/", 5, 22, "http://a.example/")]


def test_raw_of_a_wrapper_over_quoted_lines_is_as_it_stands():
    # docs/design.md#matches: raw is the span as it stands in the input (the walk left the prefix
    # out before the fix)
    msg = b"\n<URL:http://a.example/\n> b>\n"
    right = [("http://a.example/b", 0, 27, "<URL:http://a.example/\n> b>")]
    assert fast_spans(msg) == old_spans(msg) == right
