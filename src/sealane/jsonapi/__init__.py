"""JSON:API documents of sealane's resources, built from the application layer's records.

Pure functions with no web framework underneath: the API renders its responses with them and
the webhook worker renders the notification bodies it delivers.
"""

from .documents import Included, collection_document, notification_body, single_document
from .objects import resource, to_many, to_one

__all__ = [
    "Included",
    "collection_document",
    "notification_body",
    "resource",
    "single_document",
    "to_many",
    "to_one",
]
