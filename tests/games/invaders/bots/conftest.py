"""Fixtures of the bot tests."""

from __future__ import annotations

import pytest

from app.games.invaders.bots import Weights, levels


@pytest.fixture
def searched(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Weights, Weights, Weights]]:
    """The (own, opponent, leaf) weights of every strong search, which is not run."""
    seen: list[tuple[Weights, Weights, Weights]] = []

    def spy(k, rng, iterations, seconds, weights, opponent, leaf):  # type: ignore[no-untyped-def]
        seen.append((weights, opponent, leaf))
        return {}

    monkeypatch.setattr(levels, "search_root", spy)
    return seen
