"""The character table, checked byte by byte against the sets written out from RFC 1738 §5."""
import pytest

from urlsift import charclass as cc

# The BNF of RFC 1738 §5, written out here independently of the module under test.
LOWALPHA = set("abcdefghijklmnopqrstuvwxyz")
HIALPHA = set("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
BNF = {
    "alpha": LOWALPHA | HIALPHA,
    "digit": set("0123456789"),
    "safe": set("$-_.+"),
    "extra": set("!*'(),"),
    "national": set("{}|\\^~[]`"),
    "punctuation": set('<>#%"'),
    "reserved": set(";/?:@&="),
    "hex": set("0123456789ABCDEFabcdef"),
    "escape": {"%"},
    "scheme": LOWALPHA | set("0123456789+-."),
    # §2.2 lists the unsafe characters in prose: space, < > " # % { } | \ ^ ~ [ ] `
    "unsafe": set(" <>\"#%{}|\\^~[]`"),
}
BNF["unreserved"] = BNF["alpha"] | BNF["digit"] | BNF["safe"] | BNF["extra"]
BNF["uchar"] = BNF["unreserved"] | {"%"}
BNF["xchar"] = BNF["unreserved"] | BNF["reserved"] | {"%"}


@pytest.mark.parametrize("name", sorted(BNF))
def test_every_byte_value_against_the_bnf(name):
    mask = cc.CLASS_NAMES.get(name) or cc.UNION_NAMES[name]
    for c in range(256):
        expected = chr(c) in BNF[name]
        assert bool(cc.TABLE[c] & mask) == expected, (name, c, chr(c))


def test_table_has_256_entries_and_nothing_outside_ascii_graphics():
    assert len(cc.TABLE) == 256
    for c in list(range(0x21)) + list(range(0x7F, 0x100)):
        if c != 0x20:
            assert cc.TABLE[c] == 0, c
    assert cc.TABLE[0x20] == cc.UNSAFE  # space: unsafe, in no other class


def test_every_graphic_ascii_character_has_a_class():
    # §2.2: every printable US-ASCII character is alphanumeric, safe, extra,
    # reserved or unsafe -- none is left out of the table.
    for c in range(0x21, 0x7F):
        assert cc.TABLE[c] & (cc.UNRESERVED | cc.RESERVED | cc.UNSAFE), chr(c)


def test_the_public_questions():
    assert cc.is_unsafe("~") and cc.is_unsafe(" ") and cc.is_unsafe("#")
    assert not cc.is_unsafe("-") and not cc.is_unsafe("/") and not cc.is_unsafe("é")
    assert cc.names_of("~") == ("national", "unsafe")
    assert cc.names_of("a") == ("alpha", "hex", "scheme")
    assert cc.names_of("é") == ()
    assert cc.is_control("\x00") and cc.is_control("\x7f") and not cc.is_control("a")
    assert cc.members(cc.RESERVED) == "&/:;=?@"


def test_char_table_composes_classes_and_literals():
    # RFC 1738 §5: hsegment = *[ uchar | ";" | ":" | "@" | "&" | "=" ]
    hsegment = cc.char_table(cc.UCHAR, ";:@&=")
    allowed = {chr(c) for c in range(256) if hsegment[c]}
    assert allowed == BNF["uchar"] | set(";:@&=")
    assert "/" not in allowed and "?" not in allowed


def test_bad_arguments():
    with pytest.raises(ValueError):
        cc.classes(-1)
    with pytest.raises(TypeError):
        cc.classes(None)  # type: ignore[arg-type]
