"""A probe row read against its base row seed by seed (bench/compare_records.py)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.compare_records import compare, lines
from bench.selfplay import Config, GameRecord
from bench.selfplay_records import RecordsMismatch, append_records, open_records

BASE = Config(mankind="heuristic", invader="strong", iterations=30)
PROBE = Config(
    mankind="heuristic",
    invader="strong",
    iterations=30,
    overrides=[("invader", "invader_deck", 0.9)],
)


def _row(
    path: Path,
    cfg: Config,
    invader_won: dict[int, bool],
    openings: dict[int, dict[str, list[str]]] | None = None,
) -> Path:
    games = [
        GameRecord(
            seed,
            "invader" if won else "mankind",
            "plot_skull",
            20,
            100,
            {},
            opening=(openings or {}).get(seed, {}),
        )
        for seed, won in invader_won.items()
    ]
    with open_records(path, cfg) as f:
        append_records(f, games)
    return path


def _recatalogued(path: Path) -> Path:
    """The same row, its header claiming another card catalog."""
    text = path.read_text(encoding="utf-8").splitlines()
    head = json.loads(text[0]) | {"catalog": "0000000000000000"}
    path.write_text("\n".join([json.dumps(head), *text[1:]]) + "\n", encoding="utf-8")
    return path


def test_identical_rows_show_no_change(tmp_path: Path) -> None:
    won = {1: True, 2: False, 3: True}
    c = compare([_row(tmp_path / "a", BASE, won)], [_row(tmp_path / "b", PROBE, won)], "invader")
    assert (c.seeds, c.base_wins, c.probe_wins, c.only_base, c.only_probe) == (3, 2, 2, 0, 0)
    assert c.difference == 0 and c.half_width == 0
    assert c.seeds_to_resolve() is None
    assert "no difference to resolve" in lines(c)[-1]


def test_games_won_by_one_row_only_are_counted_per_seed(tmp_path: Path) -> None:
    base = _row(tmp_path / "a", BASE, {1: True, 2: True, 3: False, 4: False})
    probe = _row(tmp_path / "b", PROBE, {1: False, 2: True, 3: True, 4: True})
    c = compare([base], [probe], "invader")
    assert (c.only_base, c.only_probe) == (1, 2)
    assert c.difference == pytest.approx(0.25)
    assert compare([base], [probe], "mankind").difference == pytest.approx(-0.25)


def test_only_seeds_both_rows_played_count(tmp_path: Path) -> None:
    base = _row(tmp_path / "a", BASE, {1: True, 2: True})
    probe = _row(tmp_path / "b", PROBE, {2: False, 3: True, 4: True})
    c = compare([base], [probe], "invader")
    assert (c.seeds, c.base_wins, c.probe_wins) == (1, 1, 0)


def test_a_small_change_asks_for_more_seeds_than_it_has(tmp_path: Path) -> None:
    base = {s: s % 3 == 0 for s in range(90)}  # a third of the games
    probe = dict(base) | {1: True, 2: True, 4: True, 3: False}  # +2 games of 90
    c = compare([_row(tmp_path / "a", BASE, base)], [_row(tmp_path / "b", PROBE, probe)], "invader")
    need = c.seeds_to_resolve()
    assert need is not None and need > c.seeds
    assert c.half_width > abs(c.difference)
    assert f"needs about {need} seeds" in lines(c)[-1]


def test_a_large_change_is_resolved(tmp_path: Path) -> None:
    base = {s: False for s in range(40)}
    probe = {s: s < 20 for s in range(40)}
    c = compare([_row(tmp_path / "a", BASE, base)], [_row(tmp_path / "b", PROBE, probe)], "invader")
    assert c.half_width < c.difference
    assert "resolved" in lines(c)[-1]


def test_rows_of_different_catalogs_are_refused(tmp_path: Path) -> None:
    base = _row(tmp_path / "a", BASE, {1: True})
    probe = _recatalogued(_row(tmp_path / "b", PROBE, {1: True}))
    with pytest.raises(RecordsMismatch, match="catalog"):
        compare([base], [probe], "invader")


def test_across_catalogs_pairs_only_seeds_with_identical_openings(tmp_path: Path) -> None:
    same = {"invader": ["terror_broadcast"], "mankind": ["rifle_platoon"]}
    moved = {"invader": ["drone_picket"], "mankind": ["rifle_platoon"]}
    base = _row(tmp_path / "a", BASE, {1: False, 2: False, 3: False}, {1: same, 2: same, 3: same})
    probe = _recatalogued(
        _row(tmp_path / "b", BASE, {1: True, 2: True, 3: True}, {1: same, 2: moved, 3: same})
    )
    c = compare([base], [probe], "invader", across_catalogs=True)
    assert (c.seeds, c.base_wins, c.probe_wins) == (2, 0, 2)


def test_across_catalogs_pairs_seeds_whose_later_draws_differ(tmp_path: Path) -> None:
    dealt = ["rifle_platoon", "hold_the_line", "conscription", "field_hospital", "saladin_vtol"]
    drawn = {"invader": ["drone_picket"], "mankind": [*dealt, "decoy_beacons", "mako"]}
    drained = {"invader": ["drone_picket"], "mankind": [*dealt, "railgun_battery", "conscription"]}
    base = _row(tmp_path / "a", BASE, {1: False}, {1: drawn})
    probe = _recatalogued(_row(tmp_path / "b", BASE, {1: True}, {1: drained}))
    assert compare([base], [probe], "invader", across_catalogs=True).seeds == 1


def test_across_catalogs_skips_games_recorded_without_openings(tmp_path: Path) -> None:
    base = _row(tmp_path / "a", BASE, {1: True})
    probe = _recatalogued(_row(tmp_path / "b", BASE, {1: True}))
    assert compare([base], [probe], "invader", across_catalogs=True).seeds == 0


def test_identical_rows_correlate_fully_and_a_constant_row_not_at_all(tmp_path: Path) -> None:
    won = {1: True, 2: False, 3: True}
    same = compare([_row(tmp_path / "a", BASE, won)], [_row(tmp_path / "b", PROBE, won)], "invader")
    assert same.correlation == pytest.approx(1.0)
    flat = _row(tmp_path / "c", PROBE, {1: True, 2: True, 3: True})
    assert compare([tmp_path / "a"], [flat], "invader").correlation is None


def test_a_probe_that_copies_the_base_is_read_at_the_bases_whole_run_rate(tmp_path: Path) -> None:
    """Seeds 1-4 are the base's lucky ones (3 of 4); over its 10 seeds it wins 4."""
    base = {1: True, 2: True, 3: True, 4: False} | {s: s == 9 for s in range(5, 11)}
    probe = {s: base[s] for s in range(1, 5)}
    c = compare([_row(tmp_path / "a", BASE, base)], [_row(tmp_path / "b", PROBE, probe)], "invader")
    over = c.over_base_seeds()
    assert over is not None and over[0] == pytest.approx(0.4)
    assert "the probe over the base's 10 seeds (control variate) 40.0%" in "\n".join(lines(c))


