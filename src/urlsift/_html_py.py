"""The HTML tokenizer a URL finder needs (twin of ``ext/urlsift/_html_c.pyx``).

A state machine with the states of the WHATWG HTML Living Standard, §13.2.5
"Tokenization" (the constants below carry their names), run over the octets of an HTML
part (its transfer encoding undone, UTF-8 or any ASCII-compatible charset: every
character the machine looks at is ASCII, so other octets pass through untouched). It
keeps of the tokens only what holds links:

- the **text runs**: the character tokens between two other tokens (data, RCDATA
  ``title``/``textarea``, RAWTEXT ``style``/``xmp``/``iframe``/``noembed``/``noframes``,
  script data, ``plaintext``);
- the values of the **URL-bearing attributes** of start tags (the attribute index of the
  HTML standard: see :data:`FIELDS`), ``<meta http-equiv=refresh content>``, ``style``
  attributes and ``<style>`` blocks (whose ``url(…)`` the caller reads).

Each is a record ``(field, start, end, decoded)``: ``field`` indexes :data:`FIELDS`,
``data[start:end]`` is the run or value as written, and ``decoded`` is ``None`` when
that is also what it means, else the octets it means: character references decoded (a
named one from the standard's full table, a numeric one with the spec's replacements)
and written in UTF-8 — octets that were not part of a reference are copied as they
are, so non-ASCII text is never encoded twice — U+0000 replaced by U+FFFD where the
spec says so, and markup dropped inside a run (``a</>b`` is the run ``ab``).

Where the input ends inside a tag or a comment (which hides what follows from a
reader), a problem ``(offset, code)`` is noted with the spec's parse error code.
The input stream's CR/LF normalisation (§13.2.3.5) is not done: spans stay in the
input's octets, and a CR is whitespace wherever the spec would read its LF. Not modelled: foreign content (SVG/MathML CDATA sections, where
``<style>`` is not raw text) and the script data escape states (``<!--`` inside
``<script>``): both change only which text is script text, not what a reader sees.

>>> html_runs(b'<p title="x">Go &amp; see <a href="http://a.example/?x=1&amp;y=2">it</a>')
([(0, 13, 26, b'Go & see '), (1, 35, 64, b'http://a.example/?x=1&y=2'), (0, 66, 68, None)], [])
>>> FIELDS[1]
'href'
"""
from __future__ import annotations

import re
from typing import Optional

from ._entities import C1_REPLACEMENTS, LONGEST, LONGEST_LEGACY, NAMED

__all__ = ["FIELDS", "STATES", "html_runs"]

#: What a record holds: a text run, the value of one of the URL attributes (the HTML
#: standard's attribute index: every attribute whose value is a URL or URLs), the
#: ``href`` of ``<base>``, a ``srcset`` or ``ping`` list, the ``content`` of a meta
#: refresh, a ``style`` attribute, a ``<style>`` block, or (with ``every_attribute``)
#: any other attribute of a start tag.
FIELDS: tuple[str, ...] = (
    "#text", "href", "src", "action", "formaction", "background", "cite", "longdesc",
    "data", "poster", "xlink:href", "srcset", "ping", "base href", "refresh content",
    "style", "#style", "#attribute", "<a>", "</a>",
)
TEXT, BASE_HREF, REFRESH, STYLE_TEXT, OTHER, A_START, A_END = 0, 13, 14, 16, 17, 18, 19
#: attribute name -> field, whatever the element (``data``: of ``<object>`` only)
_URL_ATTRIBUTES = {name.encode(): i for i, name in enumerate(FIELDS) if 1 <= i <= 12 or i == 15}
#: the attributes kept while a tag is read (the others are passed over)
_KEPT = frozenset(_URL_ATTRIBUTES) | {b"http-equiv", b"content"}

