"""The demo of ``sealane serve --demo``: two accounts, sailing vessels and tracked shipments.

It drives a whole :class:`~sealane.runtime.Runtime` (seeds, ticks tracking, adds the AIS replay to
its background work), so it sits beside the composition root, above the application layer.
"""

from __future__ import annotations

import logging
import threading

from .feeds.ais.demo import DemoReplay
from .runtime import Runtime
from .service.access.gatekeeper import Caller
from .service.core.errors import InvalidInput
from .service.tracking.requests import NewTrackingRequest, create_request
from .store.accounts import NewKey
from .store.seed import seed_demo as seed_demo_rows
from .tracking.history import seed_history

log = logging.getLogger("sealane.demo")

#: Numbers whose simulated voyages begin 0-45 days before the request, so they are spread
#: across the voyage; plus the special lifecycle numbers. TESTBK0023 is on the first of its two
#: legs (Busan -> Jebel Ali, then Hamburg) for ten days after the request, so its map shows a
#: leg not yet begun (``estimated_full_legs``) beside the vessel at sea: between them the
#: demo's containers show every kind of map feature.
DEMO_REQUESTS = (
    ("bill_of_lading", "TESTDEMO0001"),
    ("bill_of_lading", "TESTDEMO0002"),
    ("bill_of_lading", "TESTDEMO0003"),
    ("booking_number", "TESTBK0004"),
    ("booking_number", "TESTBK0023"),
    ("container", "TSTU1000019"),
    ("bill_of_lading", "TEST-TR-AWAITING"),
    ("bill_of_lading", "TEST-TR-FAILED"),
)


def seed_demo(runtime: Runtime, *, history: bool = False) -> list[tuple[str, NewKey]]:
    """Seed the demo and look its requests up once, so shipments exist before the first request;
    with ``history``, the routing account also tracks months of voyages of the simulated
    carrier's lines (:mod:`.tracking.history`), so its reliability page has figures to show
    (a served demo does that on a thread instead: :func:`add_history`).

    Returns each demo account's name and a new key (the routing account first); an existing demo
    database keeps its accounts and gets new keys.
    """
    with runtime.context.writing() as session:
        keys = seed_demo_rows(session, runtime.clock.now())
    if history:
        seed_history(runtime.tracking, keys[0][1].account_id, runtime.clock.now())
    caller = Caller(keys[0][1].account_id, routing_enabled=True)
    for request_type, number in DEMO_REQUESTS:
        attributes = {
            "request_type": request_type,
            "request_number": number,
            "scac": "TEST",
            "ref_numbers": [f"PO-{number[-4:]}"],
            "tags": ["demo"],
        }
        try:
            create_request(runtime.context, caller, NewTrackingRequest.of(attributes))
        except InvalidInput:  # already tracked in this database
            continue
    runtime.tracking.tick()
    return keys


def add_ais_replay(runtime: Runtime, *, speed: float) -> DemoReplay | None:
    """Have the runtime replay the bundled AIS sample while it runs, so the demo vessels seeded
    by :func:`seed_demo` move on from where they are (none when ``speed`` is 0).

    The replay starts and stops with the runtime (the server's lifespan), in a thread of its own;
    ``speed`` is in times real time.
    """
    if speed <= 0:
        return None
    replay = DemoReplay(runtime.sessions, runtime.clock, speed=speed)
    runtime.background.append(replay)
    return replay


class DemoHistory:
    """The demo's months of voyages (:func:`~.tracking.history.seed_history`) tracked on a
    thread of its own while the service serves, so a first start answers at once and the
    reliability figures fill in over its first minute or so (an interrupted history is finished
    at the next start)."""

    def __init__(self, runtime: Runtime, account_id: str, *, shipments: int = 200) -> None:
        self._runtime = runtime
        self._account_id = account_id
        self._shipments = shipments
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="sealane-demo-history", daemon=True)

    def start(self) -> None:
        self._thread.start()

    def stop(self, timeout_s: float = 30.0) -> None:
        """Ask the thread to end after the voyage in hand, and wait for it."""
        self._stopping.set()
        if self._thread.is_alive():
            self._thread.join(timeout_s)

    def _run(self) -> None:
        runtime = self._runtime
        try:
            added = seed_history(
                runtime.tracking,
                self._account_id,
                runtime.clock.now(),
                shipments=self._shipments,
                stopping=self._stopping.is_set,
            )
        except Exception:  # the demo serves on without its history
            log.exception("the demo's history could not be tracked")
            return
        if added:
            log.info("the demo's history: %d voyages tracked", added)


def add_history(runtime: Runtime, account_id: str) -> DemoHistory:
    """Have the runtime track the demo's history on a thread while it runs (started and stopped
    with it, as the AIS replay is)."""
    history = DemoHistory(runtime, account_id)
    runtime.background.append(history)
    return history
