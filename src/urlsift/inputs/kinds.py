"""What an input holds — its kind — defined once, with the rules that decide it: the
API (``urlsift.extract_file``), the command and Dask all read these names and call
these functions (the kind is a plain string, so ``Input.kind == "mbox"`` still holds).

* :data:`MAILDIR`: a directory with ``cur/`` and ``new/`` (:func:`is_maildir`);
  any other directory is :data:`DIRECTORY`, which no reader takes.
* :data:`MBOX`: the first octets of the (decompressed) input are ``From `` at the very
  start or right after a UTF-8 byte-order mark (:func:`looks_like_mbox`).
* :data:`TEXT`: anything else.

``mbox=True`` or ``False`` (the command's ``--mbox``/``--no-mbox``) decides between
the last two without looking (:func:`file_kind`).

>>> file_kind(b"From a@b Mon Jan  1 00:00:00 2024\\n"), file_kind(b"From: a@b\\n")
('mbox', 'text')
>>> file_kind(b"anything", mbox=True), MAIL_KINDS == {MBOX, MAILDIR}
('mbox', True)
"""
from __future__ import annotations

import os
from typing import Callable, Literal, Optional

from .._layout import FROM_LINE
from ..text.bom import bom_length

__all__ = ["DIRECTORY", "KINDS", "Kind", "MAILDIR", "MAIL_KINDS", "MBOX", "TEXT", "file_kind",
           "is_maildir", "looks_like_mbox"]

#: Plain text (logs, HTML, JSON...): scanned as it stands.
TEXT = "text"
#: An mbox spool (RFC 4155): messages cut at their ``From `` lines, read as mail.
MBOX = "mbox"
#: A Maildir: the message files of its ``cur/`` and ``new/``, read as mail.
MAILDIR = "maildir"
#: A directory that is no Maildir (what :func:`urlsift.inputs.input_kind` says of it).
DIRECTORY = "directory"

#: The kinds an input read by urlsift has.
Kind = Literal["text", "mbox", "maildir"]
KINDS: tuple[str, ...] = (TEXT, MBOX, MAILDIR)
#: The kinds read as mail (the mail layer), not as text.
MAIL_KINDS = frozenset({MBOX, MAILDIR})


def looks_like_mbox(head: bytes) -> bool:
    """The first octets of a (decompressed) input are those of an mbox: ``From `` at
    the very start, or right after a UTF-8 byte-order mark.

    >>> looks_like_mbox(b"From a@b Mon"), looks_like_mbox(b"\\xef\\xbb\\xbfFrom a"), looks_like_mbox(b"From: a")
    (True, True, False)
    """
    skip = bom_length(head)
    return head[skip:skip + len(FROM_LINE)] == FROM_LINE


def file_kind(head: Optional[bytes], mbox: Optional[bool] = None) -> str:
    """:data:`MBOX` or :data:`TEXT` for a file whose first octets (decompressed) are
    ``head``; ``mbox`` True or False decides instead (``head`` is then not looked at).

    >>> file_kind(b"\\xef\\xbb\\xbfFrom a\\n"), file_kind(b"From a\\n", mbox=False)
    ('mbox', 'text')
    """
    if mbox is not None:
        return MBOX if mbox else TEXT
    return MBOX if head is not None and looks_like_mbox(head) else TEXT


def is_maildir(path: str, isdir: Callable[[str], bool] = os.path.isdir) -> bool:
    """``path`` (a directory) holds ``cur/`` and ``new/``: a Maildir. ``isdir`` asks
    the file system (a Dask worker's ``fs.isdir``; by default the local one).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as top:
    ...     before = is_maildir(top)
    ...     for sub in ("cur", "new"):
    ...         os.mkdir(os.path.join(top, sub))
    ...     [before, is_maildir(top)]
    [False, True]
    """
    return isdir(f"{path}/cur") and isdir(f"{path}/new")
