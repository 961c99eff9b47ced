"""Write the seed corpus of the fuzz targets: ``fuzz/corpus/<target>/``.

Seeds come from the specification documents (every URL urlsift finds in them, their
text in slices, the 1994 mail as a spool) and from the strings of the test suite
(``tests/test_*.py``, read with ``ast``: the hand-worked cases). Each seed is a
target's choice bytes (see the target's docstring) followed by the payload, so the
files stay readable. The output is deterministic and kept small (a few hundred KB
in all); it is committed, so a fuzz run does not need the spec directory.

Usage: python fuzz/make_corpus.py [SPEC_DIR]   (default: ../shared/spec from the repo)
"""
from __future__ import annotations

import argparse
import ast
import hashlib
import json
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT / "src"))

from urlsift import extract  # noqa: E402 - after the path is set

SEP = b"\xff"           # _common.Input.SEP
MAX_SEED = 4096         # octets of payload per seed (mail: a few times that)
PER_TARGET = 160        # seeds per target at most


def spec_texts(spec: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(spec.glob("*.txt"))}


def spec_urls(texts: dict[str, bytes]) -> list[str]:
    """Every URL the scanner finds in the documents, in order, once."""
    seen: dict[str, None] = {}
    for data in texts.values():
        for m in extract(data):
            seen.setdefault(m.url)
    return list(seen)


def test_strings(names: "list[str] | None" = None) -> tuple[list[str], list[bytes]]:
    """The str and bytes constants of the test files (all, or those named)."""
    strs: dict[str, None] = {}
    octets: dict[bytes, None] = {}
    for path in sorted((ROOT / "tests").glob("test_*.py")):
        if names is not None and path.stem not in names:
            continue
        for node in ast.walk(ast.parse(path.read_text("utf-8"))):
            if isinstance(node, ast.Constant):
                if isinstance(node.value, str) and 0 < len(node.value) <= MAX_SEED:
                    strs.setdefault(node.value)
                elif isinstance(node.value, bytes) and 0 < len(node.value) <= 4 * MAX_SEED:
                    octets.setdefault(node.value)
    return list(strs), list(octets)


def urlish(s: str) -> bool:
    """A test string that looks like a URL or a piece of one (not prose, not code)."""
    return len(s) <= 300 and "\n" not in s and (":" in s or "/" in s or "%" in s or "#" in s
                                                 or "?" in s)


def octets_of(s: str) -> bytes:
    """``s`` as the targets read it back (UTF-8, surrogateescape); a lone surrogate
    outside U+DC80-DCFF has no such form and goes in as its three octets."""
    try:
        return s.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:
        return s.encode("utf-8", "surrogatepass")


def choice(seed: str, k: int) -> bytes:
    """``k`` choice bytes that vary from seed to seed but not from run to run."""
    return hashlib.sha256(octets_of(seed)).digest()[:k]


