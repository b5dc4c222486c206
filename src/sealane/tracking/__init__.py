"""The tracking domain, below the application layer (which runs it for an account:
:mod:`sealane.service.tracking`): requests, shipments, containers and their events; lifecycles;
carrier adapters."""
