"""Custom fields: ``/custom_field_definitions`` (with their ``options``), ``/custom_fields``, and
the fields of one object under ``/shipments``, ``/containers`` and ``/tracking_requests``."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from starlette.responses import Response

from ...jsonapi import Included
from ...jsonapi.fields import custom_field_resource, definition_resource, option_resource
from ...service.access.gatekeeper import Caller
from ...service.core.inputs import known_only
from ...service.fields import definitions, options, values
from ...service.fields.records import CustomFieldRecord, DefinitionRecord, OptionRecord
from ...service.fields.types import DATA_TYPES, ENTITY_TYPES
from .. import bodies
from ..bodies import body
from ..documents import attributes_of, relationship
from ..errors import Unprocessable
from ..jsonapi import JsonApiResponse
from ..listing import Paging, choice, text
from ..operations import ApiRoute
from ..params import authenticated, blank_none
from ..render import deleted, many, one
from ..state import context_of
from .responses import DELETED, ERRORS

router = APIRouter(tags=["custom_fields"], route_class=ApiRoute)
Auth = Annotated[Caller, Depends(authenticated)]
DEFINITIONS = "/custom_field_definitions"
OPTIONS = DEFINITIONS + "/{definition_id}/options"
#: A definition's ``entity_type`` (``Shipment``) or the resource type it applies to.
_KINDS = (*ENTITY_TYPES, *ENTITY_TYPES.values())
NewValue = Annotated[Any, body(bodies.NEW_OBJECT_FIELD)]
ValueChange = Annotated[Any, body(bodies.OBJECT_FIELD_CHANGE)]


def render_definition(included: Included, record: DefinitionRecord) -> dict[str, Any]:
    """A custom field definition."""
    return definition_resource(record, included.base)


def render_option(included: Included, record: OptionRecord) -> dict[str, Any]:
    """An option of an enumeration."""
    return option_resource(record, included.base)


def render_field(included: Included, record: CustomFieldRecord) -> dict[str, Any]:
    """A custom field's value on an object."""
    return custom_field_resource(record, included.base)


def value_of(payload: Any, *, new: bool = False, id_: str | None = None) -> tuple[Any, Any]:
    """(``api_slug``, ``value``) of a custom field document (``api_slug`` only when ``new``);
    any other attribute is refused."""
    attributes = attributes_of(payload, "custom_field", id_=id_)
    known_only(attributes, ("api_slug", "value") if new else ("value",))
    if "value" not in attributes:
        raise Unprocessable(
            "value is required (null clears it)", pointer="/data/attributes/value", code="invalid"
        )
    return (attributes.get("api_slug") if new else None), attributes["value"]


# -- definitions -------------------------------------------------------------------------------


@router.get(DEFINITIONS, response_class=JsonApiResponse, responses=ERRORS)
def list_definitions(
    request: Request,
    caller: Auth,
    page: Paging,
    entity_type: Annotated[str | None, choice(ENTITY_TYPES, alias="filter[entity_type]")] = None,
    data_type: Annotated[str | None, choice(DATA_TYPES, alias="filter[data_type]")] = None,
    display_name: Annotated[str | None, text(alias="filter[display_name]")] = None,
) -> JsonApiResponse:
    """The account's definitions; ``filter[display_name]`` is a prefix (any case)."""
    filters = definitions.DefinitionFilter(
        entity_type=entity_type, data_type=data_type, display_name=blank_none(display_name)
    )
    found = definitions.list_definitions(context_of(request), caller, filters, page)
    return many(request, found, "custom_field_definitions", render_definition)


@router.post(DEFINITIONS, status_code=201, response_class=JsonApiResponse, responses=ERRORS)
def create_definition(
    request: Request, caller: Auth, payload: Annotated[Any, body(bodies.NEW_DEFINITION)]
) -> JsonApiResponse:
    """A new definition (``entity_type``, ``api_slug``, ``display_name``, ``data_type``...)."""
    attributes = attributes_of(payload, "custom_field_definition")
    changes = definitions.DefinitionChanges.of(attributes, new=True)
    created = definitions.create_definition(context_of(request), caller, changes)
    return one(request, created, render_definition, status_code=201)


@router.get(DEFINITIONS + "/{definition_id}", response_class=JsonApiResponse, responses=ERRORS)
def get_definition(request: Request, definition_id: str, caller: Auth) -> JsonApiResponse:
    """One definition."""
    found = definitions.get_definition(context_of(request), caller, definition_id)
    return one(request, found, render_definition)