def slices(data: bytes, size: int, step: int) -> list[bytes]:
    return [data[i:i + size] for i in range(0, max(len(data) - size // 2, 1), step)]


def seeds(spec: Path) -> dict[str, list[bytes]]:
    texts = spec_texts(spec)
    urls = spec_urls(texts)
    strs, octets = test_strings()
    url_strs = [s for s in strs if urlish(s)]
    enc = [octets_of(s) for s in urls + url_strs]
    out: dict[str, list[bytes]] = {}

    out["fuzz_tokenize"] = enc
    out["fuzz_parse"] = enc
    out["fuzz_codec"] = [choice(repr(s), 3) + s for s in enc]

    res_strs, _ = test_strings(["test_resolve"])
    partials = [s for s in res_strs if len(s) <= 60 and "\n" not in s]
    bases = ["magic://a/b/c//d/e/f", "http://a/b/c/d;p?q", "magic://a//b/c"] + urls[:20]
    out["fuzz_resolve"] = [b.encode() + SEP + octets_of(p)
                           for i, b in enumerate(bases) for p in partials[i::len(bases)]]

    eq_strs, _ = test_strings(["test_equivalence"])
    eq = [octets_of(s) for s in eq_strs if urlish(s)] + enc[:40]
    out["fuzz_equivalence"] = [a + SEP + b for a, b in zip(eq, eq[1:])]

    _, scan_octets = test_strings(["test_extract", "test_scan_core", "test_pipe_core",
                                   "test_refang", "test_peer_pitfalls", "test_hostile_input"])
    text_seeds = [t for name, data in texts.items() if not name.startswith("003")
                  for t in slices(data, 1500, 6000)]
    text_seeds += [(ROOT / "samples" / "access.log").read_bytes()[:MAX_SEED]]
    text_seeds += [octets_of(s) for s in strs if "://" in s or "<" in s]
    text_seeds += scan_octets
    out["fuzz_scan"] = [choice(repr(t), 7) + t[:MAX_SEED] for t in text_seeds]

    _, mail_octets = test_strings(["test_mail_core", "test_mail_walk", "test_sources"])
    spools = [o for o in mail_octets if b"\n" in o and (b":" in o)]
    sample = (ROOT / "samples" / "mail.mbox").read_bytes()
    spools += [sample] + [b"From " + m for m in sample.split(b"\nFrom ")[1:]]
    mail = texts.get("003_b77cd442327a0195.txt", b"")
    head = mail.find(b"Received:")
    if head >= 0:       # the 1994 mail: its header block and the start of its body
        spools.append(b"From timbl@ptpc00.cern.ch Thu Mar 24 02:31:00 1994\n"
                      + mail[head:head + 3 * MAX_SEED])
    out["fuzz_mail"] = [choice(repr(s), 1) + s for s in spools]

    # URL lines as the command makes them, in blobs cut at \x01 (fuzz_lines.py)
    lines = [octets_of(s) for s in urls + url_strs if "\n" not in s and "\x01" not in s]
    out["fuzz_lines"] = [b"\x01".join(choice(repr(lines[i:i + k]), 1) + b"".join(
        x + b"\n" for x in lines[i:i + k]) for k in (1, 3, 8)) for i in range(0, len(lines), 5)]

    # JSON-escaped text (fuzz_json.py): the JSON tests' octets that hold a backslash
    _, json_octets = test_strings(["test_json_escapes", "test_json_core"])
    out["fuzz_json"] = [o[:MAX_SEED] for o in json_octets if b"\\" in o]

    # HTML parts: html5lib-tests' tokenizer inputs and the HTML of the tests (fuzz_html.py)
    cases = json.loads((ROOT / "tests" / "data" / "html5lib_tokenizer.json").read_text("utf-8"))
    _, html_octets = test_strings(["test_html_core", "test_mail_walk"])
    pages = [c["input"].encode("utf-8") for c in cases["cases"]]
    pages += [o for o in html_octets if b"<" in o or b"&" in o]
    out["fuzz_html"] = [choice(repr(h), 1) + h[:MAX_SEED] for h in pages]

    # choice bytes only (fuzz_evasion.py): spread so that every re-encoding is taken
    out["fuzz_evasion"] = [bytes((i * 7 + k * 13 + (i * k) % 5) % 256 for k in range(96))
                           for i in range(60)]
    return out


def write(corpus: Path, all_seeds: dict[str, list[bytes]]) -> None:
    """The seeds, at most PER_TARGET a target (spread over the list), and every input
    of ``fuzz/regressions/<target>/`` (what fuzzing found: always replayed)."""
    if corpus.exists():
        shutil.rmtree(corpus)
    for target, items in all_seeds.items():
        folder = corpus / target
        folder.mkdir(parents=True)
        unique = list(dict.fromkeys(items))
        step = max(1, len(unique) // PER_TARGET)
        found = HERE / "regressions" / target
        kept = [p.read_bytes() for p in sorted(found.iterdir())] if found.is_dir() else []
        for item in unique[::step][:PER_TARGET] + kept:
            name = hashlib.sha1(item).hexdigest()[:16]
            (folder / name).write_bytes(item)


def main(argv: "list[str] | None" = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("spec", nargs="?", default=str(ROOT.parent / "shared" / "spec"),
                        help="the specification documents (default: ../shared/spec)")
    parser.add_argument("--out", default=str(HERE / "corpus"), help="corpus directory")
    args = parser.parse_args(argv)
    spec = Path(args.spec)
    if not spec.is_dir():
        parser.error(f"no spec directory at {spec}")
    all_seeds = seeds(spec)
    write(Path(args.out), all_seeds)
    for target in sorted(all_seeds):
        files = list((Path(args.out) / target).iterdir())
        print(f"{target}: {len(files)} seeds, {sum(f.stat().st_size for f in files)} octets")
    return 0


if __name__ == "__main__":
    sys.exit(main())
