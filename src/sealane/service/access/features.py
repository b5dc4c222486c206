"""The switchable features of an account, by name: what each lets the account do. Kept apart
(no database imports) so the CLI can list them without loading the service."""

from __future__ import annotations

FEATURES = {
    "routing": "the paid routing feature (future positions, container routes and maps)",
    "ingest": "writing vessel positions (POST /v2/vessel_positions)",
}
