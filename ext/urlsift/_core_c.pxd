# Declares the tokenizer walk so Cython exports it (``__pyx_capi__``) for the
# ``_check`` core, which fetches the pointer at import. Behaviour is unchanged.
cdef void tokenize_into(int kind, void *data, Py_ssize_t n, Py_ssize_t *r) noexcept nogil
