"""``urlsift stats --html``: the statistics as one self-contained HTML page.

Inline SVG bar charts and a table under each (the numbers as text, for a reader and
for a test), inline CSS; no script, no image, font or style sheet fetched from
anywhere (a ``Content-Security-Policy`` of ``default-src 'none'`` says so to the
browser too). Every number is ``urlsift stats``'s own: the page is drawn from the
same report.

>>> page = html_page({"urls": 3, "distinct": 2, "invalid": 1, "schemes": {"http": 3},
...                   "hosts": {"a.example": 3}, "problems": {"unsafe-char": 1},
...                   "files": {"a.log": 3}, "timeline": {}}, ["a.log"], 10)
>>> page.startswith("<!DOCTYPE html>") and "<script" not in page and 'data-count="3"' in page
True
"""
from __future__ import annotations

import time
from html import escape
from typing import Optional, Sequence

__all__ = ["html_page", "time_buckets"]

#: At most this many bars in the chart of URLs over time (the bucket grows to fit).
MAX_BARS = 120
#: Bucket sizes tried, in minutes, and how a bucket's start is written.
_STEPS = ((1, "%Y-%m-%d %H:%M"), (10, "%Y-%m-%d %H:%M"), (60, "%Y-%m-%d %H:00"),
          (360, "%Y-%m-%d %H:00"), (1440, "%Y-%m-%d"), (10080, "%Y-%m-%d"))

_STYLE = """
body{font:14px/1.4 system-ui,sans-serif;margin:2em auto;max-width:60em;color:#222}
h1{font-size:1.5em}h2{font-size:1.15em;margin-top:2em}
table{border-collapse:collapse;margin:.5em 0}td,th{padding:.15em .8em;text-align:left}
td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
tr:nth-child(even){background:#f4f4f4}
svg{display:block;margin:.5em 0}svg text{font:12px system-ui,sans-serif;fill:#222}
.bar{fill:#4a78b5}.bad{fill:#c0504d}.time{fill:#5b9a68}
.summary td{font-size:1.1em}
"""


def _bars(items: Sequence[tuple[str, int]], css: str, label: str) -> str:
    """A horizontal bar chart: one labelled bar a row, its count at its end."""
    if not items:
        return "<p>(none)</p>"
    top = max(n for _, n in items) or 1
    row, left, width = 22, 260, 420
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{left + width + 80}" '
             f'height="{row * len(items) + 4}" role="img" aria-label="{escape(label)}">']
    for i, (name, n) in enumerate(items):
        y = i * row
        shown = name if len(name) <= 40 else name[:39] + "…"
        w = max(1, round(width * n / top))
        parts.append(f'<text x="{left - 6}" y="{y + 15}" text-anchor="end">{escape(shown)}</text>'
                     f'<rect class="{css}" x="{left}" y="{y + 3}" width="{w}" height="{row - 6}">'
                     f'<title>{escape(name)}: {n}</title></rect>'
                     f'<text x="{left + w + 4}" y="{y + 15}">{n}</text>')
    parts.append("</svg>")
    return "".join(parts)


def _columns(items: Sequence[tuple[str, int]], css: str, label: str) -> str:
    """A vertical bar chart over time: one bar a bucket, first and last labelled."""
    if not items:
        return "<p>(none)</p>"
    top = max(n for _, n in items) or 1
    height, bottom, width = 160, 36, 720
    step = width / len(items)
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width + 60}" '
             f'height="{height + bottom}" role="img" aria-label="{escape(label)}">',
             f'<text x="0" y="12">{top}</text>']
    for i, (name, n) in enumerate(items):
        h = max(1, round(height * n / top)) if n else 0
        parts.append(f'<rect class="{css}" x="{40 + i * step:.1f}" y="{height - h + 16}" '
                     f'width="{max(step - 1, 1):.1f}" height="{h}">'
                     f'<title>{escape(name)}: {n}</title></rect>')
    parts.append(f'<text x="40" y="{height + 32}">{escape(items[0][0])}</text>'
                 f'<text x="{width + 40}" y="{height + 32}" text-anchor="end">'
                 f'{escape(items[-1][0])}</text></svg>')
    return "".join(parts)


