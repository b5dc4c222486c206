"""The command line's side of accounts (:mod:`sealane.service.access.accounts` holds them):
``sealane accounts ...``, the operator's commands for accounts, API keys and the routing
feature. Each parses its arguments, calls the application layer and prints a line or a table."""

from __future__ import annotations

import argparse
from typing import Any

from ..service.access.features import FEATURES
from .settings import settings_from

#: How long a revoked key still works on a running server.
REVOKED_KEY_GRACE = (
    "a server that checked it lately accepts it until its key cache expires "
    "(SEALANE_AUTH_CACHE_SECONDS, 10 s by default)"
)


def add_account_commands(commands: Any) -> None:
    """Register ``sealane accounts`` and its sub-commands on the CLI's sub-parsers."""
    parser = commands.add_parser("accounts", help="manage accounts, API keys and routing")
    accounts = parser.add_subparsers(dest="accounts_command", required=True)

    create = accounts.add_parser("create", help="create an account; prints its API key last")
    create.add_argument("name")
    create.add_argument("--routing", action="store_true", help="enable the routing feature")
    create.add_argument(
        "--ingest", action="store_true", help="may POST /v2/vessel_positions (AIS batches)"
    )
    create.set_defaults(handler=cmd_create)

    listing = accounts.add_parser("list", help="accounts, their routing feature and keys")
    listing.set_defaults(handler=cmd_list)

    issue = accounts.add_parser("issue-key", help="another API key for an account")
    issue.add_argument("account_id")
    issue.set_defaults(handler=cmd_issue_key)

    revoke = accounts.add_parser(
        "revoke-key",
        help=f"revoke an API key (its id or prefix); {REVOKED_KEY_GRACE}",
    )
    revoke.add_argument("key")
    revoke.set_defaults(handler=cmd_revoke_key)

    switches = []
    for feature, what in FEATURES.items():
        switch = accounts.add_parser(feature, help=f"switch an account's {what}")
        switch.add_argument("account_id")
        switch.add_argument("state", choices=["on", "off"])
        switch.set_defaults(handler=cmd_feature, feature=feature)
        switches.append(switch)

    for sub in (create, listing, issue, revoke, *switches):
        sub.add_argument("--database", default=None, help="database URL")


def cmd_create(args: argparse.Namespace) -> int:
    """``accounts create NAME``: prints the new API key alone on the last line."""
    from ..service.access.accounts import create_account

    key = _run(
        args, lambda ctx: create_account(ctx, args.name, routing=args.routing, ingest=args.ingest)
    )
    features = f"routing {_on(args.routing)}, ingest {_on(args.ingest)}"
    print(f"account {key.account_id} ({args.name}), {features}")
    print(key.secret)
    return 0


def cmd_list(args: argparse.Namespace) -> int:
    """``accounts list``: one line per account, then one indented line per key."""
    from ..service.access.accounts import list_accounts

    for account in _run(args, list_accounts):
        features = f"routing {_on(account.routing_enabled)}, ingest {_on(account.ingest_enabled)}"
        print(f"{account.id}  {account.name}  {features}")
        for key in account.keys:
            state = f"revoked {key.revoked_at:%Y-%m-%d %H:%M}" if key.revoked_at else "active"
            print(f"    key {key.id}  {key.prefix}...  {state}")
    return 0


def cmd_issue_key(args: argparse.Namespace) -> int:
    """``accounts issue-key ACCOUNT_ID``: prints the new key alone on the last line."""
    from ..service.access.accounts import issue_account_key

    key = _run(args, lambda ctx: issue_account_key(ctx, args.account_id))
    print(f"key {key.key_id} for account {key.account_id}")
    print(key.secret)
    return 0


def cmd_revoke_key(args: argparse.Namespace) -> int:
    """``accounts revoke-key KEY``: API requests with it stop within the key cache's lifetime,
    web sessions signed in with it end at once."""
    from ..service.access.accounts import revoke_key

    key = _run(args, lambda ctx: revoke_key(ctx, args.key))
    print(f"key {key.id} ({key.prefix}...) of account {key.account_id} revoked")
    print(f"web sessions signed in with it have ended; {REVOKED_KEY_GRACE}")
    return 0


def cmd_feature(args: argparse.Namespace) -> int:
    """``accounts routing|ingest ACCOUNT_ID on|off``."""
    from ..service.access.accounts import set_feature

    enabled = args.state == "on"
    account = _run(
        args, lambda ctx: set_feature(ctx, args.account_id, args.feature, enabled=enabled)
    )
    print(f"account {account.id} ({account.name}), {args.feature} {args.state}")
    return 0


def _on(flag: bool) -> str:
    return "on" if flag else "off"


def _run(args: argparse.Namespace, call: Any) -> Any:
    """``call(context)`` on the database of ``--database`` or the environment (an application
    layer error becomes the one-line error :func:`sealane.cli.main` prints, exit status 2)."""
    from ..runtime import build_runtime

    return call(build_runtime(settings_from(args)).context)