def test_an_uncorrelated_probe_is_read_at_its_own_rate(tmp_path: Path) -> None:
    base = {1: True, 2: True, 3: False, 4: False, 5: False, 6: False}
    probe = {1: True, 2: False, 3: True, 4: False}
    c = compare([_row(tmp_path / "a", BASE, base)], [_row(tmp_path / "b", PROBE, probe)], "invader")
    over = c.over_base_seeds()
    assert c.correlation == pytest.approx(0.0)
    assert over is not None and over[0] == pytest.approx(0.5) and over[1] > 0


def test_no_whole_run_reading_when_the_probe_played_every_base_seed(tmp_path: Path) -> None:
    won = {1: True, 2: False, 3: True}
    c = compare([_row(tmp_path / "a", BASE, won)], [_row(tmp_path / "b", PROBE, won)], "invader")
    assert c.over_base_seeds() is None
    assert not any("control variate" in line for line in lines(c))


HOLDS = {"invader": ["siege_crawler", "drone_picket"], "mankind": ["rifle_platoon"]}
LACKS = {"invader": ["drone_picket"], "mankind": ["rifle_platoon"]}


def _dealt_rows(tmp_path: Path) -> tuple[Path, Path]:
    """Seeds 1-2 deal the Siege Crawler and the probe wins them; seeds 3-5 do not and the
    probe changes nothing there."""
    openings = {1: HOLDS, 2: HOLDS, 3: LACKS, 4: LACKS, 5: LACKS}
    base = {1: False, 2: False, 3: True, 4: False, 5: False}
    probe = {1: True, 2: True, 3: True, 4: False, 5: False}
    return _row(tmp_path / "a", BASE, base, openings), _row(tmp_path / "b", PROBE, probe, openings)


def test_dealt_reads_only_the_seeds_whose_openings_hold_the_card(tmp_path: Path) -> None:
    base, probe = _dealt_rows(tmp_path)
    c = compare([base], [probe], "invader", dealt=("siege_crawler", True))
    assert (c.seeds, c.base_wins, c.probe_wins) == (2, 0, 2)


def test_not_dealt_reads_only_the_seeds_whose_openings_lack_the_card(tmp_path: Path) -> None:
    base, probe = _dealt_rows(tmp_path)
    c = compare([base], [probe], "invader", dealt=("siege_crawler", False))
    assert (c.seeds, c.base_wins, c.probe_wins, c.difference) == (3, 1, 1, 0.0)


def test_dealt_leaves_out_games_saved_without_openings(tmp_path: Path) -> None:
    base = _row(tmp_path / "a", BASE, {1: True})
    probe = _row(tmp_path / "b", PROBE, {1: True})
    assert compare([base], [probe], "invader", dealt=("siege_crawler", False)).seeds == 0