#: The states of §13.2.5 that this tokenizer has, by the spec's names.
STATES: tuple[str, ...] = (
    "data", "RCDATA", "RAWTEXT", "script data", "PLAINTEXT", "tag open", "end tag open",
    "tag name", "RCDATA less-than sign", "RCDATA end tag open", "RCDATA end tag name",
    "before attribute name", "attribute name", "after attribute name",
    "before attribute value", "attribute value (double-quoted)",
    "attribute value (single-quoted)", "attribute value (unquoted)",
    "after attribute value (quoted)", "self-closing start tag", "bogus comment",
    "markup declaration open", "comment start", "comment start dash", "comment",
    "comment less-than sign", "comment less-than sign bang",
    "comment less-than sign bang dash", "comment less-than sign bang dash dash",
    "comment end dash", "comment end", "comment end bang", "DOCTYPE",
)
(DATA, RCDATA, RAWTEXT, SCRIPT_DATA, PLAINTEXT, TAG_OPEN, END_TAG_OPEN, TAG_NAME,
 TEXT_LESS_THAN_SIGN, TEXT_END_TAG_OPEN, TEXT_END_TAG_NAME, BEFORE_ATTRIBUTE_NAME,
 ATTRIBUTE_NAME, AFTER_ATTRIBUTE_NAME, BEFORE_ATTRIBUTE_VALUE, ATTRIBUTE_VALUE_DOUBLE,
 ATTRIBUTE_VALUE_SINGLE, ATTRIBUTE_VALUE_UNQUOTED, AFTER_ATTRIBUTE_VALUE_QUOTED,
 SELF_CLOSING_START_TAG, BOGUS_COMMENT, MARKUP_DECLARATION_OPEN, COMMENT_START,
 COMMENT_START_DASH, COMMENT, COMMENT_LESS_THAN_SIGN, COMMENT_LESS_THAN_SIGN_BANG,
 COMMENT_LESS_THAN_SIGN_BANG_DASH, COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH,
 COMMENT_END_DASH, COMMENT_END, COMMENT_END_BANG, DOCTYPE) = range(len(STATES))
# RAWTEXT and script data share RCDATA's less-than sign / end tag open / end tag name
# states (the spec has one set each; they differ only in the state they return to).

#: The elements whose start tag switches the tokenizer (tree construction, §13.2.6).
_SWITCH = {b"title": RCDATA, b"textarea": RCDATA, b"style": RAWTEXT, b"xmp": RAWTEXT,
           b"iframe": RAWTEXT, b"noembed": RAWTEXT, b"noframes": RAWTEXT,
           b"script": SCRIPT_DATA, b"plaintext": PLAINTEXT}
_INITIAL = {"data": DATA, "RCDATA": RCDATA, "RAWTEXT": RAWTEXT, "script data": SCRIPT_DATA,
            "PLAINTEXT": PLAINTEXT}

# The input stream's preprocessing (§13.2.3.5) makes every CR and CR LF an LF before
# the tokenizer reads it; spans stay in the input's octets, so a CR is read where the
# spec reads that LF: as whitespace (mail is CR LF: "<a\r\nhref=...>" is an <a>).
_WHITESPACE = b"\t\n\x0c\r "
_FFFD = "\ufffd".encode()
_ALNUM = frozenset(b"0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz")
_HEX = frozenset(b"0123456789ABCDEFabcdef")
_DIGITS = frozenset(b"0123456789")
# what each character-run state stops at (everything else is taken as it is)
_STOP = {DATA: re.compile(b"[<&]"), RCDATA: re.compile(b"[<&\x00]"),
         RAWTEXT: re.compile(b"[<\x00]"), SCRIPT_DATA: re.compile(b"[<\x00]"),
         PLAINTEXT: re.compile(b"\x00"), COMMENT: re.compile(b"[<\\-]"),
         BOGUS_COMMENT: re.compile(b">"), DOCTYPE: re.compile(b">"),
         ATTRIBUTE_VALUE_DOUBLE: re.compile(b'["&\x00]'),
         ATTRIBUTE_VALUE_SINGLE: re.compile(b"['&\x00]"),
         ATTRIBUTE_VALUE_UNQUOTED: re.compile(b"[\t\n\x0c\r &>\x00]")}
