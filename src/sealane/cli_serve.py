"""The service's processes: ``sealane serve`` (one API process, or ``--workers N`` of them on one
port), ``sealane worker`` (the background work apart from them), ``sealane webhooks worker``
(webhook delivery alone) and ``sealane migrate``.

One ``sealane serve`` does everything: it answers the API and, in threads beside it, polls the
carriers, delivers webhooks and (``--demo``) replays the demo's AIS sample. With ``--workers N``
(PostgreSQL only) the N API processes do no background work; ``sealane worker`` processes do it,
as many as wanted: they claim each tracking request, shipment and webhook notification in the
database, so no two work on one at once.

Layers are imported when a command runs, so the parser costs nothing at start-up.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import sys
from typing import TYPE_CHECKING, Any

from .cli_settings import settings_from, with_base_url

if TYPE_CHECKING:
    from fastapi import FastAPI

    from .config import Settings
    from .runtime import Runtime

#: The interpreter's thread switch interval in the server, in seconds (Python's default is 5 ms).
#: A worker thread computing future positions holds the GIL between its numpy and C calls; with
#: 5 ms the event loop kept waiting for it while sending the response (a 25-day voyage measured
#: 0.3-3 ms slower than with 0.5 or 1 ms, which measured alike).
SERVER_SWITCH_INTERVAL_S = 0.0005
#: What each of the ``serve --workers N`` processes imports and calls to build its app.
APP_FACTORY = "sealane.cli_serve:served_app"


def cmd_serve(args: argparse.Namespace) -> int:
    """``sealane serve``: run the API on uvicorn (``--demo`` seeds demo accounts and vessels,
    and replays the bundled AIS sample while it serves, unless ``SEALANE_AIS_DEMO=off``)."""
    from .api.app import create_app
    from .demo import add_ais_replay, seed_demo

    settings = with_base_url(settings_from(args), args)
    warn_private(settings)
    if args.workers < 1:
        raise ValueError(f"--workers must be 1 or more, got {args.workers}")
    if args.workers > 1:
        return _serve_processes(args, settings)
    background = not args.no_background
    app = create_app(settings, poll_interval_s=args.poll_interval if background else None)
    if args.demo:
        keys = seed_demo(app.state.sealane)
        if background:
            add_ais_replay(app.state.sealane, speed=settings.ais_demo_speed)
        print_demo(settings, [(name, key.secret) for name, key in keys])
    sys.setswitchinterval(SERVER_SWITCH_INTERVAL_S)
    run_server(app, args, settings)
    return 0


def _serve_processes(args: argparse.Namespace, settings: Settings) -> int:
    """``serve --workers N``: migrate once here, then uvicorn starts N processes that each build
    the app from the environment (:func:`served_app`), without background work."""
    from .demo import seed_demo
    from .runtime import build_runtime, prepare_database
    from .web.secret import secret_key

    if settings.database_url.startswith("sqlite"):
        raise ValueError(
            f"--workers {args.workers} needs PostgreSQL (--database or SEALANE_DATABASE_URL "
            "postgresql://...): SQLite lets one process write at a time, so several API "
            "processes would wait on each other and fail with 'database is locked'. "
            "On SQLite run one API process"
        )
    prepare_database(settings)
    secret_key(settings)  # a generated web key's file made once here, not by N processes at once
    if args.demo:
        runtime = build_runtime(settings, migrate=False)
        try:
            keys = seed_demo(runtime)
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
    from .api.app import create_app
    from .config import Settings

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


def cmd_worker(args: argparse.Namespace) -> int:
    """``sealane worker``: the background work, apart from the API processes: tracking polls
    (a thread), webhook delivery (this thread) and, with ``--demo``, the demo's AIS replay."""
    from .demo import add_ais_replay
    from .runtime import build_runtime

    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    settings = settings_from(args)
    warn_private(settings)
    runtime = build_runtime(
        settings,
        poll_interval_s=args.poll_interval,
        webhook_lease_s=args.lease,
        deliver_in_background=False,
    )
    if args.once:
        report = runtime.tracking.tick()
        attempts = runtime.webhooks.run_once()
        runtime.stop()
        print(f"{report.lookups} lookups, {report.syncs} syncs, {attempts} delivery attempts")
        return 0
    if args.demo:
        add_ais_replay(runtime, speed=settings.ais_demo_speed)
    logging.getLogger("sealane").info(
        "worker started: tracking polls every %s s, webhook leases of %s s",
        args.poll_interval,
        args.lease,
    )
    return _deliver_until_stopped(runtime, args.interval, start=True)


