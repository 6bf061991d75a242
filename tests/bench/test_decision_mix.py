"""The decision-mix screen (bench/decision_mix.py)."""

from __future__ import annotations

import pickle
import sys
from pathlib import Path

import pytest

from app.games.invaders import engine
from app.games.invaders.bots.policy import kind_of
from app.games.invaders.state import INVADER
from bench.decision_mix import KINDS, Variant, decide, main, parse_variant, positions, tally
from bench.selfplay import Config

FAST = Config("heuristic", "heuristic")


def test_a_variant_names_its_weights() -> None:
    v = parse_variant("half:invader_hand=0.4,plot=1.25")
    assert v == Variant("half", (("invader_hand", 0.4), ("plot", 1.25)))
    assert parse_variant("shipped:") == Variant("shipped", ())


def test_positions_are_the_seats_main_phase_decisions() -> None:
    found = positions(3, FAST, "invader")
    assert found
    assert all(engine.owing(s) == INVADER and kind_of(s) == "main" for s in found)


def test_the_same_variant_and_seed_decide_alike_and_tally_as_agreeing() -> None:
    s = next(p for p in positions(3, FAST, "invader") if p.hand[INVADER])
    twins = [Variant("a", ()), Variant("b", ())]
    rows = [decide(s, 0, "invader", twins, iterations=3)]
    assert rows[0][0] == rows[0][1]
    a, b = tally(rows, twins)
    assert a["agree_first"] == b["agree_first"] == 1.0
    assert a["positions"] == 1
    assert sum(a[k] for k in KINDS) <= 1


def test_a_screen_reads_its_positions_from_the_cache_when_present(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    cache = tmp_path / "positions.pkl"
    argv = ["decision_mix.py", "--games", "1", "--seed", "3", "--positions", "3"]
    argv += ["--iterations", "2", "--workers", "1", "--cache", str(cache)]
    argv += ["--variant", "a:invader_hand=0.4", "--variant", "b:"]
    monkeypatch.setattr(sys, "argv", argv)
    main()
    assert not capsys.readouterr().out.startswith("1 positions")
    played = pickle.loads(cache.read_bytes())
    cache.write_bytes(pickle.dumps(played[:1]))
    main()
    assert capsys.readouterr().out.startswith("1 positions, 1 games from seed 3; 1 sampled")
