"""Real annotations for ``help()``: the package writes ``from __future__ import
annotations`` (PEP 563) so that ``X | None`` and ``list[str]`` read the same on every
Python it supports, which leaves every annotation a string — ``help(urlsift.parse)``
showed ``s: 'str'`` and ``-> 'URL'``. :func:`resolve` evaluates them once, at import,
for the public functions and the methods of the public classes.

An annotation that cannot be evaluated here stays a string: a name imported only for
type checkers (``MailMatch``: the mail layer is not loaded with the package) or a form
this Python cannot evaluate (``array[int]`` before 3.12, ``X | None`` on 3.9).

>>> import urlsift, inspect
>>> inspect.signature(urlsift.parse).return_annotation is urlsift.URL
True
"""
from __future__ import annotations

import inspect
import typing
from typing import Any, Iterable

__all__ = ["resolve"]


def _functions_of(obj: Any) -> Iterable[Any]:
    """``obj`` if it is a function; a class's own functions (and those of its urlsift
    base classes). Property getters are left alone: ``help()`` shows no signature of a
    property, and evaluating theirs doubled the cost at import."""
    if inspect.isfunction(obj):
        yield obj
        return
    if not inspect.isclass(obj):
        return
    for cls in obj.__mro__:
        if not cls.__module__.startswith("urlsift"):
            continue
        for value in vars(cls).values():
            if isinstance(value, (classmethod, staticmethod)):
                value = value.__func__
            if inspect.isfunction(value):
                yield value


def resolve(objects: Iterable[Any]) -> None:
    """Replace the string annotations of ``objects`` (functions and classes, see the
    module's docstring) by what they name, where that can be evaluated."""
    seen: set[int] = set()
    for obj in objects:
        for func in _functions_of(obj):
            if id(func) in seen:
                continue
            seen.add(id(func))
            ann = getattr(func, "__annotations__", None)
            if not ann or not any(isinstance(v, str) for v in ann.values()):
                continue
            try:
                func.__annotations__ = typing.get_type_hints(func)
            except Exception:       # NameError, TypeError: see the module's docstring
                continue
