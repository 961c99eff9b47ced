"""Fuzz target: the HTML tokenizer of the mail reader (``urlsift._html_py.html_runs`` and
its compiled twin ``_html_c``).

Asserts: both twins give the same records and problems (or raise alike); every record
is a span of the input, the records come in the order of their spans' starts within
one tag, and a text run's span never overlaps another text run's; a record with nothing
decoded means its span as written.

An anchor record (``<a>``/``</a>``) is the span of a tag: it starts with ``<`` and ends
after ``>``, and means its octets.

Input: one choice byte (bit 0: every attribute, not only the URL ones; bit 1: anchor
records), then the HTML.
"""
from __future__ import annotations

import _common
from _common import Input, ok, on_twins, require


def TestOneInput(data: bytes) -> None:  # noqa: N802 - atheris's name
    inp = Input(data)
    choice = inp.byte()
    every, anchors = bool(choice & 1), bool(choice & 2)
    html = inp.rest()
    result = on_twins("_html", "html_runs", html, every, "data", b"", anchors)
    if not ok(result):
        return
    records, problems = result[1]
    last_text_end = 0
    for field, start, end, decoded in records:
        require(0 <= start <= end <= len(html), "a span outside the input", html, records)
        require(decoded is None or isinstance(decoded, bytes), "decoded", decoded)
        if field in (18, 19):
            require(anchors and decoded is None and html[start:start + 1] == b"<"
                    and html[end - 1:end] == b">", "anchor record", html, records)
        if field in (0, 16):
            require(start >= last_text_end, "text runs overlap", html, records)
            last_text_end = end
    for offset, code in problems:
        require(0 <= offset < len(html) and code.startswith("eof-in-"), "problem", problems)


if __name__ == "__main__":
    _common.main(TestOneInput)
