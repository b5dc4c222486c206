"""Checksums taken over a whole batch at once: each line judged as if it were decoded alone."""

from __future__ import annotations

import random
from functools import reduce
from operator import xor

import pytest

from sealane.feeds.ais.decoding import SentenceDecoder
from sealane.feeds.ais.framing import RunningXor, read_tag_block, sentence_xor, split_tag_block
from sealane.feeds.ais.reports import Drop
from sealane.feeds.ais.sample import demo_sample_path

from .support import T0_S, at, sentence

GOOD = sentence(type=1, mmsi=244670316, lon=4.1, lat=51.9, speed=12.3, course=87.5, heading=88)


def corrupt(text: bytes, rng: random.Random, *, in_tag_block: bool) -> bytes:
    """``text`` with one byte of its tag block or of its sentence changed (checksums kept)."""
    head = text.index(b"\\", 1) + 1 if text[:1] == b"\\" else 0
    low, high = (1, head - 4) if in_tag_block else (head + 1, text.index(b"*", head))
    where = rng.randrange(low, high)
    return text[:where] + bytes([text[where] ^ 0x01]) + text[where + 1 :]


def test_running_xor__every_stretch_equals_the_byte_loop() -> None:
    rng = random.Random(5)
    lines = [bytes(rng.randrange(256) for _ in range(rng.randrange(0, 90))) for _ in range(40)]
    running, joined = RunningXor(lines), b"".join(lines)
    for _ in range(500):
        a = rng.randrange(0, len(joined) + 1)
        b = rng.randrange(a, len(joined) + 1)
        assert running.xor(a, b) == reduce(xor, joined[a:b], 0)


def test_running_xor__empty_batch() -> None:
    assert RunningXor([]).xor(0, 0) == 0


def test_batch__each_line_judged_as_alone() -> None:
    """A batch of the demo sample with every fifth line corrupted (its sentence, or its tag
    block): the same reports and the same drops as decoding the lines one by one (offsets into
    the batch are right)."""
    rng = random.Random(7)
    lines = demo_sample_path().read_bytes().splitlines()[:400]
    lines = [
        corrupt(text, rng, in_tag_block=k % 10 == 7) if k % 5 == 2 else text
        for k, text in enumerate(lines)
    ]
    batch = SentenceDecoder().decode([(text, T0_S, 0) for text in lines])
    alone = SentenceDecoder()
    positions, drops = [], {}
    for text in lines:
        out = alone.decode([(text, T0_S, 0)])
        positions += out.positions
        for reason, count in out.drops.items():
            drops[reason] = drops.get(reason, 0) + count
    assert batch.positions == positions
    assert dict(batch.drops) == drops
    assert drops.get(Drop.BAD_CHECKSUM, 0) > 20


@pytest.mark.parametrize(
    "text",
    [GOOD.replace("*", "0*", 1), GOOD[:-1] + ("0" if GOOD[-1] != "0" else "1")],
)
def test_batch__bad_sentence_checksum_dropped_between_good_lines(text: str) -> None:
    lines = [at(GOOD, T0_S), text.encode(), GOOD.encode()]
    out = SentenceDecoder().decode([(line, T0_S, 0) for line in lines])
    assert len(out.positions) == 2
    assert dict(out.drops) == {Drop.BAD_CHECKSUM: 1}


def test_read_tag_block__bad_block_checksum_keeps_the_sentence_without_its_time() -> None:
    good = at(GOOD, T0_S + 30)
    block_end = good.index(b"\\", 1)
    bad = good[:1] + bytes([good[1] ^ 0x02]) + good[2:]
    lines = [GOOD.encode(), bad, good]
    running, offsets = RunningXor(lines), [0, len(lines[0]), len(lines[0]) + len(bad)]
    assert read_tag_block(bad, offsets[1], running) == (block_end + 1, None)
    assert read_tag_block(good, offsets[2], running) == (block_end + 1, T0_S + 30)
    assert split_tag_block(good) == (GOOD.encode(), T0_S + 30)


def test_sentence_xor__only_for_bang_sentences_with_a_star() -> None:
    for text in (b"$GPGGA,1*00", b"!AIVDM,1,1,,A,x", b" !AIVDM*00"):
        assert sentence_xor(text, 0, 0, RunningXor([text])) is None
    text = GOOD.encode()
    assert sentence_xor(text, 0, 0, RunningXor([text])) == int(text[-2:], 16)