def _table(section: str, head: str, items: Sequence[tuple[str, int]]) -> str:
    rows = "".join(f'<tr><td>{escape(k)}</td><td class="n" data-count="{n}">{n}</td></tr>'
                   for k, n in items)
    return (f'<table data-section="{section}"><tr><th>{escape(head)}</th>'
            f'<th class="n">URLs</th></tr>{rows}</table>')


def time_buckets(minutes: dict[int, int]) -> tuple[str, list[tuple[str, int]]]:
    """``{minute since the epoch: URLs}`` in at most :data:`MAX_BARS` buckets of the
    smallest size that fits, empty buckets included: ``(size, [(start, URLs)...])``.

    >>> time_buckets({0: 2, 1: 1, 3: 4})
    ('1 minute', [('1970-01-01 00:00', 2), ('1970-01-01 00:01', 1), ('1970-01-01 00:02', 0), ('1970-01-01 00:03', 4)])
    """
    if not minutes:
        return "", []
    first, last = min(minutes), max(minutes)
    for size, fmt in _STEPS:
        if (last // size - first // size) < MAX_BARS:
            break
    else:
        size, fmt = 43200, "%Y-%m-%d"     # 30 days
    counts: dict[int, int] = {}
    for minute, n in minutes.items():
        counts[minute // size] = counts.get(minute // size, 0) + n
    out = [(time.strftime(fmt, time.gmtime(b * size * 60)), counts.get(b, 0))
           for b in range(first // size, last // size + 1)]
    names = {1: "1 minute", 10: "10 minutes", 60: "1 hour", 360: "6 hours", 1440: "1 day",
             10080: "1 week", 43200: "30 days"}
    return names[size], out


def html_page(report: dict, inputs: Sequence[str], top: int,
              title: Optional[str] = None) -> str:
    """The page of a ``stats`` report: ``report`` as ``stats --json`` has it, with
    ``files`` (URLs per input) and ``timeline`` (``{minute: URLs}`` of the URLs whose
    line, or mail message, has a timestamp)."""
    name = title or ("urlsift stats: " + ", ".join(inputs[:3]) + (" …" if len(inputs) > 3 else ""))
    schemes = list(report["schemes"].items())
    hosts = list(report["hosts"].items())
    problems = list(report["problems"].items())
    files = list(report["files"].items())
    size, buckets = time_buckets(report["timeline"])
    dated = sum(report["timeline"].values())
    summary = "".join(
        f'<tr><td>{label}</td><td class="n" data-count="{report[key]}">{report[key]}</td></tr>'
        for label, key in (("URLs found", "urls"), ("distinct URLs", "distinct"),
                           ("invalid (RFC 1738)", "invalid")))
    parts = [
        "<!DOCTYPE html>",
        '<html lang="en"><head><meta charset="utf-8">',
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; "
        "style-src 'unsafe-inline'\">",
        f"<title>{escape(name)}</title><style>{_STYLE}</style></head><body>",
        f"<h1>{escape(name)}</h1>",
        f'<table class="summary" data-section="summary">{summary}</table>',
        "<h2>Schemes</h2>", _bars(schemes, "bar", "URLs by scheme"),
        _table("schemes", "scheme", schemes),
        f"<h2>Top {top} hosts</h2>", _bars(hosts, "bar", "URLs by host"),
        _table("hosts", "host", hosts),
        "<h2>Invalid URLs by problem code</h2>",
        _bars(problems, "bad", "invalid URLs by problem code"),
        _table("problems", "code", problems),
        "<h2>URLs per file</h2>", _bars(files, "bar", "URLs per file"),
        _table("files", "file", files),
        "<h2>URLs over time</h2>",
    ]
    if buckets:
        parts += [f"<p>{dated} of {report['urls']} URLs stand on a line (or in a message) with a "
                  f"timestamp; one bar per {size}, UTC.</p>",
                  _columns(buckets, "time", "URLs over time"), _table("timeline", "from", buckets)]
    else:
        parts.append("<p>No URL stands on a line with a timestamp (common or combined log "
                     "format, ISO 8601, syslog) or in a message with a Date.</p>")
    parts.append("</body></html>\n")
    return "\n".join(parts)
