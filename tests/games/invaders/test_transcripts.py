"""Golden transcripts: known games replayed action by action must end identically.

Each file in transcripts/ holds the seed, options, the actions in order, the
expected outcome and the sha256 of the final snapshot. A change to the rules
that alters any of these games must be deliberate: regenerate with
``python tests/games/invaders/test_transcripts.py --regenerate`` and say why.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from app.games import invaders as game

HERE = Path(__file__).parent / "transcripts"
CASES = {
    "default_seed_101": (101, {}),
    "default_seed_202": (202, {}),
    "invader_first_seed_303": (303, {"first_player": "invader"}),
    "zone_collapse_seed_404": (404, {"zone_collapse_win": True}),
}


def snapshot_hash(state: Any) -> str:
    text = json.dumps(game.to_json(state), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def record(seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """Play a game with a seeded policy that prefers acting over ending the main phase."""
    rng = random.Random(seed)
    s = game.setup(seed, options)
    actions = []
    while game.outcome(s) is None:
        seat = next(iter(game.active_seats(s)))
        legal = game.legal_actions(s, seat)
        busy = [a for a in legal if a["type"] not in ("end_main", "plot_action")]
        action = rng.choice(busy) if busy and rng.random() < 0.85 else rng.choice(legal)
        actions.append([seat, action])
        s = game.apply(s, seat, action).state
    return {
        "seed": seed,
        "options": options,
        "actions": actions,
        "outcome": game.outcome(s).to_json(),
        "final_sha256": snapshot_hash(s),
    }


@pytest.mark.parametrize("name", sorted(CASES))
def test_transcript_replays_identically(name: str) -> None:
    data = json.loads((HERE / f"{name}.json").read_text())
    s = game.setup(data["seed"], data["options"])
    for seat, action in data["actions"]:
        assert action in game.legal_actions(s, seat)
        s = game.apply(s, seat, action).state
    assert game.outcome(s).to_json() == data["outcome"]
    assert snapshot_hash(s) == data["final_sha256"]


if __name__ == "__main__" and "--regenerate" in sys.argv:
    HERE.mkdir(exist_ok=True)
    for case, (seed, options) in CASES.items():
        (HERE / f"{case}.json").write_text(json.dumps(record(seed, options), indent=1) + "\n")
