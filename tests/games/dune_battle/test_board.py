"""BG advisors (DB-1, DB-40, ruling R-28) and the map data file (R-23)."""

from __future__ import annotations

import pytest
from dune_scenarios import fight, forces_of, plan, resolved, stage

import app.games.dune_battle as game
from app.games.base import IllegalAction
from app.games.dune_battle.board import battle_options, battlefields
from app.games.dune_battle.catalog import DOT_SECTORS, TERRITORIES
from app.games.dune_battle.state import Forces, GameState

ADVISORS = Forces("bene_gesserit", "test_basin", 8, 5, advisor=True)


def _with_advisors(**kw: object) -> GameState:
    return stage(third="bene_gesserit", extra=[ADVISORS], advanced=True, **kw)  # type: ignore[arg-type]


def _picked(state: GameState) -> GameState:
    while state.phase == "traitor_pick":
        seat = next(iter(game.active_seats(state)))
        state = game.apply(state, seat, game.legal_actions(state, seat)[0]).state
    return state


def test_advisors_alone_with_an_enemy_give_no_battle() -> None:
    opts = {"factions": ["bene_gesserit", "harkonnen"], "advanced": True, "bg_advisors": True}
    s = _picked(game.setup(3, opts))
    assert s.phase == "over" and battlefields(s) == []
    assert forces_of(s, "bene_gesserit") == 10 and forces_of(s, "harkonnen") == 10


def test_advisors_are_not_a_party_to_the_battle_in_their_territory() -> None:
    s = _with_advisors()
    assert s.battle is not None and set(s.battle.combatants) == {"atreides", "harkonnen"}
    assert battle_options(s, "bene_gesserit") == []


def test_advisors_stay_when_the_battle_around_them_ends() -> None:
    s = _with_advisors()
    s, _ = fight(
        s, {"atreides": plan("thufir_hawat", normal=6), "harkonnen": plan("feyd_rautha", normal=1)}
    )
    assert forces_of(s, "harkonnen") == 0 and forces_of(s, "bene_gesserit") == 5


def test_explosion_takes_the_advisors_too() -> None:
    s = _with_advisors(hands={"atreides": ["lasgun-1"], "harkonnen": ["shield-1"]})
    s, ev = fight(
        s,
        {
            "atreides": plan("thufir_hawat", "lasgun-1"),
            "harkonnen": plan("feyd_rautha", defense="shield-1"),
        },
    )
    assert resolved(ev)["result"] == "explosion"
    assert forces_of(s, "bene_gesserit") == 0 and s.faction("bene_gesserit").tanks_normal == 5


@pytest.mark.parametrize(
    "opts",
    [
        {"factions": ["bene_gesserit", "harkonnen"], "advanced": False, "bg_advisors": True},
        {"factions": ["atreides", "harkonnen"], "bg_advisors": True},
    ],
)
def test_advisors_need_the_advanced_game_and_the_bene_gesserit(opts: dict[str, object]) -> None:
    with pytest.raises(IllegalAction) as e:
        game.validate_options(opts)
    assert e.value.code == "bad_options"


def test_every_viewer_sees_which_tokens_are_advisors() -> None:
    opts = {"factions": ["bene_gesserit", "harkonnen"], "advanced": True, "bg_advisors": True}
    s = game.setup(3, opts)
    for viewer in ("harkonnen", "bene_gesserit", None):
        flags = {f["faction"]: f["advisor"] for f in game.view(s, viewer)["forces"]}
        assert flags == {"bene_gesserit": True, "harkonnen": False}


def test_map_is_data_with_the_spec_test_basin() -> None:
    assert TERRITORIES["test_basin"].sectors == (7, 8, 9)
    assert TERRITORIES["test_basin"].terrain == "rock"
    assert TERRITORIES["polar_sink"].terrain == "polar" and len(DOT_SECTORS) == 6
