"""Every example URL of the five documents in shared/spec, parsed, with the parts
worked out from the text that shows it.

002 = RFC 1738, 000 = 1993 URL draft, 001 = draft-www-uri-00 (1994 URI draft),
004 = draft-ietf-uri-url-03, 003 = the 02->03 diff mail. URLs printed across a
line break are given with the white space removed (RFC 1738 appendix).
"""
from __future__ import annotations

import pytest

from urlsift.errors import URLSyntaxError
from urlsift.model.parsing import check, is_valid, parse

FTP_REFS = [
    # RFC 1738 §7 references (and the same files cited by 000 and 004): each is
    # ftp://host/cwd.../name; no user, no port, no typecode unless written
    ("ftp://ds.internic.net/rfc/rfc1630.txt", "ds.internic.net", ("rfc", "rfc1630.txt")),
    ("ftp://info.cern.ch/pub/www/doc/http-spec.txt.Z", "info.cern.ch",
     ("pub", "www", "doc", "http-spec.txt.Z")),
    ("ftp://ds.internic.net/rfc/rfc1123.txt", "ds.internic.net", ("rfc", "rfc1123.txt")),
    ("ftp://ds.internic.net/rfc/rfc822.txt", "ds.internic.net", ("rfc", "rfc822.txt")),
    ("ftp://quake.think.com/pub/wais/doc/protspec.txt", "quake.think.com",
     ("pub", "wais", "doc", "protspec.txt")),
    ("ftp://ds.internic.net/rfc/rfc1036.txt", "ds.internic.net", ("rfc", "rfc1036.txt")),
    ("ftp://quake.think.com/pub/wais/doc/doc-ids.txt", "quake.think.com",
     ("pub", "wais", "doc", "doc-ids.txt")),
    ("ftp://ds.internic.net/rfc/rfc977.txt", "ds.internic.net", ("rfc", "rfc977.txt")),
    ("ftp://ds.internic.net/internet-drafts/draft-ietf-uri-irl-fun-req-02.txt",
     "ds.internic.net", ("internet-drafts", "draft-ietf-uri-irl-fun-req-02.txt")),
    ("ftp://ds.internic.net/rfc/rfc1034.txt", "ds.internic.net", ("rfc", "rfc1034.txt")),
    ("ftp://prospero.isi.edu/pub/prospero/doc/prospero-protocol.PS.Z", "prospero.isi.edu",
     ("pub", "prospero", "doc", "prospero-protocol.PS.Z")),
    ("ftp://ds.internic.net/rfc/rfc959.txt", "ds.internic.net", ("rfc", "rfc959.txt")),
    ("ftp://ds.internic.net/rfc/rfc1737.txt", "ds.internic.net", ("rfc", "rfc1737.txt")),
    ("ftp://ds.internic.net/rfc/rfc1625.txt", "ds.internic.net", ("rfc", "rfc1625.txt")),
    ("ftp://uu.psi.com/wp/nir.txt", "uu.psi.com", ("wp", "nir.txt")),
    ("ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol/Gopher+/Gopher+.txt",
     "boombox.micro.umn.edu", ("pub", "gopher", "gopher_protocol", "Gopher+", "Gopher+.txt")),
    # 000 references
    ("ftp://boombox.micro.umn.edu/pub/gopher/gopher_protocol", "boombox.micro.umn.edu",
     ("pub", "gopher", "gopher_protocol")),
    ("ftp://nnsc.nsf.net/rfc/rfc977.txt", "nnsc.nsf.net", ("rfc", "rfc977.txt")),
    ("ftp://nnsc.nsf.net/rfc/rfc1034.txt", "nnsc.nsf.net", ("rfc", "rfc1034.txt")),
    ("ftp://nnsc.nsf.net/rfc/rfc959.txt", "nnsc.nsf.net", ("rfc", "rfc959.txt")),
    ("ftp://prospero.isi.edu/pub/prospero/oir.ps", "prospero.isi.edu",
     ("pub", "prospero", "oir.ps")),
    # 004 and 003 (the diff mail)
    ("ftp://ftp.w3.org/pub/www/doc", "ftp.w3.org", ("pub", "www", "doc")),
    ("ftp://ftp.w3.org/pub/www/doc/http-spec.txt", "ftp.w3.org",
     ("pub", "www", "doc", "http-spec.txt")),
    ("ftp://ds.internic.net/rfc", "ds.internic.net", ("rfc",)),
    ("ftp://info.cern.ch/pub", "info.cern.ch", ("pub",)),
    ("ftp://info.cern.ch/pub/www/doc", "info.cern.ch", ("pub", "www", "doc")),
    ("ftp://info.cern.ch/pub/www/doc/http-spec.txt", "info.cern.ch",
     ("pub", "www", "doc", "http-spec.txt")),
]


