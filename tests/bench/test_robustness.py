"""The B-2 table's staging: which rows play on, on which seeds, how a row is judged, and how
a stopped table resumes from its rows' saved games.

The staging games are faked (a winner per seed) so its logic is checked exactly; the
resume tests play real random-bot games (quick), so their records are real ones.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from app.games.invaders.bots import WEIGHT_NAMES
from bench.robustness import (
    Games,
    Job,
    Row,
    all_rows,
    paired,
    play_with_records,
    report_saved,
    row_verdict,
    run_stages,
    saved_rows,
    saved_template,
    summary,
    verdict,
)
from bench.selfplay import Config, GameRecord, play
from bench.selfplay_records import RecordsMismatch, append_records, load_records, saved_winners


def fake_player(
    share: Callable[[Config], float], log: list[tuple[int, Config]]
) -> Callable[[list[tuple[int, Config]]], list[str | None]]:
    """Mankind wins seed ``s`` when ``(s * 0.618...) mod 1`` is below the config's share."""

    def play(jobs: list[tuple[int, Config]]) -> list[str | None]:
        log.extend(jobs)
        return [
            "mankind" if (seed * 0.6180339887) % 1.0 < share(cfg) else "invader"
            for seed, cfg in jobs
        ]

    return play


def test_all_rows_cover_invader_first_and_each_weight_at_both_factors() -> None:
    labels = [r.label for r in all_rows()]
    assert labels[:2] == ["base", "first"]
    assert len(labels) == 2 + 2 * len(WEIGHT_NAMES)
    assert "invader_hand=0.5" in labels and "invader_hand=1.5" in labels


def test_verdict_needs_the_whole_interval_inside_the_band() -> None:
    assert verdict(1000, 2000) == "in"
    assert verdict(80, 160) == "in"
    assert verdict(1160, 2000) == "open"  # 58.0%: the interval straddles the edge
    assert verdict(1300, 2000) == "out"
    assert verdict(700, 2000) == "out"


def test_row_is_out_when_either_side_is_clearly_outside() -> None:
    row = Row("x", Config(), ["mankind"] * 130 + ["invader"] * 30)
    assert row_verdict(row) == "out"


def test_a_decided_row_stops_and_an_open_row_plays_on_the_next_seeds() -> None:
    even, edge = Row("even", Config()), Row("edge", Config(first="invader"))
    log: list[tuple[int, Config]] = []
    play = fake_player(lambda cfg: 0.5 if cfg.first == "mankind" else 0.58, log)
    run_stages([even, edge], [160, 480], 1000, play)
    assert len(even.winners) == 160 and row_verdict(even) == "in"
    assert len(edge.winners) == 480
    edge_seeds = [s for s, cfg in log if cfg.first == "invader"]
    assert edge_seeds == list(range(1000, 1480))


def test_rows_extended_in_stages_play_the_same_games_as_one_long_run() -> None:
    staged, single = Row("a", Config(first="invader")), Row("b", Config(first="invader"))
    play = fake_player(lambda cfg: 0.58, [])
    run_stages([staged], [160, 480], 7, play)
    run_stages([single], [480], 7, play)
    assert staged.winners == single.winners


def test_within_a_stage_the_rows_nearest_an_edge_play_first() -> None:
    shares = {"mankind": 0.5, "invader": 0.56}  # keyed by who moves first
    wide, near = Row("wide", Config()), Row("near", Config(first="invader"))
    log: list[tuple[int, Config]] = []
    run_stages([wide, near], [20, 40], 1000, fake_player(lambda c: shares[c.first], log))
    first_stage, second_stage = log[:40], log[40:]
    assert [cfg.first for _, cfg in first_stage[::20]] == ["mankind", "invader"]
    assert [cfg.first for _, cfg in second_stage[::20]] == ["invader", "mankind"]


def test_rows_take_level_and_budget_from_the_template() -> None:
    template = Config("strong", "strong", iterations=10, seconds=600.0)
    rows = all_rows([("invader", "pressure", 0.6)], template)
    for row in rows:
        cfg = row.config
        assert (cfg.mankind, cfg.invader, cfg.iterations) == ("strong", "strong", 10)
        assert cfg.overrides == [("invader", "pressure", 0.6)]
    assert rows[1].config.first == "invader"
    assert rows[2].config.weights == [(WEIGHT_NAMES[0], 0.5)]


def logged_games(log: list[Job]) -> Games:
    """Real games, played in this process, with every job logged."""

    def games(jobs: list[Job]) -> Iterator[GameRecord]:
        for seed, cfg in jobs:
            log.append((seed, cfg))
            yield play(seed, cfg)

    return games


def random_rows() -> list[Row]:
    return all_rows(template=Config("random", "random"))[:2]


