"""Seeds whose opening held a card, and seed files (bench/opening_seeds.py)."""

from __future__ import annotations

from pathlib import Path

from bench.opening_seeds import opening_seeds, read_seed_file
from bench.selfplay import Config, GameRecord
from bench.selfplay_records import append_records, open_records


def _game(seed: int, mankind: list[str], invader: list[str]) -> GameRecord:
    rec = GameRecord(seed, "mankind", "plot_skull", 20, 100, {})
    rec.opening = {"mankind": mankind, "invader": invader}
    return rec


def test_only_games_with_the_card_in_that_seats_opening_are_listed(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    with open_records(path, Config()) as f:
        append_records(
            f,
            [
                _game(3, ["mount_rushmore"], []),
                _game(1, [], ["mount_rushmore"]),  # the other seat's opening
                _game(2, ["norad_bunker", "mount_rushmore"], []),
            ],
        )
    assert opening_seeds([path], "mankind", "mount_rushmore") == [2, 3]


def test_a_seed_file_keeps_its_order_and_drops_repeats(tmp_path: Path) -> None:
    path = tmp_path / "seeds"
    path.write_text("1005\n1020 1005\n\n1003\n", encoding="utf-8")
    assert read_seed_file(path) == [1005, 1020, 1003]
