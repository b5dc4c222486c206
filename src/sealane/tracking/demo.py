"""Demo shipments for ``sealane serve --demo``: tracking requests in different phases."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.orm import Session

from .requests import InvalidInput, create_tracking_request, validate_new

#: Numbers whose simulated voyages begin 0-45 days before the request, so they are spread
#: across the voyage; plus the special lifecycle numbers.
DEMO_REQUESTS = (
    ("bill_of_lading", "TESTDEMO0001"),
    ("bill_of_lading", "TESTDEMO0002"),
    ("bill_of_lading", "TESTDEMO0003"),
    ("booking_number", "TESTBK0004"),
    ("container", "TSTU1000019"),
    ("bill_of_lading", "TEST-TR-AWAITING"),
    ("bill_of_lading", "TEST-TR-FAILED"),
)


def seed_demo_tracking(session: Session, account_id: str, now: datetime) -> int:
    """Create the demo tracking requests that the account does not have yet; returns how many."""
    created = 0
    for request_type, number in DEMO_REQUESTS:
        attributes = {
            "request_type": request_type,
            "request_number": number,
            "scac": "TEST",
            "ref_numbers": [f"PO-{number[-4:]}"],
            "tags": ["demo"],
        }
        try:
            new = validate_new(session, account_id, attributes)
        except InvalidInput:  # already tracked in this database
            continue
        create_tracking_request(session, account_id, new, now)
        created += 1
    return created
