"""The command line's side of :mod:`sealane.config.settings`: a ``sealane`` command's settings,
``SEALANE_*`` variables with its flags on top.

Every command that opens the database or serves (``serve``, ``worker``, ``mcp``, ``migrate``,
``accounts ...``, ``ais ...``) builds its one :class:`~sealane.config.Settings` here, so a flag
such as ``--database`` means the same in each. Kept apart from the commands themselves so the
lowest CLI modules may share it without importing each other.
"""

from __future__ import annotations

import argparse
import os
import sys
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from ..config import Settings


def settings_from(args: argparse.Namespace) -> Settings:
    """The settings of ``SEALANE_*``, with the command's ``--database`` (when it has one and it
    was given) on top."""
    from ..config import Settings

    return Settings.from_env(os.environ, database_url=getattr(args, "database", None))


def with_base_url(settings: Settings, args: argparse.Namespace) -> Settings:
    """``settings`` with the command's ``--base-url``, or without it and without
    ``SEALANE_BASE_URL`` the base of the ``--host`` and ``--port`` served on."""
    if args.base_url is not None:
        return replace(settings, base_url=args.base_url.rstrip("/"))
    if "SEALANE_BASE_URL" not in os.environ:
        return replace(settings, base_url=f"http://{args.host}:{args.port}/v2")
    return settings


def warn_private(settings: Settings) -> None:
    """Say loudly that webhooks may reach private addresses, when they may."""
    if settings.webhook_allow_private:
        print(
            "WARNING: SEALANE_WEBHOOK_ALLOW_PRIVATE is on: webhooks may call http and private "
            "addresses. Use it only for local development and tests.",
            file=sys.stderr,
        )
