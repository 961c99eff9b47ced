"""When the URLs of a log were written: the timestamp on each URL's line, for the
``stats --html`` chart of URLs over time.

The first timestamp of a line counts, in one of the forms logs write:

- common and combined log format (Apache, nginx): ``[10/Oct/2000:13:55:36 -0700]``;
- ISO 8601 / RFC 3339: ``2026-10-12T09:00:00Z``, ``2026-10-12 09:00:00,123 +02:00``
  (no offset: taken as UTC);
- syslog (RFC 3164): ``Oct 11 22:14:15``, which has no year: the latest year that does
  not put it in the future (as log readers guess it), and no zone: taken as UTC.

The input is read once: :class:`DatedStream` sees the octets as the scanner reads them
and keeps, for the lines not yet passed, where each run of lines of one minute begins.

>>> from datetime import datetime, timezone     # 13:55 at -0700 is 20:55 UTC
>>> utc = datetime(2000, 10, 10, 20, 55, tzinfo=timezone.utc).timestamp() // 60
>>> minute_of(b'1.2.3.4 - - [10/Oct/2000:13:55:36 -0700] "GET http://a/ HTTP/1.0"') == utc
True
>>> minute_of(b"2026-10-12T09:00:30Z GET http://a/") == minute_of(b"2026-10-12 11:00 +02:00")
True
>>> minute_of(b"no time here http://a/") is None
True
"""
from __future__ import annotations

import calendar
import re
import time
from collections import deque
from typing import IO, Optional

__all__ = ["DatedStream", "minute_of"]

_MONTHS = {m.encode(): i for i, m in enumerate(
    ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1)}
_MON = rb"(Jan|Feb|Mar|Apr|May|Jun|Jul|Aug|Sep|Oct|Nov|Dec)"
_ZONE = rb"(?:\s?(Z|[+-]\d\d:?\d\d))?"
_CLF = rb"\[(\d\d)/" + _MON + rb"/(\d{4}):(\d\d):(\d\d):(\d\d) ([+-]\d{4})\]"
_ISO = rb"(?<!\d)(\d{4})-(\d\d)-(\d\d)[T ](\d\d):(\d\d)(?::(\d\d)(?:[.,]\d+)?)?" + _ZONE
_SYSLOG = rb"(?<![\w])" + _MON + rb" ([ \d]\d) (\d\d):(\d\d):(\d\d)(?!\d)"
_ANY = re.compile(b"(?:" + _CLF + b")|(?:" + _ISO + b")|(?:" + _SYSLOG + b")")


def _offset_minutes(zone: Optional[bytes]) -> int:
    if not zone or zone == b"Z":
        return 0
    digits = zone[1:].replace(b":", b"")
    value = int(digits[:2]) * 60 + int(digits[2:])
    return -value if zone[:1] == b"-" else value


def _epoch_minute(year: int, month: int, day: int, hour: int, minute: int, shift: int) -> Optional[int]:
    if not (1 <= month <= 12 and 1 <= day <= 31 and hour < 24 and minute < 60):
        return None
    try:
        seconds = calendar.timegm((year, month, day, hour, minute, 0, 0, 0, 0))
    except (ValueError, OverflowError):
        return None
    return seconds // 60 - shift


def _syslog_year(month: int, day: int, now: float) -> int:
    """RFC 3164 writes no year: this year, unless that is in the future (then last year)."""
    today = time.gmtime(now)
    return today.tm_year if (month, day) <= (today.tm_mon, today.tm_mday) else today.tm_year - 1


def minute_of(line: bytes, now: Optional[float] = None) -> Optional[int]:
    """The first timestamp of ``line`` as minutes since 1970-01-01 UTC, or None."""
    m = _ANY.search(line)
    if m is None:
        return None
    g = m.groups()
    if g[0] is not None:                               # common log format
        return _epoch_minute(int(g[2]), _MONTHS[g[1]], int(g[0]), int(g[3]), int(g[4]),
                             _offset_minutes(g[6]))
    if g[7] is not None:                               # ISO 8601
        return _epoch_minute(int(g[7]), int(g[8]), int(g[9]), int(g[10]), int(g[11]),
                             _offset_minutes(g[13]))
    month, day = _MONTHS[g[14]], int(g[15])            # syslog
    year = _syslog_year(month, day, time.time() if now is None else now)
    return _epoch_minute(year, month, day, int(g[16]), int(g[17]), 0)


class DatedStream:
    """A binary stream read through: :meth:`minute_at` says the minute of the line that
    holds an offset of what was read (offsets asked in increasing order, as a scan
    gives its matches). Only the lines not yet asked about are remembered, one entry
    per change of minute, so memory stays that of the scanner's look-ahead."""

    def __init__(self, raw: IO[bytes]) -> None:
        self.raw = raw
        self.read_so_far = 0
        self.tail = b""                         # a line begun and not yet ended
        self.starts: deque[int] = deque()       # where a run of one minute begins
        self.minutes: deque[Optional[int]] = deque()

    def read(self, size: int = -1) -> bytes:
        data = self.raw.read(size)
        if data:
            self._lines(data)
        elif self.tail:
            self._line(self.read_so_far - len(self.tail), self.tail)
            self.tail = b""
        return data

    def _lines(self, data: bytes) -> None:
        base = self.read_so_far - len(self.tail)
        chunk = self.tail + data if self.tail else data
        self.read_so_far += len(data)
        start = 0
        while True:
            end = chunk.find(b"\n", start)
            if end < 0:
                break
            self._line(base + start, chunk[start:end])
            start = end + 1
        self.tail = chunk[start:]

    def _line(self, at: int, line: bytes) -> None:
        minute = minute_of(line)
        if not self.minutes or self.minutes[-1] != minute:
            self.starts.append(at)
            self.minutes.append(minute)

    def minute_at(self, offset: int) -> Optional[int]:
        """The minute of the line holding octet ``offset`` (None: no timestamp on it)."""
        while len(self.starts) > 1 and self.starts[1] <= offset:
            self.starts.popleft()
            self.minutes.popleft()
        if self.tail and offset >= self.read_so_far - len(self.tail):
            return minute_of(self.tail)    # its line is not read to its end yet
        if not self.starts or self.starts[0] > offset:
            return None
        return self.minutes[0]

    def close(self) -> None:
        self.raw.close()

    def readable(self) -> bool:
        return True