# where each attribute value state ends (a value of no record is not read for references)
_END = {ATTRIBUTE_VALUE_DOUBLE: re.compile(b'"'), ATTRIBUTE_VALUE_SINGLE: re.compile(b"'"),
        ATTRIBUTE_VALUE_UNQUOTED: re.compile(b"[\t\n\x0c\r >]")}


# The characters the states look at, by the spec's names (HTML §13.2.5 writes
# "U+003C LESS-THAN SIGN (<)"; LT and GT as the spec's prose calls them).
(EXCLAMATION_MARK, QUOTATION_MARK, NUMBER_SIGN, AMPERSAND, APOSTROPHE, HYPHEN_MINUS,
 SOLIDUS, SEMICOLON, LT, EQUALS_SIGN, GT, QUESTION_MARK) = b'!"#&\'-/;<=>?'


class _Run:
    """A run of characters being read: its span and, once it differs from its octets,
    what it means (the octets copied up to ``copied``, then each replacement)."""

    __slots__ = ("start", "end", "copied", "out")

    def __init__(self, start: int) -> None:
        self.start = self.end = self.copied = start
        self.out: Optional[bytearray] = None

    def take(self, data: bytes, a: int, b: int) -> None:
        """``data[a:b]`` is in the run as written (what lies between it and the run's end
        so far is markup the run leaves out)."""
        if a > self.end:
            self.replace(data, self.end, a, b"")
        self.end = b

    def replace(self, data: bytes, a: int, b: int, what: bytes) -> None:
        """``data[a:b]`` is in the run as ``what``."""
        if self.out is None:
            self.out = bytearray()
        self.out += data[self.copied:a]
        self.out += what
        self.copied = self.end = b

    def decoded(self, data: bytes) -> Optional[bytes]:
        if self.out is None:
            return None
        return bytes(self.out + data[self.copied:self.end])


def _code_point_utf8(cp: int) -> bytes:
    """A numeric reference's code point as the spec reads it (§13.2.5.80), in UTF-8."""
    if cp == 0 or cp > 0x10FFFF or 0xD800 <= cp <= 0xDFFF:
        cp = 0xFFFD
    else:
        cp = C1_REPLACEMENTS.get(cp, cp)
    return chr(cp).encode("utf-8", "surrogatepass")


def _reference(data: bytes, pos: int, in_attribute: bool) -> tuple[int, Optional[bytes]]:
    """The character reference at ``data[pos] == "&"`` (§13.2.5.72-80): the offset after
    it and what it means, or ``(pos + 1, None)`` when the ``&`` is taken as it is (what
    follows it is then read as text again, as the spec's flushes do)."""
    n = len(data)
    i = pos + 1
    if i < n and data[i] == NUMBER_SIGN:                                   # "#": numeric
        i += 1
        hexadecimal = i < n and data[i] in b"xX"
        if hexadecimal:
            i += 1
        digits = _HEX if hexadecimal else _DIGITS
        base = 16 if hexadecimal else 10
        j = i
        cp = 0
        while j < n and data[j] in digits:
            if cp <= 0x10FFFF:                                      # past it: U+FFFD anyway
                cp = cp * base + int(chr(data[j]), 16)
            j += 1
        if j == i:                                                  # absence of digits
            return pos + 1, None
        if j < n and data[j] == SEMICOLON:                               # ";"
            j += 1
        return j, _code_point_utf8(cp)
    j = i
    limit = min(n, i + LONGEST)
    while j < limit and data[j] in _ALNUM:
        j += 1
    if j == i:
        return pos + 1, None
    if j < n and data[j] == SEMICOLON and data[i:j + 1] in NAMED:       # "name;"
        return j + 1, NAMED[data[i:j + 1]]
    for k in range(min(j, i + LONGEST_LEGACY), i, -1):             # the longest legacy one
        meaning = NAMED.get(data[i:k])
        if meaning is not None:
            if in_attribute and k < n and (data[k] == EQUALS_SIGN or data[k] in _ALNUM):
                return pos + 1, None                                # "&lt=" in a value
            return k, meaning
    return pos + 1, None


