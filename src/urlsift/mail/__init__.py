"""Layer 4, mail: the messages of a spool and the URLs in each of them.

``spool`` cuts an mbox stream into messages and lists a Maildir; ``html`` reads the
links of an HTML part; ``message`` decodes a message's parts and scans them with the
text layer (never the other way round). Opening a path, and choosing mail or text
for it, is the inputs layer's work (``urlsift.extract_file(path, mbox=True)``).

Importing this package loads the standard library's ``email`` (HTML is read by
``html``'s own linear tokenizer, not ``html.parser``): ``import urlsift`` does not,
it loads mail when a spool is read.
"""
from .message import URL_HEADERS, MailMatch, iter_message_urls, iter_spool_urls
from .spool import maildir_messages, mbox_messages

__all__ = ["URL_HEADERS", "MailMatch", "iter_message_urls", "iter_spool_urls",
           "maildir_messages", "mbox_messages"]
