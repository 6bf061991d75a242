"""app/realtime/compression.py: large frames compressed once per audience, small ones text."""

from __future__ import annotations

import pytest

from app.realtime import compression
from app.realtime.compression import Encoded, deflate_raw, inflate_raw

LARGE = '{"type":"state","view":"' + "Ü" * compression.MIN_BYTES + '"}'
SMALL = '{"type":"ack","id":"a","version":1}'


def test_raw_deflate_inflates_back_to_the_text() -> None:
    assert inflate_raw(deflate_raw(LARGE)) == LARGE


def test_large_frame_goes_compressed_to_a_socket_that_asked() -> None:
    frame = Encoded(LARGE).for_socket(compress=True)
    assert isinstance(frame, bytes) and inflate_raw(frame) == LARGE


def test_large_frame_goes_as_text_to_a_socket_that_did_not_ask() -> None:
    assert Encoded(LARGE).for_socket(compress=False) == LARGE


def test_small_frame_stays_text_even_when_asked() -> None:
    assert Encoded(SMALL).for_socket(compress=True) == SMALL


def test_an_audience_is_compressed_once(monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[str] = []
    real = compression.deflate_raw

    def counting(text: str) -> bytes:
        calls.append(text)
        return real(text)

    monkeypatch.setattr(compression, "deflate_raw", counting)
    frame = Encoded(LARGE)
    sent = [frame.for_socket(compress=True) for _ in range(50)]
    assert len(calls) == 1 and all(s is sent[0] for s in sent)
