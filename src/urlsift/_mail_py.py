"""Pure-Python twin of ``urlsift._mail_c``: the mail walker, on the bytes of a spool.

:func:`walk` takes a stretch of an mbox that holds whole messages and gives back, for
all of them at once, the text to scan and where each piece of it came from, without
building an ``email.message.Message``. This module gathers the walker's rooms, each
paired file for file with a ``.pxi`` of the compiled twin:

========================  ======================  ==============================================
twin                      compiled                what it holds
========================  ======================  ==============================================
``_mail_records``         ``_mail_records.pxi``   record fields, kinds, flags, octets by name
                                                  (generated from ``_layout``)
``_mail_walker_py``       ``_mail_walker.pxi``    the walker's state and output, line helpers
``_mail_cut_py``          ``_mail_cut.pxi``       ``walk``: the spool cut into messages (RFC 4155)
``_mail_headers_py``      ``_mail_headers.pxi``   header fields (RFC 5322 section 2.2),
                                                  Content-Type parameters (RFC 2045 section 5.1)
``_mail_mime_py``         ``_mail_mime.pxi``      entities and multiparts (RFC 2046 section
                                                  5.1), text parts laid out
``_mail_decode_py``       ``_mail_decode.pxi``    quoted-printable, base64 (RFC 2045 section 6)
``_mail_html_py``         ``_mail_html.pxi``      the HTML reader: URL attributes, text runs
``_mail_values_py``       ``_mail_values.pxi``    an attribute's URLs: one, a srcset's, a
                                                  ping's, CSS url() and @import strings
``_mail_trace_py``        ``_mail_trace.pxi``     matches traced back to messages
``_mail_pipe_py``         ``_mail_pipe.pxi``      the walk and scan, piece after piece
========================  ======================  ==============================================

Anything the walk does not understand exactly as ``email`` would (``message/*``
parts, RFC 2231 parameters, 8-bit or control octets in the headers it uses, a bare
CR, a charset not in the caller's list, an odd base64 body, malformed HTML,
``<base href>``...) marks the message ``FALLBACK``: the caller walks that one message
with the standard library. The result is the same either way; the walk is faster.
Which charsets are read without decoding (``urlsift.mail.walk.CHARSETS``), which links
are the same (``urlsift.mail.anchors.same_link``) and how a Date not in its one fixed
form is shown are the mail layer's rules, handed down.

Output (``walk`` returns ``(out, segs, msgs, names)``):

- ``out``: the scan text, segments one after another, a NUL octet after each part
  (no URL, wrapper or line join crosses a NUL);
- ``segs``: :data:`SEG` integers per segment, ``msgs``: :data:`MSG` per message, their
  fields named in ``_mail_records`` (``SEG_START``, ``MSG_FLAGS``...; one definition,
  ``_layout.MAIL_SEGMENT`` and ``MAIL_MESSAGE``);
- ``names``: the labels (``1.2 text/plain``, ``header:List-Post``) the segments point to.

>>> spool = b"From a\\nMessage-ID: <1@x>\\n\\nsee http://a.example/\\n"
>>> HEADERS = b"List-Post\\0"     # the URL-bearing headers, NUL-terminated (the mail layer's)
>>> out, segs, msgs, names = walk(spool, 0, len(spool), HEADERS, b"us-ascii\\0", 8, None)
>>> bytes(out), bytes(names)
(b'see http://a.example/\\n\\x00', b'1 text/plain')
>>> list(msgs)    # From line at 0, data 7..48, Message-ID value 19..24, no Date
[0, 7, 48, 19, 24, -1, -1, 0]
>>> list(segs)    # message 0, out[0:22] is spool[26:48], a text part labelled names[0:12]
[0, 0, 22, 26, 1, 0, 12, 0, -1]
"""
from __future__ import annotations

from ._mail_cut_py import walk
from ._mail_decode_py import decode_base64, decode_qp
from ._mail_headers_py import QUOTED_SEMICOLONS, iso_date, mechanism
from ._mail_pipe_py import MailPipeline
from ._mail_records import FALLBACK, K_HEADER, K_HREF, K_HTML_TEXT, K_SRC, K_TEXT, MSG, SEG
from ._mail_trace_py import PART_SUFFIX, Tracing, anchor_runs, heads, trace, url_triples
from ._mail_walker_py import LABEL_CACHE

__all__ = ["walk", "SEG", "MSG", "K_HEADER", "K_TEXT", "K_HTML_TEXT", "K_HREF", "K_SRC",
           "FALLBACK", "Tracing", "trace", "iso_date", "decode_qp", "decode_base64", "mechanism",
           "QUOTED_SEMICOLONS", "PART_SUFFIX",
           "LABEL_CACHE", "url_triples", "heads", "anchor_runs",
           "MailPipeline"]