@pytest.mark.parametrize("url,host,segments", FTP_REFS)
def test_ftp_references(url, host, segments):
    u = parse(url)
    assert type(u).__name__ == "FtpURL"
    assert (u.host, u.user, u.password, u.port, u.segments, u.typecode) == \
        (host, None, None, None, segments, None)
    assert u.effective_port == 21          # RFC 1738 §3.2: defaults to 21
    assert u.name == segments[-1] and u.cwd == segments[:-1]


def test_rfc1738_3_1_user_password_empty_vs_absent():
    # RFC 1738 §3.1: "<URL:ftp://@host.com/> has an empty user name and no password,
    # <URL:ftp://host.com/> has no user name, while <URL:ftp://foo:@host.com/> has a
    # user name of "foo" and an empty password."
    assert (parse("ftp://@host.com/").user, parse("ftp://@host.com/").password) == ("", None)
    assert (parse("ftp://host.com/").user, parse("ftp://host.com/").password) == (None, None)
    assert (parse("ftp://foo:@host.com/").user, parse("ftp://foo:@host.com/").password) == ("foo", "")


def test_rfc1738_3_2_2_cwd_sequences():
    # §3.2.2: %2Fetc -> "CWD /etc and then RETR motd"
    u = parse("ftp://myname@host.dom/%2Fetc/motd")
    assert (u.user, u.host, u.cwd, u.name) == ("myname", "host.dom", ("/etc",), "motd")
    # "which would CWD etc and then RETR motd"
    u = parse("ftp://myname@host.dom/etc/motd")
    assert (u.cwd, u.name) == (("etc",), "motd")
    # "would CWD with a null argument, then CWD etc, and then RETR motd"
    u = parse("ftp://myname@host.dom//etc/motd")
    assert (u.cwd, u.name) == (("", "etc"), "motd")


def test_rfc1738_typecodes_in_text():
    # appendix: <URL:ftp://info.cern.ch/pub/www/doc; type=d> with the space removed
    u = parse("ftp://info.cern.ch/pub/www/doc;type=d")
    assert (u.segments, u.typecode) == (("pub", "www", "doc"), "d")
    # §7 [1]: <URL:ftp://ds.internic.net/rfc/rfc1436.txt;type=a>
    u = parse("ftp://ds.internic.net/rfc/rfc1436.txt;type=a")
    assert (u.segments, u.typecode, u.name) == (("rfc", "rfc1436.txt"), "a", "rfc1436.txt")


def test_rfc1738_http_examples():
    # RFC 1738 header: the URI-WG archive; appendix: a fragment inside the wrapper
    u = parse("http://www.acl.lanl.gov/URI/archive/uri-archive.index.HTM")
    assert (u.host, u.path, u.search, u.segments) == (
        "www.acl.lanl.gov", "/URI/archive/uri-archive.index.HTM", None,
        ("URI", "archive", "uri-archive.index.HTM"))
    u = parse("http://ds.internic.net/instructions/overview.HTM#WARNING")
    assert (u.host, u.path, u.fragment, u.effective_port) == (
        "ds.internic.net", "/instructions/overview.HTM", "WARNING", 80)


