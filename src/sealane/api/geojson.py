"""GeoJSON responses (RFC 7946): ``application/geo+json`` for clients that ask for it, else
``application/json``; never a JSON:API document, so the JSON:API negotiation leaves them be."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.responses import Response

GEOJSON = "application/geo+json"
PLAIN_JSON = "application/json"


class GeoJsonResponse(Response):
    """A GeoJSON object serialised with orjson, under the media type negotiated for it."""

    media_type = GEOJSON

    def render(self, content: Any) -> bytes:
        return orjson.dumps(content)


def geojson_type(accept: str | None) -> str:
    """``application/geo+json`` when ``Accept`` lists it at a quality no lower than plain JSON
    (and above 0), else ``application/json`` (RFC 7946 section 12).

    >>> geojson_type("application/geo+json"), geojson_type(None), geojson_type("*/*")
    ('application/geo+json', 'application/json', 'application/json')
    >>> geojson_type("application/json, application/geo+json;q=0.5")
    'application/json'
    """
    quality = {GEOJSON: 0.0, PLAIN_JSON: 0.0}
    for part in (accept or "").split(","):
        kind, *parameters = (piece.strip() for piece in part.split(";"))
        if kind.lower() in quality:
            quality[kind.lower()] = max(quality[kind.lower()], _q(parameters))
    return (
        GEOJSON
        if quality[GEOJSON] > 0.0 and quality[GEOJSON] >= quality[PLAIN_JSON]
        else PLAIN_JSON
    )


def _q(parameters: list[str]) -> float:
    """The ``q`` weight among a media range's parameters: 1 when absent, 0 when unreadable."""
    for parameter in parameters:
        name, _, value = parameter.partition("=")
        if name.strip().lower() == "q":
            try:
                q = float(value.strip())
            except ValueError:
                return 0.0
            return q if 0.0 <= q <= 1.0 else 0.0
    return 1.0
