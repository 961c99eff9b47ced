# cython: language_level=3
"""Cython ``_guard`` core (built as ``urlsift._guard_c``); twin of ``src/urlsift/_guard_py.py``.

A mapped file that shrinks while it is read (logrotate's ``copytruncate`` does this to a
live log) turns every read past its new end into SIGBUS, which kills the interpreter.
``watch(mm)`` registers a mapping; a process-wide SIGBUS handler maps a page of zeros
over the page that faulted when the address lies inside a watched mapping, counts the
fault and returns, so the read that faulted reads zeros (no URL character) and the scan
goes on to the end of its piece. The reader then sees ``faults(token) > 0`` (or the
smaller size) and reports "file shrank while being read" with what it found before.
A fault anywhere else goes to the handler that was there before (faulthandler's, or
the default action: the process dies as it would have).
"""
from cpython.buffer cimport PyObject_GetBuffer, PyBuffer_Release, PyBUF_SIMPLE

cdef extern from *:
    """
    #include <signal.h>
    #include <stdint.h>
    #include <string.h>
    #include <sys/mman.h>
    #include <unistd.h>

    #define URLSIFT_WATCHED 64
    typedef struct { char *volatile start; volatile size_t len; volatile long faults; } urlsift_watch_t;
    static urlsift_watch_t urlsift_watched[URLSIFT_WATCHED];
    static struct sigaction urlsift_previous;
    static uintptr_t urlsift_page = 4096;

    static void urlsift_on_sigbus(int sig, siginfo_t *info, void *ctx) {
        char *addr = (char *)info->si_addr;
        int i;
        for (i = 0; i < URLSIFT_WATCHED; i++) {
            char *s = urlsift_watched[i].start;
            if (s != NULL && addr >= s && addr < s + urlsift_watched[i].len) {
                char *page = (char *)((uintptr_t)addr & ~(urlsift_page - 1));
                if (mmap(page, urlsift_page, PROT_READ, MAP_PRIVATE | MAP_ANONYMOUS | MAP_FIXED,
                         -1, 0) != MAP_FAILED) {
                    urlsift_watched[i].faults++;
                    return;             /* the read is done again, and reads zeros */
                }
                break;
            }
        }
        if (urlsift_previous.sa_flags & SA_SIGINFO) {
            if (urlsift_previous.sa_sigaction != NULL) {
                urlsift_previous.sa_sigaction(sig, info, ctx);
                return;
            }
        } else if (urlsift_previous.sa_handler != SIG_DFL && urlsift_previous.sa_handler != SIG_IGN) {
            urlsift_previous.sa_handler(sig);
            return;
        }
        signal(sig, SIG_DFL);           /* not ours: the fault repeats and ends the process */
    }

    /* Install the handler unless it is the one in place (something may have replaced
       it since: faulthandler.enable() does); what was there is called for other faults. */
    static int urlsift_install(void) {
        struct sigaction now, mine;
        if (sigaction(SIGBUS, NULL, &now) != 0) return -1;
        if ((now.sa_flags & SA_SIGINFO) && now.sa_sigaction == urlsift_on_sigbus) return 0;
        urlsift_page = (uintptr_t)sysconf(_SC_PAGESIZE);
        memset(&mine, 0, sizeof mine);
        mine.sa_sigaction = urlsift_on_sigbus;
        mine.sa_flags = SA_SIGINFO | SA_ONSTACK;
        sigemptyset(&mine.sa_mask);
        urlsift_previous = now;
        return sigaction(SIGBUS, &mine, NULL);
    }

    static int urlsift_watch(char *start, size_t len) {
        int i;
        for (i = 0; i < URLSIFT_WATCHED; i++) {
            if (urlsift_watched[i].start == NULL) {
                urlsift_watched[i].len = len;
                urlsift_watched[i].faults = 0;
                urlsift_watched[i].start = start;   /* last: the handler reads start first */
                return i + 1;
            }
        }
        return 0;                       /* all slots taken: unguarded, still size-checked */
    }

    static long urlsift_faults(int token) {
        return (token >= 1 && token <= URLSIFT_WATCHED) ? urlsift_watched[token - 1].faults : 0;
    }

    static void urlsift_unwatch(int token) {
        if (token >= 1 && token <= URLSIFT_WATCHED) {
            urlsift_watched[token - 1].start = NULL;
            urlsift_watched[token - 1].len = 0;
        }
    }
    """
    int urlsift_install()
    int urlsift_watch(char *start, size_t length)
    long urlsift_faults(int token)
    void urlsift_unwatch(int token)


#: True: a mapped read of a watched file survives the file shrinking (see the module doc).
GUARDS = True


def watch(mm):
    """Guard the mapping ``mm`` (an mmap, or any buffer over one) against SIGBUS; a token
    for :func:`faults` and :func:`unwatch` (0: not guarded, all slots in use)."""
    cdef Py_buffer view
    PyObject_GetBuffer(mm, &view, PyBUF_SIMPLE)
    cdef char *start = <char *>view.buf
    cdef Py_ssize_t n = view.len
    PyBuffer_Release(&view)            # held no longer: the mmap must stay closable
    if n <= 0:
        return 0
    if urlsift_install() != 0:
        raise OSError("cannot install the SIGBUS guard")
    return urlsift_watch(start, <size_t>n)


def faults(int token):
    """How many reads of the watched mapping faulted (and read zeros) so far."""
    return urlsift_faults(token)


def unwatch(int token):
    """Stop guarding (call before the mapping is closed)."""
    urlsift_unwatch(token)
