"""Tables from a pytest-benchmark JSON file: time, MB/s, items/s and ratios per group.

    pytest benchmarks --benchmark-json=out.json
    python benchmarks/report.py out.json              # plain text
    python benchmarks/report.py out.json --markdown   # for the README
    python benchmarks/report.py out.json --versus grep re   # ratio columns to these rows only

Each benchmark is expected to record ``bytes`` and ``items`` (what one round
processes) in ``extra_info``; MB/s is ``bytes / time / 10**6``. The ratio column
``×name`` of a row is ``time(name) / time(row)``: above 1 means this row is faster than
``name`` by that factor. When the rows of a group read different amounts (the mail
group's ``email_path`` on a prefix of the full spool), a ``bytes`` column shows each,
rows are ordered and compared by MB/s instead: ``×name`` is ``MB/s(row) / MB/s(name)``.
Ratios, not absolute times, are what hold on a shared machine.
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
    >>> short_name("test_mail_extract_file[jobs2]")
    'extract_file[jobs2]'
    """
    name = re.sub(r"^test_", "", name)
    base, bracket, param = name.partition("[")
    for prefix in ("unquote_", "tokenize_", "validate_", "extract_", "mail_"):
        if base.startswith(prefix) and len(base) > len(prefix):
            base = base[len(prefix):]
            break
    return base + bracket + param


def _by_rate(rows: list[dict[str, Any]]) -> bool:
    """Whether a group's rows read different numbers of bytes (then MB/s compares them)."""
    return len({r["info"].get("bytes") for r in rows}) > 1 and all(r["mbps"] for r in rows)


def group_rows(benchmarks: list[dict[str, Any]], stat: str = "mean") -> dict[str, list[dict[str, Any]]]:
    """Rows per group, fastest first (highest MB/s first when the rows read different
    amounts): name, seconds, MB/s, items/s, and the raw entry."""
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
        rows.sort(key=(lambda r: -r["mbps"]) if _by_rate(rows) else (lambda r: r["secs"]))
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


def render(groups: dict[str, list[dict[str, Any]]], markdown: bool = False, stat: str = "mean",
           versus: Optional[list[str]] = None) -> str:
    """The tables as text (aligned columns) or as Markdown.

    When the rows of a group processed different numbers of items (extraction: the
    URLs each tool found), an ``items`` column shows each count; when they read
    different numbers of bytes, a ``bytes`` column, and the ratios are of MB/s.
    ``versus``: the ratio columns only for these row names (those in the group).
    """
    out = []
    for group, rows in groups.items():
        infos = [r["info"] for r in rows]
        same_items = len({i.get("items") for i in infos}) == 1
        by_rate = _by_rate(rows)
        cols = rows if versus is None else [p for name in versus for p in rows if p["name"] == name]
        head = ["name", f"{stat} time", "MB/s", "items/s"] + ([] if same_items else ["items"])
        head += ["bytes"] if by_rate else []
        head += [f"×{p['name']}" for p in cols]
        body = []
        for r in rows:
            line = [r["name"], _time(r["secs"]), _num(r["mbps"]), _num(r["ips"])]
            if not same_items:
                line.append(str(r["info"].get("items", "-")))
            if by_rate:
                line.append(_num(r["info"].get("bytes"), 2))
            line += ["1" if p is r else f"{r['mbps'] / p['mbps']:.2f}" if by_rate
                     else f"{p['secs'] / r['secs']:.2f}" for p in cols]
            body.append(line)
        most = max((i.get("bytes") or 0 for i in infos), default=0) or None
        title = f"group {group}: {_num(most if by_rate else infos[0].get('bytes'), 2)} bytes"
        if by_rate:
            title += " (fewer in some rows: ratios of MB/s)"
        if same_items and infos[0].get("items") is not None:
            title += f", {infos[0]['items']} items"
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
    p.add_argument("--versus", nargs="+", metavar="NAME",
                   help="ratio columns only for these rows (e.g. grep re), where a group has them")
    a = p.parse_args(argv)
    try:
        for path in a.json:
            if len(a.json) > 1:
                print(f"## {path}\n" if a.markdown else f"== {path}")
            print(render(group_rows(load(path), a.stat), a.markdown, a.stat, a.versus))
    except BrokenPipeError:                      # report.py out.json | head
        sys.stderr.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
