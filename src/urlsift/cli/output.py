"""Writers for ``urlsift extract``: text, JSON lines and CSV (Parquet: :mod:`.parquet`).

A writer gets whole batches of records (dicts, or bare URL strings on the fast path)
and writes each batch with one call, so the cost per URL stays a string join.
"""
from __future__ import annotations

import io
import sys
from typing import IO, Any, Callable, Sequence

from ..text.sinks import F_LINE, F_OFFSET, F_URL, LayoutLines, UrlLines
from .grepstyle import core_layout, line_template
from ..model.parts import (CHECK_COLUMNS, PART_COLUMNS, checks_getter, parts_getter,
                           plain_value, utf8_text)

__all__ = ["DETAIL_COLUMNS", "PART_COLUMNS", "checks_getter", "json_string", "parts_getter", "plain_value", "reconfigure_stdout",
           "utf8_text"]


#: ``--details``: what a user filters on (docs/cli.md): strict validity and the problem
#: codes of the URL, and how it was found (over lines, a hyphen taken out, the edits).
DETAIL_COLUMNS: tuple[str, ...] = (*CHECK_COLUMNS, "wrapped", "hyphen_break", "edits")


class Writer:
    """Base writer: ``columns`` is the record layout (``["url"]`` alone: bare strings)."""

    def __init__(self, out: IO[str], columns: Sequence[str]) -> None:
        self.out = out
        self.columns = list(columns)

    def write(self, batch: Sequence[Any]) -> None:
        raise NotImplementedError

    def core_sink(self, name: str, columns: Sequence[str]) -> Any:
        """The sink (:mod:`urlsift.text.sinks`) that makes this writer's lines of the
        file ``name`` in the core, the ``columns`` among url, file, line and offset; None
        when this format is not written so (the records go to :meth:`write`)."""
        return None

    def write_lines(self, data: bytes) -> None:
        """UTF-8 lines already made (the plain fast path): straight to the bytes layer."""
        buffer = getattr(self.out, "buffer", None)
        if buffer is None:
            self.out.write(data.decode("utf-8"))
            return
        self.out.flush()   # keep the order with what went through the text layer
        buffer.write(data)

    def close(self) -> None:
        self.out.flush()
        if self.out is not sys.stdout:
            self.out.close()


class TextWriter(Writer):
    """One URL a line; ``count`` (``uniq -c`` style) and the position fields
    (:func:`~urlsift.cli.grepstyle.line_template`: ``FILE:LINE:OFFSET:``, mail
    ``FILE:OFFSET:MESSAGE-ID:``) in front when asked for; the mail part, ``--details``
    and ``--parts`` after a tab. Mail fields without ``--with-position`` are for
    jsonl/csv. :meth:`style` sets ``-0`` and colors."""

    def __init__(self, out: IO[str], columns: Sequence[str]) -> None:
        super().__init__(out, columns)
        self.style()

    def style(self, *, null: bool = False, color: bool = False) -> None:
        """``-0`` (a NUL after the file name) and ``--color`` (SGR sequences)."""
        self.template = line_template(self.columns, null=null, color=color)
        self.plain = self.columns == ["url"] and not color
        self.null, self.color = null, color

    def core_sink(self, name: str, columns: Sequence[str]) -> Any:
        if list(columns) == ["url"] and not self.color:
            return UrlLines()
        template = line_template(columns, null=self.null, color=self.color)
        return LayoutLines(core_layout(template, name))

    def write(self, batch: Sequence[Any]) -> None:
        if not batch:
            return
        if self.plain:
            self.out.write("\n".join(batch))
            self.out.write("\n")
            return
        if self.columns == ["url"]:
            batch = [{"url": u} for u in batch]
        self.out.write("".join(self._line(r) for r in batch))

    def _line(self, r: dict) -> str:
        head = f"{r['count']:7d} " if "count" in r else ""
        body = "".join(text if kind == "lit" else _s(r.get(text)) for kind, text in self.template)
        tail = []
        if "part" in r and "file" in r:
            tail.append(_s(r["part"]))
            if r.get("file_offset") is not None:
                tail.append(f"file_offset={r['file_offset']}")
        for name in DETAIL_COLUMNS:
            if name in r:
                tail.append(f"{name}={_csv_cell(r[name])}")
        for name in PART_COLUMNS:
            if r.get(name) is not None:
                tail.append(f"{name}={r[name]}")
        return head + body + ("\t" + "\t".join(tail) if tail else "") + "\n"


def _s(value: Any) -> str:
    return "" if value is None else str(value)


def _encoder() -> Any:
    import json
    return json.JSONEncoder(ensure_ascii=False, separators=(", ", ": ")).encode


def json_string(text: str) -> str:
    """``text`` as a JSON string, as :class:`JsonlWriter` writes it.

    >>> json_string('a"b')
    '"a\\\\"b"'
    """
    return str(_encoder()(text))


#: Stand-ins for the fields of a line laid out in the core (``core_sink`` of
#: :class:`JsonlWriter`, :class:`CsvWriter`): the writer's own encoder writes a record
#: of these, and the layout is what it wrote around them (:func:`_core_lines`).
_FIELD_MARKS = {"url": ("\x00url", F_URL), "line": ("\x00line", F_LINE),
                "offset": ("\x00offset", F_OFFSET)}


