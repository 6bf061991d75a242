"""bench/adopt_records.py: a probe's games move to the bots that adopted it only if they replay."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.games.invaders.bots import REVISION
from bench.adopt_records import adopt, differences, spread
from bench.selfplay import Config, play
from bench.selfplay_records import RecordsMismatch, append_records, load_records, open_records

DEFAULT_PLOT = ("invader", "plot", 2.5)  # the Invader's shipped plot weight: no change of play
OTHER_PLOT = ("invader", "plot", 7.5)


def _probe(path: Path, override: tuple[str, str, float], seeds: range) -> None:
    cfg = Config(mankind="heuristic", invader="heuristic", overrides=[override])
    with open_records(path, cfg) as f:
        append_records(f, [play(seed, cfg) for seed in seeds])


def test_games_that_replay_are_adopted_under_the_current_bots(tmp_path: Path) -> None:
    source, target = tmp_path / "probe.jsonl", tmp_path / "adopted.jsonl"
    _probe(source, DEFAULT_PLOT, range(50, 53))
    assert adopt(source, target, [DEFAULT_PLOT], check=2) == [50, 52]
    cfg, games = load_records([target])
    assert cfg == Config(mankind="heuristic", invader="heuristic")
    assert [g.seed for g in games] == [50, 51, 52]
    head = json.loads(target.read_text().splitlines()[0])
    assert head["bots"] == REVISION
    assert head["adopted"] == {"from": "probe.jsonl", "replayed": [50, 52]}


def test_games_that_play_differently_now_are_not_adopted(tmp_path: Path) -> None:
    source, target = tmp_path / "probe.jsonl", tmp_path / "adopted.jsonl"
    _probe(source, OTHER_PLOT, range(60, 63))
    with pytest.raises(RecordsMismatch, match="plays differently"):
        adopt(source, target, [OTHER_PLOT], check=3)
    assert not target.exists()


def test_an_option_the_probe_did_not_set_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "probe.jsonl"
    _probe(source, DEFAULT_PLOT, range(70, 71))
    with pytest.raises(RecordsMismatch, match="not played with"):
        adopt(source, tmp_path / "adopted.jsonl", [OTHER_PLOT], check=1)


def test_an_existing_target_is_never_overwritten(tmp_path: Path) -> None:
    source, target = tmp_path / "probe.jsonl", tmp_path / "adopted.jsonl"
    _probe(source, DEFAULT_PLOT, range(80, 81))
    target.write_text("kept\n")
    with pytest.raises(FileExistsError):
        adopt(source, target, [DEFAULT_PLOT], check=1)
    assert target.read_text() == "kept\n"


def test_replayed_seeds_spread_over_the_whole_run() -> None:
    assert spread(list(range(1000, 1600)), 4) == [1000, 1200, 1399, 1599]
    assert spread([5, 6], 8) == [5, 6]


def test_a_game_saved_before_its_plot_checks_were_kept_still_replays() -> None:
    cfg = Config(mankind="random", invader="random")
    saved, replayed = play(70, cfg), play(70, cfg)
    saved.plot_checks = ""
    assert differences(saved, replayed) == []
    saved.plot_checks = "-" * len(replayed.plot_checks)
    assert differences(saved, replayed) == ["plot_checks"]
