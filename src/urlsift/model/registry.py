"""The scheme registry: which class (and so which grammar) parses which scheme.

>>> scheme_class("https").__name__, scheme_class("x-foo").__name__
('HttpURL', 'GenericURL')
"""
from __future__ import annotations

from types import ModuleType
from typing import Optional

from .. import charclass
from .._grammar import NGRAMMARS, TABLE_BLOB, lenient_ok_blob
from .ports import default_port, set_registered_port
from .schemes import (CidURL, FileURL, FtpURL, GenericURL, GopherURL, HttpURL, MailtoURL,
                      MidURL, NewsURL, NntpURL, ProsperoURL, TelnetURL, WaisURL)
from .url import URL

__all__ = ["register_scheme", "unregister_scheme", "scheme_class", "default_port", "registered"]

_classes: dict[str, type[URL]] = {}
_state: dict[str, object] = {}   # "classes": list indexed like the core's names
_configs: dict[ModuleType, object] = {}


def register_scheme(name: str, cls: type[URL], *, default_port: Optional[int] = None) -> None:
    """Parse scheme ``name`` with ``cls`` (a :class:`~urlsift.URL` subclass).

    ``cls.grammar`` says which RFC 1738 grammar validates it; ``default_port`` is
    what :attr:`URL.effective_port` falls back to (when None, ``ports.DEFAULT_PORTS``
    decides; equivalence reads only that table).

    >>> from urlsift import HttpURL
    >>> register_scheme("webcal", HttpURL, default_port=80)
    >>> scheme_class("webcal") is HttpURL
    True
    >>> unregister_scheme("webcal")
    """
    if not isinstance(name, str) or not name or any(
            not (charclass.classes(c) & charclass.SCHEME) for c in name):
        raise ValueError(f"not a scheme name (RFC 1738 §2.1, lower case): {name!r}")
    if not (isinstance(cls, type) and issubclass(cls, URL)):
        raise TypeError(f"expected a URL subclass, not {cls!r}")
    if getattr(cls, "grammar", None) not in range(NGRAMMARS):
        raise ValueError(f"{cls.__name__}.grammar is not a grammar id of urlsift._grammar")
    if default_port is not None and not 0 <= default_port <= 65535:
        raise ValueError(f"default_port out of range: {default_port}")
    _classes[name] = cls
    set_registered_port(name, default_port)
    _invalidate()


def unregister_scheme(name: str) -> None:
    """Forget scheme ``name``: it parses as GenericURL again (KeyError when unknown).

    >>> from urlsift import HttpURL
    >>> register_scheme("x-tmp", HttpURL); unregister_scheme("x-tmp")
    >>> scheme_class("x-tmp").__name__
    'GenericURL'
    """
    del _classes[name]
    set_registered_port(name, None)
    _invalidate()


def _invalidate() -> None:
    # the cores' Configs list the schemes: drop them, the next use rebuilds
    for core in _configs:
        core.set_default(None)
    _configs.clear()
    _state.clear()


def scheme_class(name: str) -> type[URL]:
    """The class that parses scheme ``name`` (GenericURL when none is registered)."""
    return _classes.get(name.lower(), GenericURL)


def registered() -> dict[str, type[URL]]:
    """A copy of the registry: scheme name -> class."""
    return dict(_classes)


def classes() -> list[type[URL]]:
    """Classes indexed like the core's scheme names; the last is GenericURL."""
    try:
        return _state["classes"]  # type: ignore[return-value]
    except KeyError:
        out = list(_classes.values()) + [GenericURL]
        _state["classes"] = out
        return out


def config(core: ModuleType) -> object:
    """The core's Config for the registry as it stands (cached per core module)."""
    try:
        return _configs[core]
    except KeyError:
        names = list(_classes)
        gids = bytes(_classes[n].grammar for n in names)
        slots = tuple(vars(URL)[name] for name in ("_text", "_t", "_x"))
        cfg = _configs[core] = core.Config(names, gids, TABLE_BLOB, lenient_ok_blob(),
                                           classes(), slots)
        core.set_default(cfg)   # parse_new(s) without a cfg: the hot path of parse()
        return cfg


# scheme -> class (RFC 1738 §3.2-§3.11; https, rlogin and tn3270: see
# docs/design.md#the-scheme-classes);
# the default ports are ports.DEFAULT_PORTS, the one table of them
for _name, _cls in (
    ("ftp", FtpURL), ("http", HttpURL), ("https", HttpURL), ("gopher", GopherURL),
    ("mailto", MailtoURL), ("news", NewsURL), ("nntp", NntpURL), ("telnet", TelnetURL),
    ("rlogin", TelnetURL), ("tn3270", TelnetURL), ("wais", WaisURL), ("file", FileURL),
    ("prospero", ProsperoURL), ("mid", MidURL), ("cid", CidURL),
):
    register_scheme(_name, _cls)
