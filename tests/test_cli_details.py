"""``urlsift extract --details``: the columns a user filters on — ``valid`` (RFC 1738
exactly), ``problems`` (codes, docs/codes.md), ``wrapped``, ``hyphen_break`` and
``edits`` (how the URL was mended on its way out of the text) — in every format.

Expected values are worked out from the spec and docs/decisions-extract.md: ``~`` is
unsafe (§2.2), a port is at most 65535, a wrapper over lines is joined with its white
space (and a hyphen at the line end) taken out, a trailing ``.`` is punctuation.
"""
from __future__ import annotations

import csv
import io
import json

import pytest
from hypothesis import given, strategies as st

from urlsift.cli.main import main
from urlsift.model.parts import checks_getter

TEXT = (b"see <URL:http://a.exa-\n   mple/> then http://b.example/~x and\n"
        b"http://c.example:99999/ or http://d.example/x. and http://e.example/a\xe2\x80\xbeb\n")

EXPECTED = [
    {"url": "http://a.exa-mple/", "valid_strict": True, "problems": [], "wrapped": True,
     "hyphen_break": True, "edits": ["wrapper-removed", "whitespace-removed"]},
    {"url": "http://b.example/~x", "valid_strict": False, "problems": ["unsafe-char"],
     "wrapped": False, "hyphen_break": False, "edits": []},
    {"url": "http://c.example:99999/", "valid_strict": False, "problems": ["bad-port"],
     "wrapped": False, "hyphen_break": False, "edits": []},
    {"url": "http://d.example/x", "valid_strict": True, "problems": [], "wrapped": False,
     "hyphen_break": False, "edits": ["punctuation-trimmed"]},
    # U+203E glued to the URL: cut there, and said so (issue 12)
    {"url": "http://e.example/a", "valid_strict": True, "problems": [], "wrapped": False,
     "hyphen_break": False, "edits": ["cut-at-non-ascii"]},
]


@pytest.fixture
def text_file(tmp_path):
    path = tmp_path / "t.txt"
    path.write_bytes(TEXT)
    return str(path)


def _out(tmp_path, *args: str) -> bytes:
    out = tmp_path / "out"
    assert main(["extract", "--details", *args, "-o", str(out)]) == 0
    return out.read_bytes()


def test_jsonl_details(tmp_path, text_file):
    got = [json.loads(x) for x in _out(tmp_path, "-f", "jsonl", text_file).splitlines()]
    assert got == EXPECTED


def test_jsonl_details_with_position_keeps_the_column_order(tmp_path, text_file):
    line = _out(tmp_path, "-f", "jsonl", "--with-position", text_file).splitlines()[0]
    assert list(json.loads(line)) == ["url", "file", "line", "offset", "valid_strict", "problems",
                                      "wrapped", "hyphen_break", "edits"]


def test_csv_details(tmp_path, text_file):
    rows = list(csv.reader(io.StringIO(_out(tmp_path, "-f", "csv", text_file).decode())))
    assert rows[0] == ["url", "valid_strict", "problems", "wrapped", "hyphen_break", "edits"]
    assert rows[1] == ["http://a.exa-mple/", "true", "", "true", "true",
                       "wrapper-removed whitespace-removed"]
    assert rows[2] == ["http://b.example/~x", "false", "unsafe-char", "false", "false", ""]


def test_text_details_after_a_tab(tmp_path, text_file):
    first = _out(tmp_path, text_file).decode().splitlines()[1]
    assert first.split("\t") == ["http://b.example/~x", "valid_strict=false", "problems=unsafe-char",
                                 "wrapped=false", "hyphen_break=false", "edits="]


def test_parquet_details_are_typed(tmp_path, text_file):
    pq = pytest.importorskip("pyarrow.parquet")
    out = tmp_path / "o.parquet"
    assert main(["extract", "--details", "-f", "parquet", "-o", str(out), text_file]) == 0
    table = pq.read_table(out)
    assert str(table.schema.field("valid_strict").type) == "bool"
    pa = pytest.importorskip("pyarrow")
    assert pa.types.is_list(table.schema.field("edits").type)
    assert table.schema.field("edits").type.value_type == pa.string()
    assert table.to_pylist() == EXPECTED


def test_unique_details_are_the_first_occurrence(tmp_path):
    path = tmp_path / "u.txt"
    path.write_bytes(b"http://a.example/x. http://a.example/x\n")
    got = [json.loads(x) for x in _out(tmp_path, "-f", "jsonl", "-u", str(path)).splitlines()]
    assert got == [{"url": "http://a.example/x", "count": 2, "valid_strict": True, "problems": [],
                    "wrapped": False, "hyphen_break": False, "edits": ["punctuation-trimmed"]}]


def test_mail_details(tmp_path):
    spool = tmp_path / "spool"
    spool.write_bytes(b"From a@b Mon Jan  1 00:00:00 2026\nMessage-ID: <m1@x>\n\n"
                      b"look: <URL:http://m.example/a\n b> and http://m.example/~y.\n")
    got = [json.loads(x) for x in _out(tmp_path, "-f", "jsonl", str(spool)).splitlines()]
    assert [(r["url"], r["valid_strict"], r["problems"], r["wrapped"], r["edits"]) for r in got] == [
        ("http://m.example/ab", True, [], True, ["wrapper-removed", "whitespace-removed"]),
        ("http://m.example/~y", False, ["unsafe-char"], False, ["punctuation-trimmed"]),
    ]


@given(st.text(alphabet="htpfgo:/.~%@?;=&#-_aAbZ09 ", max_size=40))
def test_valid_exactly_when_no_problem(text):
    got = checks_getter()("http://" + text)
    assert got["valid_strict"] == (got["problems"] == [])
