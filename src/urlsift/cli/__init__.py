"""Layer 6, the ``urlsift`` command: ``extract``, ``validate``, ``parse``, ``stats``.

``main`` runs ``parser``'s subcommands (``extract``; ``commands``: validate, parse,
stats); they read ``records`` from the inputs layer and hand them to ``output``'s
writers; ``common`` holds the one-line errors and ``progress`` the bar. Imports go
one way: main -> parser -> subcommands -> records/output/progress -> common.
"""
from .main import main
from .parser import build_parser

__all__ = ["main", "build_parser"]
