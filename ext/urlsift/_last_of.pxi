# Included by the cores that look back for the last of two octets (_scan_c.pyx: a QP
# line's start, after LF or NUL; _mail_c.pyx through _mail_mime.pxi: a text line's last
# "<" or ">"): glibc's memrchr, 16 or more octets at a time, where there is one; else an
# octet at a time. One definition for both.

cdef extern from *:
    """
    #include <string.h>
    /* The offset of the last octet a or b in d[lo, e), or -1. */
    static Py_ssize_t urlsift_last_of(const unsigned char *d, Py_ssize_t lo, Py_ssize_t e,
                                      unsigned char a, unsigned char b) {
        if (e <= lo) return -1;
    #if defined(__GLIBC__)
        {
            const unsigned char *x = memrchr(d + lo, a, (size_t)(e - lo));
            const unsigned char *y = memrchr(d + lo, b, (size_t)(e - lo));
            if (x == NULL) return y == NULL ? -1 : y - d;
            return y == NULL || x > y ? x - d : y - d;
        }
    #else
        while (e > lo) {
            e--;
            if (d[e] == a || d[e] == b) return e;
        }
        return -1;
    #endif
    }
    """
    Py_ssize_t last_of "urlsift_last_of" (const unsigned char *d, Py_ssize_t lo,
                                          Py_ssize_t e, unsigned char a,
                                          unsigned char b) noexcept nogil
