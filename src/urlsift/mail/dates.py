"""A message's ``Date`` as an instant: the ``date`` of a :class:`~urlsift.mail.MailMatch`
(ISO 8601 text with the header's own offset, as ``iso_date`` writes it) as a UTC
timestamp, for the outputs that hold times as times (Parquet, Dask).

RFC 5322 §3.3: a date-time names an instant by its zone offset; ``-0000`` says the time
is UTC and the sender's local zone unknown, which ``iso_date`` writes without an offset,
so a time without one is read as UTC. A ``Date`` that did not parse (kept as written in
the text outputs) has no instant: None.

>>> date_instant("2026-10-12T10:15:00+02:00"), date_instant("2026-10-12T10:15:00")
(datetime.datetime(2026, 10, 12, 8, 15, tzinfo=datetime.timezone.utc), datetime.datetime(2026, 10, 12, 10, 15, tzinfo=datetime.timezone.utc))
>>> date_instant("yesterday"), date_instant(None)
(None, None)
"""
from __future__ import annotations

from datetime import datetime, timezone
from typing import Optional

__all__ = ["date_instant"]


def date_instant(text: Optional[str]) -> Optional[datetime]:
    """The UTC instant of the ISO 8601 ``text`` (no offset: UTC), None when it is none."""
    if not text:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        return None
    if when.tzinfo is None:
        when = when.replace(tzinfo=timezone.utc)
    return when.astimezone(timezone.utc)
