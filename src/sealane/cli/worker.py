"""The background work's processes: ``sealane worker`` (tracking polls, webhook delivery, the
positions' retention and, with ``--demo``, the demo's AIS replay) and ``sealane webhooks
worker`` (webhook delivery alone).

Run apart from the API processes of ``sealane serve --workers N``, as many as wanted: they claim
each tracking request, shipment and webhook notification in the database, so no two work on one
at once. Layers are imported when a command runs, so the parser costs nothing at start-up.
"""

from __future__ import annotations

import argparse
import logging
import signal
from typing import TYPE_CHECKING, Any

from .settings import settings_from, warn_private

if TYPE_CHECKING:
    from ..runtime import Runtime


def cmd_worker(args: argparse.Namespace) -> int:
    """``sealane worker``: the background work, apart from the API processes: tracking polls
    and the positions' retention (threads), webhook delivery (this thread) and, with
    ``--demo``, the demo's AIS replay."""
    from ..demo import add_ais_replay
    from ..runtime import add_position_retention, build_runtime

    logging.basicConfig(level=args.log_level.upper(), format="%(asctime)s %(name)s %(message)s")
    settings = settings_from(args)
    warn_private(settings)
    runtime = build_runtime(
        settings,
        poll_interval_s=args.poll_interval,
        webhook_lease_s=args.lease,
        deliver_in_background=False,
    )
    positions = add_position_retention(runtime)
    if args.once:
        report = runtime.tracking.tick()
        attempts = runtime.webhooks.run_once()
        kept = positions.tick()
        runtime.stop()
        print(f"{report.lookups} lookups, {report.syncs} syncs, {attempts} delivery attempts")
        if kept is not None:
            print(
                f"positions removed: {len(kept.partitions)} monthly partitions,"
                f" {kept.rows} rows one by one"
            )
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
    from ..runtime import build_runtime

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
    SIGINT or SIGTERM. A signal ends the passes in flight at their next unit of work: the
    webhook sends in flight finish (each within its timeout) and are recorded, the claimed
    notifications not yet sent are handed back, the tracking pass stops before its next request
    or shipment; with ``start``, the runtime's background work runs meanwhile. A pass that fails
    (the database away) is logged and tried again."""
    import threading

    log = logging.getLogger("sealane.webhooks")
    stop = threading.Event()

    def request_stop(_signal: int, _frame: Any) -> None:
        stop.set()
        runtime.request_stop()

    for signum in (signal.SIGINT, signal.SIGTERM):
        signal.signal(signum, request_stop)
    try:
        if start:
            runtime.start()
        while not stop.is_set():
            try:
                attempts = runtime.webhooks.run_once(stop.is_set)
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


def add_worker_commands(commands: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """The ``worker`` and ``webhooks worker`` sub-commands."""
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


def _add_delivery_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--interval", type=float, default=1.0, help="seconds to wait when idle")
    parser.add_argument("--once", action="store_true", help="one pass, then exit")
    parser.add_argument(
        "--lease",
        type=float,
        default=120.0,
        help="seconds a claimed notification stays with this worker",
    )