def _field(tag: bytes, name: bytes, refresh: bool, every_attribute: bool) -> int:
    """The field of attribute ``name`` of start tag ``tag`` (-1: none worth a record);
    ``refresh``: the tag is a ``<meta http-equiv=refresh>``."""
    if name == b"href" and tag == b"base":
        return BASE_HREF
    if name == b"content" and refresh:
        return REFRESH
    field = _URL_ATTRIBUTES.get(name, -1)
    if name == b"data" and tag != b"object":
        field = -1
    return OTHER if field < 0 and every_attribute else field


def html_runs(data: bytes, every_attribute: bool = False, state: str = "data",
              last_start_tag: bytes = b"", anchors: bool = False
              ) -> tuple[list[tuple[int, int, int, Optional[bytes]]], list[tuple[int, str]]]:
    """The text runs and URL attribute values of HTML ``data``, and the problems met.

    ``every_attribute`` gives every start tag attribute (field ``"#attribute"`` for the
    others); ``state`` (``"data"``, ``"RCDATA"``, ``"RAWTEXT"``, ``"script data"``,
    ``"PLAINTEXT"``) and ``last_start_tag`` start the machine inside an element;
    ``anchors`` adds a record for each ``<a>`` start tag and ``</a>`` end tag (fields
    ``"<a>"``, ``"</a>"``, the span of the tag): which text a link is on is the
    walker's ("a link text that is its own URL counts once", a link's shown text).

    >>> html_runs(b"<!--->http://a.example/<textarea><!--</textarea>")
    ([(0, 6, 23, None), (0, 33, 37, None)], [])
    >>> html_runs(b'<a href=x>y</A >', anchors=True)
    ([(18, 0, 10, None), (1, 8, 9, None), (0, 10, 11, None), (19, 11, 16, None)], [])
    """
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError(f"HTML is bytes, not {type(data).__name__}")
    data = bytes(data)
    if state not in _INITIAL:
        raise ValueError(f"no such initial state: {state!r}")
    n = len(data)
    runs: list[tuple[int, int, int, Optional[bytes]]] = []
    problems: list[tuple[int, str]] = []
    st = _INITIAL[state]
    text_state = st                    # the character state a "<" or "&" returns to
    last = bytes(last_start_tag).lower()
    run: Optional[_Run] = None         # the text run being read
    tag_start = 0                      # where the tag, comment or end tag name began
    name = bytearray()                 # the tag's name
    end_tag = False
    attributes: list[list] = []        # [name, _Run of the value] of the tag
    names: set[bytes] = set()
    attribute: Optional[list] = None   # the one being read (None: a duplicate, dropped)
    attribute_name = bytearray()
    pos = 0

    def close_run() -> None:
        nonlocal run
        if run is not None:
            field = STYLE_TEXT if text_state == RAWTEXT and last == b"style" else TEXT
            runs.append((field, run.start, run.end, run.decoded(data)))
            run = None

    def text(a: int, b: int, what: Optional[bytes] = None) -> None:
        nonlocal run
        if run is None:
            run = _Run(a)
        if what is None:
            run.take(data, a, b)
        else:
            run.take(data, a, a)
            run.replace(data, a, b, what)

    def end_attribute_name(at: int) -> None:
        nonlocal attribute
        key = bytes(attribute_name)
        if key in names or not (every_attribute or key in _KEPT):
            attribute = None        # a duplicate (dropped, §13.2.5.33), or of no record
        else:
            attribute = [key, _Run(at)]     # no value (yet): an empty one where it ends
            names.add(key)
            attributes.append(attribute)

    def emit_tag() -> None:
        nonlocal st, text_state, last
        close_run()
        tag = bytes(name)
        if anchors and tag == b"a":     # the tag's span: from its "<" to after its ">"
            runs.append((A_END if end_tag else A_START, tag_start, pos, None))
        if end_tag:
            st = text_state = DATA
            return
        refresh = False
        if tag == b"meta":
            for key, value in attributes:
                if key == b"http-equiv":
                    meaning = value.decoded(data)
                    meaning = data[value.start:value.end] if meaning is None else meaning
                    refresh = meaning.lower() == b"refresh"
        for key, value in attributes:
            field = _field(tag, key, refresh, every_attribute)
            if field >= 0:
                runs.append((field, value.start, value.end, value.decoded(data)))
        last = tag
        st = text_state = _SWITCH.get(tag, DATA)

    def emit_comment() -> None:
        nonlocal st
        close_run()
        st = DATA

    while pos <= n:
        c = data[pos] if pos < n else -1            # -1: the end of the input
        if st in (DATA, RCDATA, RAWTEXT, SCRIPT_DATA, PLAINTEXT):
            m = _STOP[st].search(data, pos)
            stop = m.start() if m else n
            if stop > pos:
                text(pos, stop)
            pos = stop
            if pos == n:
                break
            c = data[pos]
            if c == AMPERSAND:                                           # "&"
                end, meaning = _reference(data, pos, False)
                text(pos, end, meaning)
                pos = end
            elif c == 0:                                            # NULL: U+FFFD
                text(pos, pos + 1, _FFFD)
                pos += 1
            else:                                                   # "<"
                tag_start = pos
                st = TAG_OPEN if st == DATA else TEXT_LESS_THAN_SIGN
                pos += 1
            continue
        if (st == TAG_OPEN or st == END_TAG_OPEN) and c != -1 and (
                0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A):            # a tag's name begins
            end_tag = st == END_TAG_OPEN
            name.clear()
            attributes.clear()
            names.clear()
            st = TAG_NAME
        elif st == TAG_OPEN:
            if c == EXCLAMATION_MARK:                                           # "!"
                st = MARKUP_DECLARATION_OPEN
                pos += 1
            elif c == SOLIDUS:                                         # "/"
                st = END_TAG_OPEN
                pos += 1
            elif c == QUESTION_MARK:                                         # "?"
                st = BOGUS_COMMENT
            else:                                                   # "<" as text
                text(tag_start, pos)
                st = DATA
        elif st == END_TAG_OPEN:
            if c == GT:                                           # "</>": nothing
                st = DATA
                pos += 1
            elif c == -1:
                text(tag_start, pos)
                break
            else:
                st = BOGUS_COMMENT
        elif st == TAG_NAME:
            if c == -1:
                problems.append((tag_start, "eof-in-tag"))
                break
            if c in _WHITESPACE:
                st = BEFORE_ATTRIBUTE_NAME
            elif c == SOLIDUS:
                st = SELF_CLOSING_START_TAG
            elif c == GT:
                pos += 1
                emit_tag()
                continue
            elif c == 0:
                name.extend(_FFFD)
            else:
                name.append(c + 0x20 if 0x41 <= c <= 0x5A else c)
            pos += 1
        elif st in (TEXT_LESS_THAN_SIGN, TEXT_END_TAG_OPEN):
            if st == TEXT_LESS_THAN_SIGN:
                if c == SOLIDUS:
                    st = TEXT_END_TAG_OPEN
                    pos += 1
                else:
                    text(tag_start, pos)
                    st = text_state
            elif c != -1 and (0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A):
                name.clear()
                st = TEXT_END_TAG_NAME
            else:
                text(tag_start, pos)
                st = text_state
        elif st == TEXT_END_TAG_NAME:
            if c != -1 and (0x41 <= c <= 0x5A or 0x61 <= c <= 0x7A):
                name.append(c | 0x20)
                pos += 1
                continue
            if bytes(name) == last and c != -1 and (c in _WHITESPACE or c in b"/>"):
                end_tag = True
                attributes.clear()
                names.clear()
                st = TAG_NAME                   # it goes on as the tag name state does
                continue
            text(tag_start, pos)                # "</" and the name were text
            st = text_state
        elif st in (BEFORE_ATTRIBUTE_NAME, AFTER_ATTRIBUTE_NAME):
            if c == -1:
                problems.append((tag_start, "eof-in-tag"))
                break
            if c in _WHITESPACE:
                pos += 1
            elif c == SOLIDUS:
                st = SELF_CLOSING_START_TAG
                pos += 1
            elif c == GT:
                pos += 1
                emit_tag()
            elif c == EQUALS_SIGN and st == AFTER_ATTRIBUTE_NAME:
                st = BEFORE_ATTRIBUTE_VALUE
                pos += 1
            else:
                attribute_name.clear()
                st = ATTRIBUTE_NAME
                if c == EQUALS_SIGN:       # "=" first is the start of a name (§13.2.5.32)
                    attribute_name.append(c)
                    pos += 1
        elif st == ATTRIBUTE_NAME:
            if c == -1 or c in _WHITESPACE or c == SOLIDUS or c == GT:
                end_attribute_name(pos)
                st = AFTER_ATTRIBUTE_NAME
            elif c == EQUALS_SIGN:
                end_attribute_name(pos)
                st = BEFORE_ATTRIBUTE_VALUE
                pos += 1
            else:
                if 0x41 <= c <= 0x5A:
                    attribute_name.append(c + 0x20)
                elif c == 0:
                    attribute_name.extend(_FFFD)
                else:
                    attribute_name.append(c)
                pos += 1
        elif st == BEFORE_ATTRIBUTE_VALUE:
            if c != -1 and c in _WHITESPACE:
                pos += 1
            elif c == QUOTATION_MARK or c == APOSTROPHE:
                st = ATTRIBUTE_VALUE_DOUBLE if c == QUOTATION_MARK else ATTRIBUTE_VALUE_SINGLE
                pos += 1
                _reset(attribute, pos)
            elif c == GT:                                         # missing value
                pos += 1
                emit_tag()
            else:
                _reset(attribute, pos)
                st = ATTRIBUTE_VALUE_UNQUOTED
        elif st in (ATTRIBUTE_VALUE_DOUBLE, ATTRIBUTE_VALUE_SINGLE, ATTRIBUTE_VALUE_UNQUOTED):
            if attribute is None:   # a value no record is made of: only where it ends
                m = _END[st].search(data, pos)
                pos = m.start() if m else n
            else:
                run_ = attribute[1]
                m = _STOP[st].search(data, pos)
                stop = m.start() if m else n
                run_.take(data, pos, stop)
                pos = stop
            if pos == n:
                problems.append((tag_start, "eof-in-tag"))
                break
            c = data[pos]
            if c == AMPERSAND:          # (a reference never holds what ends a value)
                end, meaning = _reference(data, pos, True)
                if meaning is None:
                    run_.take(data, pos, end)
                else:
                    run_.replace(data, pos, end, meaning)
                pos = end
            elif c == 0:
                run_.replace(data, pos, pos + 1, _FFFD)
                pos += 1
            elif st == ATTRIBUTE_VALUE_UNQUOTED:
                if c == GT:
                    pos += 1
                    emit_tag()
                else:
                    st = BEFORE_ATTRIBUTE_NAME
                    pos += 1
            else:                                                   # the closing quote
                st = AFTER_ATTRIBUTE_VALUE_QUOTED
                pos += 1
        elif st == AFTER_ATTRIBUTE_VALUE_QUOTED:
            # whitespace, "/", ">", the end, or (missing-whitespace-between-attributes)
            # anything else: what the before attribute name state does with it
            st = BEFORE_ATTRIBUTE_NAME
        elif st == SELF_CLOSING_START_TAG:
            if c == -1:
                problems.append((tag_start, "eof-in-tag"))
                break
            if c == GT:
                pos += 1
                emit_tag()
            else:                                                   # unexpected solidus
                st = BEFORE_ATTRIBUTE_NAME
        elif st == MARKUP_DECLARATION_OPEN:
            if data.startswith(b"--", pos):
                st = COMMENT_START
                pos += 2
            elif data[pos:pos + 7].upper() == b"DOCTYPE":
                st = DOCTYPE
                pos += 7
            else:           # "[CDATA[" outside foreign content too: a bogus comment
                st = BOGUS_COMMENT
        elif st in (BOGUS_COMMENT, DOCTYPE):
            m = _STOP[st].search(data, pos)
            if m is None:
                problems.append((tag_start, "eof-in-doctype" if st == DOCTYPE
                                 else "eof-in-comment"))
                emit_comment()
                break
            pos = m.end()
            emit_comment()
        elif st in (COMMENT_START, COMMENT_START_DASH):
            if c == HYPHEN_MINUS:
                st = COMMENT_START_DASH if st == COMMENT_START else COMMENT_END
                pos += 1
            elif c == GT:                             # abrupt closing of empty comment
                pos += 1
                emit_comment()
            elif c == -1:
                problems.append((tag_start, "eof-in-comment"))
                emit_comment()
                break
            else:
                st = COMMENT
        elif st == COMMENT:
            m = _STOP[COMMENT].search(data, pos)
            if m is None:
                problems.append((tag_start, "eof-in-comment"))
                emit_comment()
                break
            pos = m.end()
            c = data[m.start()]
            if c == LT:
                st = COMMENT_LESS_THAN_SIGN
            elif c == HYPHEN_MINUS:
                st = COMMENT_END_DASH
        elif st == COMMENT_LESS_THAN_SIGN:
            if c == EXCLAMATION_MARK:
                st = COMMENT_LESS_THAN_SIGN_BANG
                pos += 1
            elif c != LT:
                st = COMMENT
            else:
                pos += 1
        elif st == COMMENT_LESS_THAN_SIGN_BANG:
            st = COMMENT_LESS_THAN_SIGN_BANG_DASH if c == HYPHEN_MINUS else COMMENT
            pos += st != COMMENT
        elif st == COMMENT_LESS_THAN_SIGN_BANG_DASH:
            st = COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH if c == HYPHEN_MINUS else COMMENT_END_DASH
            pos += st == COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH
        elif st == COMMENT_LESS_THAN_SIGN_BANG_DASH_DASH:
            st = COMMENT_END                    # ">" or not ("nested-comment"): reconsumed
        elif st in (COMMENT_END_DASH, COMMENT_END, COMMENT_END_BANG):
            if c == -1:
                problems.append((tag_start, "eof-in-comment"))
                emit_comment()
                break
            if c == GT and st != COMMENT_END_DASH:    # "-->", or "--!>" (incorrectly closed)
                pos += 1
                emit_comment()
            elif c == HYPHEN_MINUS:
                st = COMMENT_END if st == COMMENT_END_DASH else (
                    COMMENT_END_DASH if st == COMMENT_END_BANG else COMMENT_END)
                pos += 1
            elif c == EXCLAMATION_MARK and st == COMMENT_END:
                st = COMMENT_END_BANG
                pos += 1
            else:
                st = COMMENT
    close_run()
    return runs, problems


def _reset(attribute: Optional[list], pos: int) -> None:
    """The value of ``attribute`` (if it is kept) starts at ``pos``."""
    if attribute is not None:
        attribute[1] = _Run(pos)
