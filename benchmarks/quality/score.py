"""Recall and precision of urlsift, a plain regex and urlextract on the hand-judged lines.

    python benchmarks/quality/score.py [--data DIR] [--markdown] [--misses]

For every data set with a ``truth/<dataset>.jsonl``, each finder runs on the whole text
of each judged file; only the judged lines count. On a line, the finder's distinct URLs
are compared with the judged ones as sets: a URL found and judged is a hit, found and not
judged a false URL, judged and not found a miss. Recall = hits / judged, precision =
hits / found. A finder's result without a scheme (urlextract's ``www.example.com``) is
left out of the main table and scored on its own against the lines' ``schemeless`` lists
(README.md, "Judging rules"). urlsift is scored as the brief asks, ``valid="lenient"``,
and also unvalidated (what the extraction rules give). ``--misses`` lists urlsift's false
and missed URLs (both ways).
"""
from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path
from typing import Callable, Dict, List, Optional, Set, Tuple

sys.path.insert(0, str(Path(__file__).resolve().parent))
import corpus  # noqa: E402
import finders  # noqa: E402

Finder = Callable[[str, List[int]], finders.Pairs]


class Tally:
    """Hits, false URLs and misses of one finder on one data set."""

    def __init__(self) -> None:
        self.hits = self.false = self.missed = 0

    def add(self, found: Set[str], judged: Set[str]) -> None:
        """Count one line."""
        self.hits += len(found & judged)
        self.false += len(found - judged)
        self.missed += len(judged - found)

    def recall(self) -> Optional[float]:
        n = self.hits + self.missed
        return self.hits / n if n else None

    def precision(self) -> Optional[float]:
        n = self.hits + self.false
        return self.hits / n if n else None


def finders_in_use() -> Dict[str, Optional[Finder]]:
    """The finders by name; urlextract is None when it cannot run here."""
    return {"urlsift": finders.urlsift_pairs, "urlsift-unvalidated": finders.urlsift_all_pairs,
            "regex": finders.regex_pairs, "urlextract": finders.urlextract_finder()}


def found_by_line(finder: Finder, path: Path) -> Dict[int, Set[str]]:
    """line -> the distinct URLs a finder gives for that line of a file."""
    text = corpus.read_text(path)
    out: Dict[int, Set[str]] = defaultdict(set)
    for line, url in finder(text, corpus.line_starts(text)):
        out[line].add(url)
    return out


def score(data: Path) -> Tuple[Dict[str, Dict[str, Tuple[Tally, Tally]]], Dict[str, int],
                               List[Tuple[str, str, int, str]]]:
    """(dataset -> finder -> (scheme tally, schemeless tally)), judged lines per data set,
    and urlsift's (dataset, file, line, 'false <url>' / 'missed <url>') list."""
    truth = corpus.truth()
    use = finders_in_use()
    table: Dict[str, Dict[str, Tuple[Tally, Tally]]] = {}
    nlines: Dict[str, int] = {}
    wrong: List[Tuple[str, str, int, str]] = []
    for dataset, records in sorted(truth.items()):
        table[dataset] = {name: (Tally(), Tally()) for name, f in use.items() if f}
        nlines[dataset] = len(records)
        byfile: Dict[str, List[dict]] = defaultdict(list)
        for r in records:
            byfile[r["file"]].append(r)
        for name, finder in use.items():
            if finder is None:
                continue
            for file, recs in byfile.items():
                found = found_by_line(finder, data / "corpus" / file)
                for r in recs:
                    got = found.get(r["line"], set())
                    schemed = {u for u in got if finders.is_schemed(u)}
                    judged = set(r["urls"])
                    table[dataset][name][0].add(schemed, judged)
                    table[dataset][name][1].add(got - schemed, set(r.get("schemeless", ())))
                    if name in ("urlsift", "urlsift-unvalidated"):
                        tag = "" if name == "urlsift" else " (unvalidated)"
                        wrong += [(dataset, file, r["line"], f"false{tag} " + u) for u in sorted(schemed - judged)]
                        wrong += [(dataset, file, r["line"], f"missed{tag} " + u) for u in sorted(judged - schemed)]
    return table, nlines, wrong


def _pct(x: Optional[float]) -> str:
    return "—" if x is None else f"{100 * x:.1f}"


def render(table: Dict[str, Dict[str, Tuple[Tally, Tally]]], nlines: Dict[str, int],
           markdown: bool) -> str:
    """The table: per data set and finder, recall and precision (and the counts)."""
    names = sorted({n for d in table.values() for n in d}, key=list(finders_in_use()).index)
    head = ["data set", "lines", "URLs"] + [f"{n} R / P (false, missed)" for n in names]
    rows = []
    total = {n: (Tally(), Tally()) for n in names}
    for dataset, per in table.items():
        judged = next(iter(per.values()))[0]
        row = [dataset, str(nlines[dataset]), str(judged.hits + judged.missed)]
        for n in names:
            t = per[n][0]
            row.append(f"{_pct(t.recall())} / {_pct(t.precision())} ({t.false}, {t.missed})")
            for i in (0, 1):
                total[n][i].hits += per[n][i].hits
                total[n][i].false += per[n][i].false
                total[n][i].missed += per[n][i].missed
        rows.append(row)
    t0 = total[names[0]][0]
    rows.append(["all", str(sum(nlines.values())), str(t0.hits + t0.missed)]
                + [f"{_pct(total[n][0].recall())} / {_pct(total[n][0].precision())} "
                   f"({total[n][0].false}, {total[n][0].missed})" for n in names])
    sl = ["schemeless (separate)", "", ""] + [
        f"{total[n][1].hits} hits, {total[n][1].false} not links" if (total[n][1].hits or total[n][1].false)
        else "—" for n in names]
    rows.append(sl)
    if markdown:
        lines = ["| " + " | ".join(head) + " |", "|" + "---|" * len(head)]
        lines += ["| " + " | ".join(r) + " |" for r in rows]
        return "\n".join(lines)
    widths = [max(len(r[i]) for r in [head] + rows) for i in range(len(head))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)) for r in [head] + rows)


def main(argv: Optional[list] = None) -> int:
    """Print the table (and with --misses urlsift's false and missed URLs)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=None, help="data directory (default: corpus.data_dir())")
    ap.add_argument("--markdown", action="store_true", help="a Markdown table")
    ap.add_argument("--misses", action="store_true", help="list urlsift's false and missed URLs")
    args = ap.parse_args(argv)
    data = args.data or corpus.data_dir()
    if not (data / "corpus").is_dir():
        print(f"no corpus/ in {data} (set URLSIFT_QUALITY_DATA or --data; fetch.py makes it)",
              file=sys.stderr)
        return 2
    table, nlines, wrong = score(data)
    if finders_in_use()["urlextract"] is None:
        print("urlextract: not installed or cannot start offline; left out", file=sys.stderr)
    print(render(table, nlines, args.markdown))
    if args.misses:
        print()
        for dataset, file, line, what in wrong:
            print(f"{file}:{line}: {what}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
