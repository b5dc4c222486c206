"""HTTP client of one carrier's T&T 2.2 API: ``GET /v2/events`` with cursor paging, retries, a
rate limit, an auth header or OAuth2 client credentials, and subscriptions for pushes.

Failures end as one of two errors whose ``reason`` is the tracking request's ``failed_reason``:
:class:`CarrierUnreachable` (connection errors, timeouts, 5xx and 429 after the retries) and
:class:`UnrecognizedResponse` (a body or a paging that T&T 2.2 does not allow).
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urljoin, urlsplit

import httpx

from ...clock import Clock, SystemClock
from ...config.dcsa_carriers import CarrierConfig

REFERENCE_PARAMETERS = {
    "bill_of_lading": "transportDocumentReference",
    "booking_number": "carrierBookingReference",
    "container": "equipmentReference",
}


class CarrierError(Exception):
    """A lookup that did not get an answer; ``reason`` is the failed_reason it maps to."""

    reason = "shipping_line_unreachable"


class CarrierUnreachable(CarrierError):
    """The carrier could not be reached or kept failing (retried later by the lifecycle)."""


class UnrecognizedResponse(CarrierError):
    """The carrier answered something T&T 2.2 does not allow."""

    reason = "unrecognized_response"


class DcsaClient:
    """Talks to one carrier; ``sleep`` and ``clock`` are injected so tests need not wait."""

    def __init__(
        self,
        config: CarrierConfig,
        *,
        transport: httpx.BaseTransport | None = None,
        clock: Clock | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.config = config
        self.clock = clock or SystemClock()
        self.sleep = sleep
        self.http = httpx.Client(
            timeout=config.timeout_s, transport=transport, follow_redirects=False
        )
        self._token: tuple[str, float] | None = None
        self._next_slot = 0.0
        self.requests = 0

    def close(self) -> None:
        """Close the connection pool."""
        self.http.close()

    def events(self, request_type: str, number: str) -> list[dict[str, Any]]:
        """Every event filed under the reference, following ``Next-Page`` to the end."""
        url = f"{self.config.base_url}/v2/events"
        params: dict[str, str] | None = {
            REFERENCE_PARAMETERS[request_type]: number,
            "limit": str(self.config.page_limit),
        }
        found: list[dict[str, Any]] = []
        seen: set[str] = set()
        for _ in range(self.config.max_pages):
            response = self._get(url, params)
            page = _json_list(response)
            found.extend(page)
            following = response.headers.get("Next-Page")
            if not following:
                return found
            url, params = self._next(url, following)
            if url + str(params) in seen:
                raise UnrecognizedResponse(f"{self.config.name}: Next-Page repeats a page")
            seen.add(url + str(params))
        raise UnrecognizedResponse(f"{self.config.name}: more than {self.config.max_pages} pages")

    def subscribe(self, callback_url: str, secret_b64: str, filters: dict[str, Any]) -> str:
        """Create a push subscription; its ``subscriptionID``."""
        body = {"callbackUrl": callback_url, "secret": secret_b64, **filters}
        response = self._send("POST", f"{self.config.base_url}/v2/event-subscriptions", json=body)
        if response.status_code != 201:
            raise UnrecognizedResponse(f"subscription answered {response.status_code}")
        try:
            subscription = response.json()["subscriptionID"]
        except (ValueError, KeyError, TypeError) as error:
            raise UnrecognizedResponse("subscription answered without a subscriptionID") from error
        return str(subscription)

    def _next(self, current: str, following: str) -> tuple[str, dict[str, str] | None]:
        """The next page from ``Next-Page``: a link (same origin only) or a bare cursor."""
        if "/" in following or following.startswith("?"):
            target = urljoin(current, following)
            if urlsplit(target)[:2] != urlsplit(self.config.base_url)[:2]:
                raise UnrecognizedResponse(f"Next-Page points elsewhere: {following!r}")
            return target, None
        return current.split("?", 1)[0], {"cursor": following}

    def _get(self, url: str, params: dict[str, str] | None) -> httpx.Response:
        response = self._send("GET", url, params=params)
        if response.status_code == 404:  # some carriers answer an unknown reference so
            return httpx.Response(200, json=[], request=response.request)
        if response.status_code != 200:
            raise UnrecognizedResponse(f"{self.config.name} answered {response.status_code}")
        return response

    def _send(self, method: str, url: str, **kwargs: Any) -> httpx.Response:
        """One request with retries: timeouts, connection errors, 5xx and 429 are retried."""
        config = self.config
        last = "no attempt"
        for attempt in range(config.retries + 1):
            if attempt:
                self.sleep(config.backoff_s * 2 ** (attempt - 1))
            self._wait_for_slot()
            try:
                response = self.http.request(method, url, headers=self._headers(), **kwargs)
            except httpx.TimeoutException:
                last = "timed out"
                continue
            except httpx.TransportError as error:
                last = f"connection failed ({type(error).__name__})"
                continue
            finally:
                self.requests += 1
            if response.status_code == 401 and config.oauth2 is not None and attempt == 0:
                self._token = None  # expired or revoked: one more try with a new token
                continue
            if response.status_code == 429:
                if not self._waited(response):
                    raise CarrierUnreachable(f"{config.name}: rate limited for too long")
                last = "rate limited"
                continue
            if response.status_code >= 500:
                last = f"answered {response.status_code}"
                continue
            return response
        raise CarrierUnreachable(f"{config.name}: {last} after {config.retries + 1} attempts")

    def _waited(self, response: httpx.Response) -> bool:
        """Sleep for ``Retry-After`` if it is short enough; False when it is not."""
        header = response.headers.get("Retry-After", "1")
        delay = float(header) if header.isdigit() else 1.0
        if delay > self.config.max_retry_after_s:
            return False
        self.sleep(delay)
        return True

    def _wait_for_slot(self) -> None:
        """Space requests at most ``requests_per_second`` apart."""
        gap = 1.0 / self.config.requests_per_second if self.config.requests_per_second else 0.0
        now = self.clock.monotonic()
        if self._next_slot > now:
            self.sleep(self._next_slot - now)
            now = self._next_slot
        self._next_slot = now + gap

    def _headers(self) -> dict[str, str]:
        headers = {"API-Version": self.config.api_version, "Accept": "application/json"}
        if self.config.auth_header is not None:
            name, value = self.config.auth_header
            headers[name] = value
        if self.config.oauth2 is not None:
            headers["Authorization"] = f"Bearer {self._access_token()}"
        return headers

    def _access_token(self) -> str:
        """A cached OAuth2 client-credentials token, renewed 30 s before it expires."""
        now = self.clock.monotonic()
        if self._token is not None and self._token[1] > now:
            return self._token[0]
        grant = self.config.oauth2
        assert grant is not None
        form = {"grant_type": "client_credentials"}
        if grant.scope:
            form["scope"] = grant.scope
        try:
            response = self.http.post(
                grant.token_url, data=form, auth=(grant.client_id, grant.client_secret)
            )
            body = response.json() if response.status_code == 200 else {}
        except (httpx.HTTPError, ValueError) as error:
            raise CarrierUnreachable(f"{self.config.name}: token request failed") from error
        token = body.get("access_token") if isinstance(body, dict) else None
        if not isinstance(token, str):
            raise CarrierUnreachable(f"{self.config.name}: no token ({response.status_code})")
        lifetime = float(body.get("expires_in", 300))
        self._token = (token, now + max(lifetime - 30.0, 1.0))
        return token


def _json_list(response: httpx.Response) -> list[dict[str, Any]]:
    try:
        page = response.json()
    except ValueError as error:
        raise UnrecognizedResponse("the events page is not JSON") from error
    if not isinstance(page, list) or not all(isinstance(item, dict) for item in page):
        raise UnrecognizedResponse("the events page is not an array of objects")
    return page
