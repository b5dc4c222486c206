"""Who may call: API keys checked to a :class:`~.gatekeeper.Caller`, accounts and their keys,
the web app's browser sessions, an account's switchable features and the request rate limit.
"""
