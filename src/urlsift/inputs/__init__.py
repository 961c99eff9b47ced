"""Layer 5, inputs: a path becomes a stream (decompressed, standard input, a FIFO) and
is read as text or as mail — the one layer that knows both.

``kinds`` defines what an input holds (text, an mbox, a Maildir) and the rules that
tell; ``opening`` opens a path (compression by magic bytes, ``checked``: a cut or damaged
compressed input is one clear error); ``sniffing`` decides what it holds (text, an
mbox, a Maildir) for the command and the API alike; ``files`` runs the text layer or
the mail layer over it (``urlsift.extract_file``); ``tree`` lists the files of a
directory tree as ``grep -r`` and ``rg`` read them (``ignore``: .gitignore rules).
"""
from .checked import DamagedInputError, TruncatedInputError
from .files import (extract_file, iter_file_matches, iter_file_urls, iter_mail_urls, iter_messages,
                    iter_numbered_mail_urls,
                    mbox_match_lists, mbox_url_lines)
from .kinds import KINDS, MAIL_KINDS, MAILDIR, MBOX, TEXT, looks_like_mbox
from .opening import MissingDependency, compression_of, input_kind, is_plain_file, open_input
from .sniffing import Input, sniff_input
from .tree import WalkOptions, walk_tree

__all__ = ["KINDS", "MAIL_KINDS", "MAILDIR", "MBOX", "TEXT", "DamagedInputError", "Input", "MissingDependency", "TruncatedInputError", "WalkOptions",
           "compression_of", "extract_file", "input_kind", "is_plain_file", "iter_file_matches",
           "iter_file_urls", "iter_mail_urls", "iter_messages", "iter_numbered_mail_urls", "looks_like_mbox",
           "mbox_match_lists", "mbox_url_lines", "open_input", "sniff_input", "walk_tree"]
