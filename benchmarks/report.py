"""Tables from a pytest-benchmark JSON file: time, MB/s, items/s and ratios per group.

    pytest benchmarks --benchmark-json=out.json
    python benchmarks/report.py out.json              # plain text
    python benchmarks/report.py out.json --markdown   # for the README

Each benchmark is expected to record ``bytes`` and ``items`` (what one round
processes) in ``extra_info``; MB/s is ``bytes / time / 10**6``. The ratio column
``×name`` of a row is ``time(name) / time(row)``: above 1 means this row is faster than
``name`` by that factor. Ratios, not absolute times, are what hold on a shared machine.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
from typing import Any, Optional

__all__ = ["load", "short_name", "group_rows", "render", "main"]


def load(path: str) -> list[dict[str, Any]]:
    """The ``benchmarks`` list of a pytest-benchmark JSON file."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)["benchmarks"]


def short_name(name: str) -> str:
    """A column-sized name: ``test_unquote_urlsift[cython]`` -> ``urlsift[cython]``.

    >>> short_name("test_tokenize_urlsplit")
    'urlsplit'
    >>> short_name("test_unquote_urlsift[cython]")
    'urlsift[cython]'
    """
    name = re.sub(r"^test_", "", name)
    base, bracket, param = name.partition("[")
    for prefix in ("unquote_", "tokenize_", "validate_", "extract_"):
        if base.startswith(prefix) and len(base) > len(prefix):
            base = base[len(prefix):]
            break
    return base + bracket + param


def group_rows(benchmarks: list[dict[str, Any]], stat: str = "mean") -> dict[str, list[dict[str, Any]]]:
    """Rows per group, fastest first: name, seconds, MB/s, items/s, and the raw entry."""
    groups: dict[str, list[dict[str, Any]]] = {}
    for b in benchmarks:
        secs = b["stats"][stat]
        info = b.get("extra_info", {})
        row = {
            "name": short_name(b["name"]),
            "secs": secs,
            "mbps": info["bytes"] / secs / 1e6 if info.get("bytes") and secs else None,
            "ips": info["items"] / secs if info.get("items") and secs else None,
            "rounds": b["stats"].get("rounds"),
            "info": info,
        }
        groups.setdefault(b.get("group") or "(no group)", []).append(row)
    for rows in groups.values():
        rows.sort(key=lambda r: r["secs"])
    return groups


def _num(x: Optional[float], digits: int = 1) -> str:
    if x is None:
        return "-"
    if x >= 1e6:
        return f"{x / 1e6:.{digits}f}M"
    if x >= 1e4:
        return f"{x / 1e3:.{digits}f}k"
    return f"{x:.{digits}f}"


def _time(secs: float) -> str:
    return f"{secs * 1e3:.2f} ms" if secs < 10 else f"{secs:.2f} s"


#: extra_info keys that every row has; the others are listed under the table
STANDARD_INFO = ("bytes", "items", "size", "corpus")


def render(groups: dict[str, list[dict[str, Any]]], markdown: bool = False, stat: str = "mean") -> str:
    """The tables as text (aligned columns) or as Markdown.

    When the rows of a group processed different numbers of items (extraction: the
    URLs each tool found), an ``items`` column shows each count.
    """
    out = []
    for group, rows in groups.items():
        infos = [r["info"] for r in rows]
        same_items = len({i.get("items") for i in infos}) == 1
        head = ["name", f"{stat} time", "MB/s", "items/s"] + ([] if same_items else ["items"])
        head += [f"×{r['name']}" for r in rows]
        body = []
        for r in rows:
            line = [r["name"], _time(r["secs"]), _num(r["mbps"]), _num(r["ips"])]
            if not same_items:
                line.append(str(r["info"].get("items", "-")))
            line += [f"{p['secs'] / r['secs']:.2f}" if p is not r else "1" for p in rows]
            body.append(line)
        title = f"group {group}: {_num(infos[0].get('bytes'), 2)} bytes"
        if same_items:
            title += f", {infos[0].get('items', '?')} items"
        title += f", size {infos[0].get('size', '?')}, {rows[0]['rounds']} rounds"
        if markdown:
            out.append(f"**{title}**\n")
            out.append("| " + " | ".join(head) + " |")
            out.append("|" + "|".join("---" if i == 0 else "---:" for i in range(len(head))) + "|")
            out += ["| " + " | ".join(line) + " |" for line in body]
        else:
            widths = [max(len(x[i]) for x in [head] + body) for i in range(len(head))]
            out.append(title)
            for line in [head] + body:
                out.append("  ".join(c.ljust(w) if i == 0 else c.rjust(w)
                                     for i, (c, w) in enumerate(zip(line, widths))))
        notes = [f"{r['name']}: " + ", ".join(f"{k}={v}" for k, v in r["info"].items() if k not in STANDARD_INFO)
                 for r in rows if any(k not in STANDARD_INFO for k in r["info"])]
        if notes:
            out.append(("\n" if markdown else "") + "; ".join(notes))
        out.append("")
    return "\n".join(out)


def main(argv: Optional[list[str]] = None) -> int:
    """Print the tables of each JSON file given."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("json", nargs="+", help="pytest-benchmark --benchmark-json output")
    p.add_argument("--markdown", action="store_true", help="Markdown tables")
    p.add_argument("--stat", default="mean", choices=("mean", "median", "min"), help="which time to use")
    a = p.parse_args(argv)
    try:
        for path in a.json:
            if len(a.json) > 1:
                print(f"## {path}\n" if a.markdown else f"== {path}")
            print(render(group_rows(load(path), a.stat), a.markdown, a.stat))
    except BrokenPipeError:                      # report.py out.json | head
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
