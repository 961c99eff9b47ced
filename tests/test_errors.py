"""URLSyntaxError: what a caller can rely on (code, position, lazy message, args, pickling)."""
from __future__ import annotations

import copy
import pickle

import pytest

from urlsift.errors import URLSyntaxError
from urlsift.model.parsing import parse


def test_fields_and_args():
    err = URLSyntaxError("bad-escape", 3, "malformed escape '%zz'", "abc%zz")
    assert (err.code, err.position, err.message, err.text) == (
        "bad-escape", 3, "malformed escape '%zz'", "abc%zz")
    assert err.args == ("bad-escape", 3)          # as ValueError(code, position)
    assert isinstance(err, ValueError)


def test_message_function_runs_once_and_only_when_read():
    calls = []

    def msg() -> str:
        calls.append(1)
        return "late"
    err = URLSyntaxError("bad-port", 9, msg)
    assert calls == []
    assert str(err) == "late at position 9 (bad-port)"
    assert err.message == "late" and calls == [1]


def test_pickle_and_copy_keep_everything():
    with pytest.raises(URLSyntaxError) as info:
        parse("http://h:x/")                      # RFC 1738 §3.1: port = digits
    err = info.value
    for twin in (pickle.loads(pickle.dumps(err)), copy.copy(err)):
        assert type(twin) is URLSyntaxError
        assert (twin.code, twin.position, twin.message, twin.text, twin.args) == (
            "bad-port", 9, err.message, "http://h:x/", ("bad-port", 9))


def test_other_attributes_can_still_be_set():
    err = URLSyntaxError("bad-host", 7, "m")
    err.note = "kept"                             # exceptions keep a __dict__
    assert err.note == "kept"


def test_leading_white_space_is_named_as_such():
    # RFC 1738 section 2.1: a URL starts with its scheme; " http://a/" has one, behind
    # a blank, so the message says that (the code stays missing-scheme)
    with pytest.raises(URLSyntaxError) as info:
        parse(" http://a.example/")
    assert info.value.code == "missing-scheme" and info.value.position == 0
    assert str(info.value).startswith("leading white space: ' http://a.example/' starts with ' '")
    with pytest.raises(URLSyntaxError, match="^no scheme: 'abc'"):
        parse("abc")
