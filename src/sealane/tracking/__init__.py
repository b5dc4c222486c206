"""Tracking: requests, shipments, containers and their events; lifecycles; carrier adapters."""
