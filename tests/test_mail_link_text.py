"""Phishing work (issue 24): the text a reader sees on an HTML link in mail
(``MailMatch.text``, the ``text`` column) and the flag when that text is a URL or host
other than the link's (``MailMatch.deceptive``, the ``deceptive`` column).

The walk (``urlsift.mail.walk``) and ``email`` (``URLSIFT_MAIL_ENGINE=email``) must give
the same; every test runs on both cores (conftest). Expected values are what a reader of
the message sees in a mail client: the anchor's text, character references decoded,
white space collapsed.
"""
from __future__ import annotations

import csv
import io
import json

import pytest

import urlsift
from urlsift.inputs import iter_mail_urls
from urlsift.mail import anchors
from urlsift.mail.anchors import TEXT_MAX, anchor_text, is_deceptive, text_host

LONG = "word " * 80


def _message(html: str, *, charset: str = "utf-8", cte: str = "8bit", mid: str = "<1@x>") -> bytes:
    body = html.encode(charset)
    if cte == "quoted-printable":
        import quopri
        body = quopri.encodestring(body)
    elif cte == "base64":
        import base64
        body = base64.encodebytes(body)
    return (b"From a@b Sat Jan  1 00:00:00 2000\n" + f"Message-ID: {mid}\n".encode()
            + f"Content-Type: text/html; charset={charset}\n".encode()
            + f"Content-Transfer-Encoding: {cte}\n\n".encode() + body + b"\n")


PAGE = (
    '<p>Dear customer,</p>\n'
    '<a href="http://evil.example/login">https://www.bank.example/login</a>\n'      # lies
    '<a href="https://login.bank.example/">www.bank.example</a>\n'                  # same site
    '<a href="http://track.example/c?u=1">Click\n   <b>here</b>   now</a>\n'        # no address
    '<a href="http://img.example/"><img src="http://img.example/logo.png"></a>\n'   # no text
    '<a href="http://x.example/a">Tom &amp; Jerry&#x27;s &lt;site&gt;</a>\n'         # references
    '<a href="http://bank.com.evil.example/">bank.com</a>\n'                        # lies
    '<a href="mailto:help@evil.example">https://bank.example/help</a>\n'            # lies: no host
    '<a href="http://files.example/r">report.pdf</a>\n'                             # a file name
    f'<a href="http://long.example/">{LONG}</a>\n'
    '<link href="http://style.example/s.css">\n'
)

WANT = [   # (url, part suffix, text, deceptive)
    ("http://evil.example/login", " href", "https://www.bank.example/login", True),
    ("https://www.bank.example/login", "", None, False),        # the text's own URL
    ("https://login.bank.example/", " href", "www.bank.example", False),
    ("http://track.example/c?u=1", " href", "Click here now", False),
    ("http://img.example/", " href", None, False),
    ("http://img.example/logo.png", " src", None, False),
    ("http://x.example/a", " href", "Tom & Jerry's <site>", False),
    ("http://bank.com.evil.example/", " href", "bank.com", True),
    ("mailto:help@evil.example", " href", "https://bank.example/help", True),
    ("https://bank.example/help", "", None, False),
    ("http://files.example/r", " href", "report.pdf", False),
    ("http://long.example/", " href", ("word " * 80).strip()[:TEXT_MAX] + "…", False),
    ("http://style.example/s.css", " href", None, False),
]


def _spool(tmp_path, data: bytes, name: str = "box.mbox"):
    p = tmp_path / name
    p.write_bytes(data)
    return p


def _got(path, **kw):
    return [(m.url, m.part[len("1 text/html"):], m.text, m.deceptive)
            for m in iter_mail_urls(path, **kw)]


@pytest.mark.parametrize("cte", ["8bit", "quoted-printable", "base64"])
def test_link_text_and_deceptive_flag_on_both_paths(tmp_path, cte):
    p = _spool(tmp_path, _message(PAGE, cte=cte))
    assert _got(p) == WANT
    assert _got(p, engine="email") == WANT


def test_extract_file_gives_the_same(tmp_path):
    p = _spool(tmp_path, _message(PAGE))
    assert [(m.url, m.text) for m in urlsift.extract_file(p)] == [(w[0], w[2]) for w in WANT]


@pytest.mark.parametrize("charset, text", [
    ("utf-8", "Überweisung prüfen"),
    ("iso-8859-1", "Überweisung prüfen"),    # the walk hands this message to email
    ("windows-1252", "“Konto” sperren"),
])
def test_non_ascii_text_is_decoded_by_the_part_charset(tmp_path, charset, text):
    html = f'<a href="http://evil.example/">{text}</a> <a href="http://b.example/">b&eacute;</a>'
    p = _spool(tmp_path, _message(html, charset=charset))
    want = [("http://evil.example/", text), ("http://b.example/", "bé")]
    assert [(m.url, m.text) for m in iter_mail_urls(p)] == want
    assert [(m.url, m.text) for m in iter_mail_urls(p, engine="email")] == want


def test_a_non_ascii_host_in_the_text_is_compared_in_idna_form(tmp_path):
    html = ('<a href="http://xn--bcher-kva.example/">http://bücher.example/</a>'
            '<a href="http://evil.example/">www.bücher.example</a>')
    p = _spool(tmp_path, _message(html))
    for engine in ("walk", "email"):
        got = [(m.url, m.deceptive) for m in iter_mail_urls(p, engine=engine) if m.text]
        assert got == [("http://xn--bcher-kva.example/", False), ("http://evil.example/", True)]


