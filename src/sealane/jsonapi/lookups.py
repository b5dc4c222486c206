"""Resource objects of look-ups: search hits and number inferences."""

from __future__ import annotations

from typing import Any

from ..clock import utc_iso
from ..service.search import HitKind, SearchHit
from ..tracking.numbers import CarrierGuess, NumberInference
from .objects import resource

#: The reference API names a container hit ``cargo``.
HIT_TYPES = {
    HitKind.SHIPMENT: "shipment",
    HitKind.CONTAINER: "cargo",
    HitKind.TRACKING_REQUEST: "tracking_request",
}


def search_hit_resource(hit: SearchHit) -> dict[str, Any]:
    """A search result: a ``shipment``, a container (``cargo``) or a ``tracking_request``."""
    return resource(
        HIT_TYPES[hit.kind],
        hit.id,
        {
            "entity_type": hit.kind.value,
            "number": hit.number,
            "exact_match": hit.exact,
            "shipment_id": hit.shipment_id,
            "scac": hit.scac,
            "port_of_lading_name": hit.port_of_lading_name,
            "port_of_discharge_name": hit.port_of_discharge_name,
            "containers_count": hit.containers_count,
            "tracking_stopped": hit.tracking_stopped,
            "tracking_stopped_reason": hit.tracking_stopped_reason,
            "status": hit.status,
            "failed_reason": hit.failed_reason,
            "ref_numbers": list(hit.ref_numbers),
            "created_at": utc_iso(hit.created_at),
            "updated_at": utc_iso(hit.updated_at),
        },
    )


def inference_resource(number: str, found: NumberInference) -> dict[str, Any]:
    """A ``number_inference``: the number's type, whether it is valid, its likely carriers."""
    return resource(
        "number_inference",
        number,
        {
            "number_type": found.number_type,
            "request_type": found.request_type,
            "validation": {
                "is_valid": found.is_valid,
                "type": "container" if found.number_type == "container" else "shipment",
                "check_digit_passed": found.check_digit_passed,
                "parsed_number": found.parsed_number,
                "reason": found.reason,
            },
            "shipping_line": {
                "decision": found.decision,
                "selected": _guess(found.selected) if found.selected else None,
                "candidates": [_guess(guess) for guess in found.candidates],
            },
        },
    )


def _guess(guess: CarrierGuess) -> dict[str, Any]:
    return {"scac": guess.scac, "name": guess.name, "confidence": guess.confidence}
