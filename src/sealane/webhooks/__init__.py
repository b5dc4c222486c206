"""The webhooks domain, below the application layer (which runs it for an account:
:mod:`sealane.service.webhooks`): subscription rules, notifications from the outbox, signed
at-least-once delivery."""