@pytest.mark.parametrize("url", [
    "http://www.acl.lanl.gov/URI/archive/uri-archive.index.html",        # 003
    "http://info.cern.ch/hypertext/WWW/Addressing/URL/Overview.html",    # 003
    "http://info.cern.ch/hypertext/WWW/Addressing/URL/URI_Overview.html",  # 001
])
def test_http_document_addresses(url):
    u = parse(url)
    assert u.path == url[url.index("/", 7):] and u.search is None and u.fragment is None


def test_001_equivalence_examples_parse_apart():
    # 001 Examples 1 and 2: %2D is a hyphen; %2F is not a hierarchy slash
    a = parse("http://info.cern.ch/albert/bertram/marie-claude")
    b = parse("http://info.cern.ch/albert/bertram/marie%2Dclaude")
    c = parse("http://info.cern.ch/albert/bertram%2Fmarie-claude")
    assert a.segments == b.segments == ("albert", "bertram", "marie-claude")
    assert c.segments == ("albert", "bertram/marie-claude")
    assert b.path == "/albert/bertram/marie%2Dclaude"      # path stays as written


def test_001_example_3_illegal_escapes():
    # 001 Example 3: "are illegal, as all % characters imply encodings"
    for url, pos in (("fxqn:/us/va/reston/cnri/ietf/24/asdf%*.fred", 36),
                     ("news:12345667123%asdghfh@info.cern.ch", 16)):
        assert not is_valid(url)
        with pytest.raises(URLSyntaxError) as e:
            parse(url)
        assert (e.value.code, e.value.position) == ("bad-escape", pos)
        assert [p.code for p in check(url)] == ["bad-escape"]
        # leniently kept literally (docs/design.md#strict-and-lenient)
        assert parse(url, strict=False).problems[0].code == "bad-escape"
    assert parse("news:12345667123%asdghfh@info.cern.ch", strict=False).article == \
        "12345667123%asdghfh@info.cern.ch"


def test_001_partial_form_contexts_are_generic_urls():
    # 001 "Partial (relative) form": the contexts and their expansions
    for url in ("magic://a/b/c//d/e/f", "magic://a/b/c//d/e/", "magic://a/b/c//d/e/g",
                "magic://a/g", "magic://g", "magic://a/b/c//d/g"):
        u = parse(url)
        assert type(u).__name__ == "GenericURL" and u.scheme == "magic"
    u = parse("magic://a/b/c//d/e/f")
    assert (u.host, u.path, u.schemepart) == ("a", "/b/c//d/e/f", "//a/b/c//d/e/f")
    assert (parse("magic://g").host, parse("magic://g").path) == ("g", None)
    # "g:a" expands to itself: a complete URL with scheme g
    assert (parse("g:a").scheme, parse("g:a").schemepart) == ("g", "a")


def test_001_urn_example():
    u = parse("urn:/iana/dns/ch/cern/cn/techdoc/94/1642-3")
    assert type(u).__name__ == "GenericURL"
    assert (u.schemepart, u.host, u.path) == ("/iana/dns/ch/cern/cn/techdoc/94/1642-3", None, None)


def test_rfc1738_news_star():
    # §3.6: "If <newsgroup-name> is "*" (as in <URL:news:*>)" -- all groups
    u = parse("news:*")
    assert (u.group, u.article) == ("*", None)
    # §3.6 names comp.infosystems.www.misc as a newsgroup-name
    assert parse("news:comp.infosystems.www.misc").group == "comp.infosystems.www.misc"


def test_rfc1738_file_vms_example():
    # §3.10: DISK$USER:[MY.NOTES]NOTE123456.TXT "might become" this
    u = parse("file://vms.host.edu/disk$user/my/notes/note12345.txt")
    assert (u.host, u.path, u.is_local) == ("vms.host.edu", "/disk$user/my/notes/note12345.txt", False)


def test_rfc1738_prospero_example():
    # §3.11: "<URL:prospero://host.dom//pros/name> designates a <hsoname> of "/pros/name""
    u = parse("prospero://host.dom//pros/name")
    assert (u.host, u.hsoname, u.fields, u.effective_port) == ("host.dom", "/pros/name", (), 1525)