def test_maildir_too(tmp_path):
    box = tmp_path / "Maildir"
    for sub in ("cur", "new", "tmp"):
        (box / sub).mkdir(parents=True)
    data = _message('<a href="http://evil.example/">paypal.com</a>')
    (box / "new" / "1.host").write_bytes(data.split(b"\n", 1)[1])
    got = [(m.url, m.text, m.deceptive) for m in urlsift.extract_file(box)]
    assert got == [("http://evil.example/", "paypal.com", True)]


# ---- through the command -----------------------------------------------------------

def test_csv_and_jsonl_have_text_and_deceptive_columns(tmp_path, run):
    p = _spool(tmp_path, _message(PAGE))
    done = run("extract", "--format", "jsonl", p)
    assert done.returncode == 0, done.stderr
    rows = [json.loads(line) for line in done.stdout.decode().splitlines()]
    assert [(r["url"], r["text"], r["deceptive"]) for r in rows] == [(w[0], w[2], w[3]) for w in WANT]
    done = run("extract", "--format", "csv", p)
    table = list(csv.DictReader(io.StringIO(done.stdout.decode())))
    assert list(table[0])[-2:] == ["text", "deceptive"]
    assert [(r["url"], r["text"], r["deceptive"]) for r in table] == [
        (w[0], w[2] or "", "true" if w[3] else "false") for w in WANT]


def test_parquet_has_them_too(tmp_path, run):
    pq = pytest.importorskip("pyarrow.parquet")
    p = _spool(tmp_path, _message(PAGE))
    out = tmp_path / "u.parquet"
    done = run("extract", "--format", "parquet", "-o", out, p)
    assert done.returncode == 0, done.stderr
    table = pq.read_table(out).to_pydict()
    assert table["text"][0] == "https://www.bank.example/login" and table["deceptive"][0] is True
    assert table["deceptive"] == [w[3] for w in WANT]


def test_a_text_file_beside_a_spool_has_empty_link_columns(tmp_path, run):
    p = _spool(tmp_path, _message(PAGE))
    log = tmp_path / "a.log"
    log.write_bytes(b"GET http://log.example/ 200\n")
    rows = [json.loads(x) for x in run("extract", "--format", "jsonl", "--mbox", p).stdout.splitlines()]
    assert rows[0]["deceptive"] is True
    both = run("extract", "--format", "jsonl", log, p).stdout.decode().splitlines()
    first = json.loads(both[0])
    assert first["url"] == "http://log.example/" and first["text"] is None


# ---- the rules -----------------------------------------------------------------------

@pytest.mark.parametrize("raw, want", [
    ("  a\n\t b  ", "a b"), ("", None), (" \n ", None), ("x" * TEXT_MAX, "x" * TEXT_MAX),
    ("x" * (TEXT_MAX + 1), "x" * TEXT_MAX + "…"),
])
def test_anchor_text(raw, want):
    assert anchor_text(raw) == want


@pytest.mark.parametrize("text, host", [
    ("https://www.bank.example/login", "bank.example"),
    ("<http://Bank.Example:8080/x>", "bank.example"),
    ("HTTPS://WWW.BANK.COM", "bank.com"),
    ("www.bank.example", "bank.example"),
    ("bank.com/login", "bank.com"),
    ("bank.de.", "bank.de"),
    ("192.0.2.7", "192.0.2.7"),
    ("paypal.com.", "paypal.com"),
    ("Click here", None), ("report.pdf", None), ("setup.py", None), ("v1.2", None),
    ("mailto:a@b.example", None), ("bank.example and more", None), ("", None),
])
def test_text_host(text, host):
    assert text_host(text) == host


@pytest.mark.parametrize("url, text, flag", [
    ("http://evil.example/", "https://bank.example/", True),
    ("https://bank.example/x", "https://bank.example/", False),
    ("https://www.bank.example/", "bank.example/", False),       # www. aside
    ("https://secure.bank.example/", "https://bank.example", False),   # a name under it
    ("https://bank.example/", "https://secure.bank.example", False),   # a name above it
    ("http://bank.example.evil.example/", "www.bank.example", True),
    ("http://evilbank.example/", "bank.example/", True),          # not a name under it
    ("mailto:x@bank.example", "https://bank.example/", True),     # no host: not that site
    ("http://evil.example/", "Click here", False),
    ("http://evil.example/", None, False),
])
def test_is_deceptive(url, text, flag):
    assert is_deceptive(url, text) is flag


def test_module_examples():
    import doctest
    assert doctest.testmod(anchors).failed == 0


@pytest.mark.twins
@pytest.mark.parametrize("html", [
    PAGE,
    '<a href="http://a/">x<a href="http://b/">y</a>z',                 # an <a> in an <a>
    '<a href="http://a/"><img src="http://i/">ok <i>go</i></a>',       # a src between runs
    '<a href="http://a/">caf\u00e9</a><a href="http://b/">ok</a>',     # non-ASCII: marked
    '<a href="rel/x">t</a><a href="http://a/"></a>',                   # no segment, no text
    '<a href="http://a/">go</a><a href="http://b/">go</a><a href="http://c/">x</a>',  # repeated
])
def test_the_cores_give_the_same_anchor_runs(html):
    from urlsift import _mail_py
    from urlsift.mail.walk import CHARSETS
    compiled = pytest.importorskip("urlsift._mail_c")
    spool = _message(html)
    got = []
    for core in (compiled, _mail_py):
        out, segs, msgs, names = core.walk(spool, 0, len(spool), b"", CHARSETS, 8, None)
        got.append(core.anchor_runs(segs, out))
    assert got[0] == got[1]
