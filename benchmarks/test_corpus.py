"""The corpora are deterministic and what they claim to be (not timed).

Same seed -> same bytes; another seed -> other bytes; sizes land where asked; the
URL labels follow RFC 1738 where that can be checked without a validator; the mbox
separators are escaped; the mbox truth names every message and every URL in it;
``report.py`` renders a benchmark JSON.
"""
from __future__ import annotations

import hashlib
import html
import json
import mailbox
import re
from collections import Counter

import pytest

import corpus
import corpus_urls
import report


def _digest(path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


@pytest.mark.parametrize("kind", ["log", "mbox"])
def test_same_seed_same_bytes(tmp_path, kind):
    write = corpus.write_log if kind == "log" else corpus.write_mbox
    a, b, c = tmp_path / "a", tmp_path / "b", tmp_path / "c"
    write(a, 0.05, seed=3)
    write(b, 0.05, seed=3)
    write(c, 0.05, seed=4)
    assert _digest(a) == _digest(b)
    assert _digest(a) != _digest(c)


def test_urls_same_seed_same_bytes(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    corpus.write_urls(a, 500, seed=3)
    corpus.write_urls(b, 500, seed=3)
    assert _digest(a) == _digest(b)
    assert (tmp_path / "a.txt.labels").read_bytes() == (tmp_path / "b.txt.labels").read_bytes()
    assert corpus.read_urls(a) == corpus.urls(500, seed=3)
    assert [ok for ok, _ in corpus.read_labels(a)] == [u.valid for u in corpus.labeled_urls(500, seed=3)]


def test_sizes_and_prefix(tmp_path):
    small, large = tmp_path / "s.log", tmp_path / "l.log"
    n_small = corpus.write_log(small, 0.02)
    n_large = corpus.write_log(large, 0.05)
    assert 20_000 <= n_small < 21_000            # stops at the first line end past the size
    assert small.stat().st_size == n_small and large.stat().st_size == n_large
    assert large.read_bytes().startswith(small.read_bytes())   # a smaller log is a prefix
    assert not list(tmp_path.glob("*.part"))


def test_log_lines_are_combined_format(tmp_path):
    path = tmp_path / "a.log"
    corpus.write_log(path, 0.05)
    line_re = re.compile(r'^\S+ - \S+ \[\d\d/\w{3}/\d{4}:\d\d:\d\d:\d\d \+0000\] "[A-Z]+ \S+ HTTP/\d\.\d" '
                         r'\d{3} \d+ "[^"]*" "[^"]*"$')
    text = path.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert all(line_re.match(line) for line in lines)
    targets = corpus.request_targets(path)
    assert len(targets) == len(lines)
    assert any("%C3%A9" in t for t in targets) and any("%zz" in t for t in targets)
    per_kb = len(re.findall(r"[a-z]+://", text)) / (len(text) / 1000)
    assert 2 <= per_kb <= 5                      # "about 3 URLs per KB"


def test_url_labels():
    items = corpus.labeled_urls(5000, seed=9)
    share = sum(u.valid for u in items) / len(items)
    assert 0.65 <= share <= 0.75
    schemes = {u.url.split(":", 1)[0] for u in items if u.valid}
    assert {"ftp", "http", "https", "gopher", "mailto", "news", "nntp", "telnet", "wais", "file",
            "prospero"} <= schemes
    for u in items:
        if u.valid:
            # RFC 1738 §2.2: no control, non-ASCII or unsafe character except "%" and one "#"
            assert not re.search(r'[\x00-\x20\x7f-\uffff<>"{}|\\^~\[\]`]', u.url), u.url
            assert u.url.count("#") <= 1, u.url
            assert not re.search(r"%(?![0-9A-Fa-f]{2})", u.url), u.url
            assert re.match(r"[a-z0-9+.-]+:", u.url), u.url          # §5: lower-case scheme
        else:
            assert u.mutation in corpus_urls.MUTATIONS
    kinds = {u.mutation for u in items if not u.valid}
    assert kinds == set(corpus_urls.MUTATIONS)


def test_mbox_is_a_mailbox(tmp_path):
    path = tmp_path / "m.mbox"
    corpus.write_mbox(path, 0.2)
    text = path.read_text(encoding="utf-8")
    # every line starting "From " is a separator followed by headers; others were escaped
    for m in re.finditer(r"(?m)^From .*\n(.*)", text):
        assert m.group(1).startswith("From: "), m.group(0)
    assert re.search(r"(?m)^>From ", text)
    box = mailbox.mbox(str(path))
    messages = list(box)
    assert len(messages) == text.count("\nMessage-ID: ")
    types = {p.get_content_type() for msg in messages for p in msg.walk()}
    assert {"text/plain", "text/html", "multipart/alternative"} <= types
    encodings = {p.get("Content-Transfer-Encoding") for msg in messages for p in msg.walk()}
    assert {"quoted-printable", "base64"} <= encodings
    assert "=\n" in text and "=3D" in text and "&amp;" in text and "<URL:" in text
    assert "List-Unsubscribe: " in text


def test_mbox_truth_follows_the_spool(tmp_path):
    path = tmp_path / "m.mbox"
    corpus.write_mbox(path, 0.2, seed=5)
    truth = list(corpus.mbox_truth(0.2, seed=5))
    assert truth == list(corpus.mbox_truth(0.2, seed=5))          # deterministic
    ids = [msg["Message-ID"] for msg in mailbox.mbox(str(path))]
    assert ids == [t.message_id for t in truth]                    # one per message, in order
    assert corpus.write_mbox_truth(tmp_path / "m.truth", 0.2, seed=5) == sum(len(t.urls) for t in truth)
    assert list(corpus.read_mbox_truth(tmp_path / "m.truth")) == truth


def test_mbox_bytes_are_those_of_version_2(tmp_path):
    # the cached spools are named by corpus.VERSION: a generator change (such as the
    # truth drawing a random number) must change VERSION, and this digest with it
    path = tmp_path / "m.mbox"
    corpus.write_mbox(path, 0.05, seed=3)
    assert corpus.VERSION == 2
    assert _digest(path) == "a77b199fa206a8322beed7ed3c86ca76e76d8af9a813ac239a8348cb2111614d"


#: where a URL starts in decoded text: a scheme not glued to a word or a path
#: (``.../web/2000.../http://...`` holds a second "http://" after a "/")
SCHEME = re.compile(r"(?<![\w/.+-])(?:https?://|ftp://|mailto:|news:)")


def test_mbox_truth_is_what_the_messages_hold(tmp_path):
    path = tmp_path / "m.mbox"
    corpus.write_mbox(path, 0.3)
    truth = corpus.mbox_truth(0.3)
    kinds = Counter()
    for msg, t in zip(mailbox.mbox(str(path)), truth):
        urls = {kind: [u for k, u in t.urls if k == kind] for kind in ("header", "text/plain", "text/html")}
        assert len(t.urls) == sum(map(len, urls.values()))
        headers = " ".join(msg.get_all("List-Unsubscribe", []) + msg.get_all("List-Archive", []))
        assert urls["header"] == re.findall(r"<([^<>]+)>", headers)
        texts = {"text/plain": "", "text/html": ""}
        for part in msg.walk():
            if part.get_content_type() in texts:
                texts[part.get_content_type()] += part.get_payload(decode=True).decode("utf-8")
        plain, page = texts["text/plain"], texts["text/html"]
        # plain: as many URL starts as URLs; each URL whole once its lines are joined
        # (wrappers broken across lines, "> " quoting)
        assert len(SCHEME.findall(plain)) == len(urls["text/plain"]), t.message_id
        joined = re.sub(r"\n>?[ ]*", "", plain)
        assert all(u in joined for u in urls["text/plain"]), t.message_id
        # HTML: one URL per link (its text, the URL or not, adds none) or per news: in the text
        assert page.count("<a href=") + len(re.findall(r"(?<![\w/])news:", page)) == len(urls["text/html"])
        assert all(html.escape(u) in page for u in urls["text/html"]), t.message_id
        if msg.get_content_type() == "multipart/alternative":
            assert urls["text/plain"] == urls["text/html"]           # the same URLs twice
        kinds.update(k for k, _ in t.urls)
    assert all(kinds[k] > 100 for k in ("header", "text/plain", "text/html")), kinds


def test_report_renders(tmp_path):
    data = {"benchmarks": [
        {"group": "g", "name": "test_unquote_a", "stats": {"mean": 0.5, "rounds": 3},
         "extra_info": {"bytes": 10_000_000, "items": 1000}},
        {"group": "g", "name": "test_unquote_b[x]", "stats": {"mean": 0.25, "rounds": 3},
         "extra_info": {"bytes": 10_000_000, "items": 1000, "found": 7}},
    ]}
    path = tmp_path / "r.json"
    path.write_text(json.dumps(data))
    rows = report.group_rows(report.load(str(path)))["g"]
    assert [r["name"] for r in rows] == ["b[x]", "a"]             # fastest first
    assert rows[0]["mbps"] == pytest.approx(40.0) and rows[1]["ips"] == pytest.approx(2000.0)
    md = report.render({"g": rows}, markdown=True)
    assert "| b[x] | 250.00 ms | 40.0 | 4000.0 | 1 | 2.00 |" in md
    assert "b[x]: found=7" in md


def test_report_compares_by_rate_when_bytes_differ():
    # the mail group: one row (the email path at full size) reads a prefix only
    entries = [
        {"group": "mail", "name": "test_mail_grep", "stats": {"mean": 0.1, "rounds": 3},
         "extra_info": {"bytes": 100_000_000, "items": 5}},
        {"group": "mail", "name": "test_mail_email_path", "stats": {"mean": 2.0, "rounds": 3},
         "extra_info": {"bytes": 20_000_000, "items": 4, "whole_file": False}},
        {"group": "mail", "name": "test_mail_extract_file[jobs1]", "stats": {"mean": 4.0, "rounds": 3},
         "extra_info": {"bytes": 100_000_000, "items": 6}},
    ]
    rows = report.group_rows(entries)["mail"]
    assert [r["name"] for r in rows] == ["grep", "extract_file[jobs1]", "email_path"]   # by MB/s
    md = report.render({"mail": rows}, markdown=True, versus=["grep", "nothere"])
    assert "| name | mean time | MB/s | items/s | items | bytes | ×grep |" in md
    assert "| email_path | 2000.00 ms | 10.0 | 2.0 | 4 | 20.00M | 0.01 |" in md        # 10 / 1000 MB/s
    assert "| extract_file[jobs1] | 4000.00 ms | 25.0 | 1.5 | 6 | 100.00M | 0.03 |" in md
    assert "ratios of MB/s" in md and "email_path: whole_file=False" in md


def test_wholefile_runs_on_the_log(log_path, capsys):
    # the whole-file runner (benchmarks/wholefile.py), once per configuration
    import wholefile

    assert wholefile.main([str(log_path), "--runs", "1", "--jobs", "1", "2", "--cli"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines()[2:]]
    assert [r[0] for r in rows] == ["extract_file", "extract_file", "urlsift", "urlsift"]
    counts = {r[-1] for r in rows[:2]}
    assert len(counts) == 1 and int(counts.pop()) > 0       # both jobs find the same URLs
