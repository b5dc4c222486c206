"""The command line shell, ``sealane``: one module per group of commands (:mod:`.commands` parses
and dispatches them)."""

from .commands import main

__all__ = ["main"]
