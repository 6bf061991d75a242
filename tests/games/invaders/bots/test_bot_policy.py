"""Rule choices of the bots' shared policy: wards (C-20)."""

from __future__ import annotations

from dataclasses import replace

from app.games.invaders import engine
from app.games.invaders.bots.evaluation import INVADER_WEIGHTS, MANKIND_WEIGHTS
from app.games.invaders.bots.policy import greedy, kind_of, option_values, step
from app.games.invaders.state import INVADER, MANKIND, SIDES, State
from tests.games.invaders.bots.test_bot_knowledge import random_position
from tests.games.invaders.invaders_builders import Play, build, one


def _rushmore(wards: int, **extra: object) -> Play:
    """The Invader's main phase; Mankind holds Mount Rushmore with ``wards`` tokens."""
    s = build(
        active="invader",
        board={"eurasia": {"mankind": ["mount_rushmore"]}},
        hands={"invader": ["terror_broadcast"]},
        **extra,
    )
    rush = int(one(s, "mount_rushmore")[1:])
    return Play(replace(s, wards={rush: wards}))


def _bot_answer(s: State) -> str:
    return greedy(s, MANKIND, MANKIND_WEIGHTS)["type"]


def test_the_bot_spends_a_ward_on_a_drain() -> None:
    p = _rushmore(2)
    p("invader", {"type": "play", "card": one(p.s, "terror_broadcast")})
    assert p.prompt() == "ward"
    assert _bot_answer(p.s) == "spend_ward"


def test_the_bot_draws_rather_than_spend_a_ward_on_a_draw() -> None:
    p = _rushmore(2)
    p.end_main()
    assert p.prompt() == "ward"  # Mankind's draw phase
    assert _bot_answer(p.s) == "decline_ward"


def test_the_bot_spends_a_ward_on_a_draw_from_an_empty_deck() -> None:
    p = _rushmore(2, deck_sizes={"mankind": 0})
    p.end_main()
    assert p.prompt() == "ward"
    assert _bot_answer(p.s) == "spend_ward"  # drawing would lose the game (W2)


GATED = replace(MANKIND_WEIGHTS, ward_gate=1.0)  # the §25 probe's ward policy


def _gated_answer(s: State) -> str:
    return greedy(s, MANKIND, GATED)["type"]


def test_the_gated_policy_lets_a_drain_through_before_a_failed_check_opens_a_gate() -> None:
    p = _rushmore(2, plot=9)  # a failed check would put the marker on Drown's gate (8)
    p("invader", {"type": "play", "card": one(p.s, "terror_broadcast")})
    assert p.prompt() == "ward"
    assert _gated_answer(p.s) == "decline_ward"


def test_the_gated_policy_spends_the_ward_when_no_gate_is_next() -> None:
    p = _rushmore(2, plot=10)  # 9 is no Invader strategy's gate
    p("invader", {"type": "play", "card": one(p.s, "terror_broadcast")})
    assert _gated_answer(p.s) == "spend_ward"


def test_the_gated_policy_spends_the_ward_once_a_drain_got_through() -> None:
    p = _rushmore(2, plot=9, drain_inflicted=True)  # the plot check passes already
    p("invader", {"type": "play", "card": one(p.s, "terror_broadcast")})
    assert _gated_answer(p.s) == "spend_ward"


def test_the_gated_policy_spends_the_ward_from_a_short_deck() -> None:
    p = _rushmore(2, plot=9, deck_sizes={"mankind": 5})
    p("invader", {"type": "play", "card": one(p.s, "terror_broadcast")})
    assert _gated_answer(p.s) == "spend_ward"


def test_stepping_the_chosen_option_gives_what_a_fresh_apply_gives() -> None:
    """greedy's caller steps the option greedy scored: the reused state is the engine's."""
    s = next(
        p
        for p in (random_position(seed, 40) for seed in range(20))
        if p.outcome is None and kind_of(p) == "main" and engine.owing(p) is not None
    )
    side = engine.owing(s)
    assert side is not None
    seat = SIDES[side]
    options = engine.legal_actions(s, seat)
    option_values(s, side, options, MANKIND_WEIGHTS)
    for o in options:
        assert step(s, seat, o) == engine.apply(s, seat, dict(o)).state


def test_the_bot_pays_a_discard_cost_with_a_weak_unit_before_the_thing() -> None:
    """A one-shot's own discard cost does not make it fodder (ONE_SHOT_VALUE, §33)."""
    s = build(hands={"invader": ["kraken_warmachine", "shapeshifting_alien_thing", "drone_picket"]})
    p = Play(s)("invader", {"type": "play", "card": one(s, "kraken_warmachine")})
    while kind_of(p.s) != "discard":
        p("invader", greedy(p.s, INVADER, INVADER_WEIGHTS))
    assert greedy(p.s, INVADER, INVADER_WEIGHTS) == {
        "type": "discard",
        "card": one(s, "drone_picket"),
    }
