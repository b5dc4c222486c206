"""Reliability: carrier and lane figures from the account's own shipments, and port waiting
from its containers and the shared AIS port calls, computed by SQL aggregates."""
