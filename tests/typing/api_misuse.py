# A user program that must NOT type-check (tests/test_typing_api.py): mypy --strict must
# report on each "# E: CODE" line an error of that code, and on no other line.
import urlsift
from urlsift import extract, extract_file, parse

u = parse("http://a.example/")
u.user  # E: attr-defined
parse("ftp://h/x", scheme="http").typecode  # E: attr-defined
parse("http://h/", scheme="http").typecode  # E: attr-defined
list(extract("http://a/", valid="strictly"))  # E: arg-type
list(extract_file("a.log", valid="yes"))  # E: call-overload
urlsift.normalized("http://a/", rules="whatwg")  # E: arg-type
urlsift.equivalent("http://a/", "http://b/", rules="RFC3986")  # E: arg-type
parse("http://a/", scheme=3)  # E: call-overload
urlsift.unquote(b"%41", strict="no")  # E: arg-type
fine = parse("http://h/", scheme="http").segments   # an HttpURL has segments: no error
