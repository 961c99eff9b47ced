"""Layer 5, inputs: a path becomes a stream (decompressed, standard input, a FIFO) and
is read as text or as mail — the one layer that knows both.

``opening`` opens a path and sniffs it (compression by magic bytes, mbox, Maildir);
``files`` runs the text layer or the mail layer over it (``urlsift.extract_file``);
``tree`` lists the files of a directory tree as ``grep -r`` reads them.
"""
from .files import (extract_file, iter_file_matches, iter_file_urls, iter_mail_urls, iter_messages,
                    mbox_match_lists, mbox_url_lines)
from .opening import MissingDependency, compression_of, input_kind, is_plain_file, open_input
from .tree import walk_tree

__all__ = ["MissingDependency", "compression_of", "extract_file", "input_kind",
           "is_plain_file", "iter_file_matches", "iter_file_urls", "iter_mail_urls",
           "iter_messages", "mbox_match_lists", "mbox_url_lines", "open_input", "walk_tree"]
