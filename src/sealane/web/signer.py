"""Signatures of short texts (the session cookie, the sign-in form's token) under the web
secret key, so a browser cannot forge them."""

from __future__ import annotations

import base64
import hashlib
import hmac
from collections.abc import Callable


class Signer:
    """HMAC-SHA256 signatures of short texts under the web secret key, per purpose.

    The key is read by ``read_key`` when first needed (it may be in the database, which need
    not answer when the app is built) and kept.
    """

    def __init__(self, read_key: Callable[[], bytes]) -> None:
        self._read_key = read_key
        self._key: bytes | None = None

    def signature(self, purpose: str, value: str) -> str:
        """The signature of ``value`` for ``purpose`` (URL-safe base64, 43 characters)."""
        if self._key is None:
            self._key = self._read_key()
        digest = hmac.new(self._key, f"{purpose}\x00{value}".encode(), hashlib.sha256).digest()
        return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")

    def sign(self, purpose: str, value: str) -> str:
        """``value.signature``."""
        return f"{value}.{self.signature(purpose, value)}"

    def unsign(self, purpose: str, signed: str) -> str | None:
        """The value of ``signed`` if its signature is right, else None."""
        value, _, signature = signed.rpartition(".")
        if not value or len(signed) > 512:
            return None
        expected = self.signature(purpose, value)
        return value if hmac.compare_digest(expected, signature) else None