@router.patch(DEFINITIONS + "/{definition_id}", response_class=JsonApiResponse, responses=ERRORS)
def update_definition(
    request: Request,
    definition_id: str,
    caller: Auth,
    payload: Annotated[Any, body(bodies.DEFINITION_CHANGES)],
) -> JsonApiResponse:
    """Change a definition's name, description, validation, format or default value."""
    attributes = attributes_of(payload, "custom_field_definition", id_=definition_id)
    changes = definitions.DefinitionChanges.of(attributes)
    found = definitions.update_definition(context_of(request), caller, definition_id, changes)
    return one(request, found, render_definition)


@router.delete(DEFINITIONS + "/{definition_id}", response_class=JsonApiResponse, responses=DELETED)
def delete_definition(request: Request, definition_id: str, caller: Auth) -> JsonApiResponse:
    """Remove a definition with its options and values; 200 with ``meta``."""
    definitions.delete_definition(context_of(request), caller, definition_id)
    return deleted(definition_id)


# -- options -----------------------------------------------------------------------------------


@router.get(OPTIONS, response_class=JsonApiResponse, responses=ERRORS)
def list_options(
    request: Request, definition_id: str, caller: Auth, page: Paging
) -> JsonApiResponse:
    """A definition's options by position."""
    found = options.list_options(context_of(request), caller, definition_id, page)
    path = f"custom_field_definitions/{definition_id}/options"
    return many(request, found, path, render_option)


@router.post(OPTIONS, status_code=201, response_class=JsonApiResponse, responses=ERRORS)
def create_option(
    request: Request,
    definition_id: str,
    caller: Auth,
    payload: Annotated[Any, body(bodies.NEW_OPTION)],
) -> JsonApiResponse:
    """Add an option (``label``, ``value``, ``position``) to an enumeration."""
    changes = options.OptionChanges.of(attributes_of(payload, "custom_field_option"), new=True)
    created = options.create_option(context_of(request), caller, definition_id, changes)
    return one(request, created, render_option, status_code=201)


@router.get(OPTIONS + "/{option_id}", response_class=JsonApiResponse, responses=ERRORS)
def get_option(
    request: Request, definition_id: str, option_id: str, caller: Auth
) -> JsonApiResponse:
    """One option."""
    found = options.get_option(context_of(request), caller, definition_id, option_id)
    return one(request, found, render_option)


@router.patch(OPTIONS + "/{option_id}", response_class=JsonApiResponse, responses=ERRORS)
def update_option(
    request: Request,
    definition_id: str,
    option_id: str,
    caller: Auth,
    payload: Annotated[Any, body(bodies.OPTION_CHANGES)],
) -> JsonApiResponse:
    """Change an option's label or position."""
    attributes = attributes_of(payload, "custom_field_option", id_=option_id)
    changes = options.OptionChanges.of(attributes)
    found = options.update_option(context_of(request), caller, definition_id, option_id, changes)
    return one(request, found, render_option)


@router.delete(OPTIONS + "/{option_id}", response_class=JsonApiResponse, responses=DELETED)
def delete_option(
    request: Request, definition_id: str, option_id: str, caller: Auth
) -> JsonApiResponse:
    """Remove an option; 200 with ``meta``."""
    options.delete_option(context_of(request), caller, definition_id, option_id)
    return deleted(option_id)


# -- values ------------------------------------------------------------------------------------


@router.get("/custom_fields", response_class=JsonApiResponse, responses=ERRORS)
def list_fields(
    request: Request,
    caller: Auth,
    page: Paging,
    entity_type: Annotated[str | None, choice(_KINDS, alias="filter[entity_type]")] = None,
    entity_id: Annotated[str | None, text(64, alias="filter[entity_id]")] = None,
    definition_id: Annotated[str | None, text(64, alias="filter[definition_id]")] = None,
) -> JsonApiResponse:
    """The account's custom field values."""
    filters = values.FieldFilter(
        entity_type=entity_type,
        entity_id=blank_none(entity_id),
        definition_id=blank_none(definition_id),
    )
    found = values.list_fields(context_of(request), caller, filters, page)
    return many(request, found, "custom_fields", render_field)


