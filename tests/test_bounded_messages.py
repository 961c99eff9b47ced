"""A URL with n problems costs n bounded messages, not n quotes of the whole URL.

A hostile log line (``'http://a.example/' + '%zz' * 20000``) once made ``check`` build
20 000 messages of 60 KB each (O(n²) time and memory). Each message now quotes at most
``EXCERPT`` characters around the problem, with ``...`` where it was cut.
"""
from __future__ import annotations

import urlsift
from urlsift.model.problems import EXCERPT, excerpt

BOUND = EXCERPT + 200     # the excerpt plus the fixed words of the longest template


def test_every_bad_escape_is_reported_with_a_bounded_message():
    n = 20000
    url = "http://a.example/" + "%zz" * n
    problems = urlsift.check(url)
    assert [p.position for p in problems] == [17 + 3 * k for k in range(n)]
    assert {p.code for p in problems} == {"bad-escape"}
    assert max(len(p.message) for p in problems) <= BOUND
    # the message still says which escape, and shows the text around it
    last = problems[-1].message
    assert "'%zz'" in last and "..." in last


def test_lenient_problems_and_warnings_are_bounded_too():
    u = urlsift.parse("http://a.example/" + " " * 30000, strict=False)
    assert len(u.problems) == 30000
    assert max(len(p.message) for p in u.problems) <= BOUND
    w = urlsift.parse("gopher://h/1" + "%0D" * 30000).warnings
    assert len(w) == 30000 and {x.code for x in w} == {"encoded-delimiter"}
    assert max(len(x.message) for x in w) <= BOUND


def test_short_texts_are_quoted_whole():
    # the usual case is unchanged: the whole part, as repr shows it
    assert excerpt("http://h/a b", 9, 12, 10) == "'a b'"
    p = urlsift.check("http://h/a b")[0]
    assert "'/a b'" in p.message


def test_the_excerpt_is_centred_on_the_problem_and_marks_both_cuts():
    text = "x" * 100 + "!" + "y" * 100
    got = excerpt(text, 0, len(text), 100)
    assert got.startswith("...'") and got.endswith("'...")
    inner = got[4:-4]
    assert len(inner) == EXCERPT and "!" in inner
