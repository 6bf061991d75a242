"""Worked examples T-60…T-64 (dune-battle.md §10.4): which battles, in what order."""

from __future__ import annotations

import pytest
from dune_scenarios import act, fight, plan, stage

from app.games.base import IllegalAction
from app.games.dune_battle.battles import advance
from app.games.dune_battle.catalog import DECK
from app.games.dune_battle.setup import build_state
from app.games.dune_battle.state import Forces, Options


@pytest.mark.parametrize(
    ("a_sector", "d_sector", "storm_battles", "battle"),
    [
        (9, 9, "same_sector", True),
        (9, 10, "same_sector", False),
        (8, 10, "same_sector", False),
        (9, 9, "none", False),
    ],
)
def test_t60_storm_same_sector_only(
    a_sector: int, d_sector: int, storm_battles: str, battle: bool
) -> None:
    s = stage(
        territory="imperial_basin",
        storm_sector=9,
        a_sector=a_sector,
        d_sector=d_sector,
        storm_battles=storm_battles,
    )
    assert (s.battle is not None) is battle
    if battle:
        assert s.battle is not None and s.battle.sectors == (9,)
    else:
        assert s.phase == "over"


def test_t61_battle_zone() -> None:
    s = stage(
        territory="imperial_basin",
        storm_sector=9,
        a_forces=2,
        a_sector=10,
        d_forces=6,
        d_sector=10,
        extra=[Forces("atreides", "imperial_basin", 8, 4)],
    )
    assert s.battle is not None and s.battle.sectors == (10,)
    with pytest.raises(IllegalAction) as e:
        act(s, "atreides", plan("thufir_hawat", normal=3))
    assert e.value.code == "dial_exceeds_forces"
    s, _ = fight(
        s, {"atreides": plan("duncan_idaho", normal=2), "harkonnen": plan("feyd_rautha", normal=1)}
    )
    assert s.battle is None or s.battle.winner == "harkonnen"
    left = [(f.sector, f.normal) for f in s.forces if f.faction == "atreides"]
    assert left == [(8, 4)]


def test_t62_polar_sink() -> None:
    s = stage(territory="polar_sink", a_sector=0, d_sector=0)
    assert s.phase == "over" and s.battle is None


def _three(seating: tuple[str, ...], forces: tuple[Forces, ...]):  # type: ignore[no-untyped-def]
    opts = Options(factions=seating, advanced=False)
    s = build_state(opts, seating, forces, {}, DECK, rng_state=1)
    return advance(s)[0]


def test_t63_storm_order_guild_included() -> None:
    s = _three(
        ("guild", "fremen", "harkonnen"),
        (
            Forces("guild", "test_basin", 8, 5),
            Forces("fremen", "test_basin", 8, 5),
            Forces("fremen", "arrakeen", 9, 5),
            Forces("harkonnen", "arrakeen", 9, 5),
        ),
    )
    assert s.storm_order == ("guild", "fremen", "harkonnen")
    assert (
        s.battle is not None
        and s.battle.combatants == ("guild", "fremen")
        and s.battle.territory == "test_basin"
    )
    s, _ = fight(s, {"guild": plan("staban_tuek"), "fremen": plan("jamis")})
    assert (
        s.battle is not None
        and s.battle.combatants == ("fremen", "harkonnen")
        and s.battle.territory == "arrakeen"
    )


@pytest.mark.parametrize("a_wins", [True, False])
def test_t64_three_in_a_territory(a_wins: bool) -> None:
    s = _three(
        ("atreides", "emperor", "harkonnen"),
        (
            Forces("atreides", "test_basin", 8, 5),
            Forces("emperor", "test_basin", 8, 5),
            Forces("harkonnen", "test_basin", 9, 5),
        ),
    )
    assert s.phase == "choose_battle"
    s = act(
        s,
        "atreides",
        {
            "type": "choose_battle",
            "territory": "test_basin",
            "sectors": [7, 8, 9],
            "opponent": "emperor",
        },
    )
    a_dial = 3 if a_wins else 0
    s, _ = fight(
        s, {"atreides": plan("duncan_idaho", normal=a_dial), "emperor": plan("bashar", normal=1)}
    )
    assert s.battle is not None
    if a_wins:
        assert s.battle.combatants == ("atreides", "harkonnen")
    else:
        assert s.battle.combatants == ("emperor", "harkonnen")
