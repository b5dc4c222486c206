"""Helpers of the AIS tests: sentences made with pyais's encoder, tag blocks, a manual clock."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pyais import encode_dict
from pyais.util import compute_checksum

from sealane.feeds.ais.sample import tagged

T0 = datetime(2026, 11, 21, 12, 0, tzinfo=UTC)
T0_S = T0.timestamp()


def sentence(**fields: Any) -> str:
    """One AIS sentence (``type`` and the message's fields, pyais names) as ``!AIVDM``."""
    return encode_dict(fields, sentence_type="VDM")[0]


def sentences(seq_id: int = 1, **fields: Any) -> list[str]:
    """Every sentence of a (possibly multi-sentence) message."""
    return list(encode_dict(fields, sentence_type="VDM", seq_id=seq_id))


def with_checksum(body: str) -> str:
    """``body`` (from ``!`` to the fill bits) with a correct checksum."""
    return f"{body}*{compute_checksum(body.encode()):02X}"


def line(text: str, time_s: float = T0_S, start: int = 0) -> tuple[bytes, float, int]:
    """A decoder input triple."""
    return (text.encode(), time_s, start)


def at(text: str, time_s: float) -> bytes:
    """``text`` behind a tag block dated ``time_s``."""
    return tagged(text, time_s).encode()
