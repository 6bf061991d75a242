"""How the Battle phase ends: the faction with the most tokens left on the board wins.

A single Battle phase has no printed victory condition; holding the ground is
the natural measure (ruling R-1 in docs/dune-battle.md). Equal counts are a draw.
"""

from __future__ import annotations

from app.games.base import Outcome
from app.games.dune_battle.battles import board_totals
from app.games.dune_battle.state import GameState


def outcome(state: GameState) -> Outcome | None:
    if state.phase != "over":
        return None
    totals = board_totals(state)
    best = max(totals.values())
    leaders = [f for f, n in totals.items() if n == best]
    detail = ", ".join(f"{f} {n}" for f, n in totals.items())
    if len(leaders) == 1:
        return Outcome(leaders[0], "most_forces", detail)
    return Outcome(None, "draw", detail)
