"""Layer 2, the URL model: what a URL is, part by part, and what its scheme means.

Bottom to top: ``ports`` and ``tokens`` (the tokenizer's answer, named), ``problems``
(codes and messages), ``equivalence`` and ``partial`` (the drafts' comparison and
relative forms), ``security`` (RFC 1738 §6 notes), ``url`` (the base objects),
``schemes`` (one class per scheme family), ``registry`` (scheme name -> class, the
core's Config), ``parsing`` (parse, check, is_valid, validate_many). Each module
imports only the ones before it and the core (layer 1) below.
"""
