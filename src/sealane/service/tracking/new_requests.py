"""A new tracking request as a client states it, checked and normalised before it is stored;
each refusal is an :class:`InvalidInput` naming the attribute at fault."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from ...tracking.numbers import is_container_number, normalize_container_number
from ...vocabulary.statuses import REQUEST_TYPES
from ..core.errors import InvalidInput
from ..core.inputs import check_text, known_only, string_list
from ..fields.initial import InitialFields

#: What a new tracking request may say.
ATTRIBUTES = (
    "request_type",
    "request_number",
    "scac",
    "auto_detect_vocc_scac",
    "ref_numbers",
    "tags",
    "shipment_tags",
    "initial_custom_fields",
)
MAX_NUMBER_CHARS = 64


@dataclass(frozen=True, slots=True)
class NewTrackingRequest:
    """A request to track a number with a carrier, checked and normalised (see :meth:`of`).

    ``scac`` is None when the carrier is to be inferred from the number; ``shipment_tags`` and
    ``initial_custom_fields`` are applied to the shipment and containers once found.
    """

    request_type: str
    request_number: str
    scac: str | None
    ref_numbers: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    shipment_tags: tuple[str, ...] = ()
    customer_id: str | None = None
    initial_custom_fields: InitialFields = field(default_factory=InitialFields)

    @classmethod
    def of(
        cls, attributes: Mapping[str, Any], *, customer_id: str | None = None
    ) -> NewTrackingRequest:
        """Checked from untyped attributes (and the ``customer`` relationship's party id);
        :class:`InvalidInput` names the first bad one."""
        known_only(attributes, ATTRIBUTES)
        request_type = attributes.get("request_type")
        if request_type not in REQUEST_TYPES:
            raise InvalidInput(
                f"request_type must be one of {', '.join(REQUEST_TYPES)}, got {request_type!r}",
                field="request_type",
            )
        number = attributes.get("request_number")
        if not isinstance(number, str) or not number.strip():
            raise InvalidInput("request_number must be a non-blank string", field="request_number")
        number = check_text(number.strip(), "request_number")
        if len(number) > MAX_NUMBER_CHARS:
            raise InvalidInput(
                f"request_number is longer than {MAX_NUMBER_CHARS} characters",
                field="request_number",
            )
        if request_type == "container":
            if not is_container_number(number):
                raise InvalidInput(
                    f"{number!r} is not a valid ISO 6346 container number "
                    "(bad check digit or format)",
                    field="request_number",
                    code="invalid_number",
                )
            number = normalize_container_number(number)
        return cls(
            request_type=request_type,
            request_number=number,
            scac=_scac(attributes),
            ref_numbers=string_list(attributes.get("ref_numbers"), "ref_numbers"),
            tags=string_list(attributes.get("tags"), "tags"),
            shipment_tags=string_list(attributes.get("shipment_tags"), "shipment_tags"),
            customer_id=customer_id,
            initial_custom_fields=InitialFields.of(attributes.get("initial_custom_fields")),
        )


def _scac(attributes: Mapping[str, Any]) -> str | None:
    """The 4-character ``scac``; None (infer it) when absent and ``auto_detect_vocc_scac``."""
    scac = attributes.get("scac")
    detect = attributes.get("auto_detect_vocc_scac", False)
    if not isinstance(detect, bool):
        raise InvalidInput(
            "auto_detect_vocc_scac must be true or false", field="auto_detect_vocc_scac"
        )
    if scac is None and detect:
        return None
    if not isinstance(scac, str) or len(scac) != 4 or not scac.isascii():
        raise InvalidInput("scac must be exactly 4 characters", field="scac")
    return check_text(scac, "scac").upper()