def _core_lines(line: str, marks: Sequence[tuple[str, int, str]],
                field: Callable[[str], str]) -> LayoutLines:
    """The sink that lays out lines in the core as ``line`` is laid out: ``line`` is what
    a writer's encoder wrote of a record holding marks where the fields go, each of
    ``marks`` ``(the mark as written, its field, what of it stays around the field)``
    (a JSON string's quotes). ``field``: a URL as the encoder writes it in its field;
    the octets it does not write as they are stop the core (a batch holding one is
    laid out from its matches, with ``field``).

    >>> sink = _core_lines("<@u>\\n", [("@u", F_URL, "")], lambda u: u.replace("|", "||"))
    >>> sink.layout, sink.url_text("a|b"), sink.stop[ord("|")], sink.stop[ord("a")]
    ((b'<', 0, b'>\\n'), b'a||b', 1, 0)
    """
    layout: list = []
    for written, item, quote in marks:
        head, _, line = line.partition(written)
        layout += [(head + quote).encode("utf-8"), item]
        line = quote + line
    layout.append(line.encode("utf-8"))
    stop = bytes(c < 128 and field(chr(c)) != chr(c) for c in range(256))
    return LayoutLines(tuple(i for i in layout if i != b""), stop,
                       lambda url: field(url).encode("utf-8"))


class JsonlWriter(Writer):
    """One JSON object a line (RFC 8259), written by one encoder: the records given to
    :meth:`write`, and the layout of the lines the core makes (:meth:`core_sink`)."""

    def core_sink(self, name: str, columns: Sequence[str]) -> Any:
        dumps = _encoder()
        record = {c: _FIELD_MARKS[c][0] if c in _FIELD_MARKS else plain_value(name)
                  for c in columns}
        # a URL inside its JSON string (quotes kept), a number in place of its string;
        # the encoder escapes '"', '\\' and the controls (RFC 8259 §7)
        marks = [(dumps(_FIELD_MARKS[c][0]), _FIELD_MARKS[c][1], '"' if c == "url" else "")
                 for c in columns if c in _FIELD_MARKS]
        return _core_lines(dumps(record) + "\n", marks, lambda url: dumps(url)[1:-1])

    def write(self, batch: Sequence[Any]) -> None:
        if not batch:
            return
        dumps = _encoder()
        if self.columns == ["url"]:
            joined = "".join(batch)
            plain = joined.isascii() and joined.isprintable()
            if plain and '"' not in joined and "\\" not in joined:
                # nothing to escape in the whole batch: JSON strings are the URLs quoted
                self.out.write('{"url": "' + '"}\n{"url": "'.join(batch) + '"}\n')
            else:
                self.out.write("".join('{"url": %s}\n' % dumps(u) for u in batch))
        else:
            self.out.write("".join(dumps(r) + "\n" for r in batch))


class CsvWriter(Writer):
    """Comma-separated values (RFC 4180, as Python's ``csv`` writes them: a field quoted
    when it holds a comma, a quote or a line end), a header row first, written by one
    ``csv`` writer: the records given to :meth:`write`, and the layout of the lines the
    core makes (:meth:`core_sink`)."""

    def __init__(self, out: IO[str], columns: Sequence[str]) -> None:
        super().__init__(out, columns)
        self._buf = io.StringIO()
        self._csv = _csv_writer(self._buf)
        self._csv.writerow(self.columns)
        self._flush()                  # the header before any line the core makes

    def core_sink(self, name: str, columns: Sequence[str]) -> Any:
        record = [_FIELD_MARKS[c][0] if c in _FIELD_MARKS else _csv_cell(plain_value(name))
                  for c in columns]
        marks = [(_FIELD_MARKS[c][0], _FIELD_MARKS[c][1], "") for c in columns
                 if c in _FIELD_MARKS]
        return _core_lines(self._row(record), marks, lambda url: self._row([url])[:-1])

    def write(self, batch: Sequence[Any]) -> None:
        if self.columns == ["url"]:
            self._csv.writerows((u,) for u in batch)
        else:
            cols = self.columns
            self._csv.writerows([_csv_cell(r.get(c)) for c in cols] for r in batch)
        self._flush()

    def _row(self, fields: list) -> str:
        """One row as this writer writes it."""
        self._csv.writerow(fields)
        row = self._buf.getvalue()
        self._buf.seek(0)
        self._buf.truncate()
        return row

    def _flush(self) -> None:
        self.out.write(self._buf.getvalue())
        self._buf.seek(0)
        self._buf.truncate()

    def close(self) -> None:
        self._flush()
        super().close()


def _csv_writer(buf: IO[str]) -> Any:
    import csv
    return csv.writer(buf, lineterminator="\n")


def _csv_cell(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list):       # problem codes, edits: no code holds a space
        return " ".join(value)
    return value


def reconfigure_stdout(errors: str) -> None:
    """UTF-8 on stdout with ``errors`` (a replaced stdout, as under doctest, is left alone)."""
    if hasattr(sys.stdout, "reconfigure"):
        sys.stdout.reconfigure(encoding="utf-8", errors=errors)
