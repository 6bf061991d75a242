"""Saved self-play games (bench/selfplay_records.py): resume and merge give one run's report."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from app.games.invaders.bots import REVISION
from bench.selfplay import Config, play
from bench.selfplay_records import (
    CATALOG_FILE,
    FIRST_REVISION,
    THINK_DIGITS,
    RecordsMismatch,
    append_records,
    catalog_digest,
    load_records,
    open_records,
    saved_seeds,
)
from bench.selfplay_report import report

RANDOM = Config(mankind="random", invader="random")


def _save(path: Path, cfg: Config, seeds: range) -> None:
    with open_records(path, cfg) as f:
        append_records(f, [play(seed, cfg) for seed in seeds])


def test_two_files_merge_to_the_report_of_one_run(tmp_path: Path) -> None:
    _save(tmp_path / "a.jsonl", RANDOM, range(10, 13))
    _save(tmp_path / "b.jsonl", RANDOM, range(13, 15))
    cfg, merged = load_records([tmp_path / "b.jsonl", tmp_path / "a.jsonl"])
    whole = [play(seed, RANDOM) for seed in range(10, 15)]
    assert [r.seed for r in merged] == list(range(10, 15))
    mine, theirs = report(merged, cfg, 0.0), report(whole, RANDOM, 0.0)
    for key in ("mankind_wins", "rounds", "reasons", "strategies", "opening_shift"):
        assert mine[key] == theirs[key]


def test_a_resumed_file_knows_its_seeds_and_keeps_its_games(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    _save(path, RANDOM, range(20, 22))
    _save(path, RANDOM, range(22, 23))
    assert saved_seeds(path) == {20, 21, 22}


def test_files_of_other_bots_do_not_merge(tmp_path: Path) -> None:
    _save(tmp_path / "a.jsonl", RANDOM, range(1, 2))
    _save(
        tmp_path / "b.jsonl",
        Config(mankind="random", invader="random", first="invader"),
        range(2, 3),
    )
    with pytest.raises(RecordsMismatch, match="config"):
        load_records([tmp_path / "a.jsonl", tmp_path / "b.jsonl"])


def test_appending_with_other_bots_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    _save(path, RANDOM, range(1, 2))
    with pytest.raises(RecordsMismatch, match="config"):
        open_records(path, Config(mankind="heuristic", invader="random"))


def test_a_seed_held_twice_does_not_merge(tmp_path: Path) -> None:
    _save(tmp_path / "a.jsonl", RANDOM, range(5, 7))
    _save(tmp_path / "b.jsonl", RANDOM, range(6, 8))
    with pytest.raises(RecordsMismatch, match="seed 6"):
        load_records([tmp_path / "a.jsonl", tmp_path / "b.jsonl"])


def test_a_half_written_last_line_is_dropped_and_the_file_appends_cleanly(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    _save(path, RANDOM, range(30, 32))
    path.write_text(path.read_text()[:-40])  # a run stopped in the middle of its last game
    assert saved_seeds(path) == {30}
    _save(path, RANDOM, range(31, 33))
    assert [r.seed for r in load_records([path])[1]] == [30, 31, 32]


def test_decision_times_are_saved_to_a_tenth_of_a_millisecond(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    _save(path, RANDOM, range(40, 41))
    saved = load_records([path])[1][0].think
    played = play(40, RANDOM).think
    assert [len(v) for v in saved.values()] == [len(v) for v in played.values()]
    assert all(t == round(t, THINK_DIGITS) for ts in saved.values() for t in ts)


def test_the_catalog_digest_ignores_comments_but_not_a_cost(tmp_path: Path) -> None:
    text = CATALOG_FILE.read_text("utf-8")
    commented, changed = tmp_path / "commented.toml", tmp_path / "changed.toml"
    commented.write_text("# a new changelog line\n" + text, "utf-8")
    changed.write_text(text.replace("drain = ", "drain = 1", 1), "utf-8")
    assert catalog_digest(commented) == catalog_digest()
    assert catalog_digest(changed) != catalog_digest()


def _with_header(path: Path, **changes: object) -> None:
    lines = path.read_text("utf-8").splitlines(keepends=True)
    head = {**json.loads(lines[0]), **changes}
    head = {k: v for k, v in head.items() if v is not None}
    path.write_text(json.dumps(head) + "\n" + "".join(lines[1:]), "utf-8")


def test_games_of_an_earlier_bots_revision_do_not_resume(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    _save(path, RANDOM, range(1, 2))
    _with_header(path, bots=REVISION - 1)
    with pytest.raises(RecordsMismatch, match="bots"):
        open_records(path, RANDOM)


def test_a_file_without_a_bots_revision_holds_the_first_one(tmp_path: Path) -> None:
    old, new = tmp_path / "old.jsonl", tmp_path / "new.jsonl"
    _save(old, RANDOM, range(1, 2))
    _save(new, RANDOM, range(2, 3))
    _with_header(old, bots=None)
    _with_header(new, bots=FIRST_REVISION)
    assert [r.seed for r in load_records([old, new])[1]] == [1, 2]
    _with_header(new, bots=FIRST_REVISION + 1)
    with pytest.raises(RecordsMismatch, match="bots"):
        load_records([old, new])
