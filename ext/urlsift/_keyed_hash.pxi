# Included by the cores that hash octets a sender or a log writer chose (_lines_c.pyx,
# _mail_c.pyx through _mail_trace.pxi): CPython's keyed hash of bytes (SipHash with the
# process's random key, as a dict's), so crafted collisions cost what they cost a dict.
# It reads no Python object: it runs without the GIL.

cdef extern from *:
    """
    #if PY_VERSION_HEX >= 0x030E0000
    #define urlsift_keyed_hash(p, n) Py_HashBuffer((p), (n))
    #else
    #define urlsift_keyed_hash(p, n) _Py_HashBytes((p), (n))
    #endif
    """
    Py_hash_t keyed_hash "urlsift_keyed_hash"(const void *p, Py_ssize_t n) nogil
