"""Invaders bots: random, heuristic (greedy one-ply) and strong (determinized ISMCTS).

One entry point for every level::

    choose(view_or_state, seat, rng, budget, level="heuristic") -> action

``view_or_state`` is a ``Knowledge`` (the seat's information set) or a real
State, which is reduced to the seat's Knowledge by ``observe`` before anything
else happens; no level ever touches the real hidden cards. Pure: standard
library only, no I/O (the purity test scans app/games).
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from app.games.invaders.bots.evaluation import (
    INVADER_WEIGHTS,
    MANKIND_WEIGHTS,
    WEIGHT_NAMES,
    Weights,
    scaled,
)
from app.games.invaders.bots.knowledge import Knowledge, determinize, observe
from app.games.invaders.bots.levels import Budget, heuristic_level, random_level, strong_level
from app.games.invaders.state import MANKIND, SIDES, State

JSON = dict[str, Any]
REVISION = 6
"""Which play the shipped bots give, raised whenever a change makes them choose differently
for the same weights and seed (saved self-play games resume and merge only with games of
the same revision: bench/selfplay_records.py). 1: the bots up to docs/balance.md §31;
2: the strong Invader counts his kept hand's threat (levels.INVADER_KEPT_THREAT, §32);
3: a one-shot keeps a flat value as discard fodder (evaluation.ONE_SHOT_VALUE, §33);
4: the strong Mankind values his hand ×2.25, not ×1.5 (levels.MANKIND_HAND_FACTOR, §37);
5: the strong Mankind values the Invader's hand ×2.25 (levels.MANKIND_THREAT_FACTOR, §41);
6: moving second, the strong Mankind widens the push ×1.5 (levels.MANKIND_SECOND_CAUTION,
§47; the default order plays as revision 5)."""
Level = Callable[[Knowledge, random.Random, Budget, Weights, Weights | None], JSON]
LEVELS: dict[str, Level] = {
    "random": random_level,
    "heuristic": heuristic_level,
    "strong": strong_level,
}


def default_weights(seat: str) -> Weights:
    return MANKIND_WEIGHTS if SIDES.index(seat) == MANKIND else INVADER_WEIGHTS


def choose(
    view_or_state: Knowledge | State,
    seat: str,
    rng: random.Random,
    budget: Budget | None = None,
    level: str = "heuristic",
    weights: Weights | None = None,
    opponent: Weights | None = None,
) -> JSON:
    """One legal action for ``seat``, decided on what that seat may know. ``opponent``
    is how the strong level models the other seat (its side's default weights if None)."""
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; known: {sorted(LEVELS)}")
    k = view_or_state if isinstance(view_or_state, Knowledge) else observe(view_or_state, seat)
    if k.seat != seat:
        raise ValueError(f"knowledge of {k.seat!r} used for {seat!r}")
    own = weights or default_weights(seat)
    return LEVELS[level](k, rng, budget or Budget(), own, opponent)


__all__ = [
    "LEVELS",
    "REVISION",
    "WEIGHT_NAMES",
    "Budget",
    "Knowledge",
    "Weights",
    "choose",
    "default_weights",
    "determinize",
    "observe",
    "scaled",
]
