"""Other projects' URL-finding test cases, kept as test cases (issue 21).

The cases come from URI::Find (t/Find.t, t/rfc3986_appendix_c.t), urlextract
(tests/unit/test_find_urls.py, test_enclosure.py) and linkify-it (test/fixtures/links.txt,
not_links.txt), each with the repository, commit and path it was taken from, the text,
what that project expects, and what urlsift should give under the judging rules of
benchmarks/quality/README.md (``expect``; a ``note`` says why where the two differ:
scheme-less matches, punycode, RFC 1738's unsafe characters...). They are committed with
the judged lines, as ``benchmarks/quality/cases.jsonl``; nothing is fetched here. Each
case runs on both cores (conftest.py).

A case urlsift does not pass yet is in :data:`XFAIL` with the rule it breaks: strict, so
the day a fix makes it pass the mark must go.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Dict, List

import pytest

import urlsift

ROOT = Path(__file__).resolve().parent.parent
CASES_FILE = ROOT / "benchmarks" / "quality" / "cases.jsonl"

#: case id -> the rule urlsift breaks on it (the judged expectation is in cases.jsonl)
XFAIL: Dict[str, str] = {
    "linkify-it/links.txt/line20":
        "Markdown links: ')[' after a link target is taken into the URL "
        "([https](https://www.ibm.com)[mailto](mailto:...) gives one URL running over both); "
        "the )/] balance is checked only at the end of the run",
    "linkify-it/links.txt/line55":
        "IRI: U+200D ZERO WIDTH JOINER (category Cf) inside a Malayalam word ends the URL; "
        "only letters, digits and marks go on",
    "linkify-it/links.txt/line136":
        "trimming: a trailing ' is trimmed even when it closes a ' opened inside the URL "
        "(the balance rule covers ) and ] only)",
    "linkify-it/links.txt/line285":
        "IRI: a symbol (U+272A, category So) in the host ends the URL before it starts "
        "(http://✪df.ws/123 gives nothing)",
    "linkify-it/not_links.txt/line29":
        "scheme alone: 'http://#' is found; nothing but a fragment delimiter after scheme://",
    "linkify-it/not_links.txt/line30":
        "scheme alone: 'http://##' is found; nothing but fragment delimiters after scheme://",
}


def _cases() -> List[dict]:
    with open(CASES_FILE, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


CASES = _cases()


def _params() -> list:
    return [pytest.param(c, id=c["id"], marks=[pytest.mark.xfail(strict=True, reason=XFAIL[c["id"]])]
                         if c["id"] in XFAIL else []) for c in CASES]


@pytest.mark.parametrize("case", _params())
def test_peer_case(case: dict) -> None:
    """urlsift finds exactly the judged URLs of the case's text, in order."""
    got = [m.url for m in urlsift.extract(case["text"])]
    assert got == case["expect"], case.get("note", "")


def test_xfail_ids_exist() -> None:
    """Every XFAIL entry names a case that exists (a renamed case must not hide a pass)."""
    assert len(CASES) >= 250       # the file is whole: a cut one must not pass quietly
    assert set(XFAIL) <= {c["id"] for c in CASES}


def test_truth_names_manifest_files() -> None:
    """Every judged line names a file of the corpus manifest and a line in it (a renamed
    or re-cut file must not leave judgments that score nothing)."""
    quality = ROOT / "benchmarks" / "quality"
    with open(quality / "sources.json", encoding="utf-8") as f:
        manifest = {e["name"]: e for entries in json.load(f)["datasets"].values() for e in entries}
    judged = 0
    for path in sorted((quality / "truth").glob("*.jsonl")):
        with open(path, encoding="utf-8") as f:
            for line in filter(str.strip, f):
                record = json.loads(line)
                assert record["file"] in manifest, (path.name, record["file"])
                assert record["file"].startswith(path.stem + "/")
                assert record["line"] >= 1 and all(isinstance(u, str) for u in record["urls"])
                judged += 1
    assert judged >= 1000
