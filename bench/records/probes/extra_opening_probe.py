"""Probe wrapper, not a rule (docs/balance.md §45.5): bench/selfplay.py with the second
player dealt ``EXTRA`` more opening cards, so that at every attack he has drawn as many
cards as the first player. It tests §45.4's model of the first-move edge (the value of one
draw phase): if the model holds, the Invader-first row with Mankind dealt two more reads
about the base's rate.

The records' ``bots`` field names the change, so its games never resume or merge with a
real row's. Same arguments as bench/selfplay.py:

    python bench/records/probes/extra_opening_probe.py --games 200 --seed 1000 \\
        --mankind strong --invader strong --first invader --iterations 10 --seconds 600 \\
        --records bench/records/probes/strong10_first_mkextra2_v1.12_r5.jsonl
"""

from __future__ import annotations

import importlib
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from app.games.invaders.drain import Draw
from app.games.invaders.state import SIDES, State
from bench import selfplay, selfplay_records

EXTRA = 2
setup = importlib.import_module("app.games.invaders.setup")  # the package's ``setup`` is a function
_new_state = setup.new_state


def new_state(seed: int, options: Any) -> State:
    """The rules' fresh match, the second player's opening draw ``EXTRA`` cards longer."""
    s = _new_state(seed, options)
    second = 1 - SIDES.index(s.options.first_player)
    stack = tuple(
        replace(t, n=t.n + EXTRA) if isinstance(t, Draw) and t.side == second else t
        for t in s.stack
    )
    return replace(s, stack=stack)


setup.new_state = new_state  # type: ignore[assignment]
selfplay_records.REVISION = f"{selfplay_records.REVISION}+second_player_opening_{EXTRA}"  # type: ignore[assignment]

if __name__ == "__main__":
    selfplay.main()
