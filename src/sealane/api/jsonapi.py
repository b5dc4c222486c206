"""The JSON:API response class: documents serialised with orjson under the JSON:API media type."""

from __future__ import annotations

from typing import Any

import orjson
from starlette.responses import Response

MEDIA_TYPE = "application/vnd.api+json"


class JsonApiResponse(Response):
    """A JSON:API document serialised with orjson (bytes are sent as they are)."""

    media_type = MEDIA_TYPE

    def render(self, content: Any) -> bytes:
        if isinstance(content, bytes):
            return content
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)