def cmd_webhooks_worker(args: argparse.Namespace) -> int:
    """``sealane webhooks worker``: deliver webhook notifications from the database, forever
    (``sealane worker`` does this and the rest of the background work)."""
    from .runtime import build_runtime

    settings = settings_from(args)
    warn_private(settings)
    runtime = build_runtime(settings, webhook_lease_s=args.lease)
    if args.once:
        attempts = runtime.webhooks.run_once()
        runtime.stop()
        print(f"{attempts} delivery attempts")
        return 0
    return _deliver_until_stopped(runtime, args.interval, start=False)


def _deliver_until_stopped(runtime: Runtime, idle_s: float, *, start: bool) -> int:
    """Deliver webhooks in passes (waiting ``idle_s`` after a pass with nothing due) until
    SIGINT or SIGTERM, which let the pass in flight finish and record its attempts; with
    ``start``, the runtime's background work runs meanwhile (and its pass in flight finishes
    too). A pass that fails (the database away) is logged and tried again."""
    import threading

    log = logging.getLogger("sealane.webhooks")
    stop = threading.Event()

    def request_stop(_signal: int, _frame: Any) -> None:
        stop.set()

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, request_stop)
    try:
        if start:
            runtime.start()
        while not stop.is_set():
            try:
                attempts = runtime.webhooks.run_once()
            except Exception:
                log.exception("delivery pass failed")
                attempts = 0
            if attempts:
                log.info("%d delivery attempts", attempts)
            else:
                stop.wait(idle_s)
        return 0
    finally:
        runtime.stop()


def cmd_migrate(args: argparse.Namespace) -> int:
    """``sealane migrate``: bring the database's schema and reference data up to date."""
    from .runtime import prepare_database

    prepare_database(settings_from(args))
    print("the database is up to date")
    return 0


def warn_private(settings: Settings) -> None:
    """Say loudly that webhooks may reach private addresses, when they may."""
    if settings.webhook_allow_private:
        print(
            "WARNING: SEALANE_WEBHOOK_ALLOW_PRIVATE is on: webhooks may call http and private "
            "addresses. Use it only for local development and tests.",
            file=sys.stderr,
        )


def add_process_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``serve``, ``worker``, ``webhooks worker`` and ``migrate`` sub-commands."""
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

    p_work = commands.add_parser(
        "worker", help="run the background work: tracking polls, webhook delivery (any number)"
    )
    p_work.add_argument("--database", default=None, help="database URL")
    p_work.add_argument(
        "--poll-interval", type=float, default=5.0, help="seconds between tracking polls"
    )
    _add_delivery_options(p_work)
    p_work.add_argument(
        "--demo",
        action="store_true",
        help="also replay the demo's AIS sample (after `serve --demo`; in one worker only)",
    )
    p_work.add_argument("--log-level", default="info")
    p_work.set_defaults(handler=cmd_worker)

    p_webhooks = commands.add_parser("webhooks", help="webhook delivery")
    webhook_commands = p_webhooks.add_subparsers(dest="webhooks_command", required=True)
    p_deliver = webhook_commands.add_parser(
        "worker", help="run a delivery worker process (webhooks only; see `sealane worker`)"
    )
    p_deliver.add_argument("--database", default=None, help="database URL")
    _add_delivery_options(p_deliver)
    p_deliver.set_defaults(handler=cmd_webhooks_worker)

    p_migrate = commands.add_parser(
        "migrate", help="bring the database schema and reference data up to date"
    )
    p_migrate.add_argument("--database", default=None, help="database URL")
    p_migrate.set_defaults(handler=cmd_migrate)


def _add_delivery_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--interval", type=float, default=1.0, help="seconds to wait when idle")
    parser.add_argument("--once", action="store_true", help="one pass, then exit")
    parser.add_argument(
        "--lease",
        type=float,
        default=120.0,
        help="seconds a claimed notification stays with this worker",
    )
