"""JSON:API documents: resources, pagination, ``include`` parsing and the response class."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

import orjson
from starlette.datastructures import QueryParams
from starlette.responses import Response

MEDIA_TYPE = "application/vnd.api+json"
DEFAULT_PAGE_SIZE = 30
MAX_PAGE_SIZE = 100
MAX_PAGE_NUMBER = 1_000_000


class JsonApiResponse(Response):
    """A JSON:API document serialised with orjson."""

    media_type = MEDIA_TYPE

    def render(self, content: Any) -> bytes:
        if isinstance(content, bytes):
            return content
        return orjson.dumps(content, option=orjson.OPT_NON_STR_KEYS)


def resource(
    type_: str,
    id_: str,
    attributes: Mapping[str, Any],
    *,
    relationships: Mapping[str, Any] | None = None,
    links: Mapping[str, str] | None = None,
) -> dict[str, Any]:
    """A resource object."""
    obj: dict[str, Any] = {"id": id_, "type": type_, "attributes": dict(attributes)}
    if relationships:
        obj["relationships"] = dict(relationships)
    if links:
        obj["links"] = dict(links)
    return obj


def to_one(type_: str, id_: str | None) -> dict[str, Any]:
    """A to-one relationship object (``data`` null when there is none)."""
    return {"data": {"type": type_, "id": id_} if id_ else None}


@dataclass(frozen=True, slots=True)
class Page:
    """A page request: 1-based ``number`` and ``size`` (1 to ``MAX_PAGE_SIZE``)."""

    number: int = 1
    size: int = DEFAULT_PAGE_SIZE

    @property
    def offset(self) -> int:
        """Rows to skip."""
        return (self.number - 1) * self.size


def parse_page(params: QueryParams) -> Page:
    """``page[number]`` and ``page[size]`` from the query; a bad value is a 400 naming it."""
    from .errors import BadRequest

    values = {}
    for name, default, upper in (
        ("number", 1, MAX_PAGE_NUMBER),
        ("size", DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE),
    ):
        key = f"page[{name}]"
        raw = params.get(key)
        if raw is None:
            values[name] = default
            continue
        text = raw.strip()
        if not (text.isascii() and text.isdigit()) or not 1 <= int(text) <= upper:
            raise BadRequest(
                f"{key} must be an integer between 1 and {upper}, got {raw!r}",
                parameter=key,
                code="invalid_parameter",
            )
        value = int(text)
        values[name] = value
    return Page(values["number"], values["size"])


def page_links(self_url: str, params: QueryParams, page: Page, total: int) -> dict[str, str | None]:
    """``self``/``first``/``prev``/``next``/``last`` links for a paginated list."""
    last = max(1, -(-total // page.size))

    def link(number: int) -> str:
        query = [(k, v) for k, v in params.multi_items() if k not in ("page[number]", "page[size]")]
        query += [("page[number]", str(number)), ("page[size]", str(page.size))]
        return f"{self_url}?{urlencode(query)}"

    return {
        "self": link(page.number),
        "first": link(1),
        "prev": link(page.number - 1) if page.number > 1 else None,
        "next": link(page.number + 1) if page.number < last else None,
        "last": link(last),
    }


def parse_include(params: QueryParams, allowed: Iterable[str]) -> list[str]:
    """The ``include`` paths asked for; one outside ``allowed`` (dotted paths included) is a 400."""
    from .errors import BadRequest

    raw = params.get("include")
    if raw is None or raw.strip() == "":
        return []
    paths = [part.strip() for part in raw.split(",") if part.strip()]
    known = set(allowed)
    for path in paths:
        if path not in known:
            choices = ", ".join(sorted(known)) or "none"
            raise BadRequest(
                f"cannot include {path!r} here; allowed: {choices}",
                parameter="include",
                code="unknown_include",
            )
    return paths


def list_document(
    data: list[dict[str, Any]],
    *,
    self_url: str,
    params: QueryParams,
    page: Page,
    total: int,
    included: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A collection document with pagination links and ``meta.total``."""
    doc: dict[str, Any] = {
        "data": data,
        "links": page_links(self_url, params, page, total),
        "meta": {"total": total},
    }
    if included:
        doc["included"] = included
    return doc
