"""Parameter declarations every router shares (for OpenAPI; values are parsed by ``params``)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Body, Query

#: ``page[number]`` / ``page[size]`` as declared in OpenAPI (checked again by ``parse_page``).
PageNumber = Annotated[str | None, Query(alias="page[number]", pattern=r"^[0-9]{1,7}$")]
PageSize = Annotated[str | None, Query(alias="page[size]", pattern=r"^[0-9]{1,3}$")]
Include = Annotated[str | None, Query()]
#: A JSON:API request document.
Payload = Annotated[Any, Body(media_type="application/vnd.api+json")]