@router.post("/custom_fields", status_code=201, response_class=JsonApiResponse, responses=ERRORS)
def create_field(
    request: Request, caller: Auth, payload: Annotated[Any, body(bodies.NEW_FIELD)]
) -> JsonApiResponse:
    """Set a field (``api_slug``, ``value``) on the object named by ``relationships.entity``."""
    api_slug, value = value_of(payload, new=True)
    named = relationship(payload, "entity")
    if named is None:
        raise Unprocessable(
            "relationships.entity is required", pointer="/data/relationships/entity", code="invalid"
        )
    entity = values.Entity(*named)
    created = values.create_field(context_of(request), caller, entity, api_slug, value)
    return one(request, created, render_field, status_code=201)


@router.get("/custom_fields/{field_id}", response_class=JsonApiResponse, responses=ERRORS)
def get_field(request: Request, field_id: str, caller: Auth) -> JsonApiResponse:
    """One custom field value."""
    return one(request, values.get_field(context_of(request), caller, field_id), render_field)


@router.patch("/custom_fields/{field_id}", response_class=JsonApiResponse, responses=ERRORS)
def update_field(
    request: Request,
    field_id: str,
    caller: Auth,
    payload: Annotated[Any, body(bodies.FIELD_CHANGE)],
) -> JsonApiResponse:
    """Change a custom field's ``value``."""
    _, value = value_of(payload, id_=field_id)
    found = values.update_field(context_of(request), caller, field_id, value)
    return one(request, found, render_field)


@router.delete("/custom_fields/{field_id}", response_class=JsonApiResponse, responses=DELETED)
def delete_field(request: Request, field_id: str, caller: Auth) -> JsonApiResponse:
    """Remove a custom field value; 200 with ``meta``."""
    values.delete_field(context_of(request), caller, field_id)
    return deleted(field_id)


# -- the fields of one object ------------------------------------------------------------------


def _object_routes(collection: str, entity_type: str) -> None:
    """``GET/POST /<collection>/{id}/custom_fields`` and ``PATCH/DELETE .../{api_slug}``."""
    base = f"/{collection}/{{object_id}}/custom_fields"

    def list_(request: Request, object_id: str, caller: Auth, page: Paging) -> JsonApiResponse:
        entity = values.Entity(entity_type, object_id)
        found = values.entity_fields(context_of(request), caller, entity, page)
        return many(request, found, f"{collection}/{object_id}/custom_fields", render_field)

    def create(
        request: Request, object_id: str, caller: Auth, payload: NewValue
    ) -> JsonApiResponse:
        api_slug, value = value_of(payload, new=True)
        entity = values.Entity(entity_type, object_id)
        created = values.create_field(context_of(request), caller, entity, api_slug, value)
        return one(request, created, render_field, status_code=201)

    def update(
        request: Request, object_id: str, api_slug: str, caller: Auth, payload: ValueChange
    ) -> JsonApiResponse:
        _, value = value_of(payload)
        entity = values.Entity(entity_type, object_id)
        found = values.update_entity_field(context_of(request), caller, entity, api_slug, value)
        return one(request, found, render_field)

    def delete(request: Request, object_id: str, api_slug: str, caller: Auth) -> Response:
        entity = values.Entity(entity_type, object_id)
        values.delete_entity_field(context_of(request), caller, entity, api_slug)
        return Response(status_code=204)

    _register(base, entity_type, list_, create, update, delete)


def _register(base: str, entity_type: str, *handlers: Any) -> None:
    """Add an object kind's four custom field operations to the router, documented."""
    list_, create, update, delete = handlers
    kind = entity_type.replace("_", " ")
    list_.__doc__ = f"The custom field values of a {kind}."
    create.__doc__ = f"Set a custom field (``api_slug``, ``value``) on a {kind}."
    update.__doc__ = f"Change the value of a {kind}'s custom field."
    delete.__doc__ = f"Remove a custom field from a {kind} (204)."
    name = f"{entity_type}_custom_fields"
    json_api: dict[str, Any] = {"response_class": JsonApiResponse, "responses": ERRORS}
    router.get(base, name=f"list_{name}", **json_api)(list_)
    router.post(base, status_code=201, name=f"create_{name}", **json_api)(create)
    router.patch(base + "/{api_slug}", name=f"update_{name}", **json_api)(update)
    router.delete(base + "/{api_slug}", status_code=204, responses=ERRORS, name=f"delete_{name}")(
        delete
    )


for _collection, _entity in (
    ("tracking_requests", "tracking_request"),
    ("shipments", "shipment"),
    ("containers", "container"),
):
    _object_routes(_collection, _entity)
