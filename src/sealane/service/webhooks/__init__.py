"""The application layer's side of webhooks (the domain is :mod:`sealane.webhooks`):
subscriptions, their notifications (with the object each is about) and delivery
logs, example notifications and test deliveries.
"""
