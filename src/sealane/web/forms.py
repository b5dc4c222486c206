"""Reading the small URL-encoded forms the pages post, with a size limit and no dependency."""

from __future__ import annotations

from urllib.parse import parse_qsl

from starlette.requests import Request

from .error_pages import BadForm

#: Largest form body accepted, in bytes; the pages' forms are a few hundred.
MAX_FORM_BYTES = 16_384
MAX_FIELDS = 30


async def read_form(request: Request) -> dict[str, str]:
    """The posted fields (first value of each); :class:`BadForm` for anything else."""
    kind = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if kind != "application/x-www-form-urlencoded":
        raise BadForm("the form must be sent URL-encoded", status=415)
    declared = request.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > MAX_FORM_BYTES:
        raise BadForm("the form is too large", status=413)
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_FORM_BYTES:
            raise BadForm("the form is too large", status=413)
    try:
        pairs = parse_qsl(
            body.decode("utf-8"),
            keep_blank_values=True,
            strict_parsing=False,
            max_num_fields=MAX_FIELDS,
        )
    except (UnicodeDecodeError, ValueError):
        raise BadForm("the form could not be read") from None
    fields: dict[str, str] = {}
    for name, value in pairs:
        fields.setdefault(name, value)
    return fields
