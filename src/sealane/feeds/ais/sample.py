"""Generated AIS traffic: NMEA sentences (with tag-block times) of vessels sailing real sea lanes.

Positions come from the routing engine's future positions (one per minute, interpolated between
minutes), encoded by pyais as type 1 reports every few seconds and type 5 static data every six
minutes. It makes the demo sample ``data/ais_demo.nmea`` (``python -m sealane.feeds.ais.sample``)
and the benchmark's traffic; it is generated data, not a recording.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import reduce
from operator import xor
from pathlib import Path

import numpy as np
from pyais import encode_dict

from ...routing.data import data_dir
from ...routing.voyage import future_positions

#: Where the demo sample starts (shifted to the present when the demo replays it).
DEMO_START = datetime(2026, 1, 1, tzinfo=UTC)
DEMO_HOURS = 6.0


@dataclass(frozen=True, slots=True)
class SampleVessel:
    """A vessel sailing ``previous_port`` -> ``destination_port``, ``hours_sailed`` in at start."""

    mmsi: int
    imo: str
    name: str
    previous_port: str
    destination_port: str
    speed_kn: float
    hours_sailed: float


def tagged(sentence: str, time_s: float) -> str:
    """``sentence`` behind an NMEA 4 tag block carrying its receiver time (``c:``)."""
    body = f"c:{int(time_s)}"
    return f"\\{body}*{reduce(xor, body.encode(), 0):02X}\\{sentence}"


def voyage_lines(
    vessel: SampleVessel,
    start_s: float,
    duration_s: float,
    rng: random.Random,
    *,
    interval_s: tuple[float, float] = (2.0, 12.0),
    static_every_s: float = 360.0,
) -> list[tuple[float, str]]:
    """The vessel's sentences over ``duration_s`` from ``start_s`` (UNIX seconds), timed."""
    departed_s = start_s - vessel.hours_sailed * 3600.0
    track = future_positions(
        _port_coordinates(vessel.previous_port),
        vessel.previous_port,
        vessel.destination_port,
        speed_kn=vessel.speed_kn,
        start_time=datetime.fromtimestamp(departed_s, UTC),
        step_s=60.0,
    )
    minutes = (np.arange(len(track)) * 60.0) + departed_s
    out: list[tuple[float, str]] = []
    t = start_s + rng.uniform(0.0, interval_s[1])
    while t < min(start_s + duration_s, float(minutes[-1])):
        lon = float(np.interp(t, minutes, track.lons))
        lat = float(np.interp(t, minutes, track.lats))
        heading = float(track.headings_deg[min(int((t - departed_s) // 60), len(track) - 1)])
        out.append((t, _position_sentence(vessel, lon, lat, heading, t, rng)))
        t += rng.uniform(*interval_s)
    t = start_s + rng.uniform(0.0, static_every_s)
    while t < start_s + duration_s:
        for sentence in _static_sentences(vessel, rng):
            out.append((t, sentence))
        t += static_every_s
    return out


def sample_lines(
    vessels: list[SampleVessel], start_s: float, duration_s: float, seed: int = 1
) -> list[str]:
    """Every vessel's sentences, merged in time order, each with its tag block."""
    rng = random.Random(seed)
    timed: list[tuple[float, int, str]] = []
    for vessel in vessels:
        for order, (t, sentence) in enumerate(voyage_lines(vessel, start_s, duration_s, rng)):
            timed.append((t, order, sentence))
    timed.sort(key=lambda item: (item[0], item[1]))
    return [tagged(sentence, t) for t, _order, sentence in timed]


def _position_sentence(
    vessel: SampleVessel, lon: float, lat: float, course: float, t: float, rng: random.Random
) -> str:
    data: dict[str, str | int | float | bytes | bool] = {
        "type": 1,
        "mmsi": vessel.mmsi,
        "status": 0,
        "speed": round(vessel.speed_kn + rng.uniform(-0.3, 0.3), 1),
        "lon": round(lon, 5),
        "lat": round(lat, 5),
        "course": round(course % 360.0, 1),
        "heading": round(course) % 360,
        "second": int(t) % 60,
    }
    return encode_dict(data, sentence_type="VDM", radio_channel=rng.choice("AB"))[0]


def _static_sentences(vessel: SampleVessel, rng: random.Random) -> list[str]:
    data: dict[str, str | int | float | bytes | bool] = {
        "type": 5,
        "mmsi": vessel.mmsi,
        "imo": int(vessel.imo),
        "shipname": vessel.name.upper()[:20],
        "callsign": f"S{vessel.mmsi % 10000:04d}",
        "ship_type": 71,
        "destination": vessel.destination_port,
    }
    seq = rng.randrange(10)
    return list(encode_dict(data, sentence_type="VDM", radio_channel="A", seq_id=seq))


def _port_coordinates(locode: str) -> tuple[float, float]:
    from ...routing.ports import get_port

    return get_port(locode).coordinates


def demo_vessels() -> list[SampleVessel]:
    """The demo vessels of ``sealane serve --demo`` (``store.seed.DEMO_VESSELS``)."""
    from ...store.seed import DEMO_VESSELS

    return [
        SampleVessel(
            int(v.mmsi),
            v.imo,
            v.name,
            v.previous_port,
            v.destination_port,
            v.speed_kn,
            v.hours_sailed,
        )
        for v in DEMO_VESSELS
    ]


def demo_sample_path() -> Path:
    """The bundled demo sample."""
    return data_dir() / "ais_demo.nmea"


def write_demo_sample(path: Path | None = None) -> Path:
    """Generate the demo sample: the demo vessels, ``DEMO_HOURS`` from ``DEMO_START``."""
    target = path or demo_sample_path()
    lines = sample_lines(demo_vessels(), DEMO_START.timestamp(), DEMO_HOURS * 3600.0)
    target.write_text("".join(line + "\n" for line in lines), encoding="ascii")
    return target


if __name__ == "__main__":
    print(write_demo_sample())
