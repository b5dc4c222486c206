"""What the vessel's own speed costs a future-positions request: choosing it against the whole
use case, for a vessel with none, 180 and 720 stored positions in its last six hours.

Run ``.venv/bin/python benchmarks/vessel_speed.py``. It makes a SQLite database in a temporary
folder, one vessel per count in the Arabian Sea bound from Shanghai to Rotterdam, and times in
this one process (medians after a warm-up): ``choose_speed`` (the indexed read of the positions
and the observed-speed rule), ``Positions.eta_range``, and the whole
``vessel_future_positions`` (which includes the first, and places the positions at the speed
chosen). It asserts nothing.
"""

from __future__ import annotations

import sys
import tempfile
from datetime import timedelta
from pathlib import Path

from _util import machine_lines, render_table, warm_median_ms

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.service.conftest import World, make_world
from tests.templates import prepared_sqlite
from tests.toolkit import START

from sealane.service.reference.vessel_speed import choose_speed
from sealane.service.reference.vessels import vessel_future_positions
from sealane.store.database import transaction
from sealane.store.models import Vessel, VesselPosition

COUNTS = (0, 180, 720)
REPEAT = 30


def add_vessel(world: World, imo: str, positions: int) -> str:
    """A vessel with ``positions`` reports spread evenly over the six hours before START."""
    with transaction(world.runtime.sessions) as session:
        ship = Vessel(
            name=f"Bench {imo}", imo=imo, latitude=12.3, longitude=60.1,
            nautical_speed_knots=18.0, position_timestamp=START,
        )  # fmt: skip
        session.add(ship)
        session.flush()
        for i in range(positions):
            minutes = i * 360 / positions
            session.add(
                VesselPosition(
                    vessel_id=ship.id,
                    longitude=60.1 - minutes / 600,
                    latitude=12.3,
                    speed_knots=15.0 + (i % 7) / 10,
                    timestamp=START - timedelta(minutes=minutes),
                )
            )
        return ship.id


def main() -> None:
    folder = Path(tempfile.mkdtemp(prefix="sealane-speed-"))
    world = make_world(prepared_sqlite(folder / "sealane.db"))
    ctx = world.runtime.context
    rows = []
    for n, count in enumerate(COUNTS):
        vessel = add_vessel(world, f"95100{n:02d}", count)

        def speed(vessel: str = vessel) -> object:
            with ctx.reading() as session:
                return choose_speed(session, vessel, now=START, reported_kn=18.0)

        def whole(vessel: str = vessel) -> object:
            return vessel_future_positions(
                ctx, world.routing, vessel, previous_port="CNSHA", destination_port="NLRTM"
            )

        found = vessel_future_positions(
            ctx, world.routing, vessel, previous_port="CNSHA", destination_port="NLRTM"
        )
        speed_ms = warm_median_ms(speed, REPEAT)
        range_ms = warm_median_ms(lambda found=found: found.positions.eta_range, REPEAT)
        whole_ms = warm_median_ms(whole, REPEAT)
        rows.append([
            str(count), found.speed.source, f"{speed_ms:.2f}", f"{range_ms:.2f}",
            f"{whole_ms:.1f}",
        ])  # fmt: skip
    world.runtime.stop()
    header = [
        "positions in 6 h", "speed source", "choose_speed (ms)", "eta_range (ms)",
        "vessel_future_positions (ms)",
    ]  # fmt: skip
    print(render_table("The vessel's own speed in a future-positions request", header, rows))
    print("\n".join(machine_lines(["numpy", "sqlalchemy"])))


if __name__ == "__main__":
    main()
