"""What sealane asks AISStream for: the subscription message, and the checks of its parts.

AISStream's subscription (its documentation and published models): within 3 s of connecting,
``{"APIKey": ..., "BoundingBoxes": [[[lat, lon], [lat, lon]], ...], "FiltersShipMMSI": [...],
"FilterMessageTypes": [...]}``. A box is two opposite corners, each **latitude first**; sealane
takes ``lon1, lat1, lon2, lat2`` like everything else it reads, and turns them round here.
MMSIs are 9-character strings; the message types asked for are those sealane reads.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from typing import NamedTuple

from websockets.exceptions import WebSocketException
from websockets.uri import parse_uri

from .aisstream_messages import USED_TYPES


class Box(NamedTuple):
    """Two opposite corners of a subscription's area, in degrees: (lon, lat) and (lon, lat)."""

    lon1: float
    lat1: float
    lon2: float
    lat2: float


#: The whole world, when no box is given (AISStream needs at least one).
WORLD = Box(-180.0, -90.0, 180.0, 90.0)


def parse_box(text: str) -> Box:
    """``LON1,LAT1,LON2,LAT2`` in degrees as a :class:`Box` (ValueError if not one).

    >>> parse_box("3.5,51,5,52.5")
    Box(lon1=3.5, lat1=51.0, lon2=5.0, lat2=52.5)
    """
    parts = text.split(",")
    try:
        lon1, lat1, lon2, lat2 = (float(part) for part in parts)
    except ValueError:
        raise ValueError(f"not a LON1,LAT1,LON2,LAT2 box: {text!r}") from None
    values = (lon1, lat1, lon2, lat2)
    if not all(math.isfinite(v) for v in values):
        raise ValueError(f"not a LON1,LAT1,LON2,LAT2 box: {text!r}")
    if not (-180.0 <= lon1 <= 180.0 and -180.0 <= lon2 <= 180.0):
        raise ValueError(f"box longitudes must be in [-180, 180]: {text!r}")
    if not (-90.0 <= lat1 <= 90.0 and -90.0 <= lat2 <= 90.0):
        raise ValueError(f"box latitudes must be in [-90, 90]: {text!r}")
    return Box(*values)


def parse_mmsi(text: str) -> str:
    """A 9-digit MMSI as AISStream's filter takes it (a string); ValueError if not one."""
    if len(text) != 9 or not text.isdigit() or not text.isascii():
        raise ValueError(f"an MMSI is 9 digits: {text!r}")
    return text


def check_url(url: str) -> str:
    """``url`` if it is a ``ws://`` or ``wss://`` URL with a host and no user or password
    (it is logged); ValueError if not."""
    try:
        parsed = parse_uri(url)
    except (WebSocketException, ValueError):
        raise ValueError(f"not a ws:// or wss:// URL: {url!r}") from None
    if parsed.username is not None or parsed.password is not None:
        raise ValueError("a user or password in the URL is not supported (the key is separate)")
    return url


@dataclass(frozen=True)
class Subscription:
    """What to ask AISStream for; the key is left out of the repr."""

    api_key: str = field(repr=False)
    boxes: tuple[Box, ...] = (WORLD,)
    mmsis: tuple[str, ...] = ()
    message_types: tuple[str, ...] = USED_TYPES

    def message(self) -> str:
        """The subscription message (corners turned to AISStream's [lat, lon] order)."""
        document: dict[str, object] = {
            "APIKey": self.api_key,
            "BoundingBoxes": [[[b.lat1, b.lon1], [b.lat2, b.lon2]] for b in self.boxes or (WORLD,)],
            "FilterMessageTypes": list(self.message_types),
        }
        if self.mmsis:
            document["FiltersShipMMSI"] = list(self.mmsis)
        return json.dumps(document)
