# A user program of the public API, checked by mypy --strict in tests/test_typing_api.py.
# Each "# R: TYPE" is what mypy must reveal on that line (not run by pytest).
import urlsift
from urlsift import FtpURL, HttpURL, Match, extract, extract_file, parse

u = parse("http://a.example/x")
reveal_type(u)  # R: urlsift.model.url.URL
reveal_type(u.problems)  # R: tuple[tuple[int, str, str, fallback=urlsift.model.problems.Problem], ...]
reveal_type(u.warnings)  # R: tuple[tuple[int, str, str, fallback=urlsift.model.problems.Problem], ...]
reveal_type(u.scheme)  # R: str
reveal_type(u.host)  # R: str | None
reveal_type(u.normalized())  # R: str
reveal_type(u.with_fragment("top"))  # R: urlsift.model.url.URL
h = HttpURL.build(host="a.example", path="/x")
reveal_type(h)  # R: urlsift.model.schemes.http.HttpURL
reveal_type(h.segments)  # R: tuple[str, ...]
reveal_type(h.with_port(8080))  # R: urlsift.model.schemes.http.HttpURL
reveal_type(h.replace(search=[("q", "1")]))  # R: urlsift.model.schemes.http.HttpURL
reveal_type(h.search_pairs())  # R: list[tuple[str, str]]
reveal_type(FtpURL.build(host="f.example").typecode)  # R: str | None
reveal_type(sorted([u, h]))  # R: list[urlsift.model.url.URL]
for m in extract("see http://a.example/"):
    reveal_type(m)  # R: urlsift.text.match.Match
    reveal_type(m.url)  # R: str
    reveal_type(m.start)  # R: int
    reveal_type(m.edits)  # R: tuple[str, ...]
    reveal_type(m.line)  # R: int | None
    reveal_type(m.parse())  # R: urlsift.model.url.URL
for f in extract_file("access.log", mbox=False):
    reveal_type(f)  # R: urlsift.text.match.Match
for g in extract_file("access.log.gz"):   # mbox=None: mail when it starts like an mbox
    reveal_type(g)  # R: urlsift.text.match.Match | tuple[str, str, int, int, str | None, str | None, str, bool, str, int | None, bool, bool, tuple[str, ...], int | None, str | None, fallback=urlsift.mail.message.MailMatch]
    reveal_type(g.url)  # R: str
    reveal_type(g.start)  # R: int
    reveal_type(g.edits)  # R: tuple[str, ...]
forced: bool = len(urlsift.__all__) > 1
reveal_type(extract_file("a", mbox=forced))  # R: typing.Iterator[urlsift.text.match.Match | tuple[str, str, int, int, str | None, str | None, str, bool, str, int | None, bool, bool, tuple[str, ...], int | None, str | None, fallback=urlsift.mail.message.MailMatch]]
for mm in extract_file("inbox.mbox", mbox=True):
    reveal_type(mm)  # R: tuple[str, str, int, int, str | None, str | None, str, bool, str, int | None, bool, bool, tuple[str, ...], int | None, str | None, fallback=urlsift.mail.message.MailMatch]
    reveal_type(mm.message_id)  # R: str | None
reveal_type(urlsift.is_valid("http://a/"))  # R: bool
reveal_type(urlsift.codec.unquote("a%20b"))  # R: str
m2: Match = next(extract("http://b.example/"))
for lm in extract_file("inbox.mbox", mbox=True):
    reveal_type(lm.text)  # R: str | None
    reveal_type(lm.deceptive)  # R: bool
# issue 24: parse with a scheme is typed as the scheme's class; HierURL narrows to the
# common Internet scheme parts; closed choices are Literal
reveal_type(parse("http://a.example/", scheme="http"))  # R: urlsift.model.schemes.http.HttpURL
reveal_type(parse("https://a.example/", scheme="https").segments)  # R: tuple[str, ...]
reveal_type(parse("ftp://a.example/f", scheme="ftp").typecode)  # R: str | None
reveal_type(parse("ftp://u@a.example/", scheme="ftp").user)  # R: str | None
reveal_type(parse("mailto:a@b.example", scheme="mailto"))  # R: urlsift.model.schemes.mail.MailtoURL
reveal_type(parse("rlogin://h.example", scheme="rlogin"))  # R: urlsift.model.schemes.telnet.TelnetURL
reveal_type(parse("x-y:z", scheme="x-y"))  # R: urlsift.model.url.URL
hu = parse("ftp://u@a.example/")
if isinstance(hu, urlsift.HierURL):
    reveal_type(hu.user)  # R: str | None
    reveal_type(hu.with_user("v"))  # R: urlsift.model.url.HierURL
reveal_type(urlsift.normalized("http://a/", rules="rfc3986"))  # R: str
reveal_type(urlsift.equivalent("http://a/", "http://a/", rules="rfc1738"))  # R: bool
reveal_type(list(extract("http://a/", valid="strict")))  # R: list[urlsift.text.match.Match]
reveal_type(extract_file("a.log", valid="lenient", mbox=False))  # R: typing.Iterator[urlsift.text.match.Match]
