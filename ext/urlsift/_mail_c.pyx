"""The mail walker on the bytes of a spool: the compiled twin of ``urlsift._mail_py``.

Same input, same output, same rules; see that module for what the walk does and
what it leaves to the standard library (the ``FALLBACK`` flag), and for its rooms: each
``_mail_ROOM_py.py`` of the twin is a ``_mail_ROOM.pxi`` included here (one extension
module, so every call between rooms is a direct C call). Here the walk runs without
the GIL over a ``const unsigned char *`` and the output grows in C buffers;
quoted-printable and base64 are decoded in C as ``binascii`` decodes them. Python is
called (with the GIL) only to undo an HTML character reference past the few that mail
is full of (``unescape``, given by the caller).
"""
cimport cython
from cpython cimport array as carray
from cpython.bytes cimport PyBytes_FromStringAndSize
from cpython.unicode cimport PyUnicode_DecodeASCII
from cpython.pythread cimport (PyThread_type_lock, PyThread_allocate_lock, PyThread_free_lock,
                               PyThread_acquire_lock, PyThread_release_lock, WAIT_LOCK,
                               NOWAIT_LOCK)
from cpython.bytearray cimport PyByteArray_FromStringAndSize
from libc.stdint cimport int64_t, uint8_t, uint64_t
from libc.stdlib cimport calloc, free, realloc
from libc.string cimport memchr, memcmp, memcpy, memset

from urlsift._build_c cimport edits_index, encoded, triple_octets, triple_raw, triple_url
from urlsift._scan_c cimport Out, known_ptr, scan_octets, table_ptr

import threading
from array import array

__all__ = ["walk", "SEG", "MSG", "K_HEADER", "K_TEXT", "K_HTML_TEXT", "K_HREF", "K_SRC",
           "FALLBACK", "Tracing", "trace", "iso_date", "decode_qp", "decode_base64", "mechanism",
           "QUOTED_SEMICOLONS", "PART_SUFFIX",
           "LABEL_CACHE", "url_triples", "heads", "anchor_runs",
           "MailPipeline"]

from urlsift._mail_records import FALLBACK, K_HEADER, K_HREF, K_HTML_TEXT, K_SRC, K_TEXT, MSG, SEG
from urlsift._mail_html_py import legacy_in_value as _legacy_in_value
from urlsift._mail_trace_py import KEYS as _KEYS, PART_SUFFIX, Tracing
from urlsift._mail_walker_py import LABEL_CACHE
from urlsift._scan_py import HYPHEN_BREAK as _HYPHEN_BREAK, WRAPPED as _WRAPPED, N_EDITS

include "_mail_records.pxi"

cdef enum:
    FB = 1          # "fall back": returned up the calls, the message goes to email
    NRECENT = 16    # labels looked up before one is written again (LABEL_CACHE)
    SECTION_MAX = 480   # the longest section ("1.2.3") of a nested part

cdef int WRAPPED = _WRAPPED
cdef int HYPHEN_BREAK = _HYPHEN_BREAK
cdef int64_t KEYS = _KEYS        # a part label's key: its offset times this, plus the kind
assert LABEL_CACHE == NRECENT

ctypedef const unsigned char *cbuf

include "_mail_walker.pxi"
include "_mail_decode.pxi"
include "_mail_headers.pxi"
include "_mail_values.pxi"
include "_mail_html.pxi"
include "_mail_mime.pxi"
include "_mail_cut.pxi"
include "_mail_trace.pxi"
include "_mail_pipe.pxi"
include "_mail_rows.pxi"
