"""Knowledge and determinization: only what the seat may see, counts conserved."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter

import pytest

from app.games import invaders as game
from app.games.invaders.bots import determinize, observe
from app.games.invaders.bots.knowledge import HIDDEN_TYPE, visible_instances
from app.games.invaders.catalog import CATALOG
from app.games.invaders.state import SIDES, State


def random_position(seed: int, decisions: int) -> State:
    """A position reached by random legal play (a spread of phases and decisions)."""
    rng = random.Random(seed)
    s = game.setup(seed, {})
    for _ in range(decisions):
        if game.outcome(s) is not None:
            break
        seat = next(iter(game.active_seats(s)))
        s = game.apply(s, seat, rng.choice(game.legal_actions(s, seat))).state
    return s


def hidden_twin(s: State, seat: str, seed: int) -> State:
    """The same position for ``seat``, with every hidden card different (types reshuffled
    among hidden places of the same owner, other deck orders, another seed and RNG)."""
    rng = random.Random(seed)
    side = SIDES.index(seat)
    other = 1 - side
    seen = visible_instances(s, side)
    types = list(s.types)
    groups = [
        [*s.deck[side]],
        [*s.deck[other], *(c for c in s.hand[other] if c not in seen)],
        [*s.hero_pile],
    ]
    for group in groups:
        kinds = [types[c] for c in group]
        rng.shuffle(kinds)
        for c, kind in zip(group, kinds, strict=True):
            types[c] = kind
    return dataclasses.replace(s, types=tuple(types), seed=s.seed + 1, rng=rng.getrandbits(64))


POSITIONS = [(seed, n) for seed in (1, 2, 3) for n in (0, 15, 60, 140)]


@pytest.mark.parametrize(("seed", "decisions"), POSITIONS)
@pytest.mark.parametrize("seat", SIDES)
def test_observe_ignores_everything_hidden(seed: int, decisions: int, seat: str) -> None:
    s = random_position(seed, decisions)
    twin = hidden_twin(s, seat, seed)
    assert twin.types != s.types or not s.deck[0]  # the twin really differs
    assert observe(s, seat) == observe(twin, seat)


@pytest.mark.parametrize(("seed", "decisions"), POSITIONS)
@pytest.mark.parametrize("seat", SIDES)
def test_determinization_is_consistent_with_the_seats_view(
    seed: int, decisions: int, seat: str
) -> None:
    s = random_position(seed, decisions)
    k = observe(s, seat)
    d = determinize(k, random.Random(seed))
    assert game.invariants(d) == []  # every card in one place, 70 + 70 + 11 per side
    assert game.view(d, seat) == game.view(s, seat)  # identical for everything seen
    assert len(d.deck[0]) == len(s.deck[0]) and len(d.deck[1]) == len(s.deck[1])
    assert [len(h) for h in d.hand] == [len(h) for h in s.hand]
    assert len(d.hero_pile) == len(s.hero_pile)


def test_determinization_samples_only_unseen_cards() -> None:
    s = random_position(4, 80)
    seat = "mankind"
    k = observe(s, seat)
    seen = visible_instances(s, 0)
    assert all(k.public.types[c] == HIDDEN_TYPE for c in range(len(s.types)) if c not in seen)
    assert set(k.unseen_ids).isdisjoint(seen)
    d = determinize(k, random.Random(9))
    changed = {c for c in range(len(s.types)) if d.types[c] != s.types[c]}
    assert changed <= set(k.unseen_ids)
    for c in seen:
        assert d.types[c] == s.types[c]
    unseen_invader = Counter(d.types[c] for c in (*d.deck[1], *d.hand[1]) if c not in seen)
    full = Counter(CATALOG.invader_deck)
    seen_invader = Counter(s.types[c] for c in seen if s.types[c] in full)
    assert unseen_invader == full - seen_invader  # the opponent's counts are conserved


def test_determinizations_vary_with_the_rng() -> None:
    k = observe(random_position(5, 40), "invader")
    a = determinize(k, random.Random(1))
    b = determinize(k, random.Random(2))
    assert a.hand[0] != b.hand[0] or a.types != b.types
