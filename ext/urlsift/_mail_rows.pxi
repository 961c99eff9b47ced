# Included by _mail_c.pyx, last: what the rows of a table need of a walked piece without
# a MailMatch per URL (twin: _mail_trace_py.py): the messages' Message-ID and Date, as
# the trace shows them. (The link texts that are their href: _records' without_same_urls;
# here, among the walk's code, that function made the trace 2-3% slower.)
def heads(piece, msgs, id_of, date_of):
    """See ``urlsift._mail_trace_py.heads``."""
    cdef const unsigned char[::1] pv = piece
    cdef const int64_t[::1] ms = msgs
    cdef cbuf d = &pv[0] if pv.shape[0] else <cbuf>b""
    cdef Py_ssize_t i, n = pv.shape[0]
    cdef const int64_t *m
    cdef list out = []
    for i in range(ms.shape[0] // NMSG):
        m = &ms[i * NMSG]
        if m[MSG_FLAGS] & C_FALLBACK:
            out.append(None)
            continue
        if not ((m[MSG_ID_START] < 0 or 0 <= m[MSG_ID_START] <= m[MSG_ID_END] <= n) and
                (m[MSG_DATE_START] < 0 or 0 <= m[MSG_DATE_START] <= m[MSG_DATE_END] <= n)):
            raise ValueError(f"message {i}: its Message-ID or Date past the piece")
        out.append(_head(d, m, id_of, date_of))
    return out
