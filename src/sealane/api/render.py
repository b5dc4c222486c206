"""Records to responses: one resource or a page, with what the records carry as ``included``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar

import orjson
from fastapi import Request

from ..jsonapi import Included, collection_document, single_document
from ..jsonapi.reuse import RenderedResources
from ..service.access.gatekeeper import Caller
from ..service.core.context import ServiceContext
from ..service.core.paging import Page
from ..service.tracking.pages import ReadPage
from .jsonapi import JsonApiResponse
from .kept_pages import KeptPages, kept_page
from .state import context_of, state_of

T = TypeVar("T")
Render = Callable[[Included, T], dict[str, Any]]


def base_url(request: Request) -> str:
    """The public API base that links start with."""
    return state_of(request).settings.base_url


def one(
    request: Request, record: T, render: Render[T], *, status_code: int = 200
) -> JsonApiResponse:
    """A document of one resource (201 answers carry its ``Location``)."""
    included = Included(base_url(request))
    doc = single_document(render(included, record), included)
    headers = {"Location": doc["links"]["self"]} if status_code == 201 else None
    return JsonApiResponse(doc, status_code=status_code, headers=headers)


def rendered_resources(request: Request) -> RenderedResources | None:
    """The resource objects the app keeps for its lists (None when it keeps none)."""
    kept: RenderedResources | None = getattr(request.app.state, "rendered", None)
    return kept


def many(request: Request, page: Page[T], path: str, render: Render[T]) -> JsonApiResponse:
    """A page of resources with links that keep the request's other parameters; resources
    unchanged since an earlier page are not rendered again (see :mod:`sealane.jsonapi.reuse`)."""
    return JsonApiResponse(_page_document(request, page, path, render))


def kept(
    request: Request,
    caller: Caller,
    path: str,
    read: Callable[[ServiceContext], ReadPage[T]],
    render: Render[T],
) -> JsonApiResponse:
    """A page of resources as :func:`many` renders it, the bytes kept while the rows ``read``
    read are unchanged (:func:`.kept_pages.kept_page`). The bytes depend on the account, the
    path, the query string (the links keep it, in its order) and the base URL besides the rows:
    those are the key."""
    pages: KeptPages = request.app.state.pages
    key = (caller.account_id, path, request.url.query, base_url(request))
    context = context_of(request)

    def body(page: Page[T]) -> bytes:
        document = _page_document(request, page, path, render)
        return orjson.dumps(document, option=orjson.OPT_NON_STR_KEYS)

    return JsonApiResponse(kept_page(pages, key, context, lambda: read(context), body))


def _page_document(request: Request, page: Page[T], path: str, render: Render[T]) -> dict[str, Any]:
    base = base_url(request)
    included = Included(base, reuse=rendered_resources(request))
    data = [render(included, item) for item in page.items]
    doc = collection_document(
        data,
        page,
        self_url=f"{base}/{path}",
        query=request.query_params.multi_items(),
        included=included,
    )
    if included.reuse is not None:  # objects kept serialised are copied as they are
        for member in ("data", "included"):
            if member in doc:
                doc[member] = [included.reuse.serialised(obj) for obj in doc[member]]
    return doc


def deleted(object_id: str) -> JsonApiResponse:
    """The answer to a deletion: 200 with a document of top-level ``meta`` only (JSON:API)."""
    return JsonApiResponse({"meta": {"deleted": object_id}})
