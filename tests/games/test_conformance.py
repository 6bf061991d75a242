"""Conformance suite: random playouts of every registered game against the base contract.

Generic on purpose: it knows a game only through ``app.games.base`` plus two
optional hooks a game may provide (documented in docs/invaders-view.md §8):
``secrets(state, viewer) -> set[str]`` (JSON fragments a viewer must never
receive) and ``invariants(state) -> list[str]`` (broken invariants, e.g. card
conservation). Playouts are seeded and bounded so the suite stays fast.
"""

from __future__ import annotations

import json
import random
from collections.abc import Iterator
from typing import Any

import pytest

from app.games import registry
from app.games.base import Game, IllegalAction

SEEDS = range(12)
MAX_STEPS = 2000
FULL_CHECK_EVERY = 7  # apply every listed action on every 7th step


def games() -> list[Game]:
    return registry.all_games()


#: Non-default option sets per game, so the playouts also cover each game's variants.
VARIANTS: dict[str, list[dict[str, Any]]] = {
    "invaders": [{"first_player": "invader", "zone_collapse_win": True}],
    "dune_battle": [
        {
            "factions": ["atreides", "bene_gesserit", "emperor", "fremen", "guild", "harkonnen"],
            "advanced": True,
        },
        {
            "factions": ["emperor", "fremen", "harkonnen"],
            "advanced": False,
            "storm_battles": "none",
            "voice_targets": "gf9",
            "captured_leader_traitor_to_owner": False,
            "kill_captured_later": True,
        },
    ],
}


def option_sets(game: Game) -> Iterator[dict[str, Any]]:
    yield game.default_options()
    for variant in VARIANTS.get(game.NAME, []):
        yield game.validate_options(variant)


def viewers(game: Game) -> list[str | None]:
    return [*game.SEATS, None]


def assert_no_leak(game: Game, state: Any, events: tuple[Any, ...]) -> None:
    hook = getattr(game, "secrets", None)
    if hook is None:
        return
    for viewer in viewers(game):
        secrets = hook(state, viewer)
        text = json.dumps(game.view(state, viewer))
        text += json.dumps([game.redact(e, viewer) for e in events])
        leaked = [s for s in secrets if s in text]
        assert not leaked, f"{viewer!r} sees {leaked[:3]}"


def assert_unlisted_rejected(game: Game, state: Any, seat: str, legal: list[dict]) -> None:
    with pytest.raises(IllegalAction):
        game.apply(state, seat, {"type": "__not_an_action__"})
    for other in game.SEATS:
        if other not in game.active_seats(state):  # a seat owing nothing can do nothing
            with pytest.raises(IllegalAction):
                game.apply(state, other, legal[0])


def check_step(game: Game, state: Any, step: int) -> None:
    active = game.active_seats(state)
    for seat in game.SEATS:
        listed = game.legal_actions(state, seat)
        assert bool(listed) == (seat in active), (seat, active)
    assert active, "an unfinished game always waits for someone"
    data = game.to_json(state)
    assert game.from_json(json.loads(json.dumps(data))) == state
    problems = getattr(game, "invariants", lambda s: [])(state)
    assert not problems, problems
    if step % FULL_CHECK_EVERY == 0:
        seat = sorted(active)[0]
        for action in game.legal_actions(state, seat):
            game.apply(state, seat, action)  # every listed action applies
        assert game.to_json(state) == data  # and the input was not changed


def playout(game: Game, seed: int, options: dict[str, Any]) -> tuple[Any, list]:
    rng = random.Random(seed)
    state = game.setup(seed, options)
    log: list[tuple[str, dict]] = []
    for step in range(MAX_STEPS):
        if game.outcome(state) is not None:
            break
        check_step(game, state, step)
        seat = rng.choice(sorted(game.active_seats(state)))  # any seat that owes a decision
        legal = game.legal_actions(state, seat)
        assert_unlisted_rejected(game, state, seat, legal)
        action = rng.choice(legal)
        log.append((seat, action))
        transition = game.apply(state, seat, action)
        assert_no_leak(game, transition.state, transition.events)
        state = transition.state
    return state, log


@pytest.mark.parametrize("game", games(), ids=lambda g: g.NAME)
@pytest.mark.parametrize("seed", SEEDS)
def test_random_playouts_obey_the_contract(game: Game, seed: int) -> None:
    for options in option_sets(game):
        state, log = playout(game, seed, options)
        result = game.outcome(state)
        assert result is not None, "the playout did not finish"
        assert result.winner in (*game.SEATS, None) and result.reason
        assert game.active_seats(state) == frozenset()
        assert all(game.legal_actions(state, s) == [] for s in game.SEATS)
        with pytest.raises(IllegalAction):
            game.apply(state, game.SEATS[0], {"type": "end_main"})
        replay = game.setup(seed, options)
        for seat, action in log:
            replay = game.apply(replay, seat, action).state
        assert json.dumps(game.to_json(replay), sort_keys=True) == json.dumps(
            game.to_json(state), sort_keys=True
        )


@pytest.mark.parametrize("game", games(), ids=lambda g: g.NAME)
def test_module_provides_the_contract(game: Game) -> None:
    assert isinstance(game, Game)
    assert game.NAME and game.TITLE and game.SEATS and game.RULES_VERSION
    assert isinstance(game.SNAPSHOT_VERSION, int)
    with pytest.raises(IllegalAction) as err:
        game.validate_options({"__no_such_option__": 1})
    assert err.value.code == "bad_options"