def test_a_resumed_table_plays_only_the_seeds_its_records_lack(tmp_path: Path) -> None:
    first_log: list[Job] = []
    rows = random_rows()
    run_stages(rows, [4], 10, play_with_records(rows, tmp_path, logged_games(first_log)))
    log: list[Job] = []
    resumed = random_rows()
    run_stages(resumed, [6], 10, play_with_records(resumed, tmp_path, logged_games(log)))
    assert len(first_log) == 8
    assert sorted(seed for seed, _ in log) == [14, 14, 15, 15]


def test_a_resumed_table_reports_the_games_of_one_run(tmp_path: Path) -> None:
    rows = random_rows()
    run_stages(rows, [3], 10, play_with_records(rows, tmp_path, logged_games([])))
    resumed, single = random_rows(), random_rows()
    run_stages(resumed, [5], 10, play_with_records(resumed, tmp_path, logged_games([])))
    run_stages(single, [5], 10, lambda jobs: [play(s, c).winner for s, c in jobs])
    assert [r.winners for r in resumed] == [r.winners for r in single]


def test_each_row_keeps_its_games_in_its_own_file(tmp_path: Path) -> None:
    rows = random_rows()
    run_stages(rows, [2], 10, play_with_records(rows, tmp_path, logged_games([])))
    for row in rows:
        path = tmp_path / f"{row.label}.jsonl"
        assert sorted(saved_winners(path)) == [10, 11]
        assert load_records([path])[0] == row.config


def test_saved_rows_read_each_rows_games_up_to_the_first_missing_seed(tmp_path: Path) -> None:
    rows = random_rows()
    run_stages(rows, [3], 10, play_with_records(rows, tmp_path, logged_games([])))
    extra = play(14, rows[1].config)  # seed 13 missing: 14 is not part of the staged run
    with (tmp_path / "first.jsonl").open("a", encoding="utf-8") as f:
        append_records(f, [extra])
    loaded = saved_rows(all_rows(template=Config("random", "random")), tmp_path, 10)
    assert [r.label for r in loaded] == ["base", "first"]
    assert [r.winners for r in loaded] == [r.winners for r in rows]


def test_paired_change_is_read_on_the_seeds_both_rows_played() -> None:
    base = Row("base", Config(), ["mankind", "invader", "mankind", "invader"])
    row = Row("x", Config(), ["mankind", "mankind", "invader"])
    p = paired(row, base)
    assert p["base"] == 2 / 3
    assert p["change"] == 0.0
    assert p["margin"] > 0.0


def test_summary_reads_every_row_but_the_base_against_the_base() -> None:
    base = Row("base", Config(), ["mankind", "invader"])
    table = summary([base, Row("x", Config(), ["mankind", "mankind"])], base)
    assert "paired" not in table[0]
    assert table[1]["paired"] == {"base": 0.5, "change": 0.5, "margin": 1.96 * 0.5}


def test_report_plays_nothing_and_prints_the_saved_rows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    rows = random_rows()
    run_stages(rows, [2], 10, play_with_records(rows, tmp_path, logged_games([])))
    before = sorted((p.name, p.stat().st_size) for p in tmp_path.iterdir())
    every = all_rows(template=Config("random", "random"))
    report_saved(every, every[0], tmp_path, 10)
    out = capsys.readouterr().out
    assert sorted((p.name, p.stat().st_size) for p in tmp_path.iterdir()) == before
    assert "first" in out and "base" in out and "paired" in out
    assert "invader_hand=0.5" not in out  # rows without games are left out


def test_report_refuses_rows_saved_with_another_level(tmp_path: Path) -> None:
    rows = random_rows()
    run_stages(rows, [2], 10, play_with_records(rows, tmp_path, logged_games([])))
    heuristic = all_rows(template=Config("heuristic", "heuristic"))
    with pytest.raises(RecordsMismatch, match="not played with"):
        report_saved(heuristic, heuristic[0], tmp_path, 10)


def test_report_reads_the_level_and_budget_from_the_saved_rows(tmp_path: Path) -> None:
    template = Config("random", "random", iterations=7, seconds=600.0)
    rows = all_rows([("invader", "plot", 2.0)], template)[:2]
    run_stages(rows, [2], 10, play_with_records(rows, tmp_path, logged_games([])))
    saved = saved_template(tmp_path)
    assert saved == rows[0].config
    every = all_rows(saved.overrides, saved)
    assert [r.label for r in saved_rows(every, tmp_path, 10)] == ["base", "first"]


def test_report_of_an_empty_folder_says_there_is_nothing_saved(tmp_path: Path) -> None:
    with pytest.raises(RecordsMismatch, match="no saved rows"):
        saved_template(tmp_path)
