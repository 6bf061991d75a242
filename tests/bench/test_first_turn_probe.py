"""The first-turn probe wrapper (bench/records/probes/first_turn_probe.py) patches the rule it
names and nothing else, and its records never pass for a real row's."""

from __future__ import annotations

import importlib.util
import random
from pathlib import Path
from types import ModuleType

import pytest

from app.games import invaders
from app.games.invaders import actions, engine, flow
from app.games.invaders.state import SIDES, State
from bench import selfplay_records

PROBE = Path(__file__).resolve().parents[2] / "bench/records/probes/first_turn_probe.py"


@pytest.fixture
def probe(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    """The wrapper, loaded without running it; whatever ``install`` patches is restored."""
    spec = importlib.util.spec_from_file_location("first_turn_probe", PROBE)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    monkeypatch.setattr(actions, "end_main", actions.end_main)
    monkeypatch.setattr(flow.BeginTurn, "run", flow.BeginTurn.run)
    monkeypatch.setattr(selfplay_records, "REVISION", selfplay_records.REVISION)
    return module


def _first_turns(first: str, turns: int = 3) -> tuple[list[tuple[str, int]], dict[int, int]]:
    """Random play through ``turns`` turns: (event type, turn) of the attack events, and the
    active player's hand size as each turn's main phase opens."""
    s: State = invaders.setup(1000, {"first_player": first})
    rng = random.Random(7)
    attacks: list[tuple[str, int]] = []
    hands: dict[int, int] = {}
    while s.outcome is None and s.turn <= turns:
        seat = SIDES[engine.owing(s) or 0]
        after = engine.apply(s, seat, rng.choice(engine.legal_actions(s, seat)))
        for e in after.events:
            if e.type in ("zone_resolved", "plot_check"):
                attacks.append((e.type, s.turn))
            if e.type == "main_phase":
                hands[after.state.turn] = len(after.state.hand[after.state.active])
        s = after.state
    return attacks, hands


def test_without_a_rule_a_first_moving_invader_attacks_and_draws() -> None:
    attacks, hands = _first_turns("invader")
    assert ("plot_check", 1) in attacks
    assert hands[1] == 7


def test_no_attack_skips_a_first_moving_invaders_first_attack(probe: ModuleType) -> None:
    probe.install("no_attack")
    attacks, hands = _first_turns("invader")
    assert [t for _, t in attacks if t == 1] == []
    assert ("plot_check", 3) in attacks
    assert hands[1] == 7


def test_no_attack_leaves_a_mankind_first_game_unchanged(probe: ModuleType) -> None:
    before = _first_turns("mankind", turns=4)
    probe.install("no_attack")
    assert _first_turns("mankind", turns=4) == before


@pytest.mark.parametrize("first", ["invader", "mankind"])
def test_no_draw_keeps_the_first_player_at_his_opening_hand(probe: ModuleType, first: str) -> None:
    probe.install("no_draw")
    _, hands = _first_turns(first)
    assert hands[1] == 5
    assert hands[2] == 7  # the second player draws normally (5 + 2)


def test_the_records_name_the_rule(probe: ModuleType) -> None:
    probe.install("no_draw")
    assert str(selfplay_records.REVISION).endswith("+first_turn_no_draw")


def test_an_unknown_rule_is_refused(probe: ModuleType) -> None:
    with pytest.raises(SystemExit):
        probe.install("no_setup")