@pytest.mark.parametrize("url,database,search", [
    ("wais://quake.think.com/wais-discussion-archives?lynch", "wais-discussion-archives", "lynch"),
    ("wais://nnsc.nsf.net/internet-drafts?yeong", "internet-drafts", "yeong"),   # 000
])
def test_wais_searches(url, database, search):
    # §3.9 second form: wais://<host>:<port>/<database>?<search>
    u = parse(url)
    assert (u.database, u.search, u.wtype, u.wpath, u.effective_port) == (database, search, None, None, 210)


@pytest.mark.parametrize("path,gtype,selector,search,plus", [
    # 004 "Overall summary and examples" (host [port] written as host)
    ("0a_gopher_selector", "0", "a_gopher_selector", None, None),
    ("7a_gopher_selector%09foobar", "7", "a_gopher_selector", "foobar", None),
    ("0a_gopher_selector%09%09some_gplus_stuff", "0", "a_gopher_selector", "", "some_gplus_stuff"),
    ("0a_gopher_selector%09%09!", "0", "a_gopher_selector", "", "!"),
    ("0a_gopher_selector%09%09+application/postscript%20Es_ES", "0", "a_gopher_selector", "",
     "+application/postscript Es_ES"),
    # RFC 1738 §3.4: the attribute example "!+ABSTRACT%20+SMELL"
    ("0sel%09%09!+ABSTRACT%20+SMELL", "0", "sel", "", "!+ABSTRACT +SMELL"),
    # 000 reference, with the line-break space removed
    ("00/Information%20About%20Gopher/About%20Gopher", "0", "0/Information About Gopher/About Gopher",
     None, None),
])
def test_gopher_examples(path, gtype, selector, search, plus):
    host = "gopher.micro.umn.edu" if path.startswith("00/") else "host"
    u = parse(f"gopher://{host}/{path}")
    assert (u.host, u.gtype, u.selector, u.search, u.gopher_plus) == (host, gtype, selector, search, plus)


def test_gopher_host_only_and_ask_block():
    # 003: gopher://host; §3.4: empty gopher-path -> gtype "1", selector "" (top level)
    u = parse("gopher://host")
    assert (u.gtype, u.selector, u.search, u.gopher_plus, u.effective_port) == ("1", "", None, None, 70)
    # §3.4 ASK block: the gopher+ string keeps its CR LF (and the warning says so)
    u = parse("gopher://host/0sel%09+%091%0D%0A+-1%0D%0Av1%0D%0A.%0D%0A")
    assert (u.search, u.gopher_plus) == ("+", "1\r\n+-1\r\nv1\r\n.\r\n")
    assert "encoded-delimiter" in [w.code for w in u.warnings]


def test_004_gopher_with_spaces_is_lenient_only():
    # 004 prints <gopher://gopher.micro.umn.edu/00/Information About Gopher/About Gopher>
    url = "gopher://gopher.micro.umn.edu/00/Information About Gopher/About Gopher"
    assert not is_valid(url)                      # §2.2: space is unsafe
    assert [(p.position, p.code) for p in check(url)] == [(44, "unsafe-char"), (50, "unsafe-char"), (63, "unsafe-char")]
    u = parse(url, strict=False)
    assert u.selector == "0/Information About Gopher/About Gopher"


def test_000_trailing_dot_host():
    # 000 cites ftp://info.cern.ch./pub/www/doc/http-spec.txt: §5 hostname has no final "."
    url = "ftp://info.cern.ch./pub/www/doc/http-spec.txt"
    assert [(p.position, p.code) for p in check(url)] == [(18, "host-trailing-dot")]
    assert parse(url, strict=False).host == "info.cern.ch."


def test_mid_cid_mailto_templates():
    # 001 "Message ID": the msg-id without "<>"; "Content-Id": the content-id
    assert parse("mid:foo4*foo1@bar.net").message_id == "foo4*foo1@bar.net"
    assert parse("cid:foo4*foo1@bar.net").content_id == "foo4*foo1@bar.net"
    # 001 Mailto: "%" in an address "requires conversion to %25 in a URL"
    assert parse("mailto:a%25b@relay.dom").address == "a%b@relay.dom"
    assert not is_valid("mailto:a%b@relay.dom")
