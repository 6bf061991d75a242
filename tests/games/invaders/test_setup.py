"""Setup (§3), options, determinism and the snapshot format."""

from __future__ import annotations

import json
import random

from app.games import invaders as game
from app.games.invaders.state import INVADER, MANKIND


def test_setup_follows_section_3() -> None:
    s = game.setup(5, {})
    assert s.plot == 10 and s.enabled == frozenset() and s.zone_tokens == (0, 0, 0)
    assert game.active_seats(s) == {"mankind"}
    assert game.view(s, "mankind")["prompt"]["kind"] == "place_hero"
    assert [a["zone"] for a in game.legal_actions(s, "mankind")] == [
        "pacific_rim",
        "eurasia",
        "africa",
    ]
    t = game.apply(s, "mankind", {"type": "choose_zone", "zone": "eurasia"}).state
    assert not t.hero_turned and len(t.hero_pile) == 10
    assert len(t.hand[MANKIND]) == 5 + 2 and len(t.hand[INVADER]) == 5  # Mankind drew normally
    assert t.active == MANKIND and t.phase == "main" and t.turn == 1
    assert len(t.deck[MANKIND]) == 63 and len(t.deck[INVADER]) == 65


def test_options_first_player_and_opening_hand() -> None:
    s = game.setup(5, {"first_player": "invader", "opening_hand": 3})
    t = game.apply(s, "mankind", {"type": "choose_zone", "zone": "africa"}).state
    assert t.active == INVADER and len(t.hand[INVADER]) == 5 and len(t.hand[MANKIND]) == 3


def test_default_and_validated_options() -> None:
    assert game.default_options() == {
        "zone_collapse_win": False,
        "first_player": "mankind",
        "opening_hand": 5,
    }
    assert game.validate_options({"zone_collapse_win": True})["zone_collapse_win"] is True


def test_card_ids_do_not_encode_the_card_type() -> None:
    a, b = game.setup(1, {}), game.setup(2, {})
    assert a.types != b.types
    assert sorted(a.types) == sorted(b.types)


def _random_game(seed: int) -> tuple[list[tuple[str, dict]], object]:
    s, r, log = game.setup(seed, {}), random.Random(seed), []
    while game.outcome(s) is None:
        seat = next(iter(game.active_seats(s)))
        action = r.choice(game.legal_actions(s, seat))
        log.append((seat, action))
        s = game.apply(s, seat, action).state
    return log, s


def test_same_seed_and_actions_give_identical_snapshots() -> None:
    log, final = _random_game(11)
    s = game.setup(11, {})
    for seat, action in log:
        s = game.apply(s, seat, action).state
    assert json.dumps(game.to_json(s), sort_keys=True) == json.dumps(
        game.to_json(final), sort_keys=True
    )


def test_snapshot_round_trip_mid_decision() -> None:
    s = game.setup(3, {})
    assert game.from_json(json.loads(json.dumps(game.to_json(s)))) == s
    _log, final = _random_game(3)
    assert game.from_json(json.loads(json.dumps(game.to_json(final)))) == final


def test_legal_action_lists_stay_small() -> None:
    """Decisions are sequential, never combinations: lists stay far below ~100 entries."""
    for seed in range(8):
        s, r = game.setup(seed, {}), random.Random(seed)
        while game.outcome(s) is None:
            seat = next(iter(game.active_seats(s)))
            legal = game.legal_actions(s, seat)
            assert 0 < len(legal) <= 100
            s = game.apply(s, seat, r.choice(legal)).state
