"""Webhooks: subscriptions, their notifications (with the object each is about) and delivery
logs, example notifications and test deliveries.
"""
