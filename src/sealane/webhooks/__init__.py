"""Webhooks: subscriptions, notifications from the outbox, signed at-least-once delivery."""
