"""Write ``tests/data/html5lib_tokenizer.json``: the html5lib-tests tokenizer cases that
concern what the HTML tokenizer twins (``urlsift._html_py``) read for links — comments,
RCDATA/RAWTEXT/PLAINTEXT, character references in text and attribute values, attribute
values — each with the records the twins must give (text runs and attribute values in
order), worked out from the case's expected tokens.

    python tools/gen_html5lib_cases.py PATH/TO/html5lib-tests COMMIT

Left out, as the twins do not model them: cases whose input has a CR (the input
stream's CR/LF normalisation is not done), ``doubleEscaped`` cases (lone surrogates),
the CDATA section state, script data with ``<!--`` (the escape states), and cases with
a start tag of an element that switches the tokenizer (html5lib's tokenizer runs
without a tree builder; the twins switch as §13.2.6 does). Of ``namedEntities.test``,
the references to the legacy names (matched without ``;``) and every 25th other; of the
generated ``test3.test``, every 4th case in the data state.
"""
from __future__ import annotations

import json
import sys
from html.entities import html5
from pathlib import Path

TARGET = Path(__file__).resolve().parent.parent / "tests" / "data" / "html5lib_tokenizer.json"
FILES = ("test1", "test2", "test3", "test4", "contentModelFlags", "entities",
         "namedEntities", "numericEntities", "domjs", "pendingSpecChanges")
SWITCHING = {"title", "textarea", "style", "xmp", "iframe", "noembed", "noframes", "script",
             "plaintext"}
LEGACY = {n for n in html5 if not n.endswith(";")}
STATES = {"Data state": "data", "RCDATA state": "RCDATA", "RAWTEXT state": "RAWTEXT",
          "Script data state": "script data", "PLAINTEXT state": "PLAINTEXT"}


def expected(output: list) -> list:
    out = []
    for token in output:
        if token[0] == "Character":
            out.append(["text", token[1]])
        elif token[0] == "StartTag":
            out += [["attribute", v] for v in token[2].values()]
    return out


def relevant(case: dict, state: str) -> bool:
    text = case["input"]
    return (state != "data" or "<!" in text or "&" in text
            or any(t[0] == "StartTag" and t[2] for t in case["output"]))


def kept(name: str, index: int, case: dict) -> bool:
    if case.get("doubleEscaped") or "\r" in case["input"]:
        return False
    if any(t[0] == "StartTag" and t[1] in SWITCHING for t in case["output"]):
        return False
    try:
        case["input"].encode("utf-8")
        json.dumps(expected(case["output"])).encode("utf-8")
        for _, s in expected(case["output"]):
            s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    if name == "namedEntities":
        return case["input"].lstrip("&").rstrip(";") in LEGACY or index % 25 == 0
    if name == "test3":             # generated, every short input: one in four is enough
        return index % 4 == 0 or "initialStates" in case
    return True


def cases(root: Path) -> list[dict]:
    out = []
    for name in FILES:
        data = json.loads((root / "tokenizer" / f"{name}.test").read_text(encoding="utf-8"))
        for index, case in enumerate(data.get("tests", [])):
            if not kept(name, index, case):
                continue
            for initial in case.get("initialStates", ["Data state"]):
                state = STATES.get(initial)
                if state is None or (state == "script data" and "<!--" in case["input"]):
                    continue
                if not relevant(case, state):
                    continue
                row = {"file": name, "description": case["description"],
                       "input": case["input"], "expected": expected(case["output"])}
                if state != "data":                 # the defaults are left out
                    row["state"] = state
                if case.get("lastStartTag"):
                    row["last_start_tag"] = case["lastStartTag"]
                out.append(row)
    return out


def main(argv: list[str]) -> int:
    root, commit = Path(argv[0]), argv[1]
    doc = {"source": f"https://github.com/html5lib/html5lib-tests/tree/{commit}/tokenizer",
           "commit": commit, "made_by": "tools/gen_html5lib_cases.py", "cases": cases(root)}
    head = json.dumps({k: v for k, v in doc.items() if k != "cases"}, ensure_ascii=False)
    rows = ",\n".join(json.dumps(c, ensure_ascii=False) for c in doc["cases"])
    TARGET.write_text(head[:-1] + ', "cases": [\n' + rows + "\n]}\n", encoding="utf-8")
    print(f"{len(doc['cases'])} cases -> {TARGET}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
