"""AISStream messages as its documentation lays them out, for the AISStream tests.

Every field AISStream's OpenAPI models mark required is present, with the values a real
message has where sealane does not read them.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from typing import Any

from .support import T0_S


def time_utc(time_s: float) -> str:
    """AISStream's ``MetaData.time_utc`` (Go's time format): ``2026-11-21 12:00:00.250000
    +0000 UTC``."""
    moment = datetime.fromtimestamp(time_s, UTC)
    return f"{moment:%Y-%m-%d %H:%M:%S}.{moment.microsecond:06d} +0000 UTC"


def envelope(kind: str, body: dict[str, Any], time_s: float, name: str = "") -> str:
    """The JSON text of a message of type ``kind`` whose payload is ``body``."""
    mmsi = body.get("UserID", 0)
    metadata = {
        "MMSI": mmsi,
        "MMSI_String": str(mmsi),
        "ShipName": name,
        "latitude": body.get("Latitude", 0.0),
        "longitude": body.get("Longitude", 0.0),
        "time_utc": time_utc(time_s),
    }
    return json.dumps({"MessageType": kind, "MetaData": metadata, "Message": {kind: body}})


def position_body(
    mmsi: int,
    lon: float,
    lat: float,
    *,
    sog: float = 12.0,
    cog: float = 0.0,
    heading: int = 1,
    status: int = 0,
    second: int = 60,
    message_id: int = 1,
) -> dict[str, Any]:
    """A ``PositionReport`` payload (class A, types 1-3); ``second`` 60 means "no second"."""
    return {
        "MessageID": message_id,
        "RepeatIndicator": 0,
        "UserID": mmsi,
        "Valid": True,
        "NavigationalStatus": status,
        "RateOfTurn": 0,
        "Sog": sog,
        "PositionAccuracy": True,
        "Longitude": lon,
        "Latitude": lat,
        "Cog": cog,
        "TrueHeading": heading,
        "Timestamp": second,
        "SpecialManoeuvreIndicator": 0,
        "Spare": 0,
        "Raim": False,
        "CommunicationState": 59916,
    }


def position(mmsi: int, lon: float, lat: float, time_s: float = T0_S, **fields: Any) -> str:
    """A whole ``PositionReport`` message at ``time_s``."""
    return envelope("PositionReport", position_body(mmsi, lon, lat, **fields), time_s)


def class_b(mmsi: int, lon: float, lat: float, time_s: float = T0_S, **fields: Any) -> str:
    """A ``StandardClassBPositionReport`` (type 18) message."""
    body = position_body(mmsi, lon, lat, message_id=18, **fields)
    for name in ("NavigationalStatus", "RateOfTurn", "SpecialManoeuvreIndicator", "Spare"):
        del body[name]
    body.update(
        Spare1=0,
        Spare2=0,
        ClassBUnit=True,
        ClassBDisplay=False,
        ClassBDsc=True,
        ClassBBand=True,
        ClassBMsg22=True,
        AssignedMode=False,
        CommunicationStateIsItdma=True,
    )
    return envelope("StandardClassBPositionReport", body, time_s)


def dimension(bow: int, stern: int, port: int, starboard: int) -> dict[str, int]:
    return {"A": bow, "B": stern, "C": port, "D": starboard}


def extended_class_b(
    mmsi: int, lon: float, lat: float, time_s: float = T0_S, *, name: str = "SMALL ONE"
) -> str:
    """An ``ExtendedClassBPositionReport`` (type 19): a position with name, type and size."""
    body = position_body(mmsi, lon, lat, message_id=19)
    for field in ("NavigationalStatus", "RateOfTurn", "SpecialManoeuvreIndicator", "Spare"):
        del body[field]
    body.update(
        Spare1=0,
        Spare2=0,
        Name=name + "@@@@",
        Type=37,
        Dimension=dimension(8, 4, 2, 2),
        FixType=1,
        Dte=False,
        AssignedMode=False,
        Spare3=0,
    )
    return envelope("ExtendedClassBPositionReport", body, time_s)


def ship_static(mmsi: int, time_s: float = T0_S, **changes: Any) -> str:
    """A ``ShipStaticData`` (type 5) message of a container ship bound for Rotterdam."""
    body: dict[str, Any] = {
        "MessageID": 5,
        "RepeatIndicator": 0,
        "UserID": mmsi,
        "Valid": True,
        "AisVersion": 2,
        "ImoNumber": 9074729,
        "CallSign": "PDAB   ",
        "Name": "SEALANE TEST        ",
        "Type": 71,
        "Dimension": dimension(200, 50, 16, 16),
        "FixType": 1,
        "Eta": {"Month": 11, "Day": 23, "Hour": 6, "Minute": 30},
        "MaximumStaticDraught": 12.5,
        "Destination": "NLRTM@@@@",
        "Dte": False,
        "Spare": False,
    }
    body.update(changes)
    return envelope("ShipStaticData", body, time_s)


def static_report(mmsi: int, part_b: bool, time_s: float = T0_S) -> str:
    """A ``StaticDataReport`` (type 24): part A names the vessel, part B gives type and size."""
    body = {
        "MessageID": 24,
        "RepeatIndicator": 0,
        "UserID": mmsi,
        "Valid": True,
        "Reserved": 0,
        "PartNumber": part_b,
        "ReportA": {"Valid": not part_b, "Name": "" if part_b else "LITTLE WING"},
        "ReportB": {
            "Valid": part_b,
            "ShipType": 36 if part_b else 0,
            "VendorIDName": "",
            "VenderIDModel": 0,
            "VenderIDSerial": 0,
            "CallSign": "PB1234" if part_b else "",
            "Dimension": dimension(6, 3, 1, 2) if part_b else dimension(0, 0, 0, 0),
            "FixType": 0,
            "Spare": 0,
        },
    }
    return envelope("StaticDataReport", body, time_s)
