"""The API's processes: ``sealane serve`` (one API process, or ``--workers N`` of them on one
port) and ``sealane migrate``.

One ``sealane serve`` does everything: it answers the API and, in threads beside it, polls the
carriers, delivers webhooks and (``--demo``) replays the demo's AIS sample. With ``--workers N``
(PostgreSQL only) the N API processes do no background work; ``sealane worker`` processes do it
(:mod:`.worker`).

Layers are imported when a command runs, so the parser costs nothing at start-up.
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import TYPE_CHECKING, Any

from .settings import settings_from, warn_private, with_base_url

if TYPE_CHECKING:
    from fastapi import FastAPI

    from ..config import Settings

#: The interpreter's thread switch interval in the server, in seconds (Python's default is 5 ms).
#: A worker thread computing future positions holds the GIL between its numpy and C calls; with
#: 5 ms the event loop kept waiting for it while sending the response (a 25-day voyage measured
#: 0.3-3 ms slower than with 0.5 or 1 ms, which measured alike).
SERVER_SWITCH_INTERVAL_S = 0.0005
#: What each of the ``serve --workers N`` processes imports and calls to build its app.
APP_FACTORY = "sealane.cli.serve:served_app"


def cmd_serve(args: argparse.Namespace) -> int:
    """``sealane serve``: run the API on uvicorn (``--demo`` seeds demo accounts and vessels,
    and replays the bundled AIS sample while it serves, unless ``SEALANE_AIS_DEMO=off``)."""
    from ..api.app import create_app
    from ..demo import add_ais_replay, add_history, seed_demo
    from ..runtime import add_position_retention

    settings = with_base_url(settings_from(args), args)
    warn_private(settings)
    if args.workers < 1:
        raise ValueError(f"--workers must be 1 or more, got {args.workers}")
    if args.workers > 1:
        return _serve_processes(args, settings)
    background = not args.no_background
    app = create_app(settings, poll_interval_s=args.poll_interval if background else None)
    if background:
        add_position_retention(app.state.sealane)
    if args.demo:
        keys = seed_demo(app.state.sealane, history=not background)
        if background:
            add_ais_replay(app.state.sealane, speed=settings.ais_demo_speed)
            add_history(app.state.sealane, keys[0][1].account_id)
        print_demo(settings, [(name, key.secret) for name, key in keys])
    sys.setswitchinterval(SERVER_SWITCH_INTERVAL_S)
    run_server(app, args, settings)
    return 0


def _serve_processes(args: argparse.Namespace, settings: Settings) -> int:
    """``serve --workers N``: migrate once here, then uvicorn starts N processes that each build
    the app from the environment (:func:`served_app`), without background work."""
    from ..demo import seed_demo
    from ..runtime import build_runtime, prepare_database

    if settings.database_url.startswith("sqlite"):
        raise ValueError(
            f"--workers {args.workers} needs PostgreSQL (--database or SEALANE_DATABASE_URL "
            "postgresql://...): SQLite lets one process write at a time, so several API "
            "processes would wait on each other and fail with 'database is locked'. "
            "On SQLite run one API process"
        )
    prepare_database(settings)
    if args.demo:
        runtime = build_runtime(settings, migrate=False)
        try:
            keys = seed_demo(runtime, history=True)
        finally:
            runtime.stop()
            runtime.engine.dispose()
        print_demo(settings, [(name, key.secret) for name, key in keys])
    demo = " (one of them with --demo, to move the demo's vessels)" if args.demo else ""
    print(
        f"sealane: {args.workers} API processes, without background work: run `sealane worker` "
        f"beside them{demo} to poll carriers and deliver webhooks",
        file=sys.stderr,
    )
    # The processes are started afresh (spawned) and read their settings from the environment.
    os.environ["SEALANE_DATABASE_URL"] = settings.database_url
    os.environ["SEALANE_BASE_URL"] = settings.base_url
    run_server(APP_FACTORY, args, settings, workers=args.workers)
    return 0


def served_app() -> FastAPI:
    """The app of one ``serve --workers N`` process: settings from ``SEALANE_*`` (set by the
    parent), the schema already migrated by the parent, no background work."""
    from ..api.app import create_app
    from ..config import Settings

    sys.setswitchinterval(SERVER_SWITCH_INTERVAL_S)
    return create_app(Settings.from_env(os.environ), migrate=False)


def run_server(app: Any, args: argparse.Namespace, settings: Settings, *, workers: int = 1) -> None:
    """Serve ``app`` (or, with several ``workers``, the app factory named by the string ``app``)
    on uvicorn, believing ``X-Forwarded-For`` only from the settings' trusted proxies
    (uvicorn's default believes any local client, who could then pick the address its wrong
    keys are counted against)."""
    import uvicorn

    trusted = list(settings.trusted_proxies)
    options: dict[str, Any] = {"workers": workers, "factory": True} if workers > 1 else {}
    uvicorn.run(
        app,
        host=args.host,
        port=args.port,
        log_level=args.log_level,
        proxy_headers=bool(trusted),
        forwarded_allow_ips=trusted,
        **options,
    )


def print_demo(settings: Settings, keys: list[tuple[str, str]]) -> None:
    """The demo's tokens and a few requests to try."""
    base = settings.base_url
    print(f"sealane demo on {base} (database {settings.database_url})")
    for name, secret in keys:
        print(f"  {name:<18} token {secret}")
    token = keys[0][1]
    print(f"  try: curl -g -H 'Authorization: Token {token}' '{base}/vessels?filter[name]=aurora'")
    print(
        f"       curl --compressed -H 'Authorization: Token {token}' "
        f"'{base}/vessels/9811000/future_positions?port_id=NLRTM&previous_port_id=CNSHA'"
    )
    print(f"       curl -g -H 'Authorization: Token {token}' '{base}/shipments?include=containers'")
    sys.stdout.flush()


def cmd_migrate(args: argparse.Namespace) -> int:
    """``sealane migrate``: bring the database's schema and reference data up to date."""
    from ..runtime import prepare_database

    prepare_database(settings_from(args))
    print("the database is up to date")
    return 0


def add_serve_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``serve`` and ``migrate`` sub-commands."""
    p_serve = commands.add_parser("serve", help="run the JSON:API service")
    p_serve.add_argument("--host", default="127.0.0.1")
    p_serve.add_argument("--port", type=int, default=8000)
    p_serve.add_argument(
        "--database", default=None, help="database URL (default sqlite:///./sealane.db)"
    )
    p_serve.add_argument("--base-url", default=None, help="public API base for links (…/v2)")
    p_serve.add_argument("--demo", action="store_true", help="seed demo accounts and vessels")
    p_serve.add_argument("--log-level", default="info")
    p_serve.add_argument(
        "--poll-interval", type=float, default=5.0, help="seconds between tracking polls (0: off)"
    )
    p_serve.add_argument(
        "--workers",
        type=int,
        default=1,
        help="API processes on the port (default 1). Above 1: PostgreSQL only, and the "
        "processes do no background work (as with --no-background): run `sealane worker` beside",
    )
    p_serve.add_argument(
        "--no-background",
        action="store_true",
        help="no tracking polls, webhook deliveries or demo AIS replay in this process "
        "(`sealane worker` does them)",
    )
    p_serve.set_defaults(handler=cmd_serve)

    p_migrate = commands.add_parser(
        "migrate", help="bring the database schema and reference data up to date"
    )
    p_migrate.add_argument("--database", default=None, help="database URL")
    p_migrate.set_defaults(handler=cmd_migrate)
