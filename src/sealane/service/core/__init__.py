"""What every use case shares, at the bottom of the application layer: the error tree, the
:class:`~.context.ServiceContext`, paging, query helpers, typing of untrusted input and rate
limits. It imports no other part of the application layer.
"""
