"""Main-phase actions (R-MAIN-1): listing the legal ones and carrying one out.

Each check returns the IllegalAction code that explains a refusal, so the
legal list and the refusal share one source of truth.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Event
from app.games.invaders.abilities import (
    PLOT_OPTIONS,
    plot_action,
    plot_problem,
    use_ability,
    use_problem,
)
from app.games.invaders.cards import N_ZONES, STRATEGY_IDS, has_activated, owner_of_type
from app.games.invaders.decisions import JSON, cid, parse_cid
from app.games.invaders.flow import end_main
from app.games.invaders.play import play_card, play_problem, play_zones
from app.games.invaders.state import INVADER, MANKIND, Board, Draft
from app.games.invaders.strategies import (
    enable_strategy,
    ops_problem,
    strategy_problem,
    use_ops_centre,
)

MAIN_TYPES = frozenset({"play", "use", "enable", "ops_centre", "plot_action", "end_main"})


def legal_main(s: Board, side: int) -> list[JSON]:
    """Every main-phase action open to the active player now, end_main last."""
    out: list[JSON] = []
    by_type: dict[str, bool] = {}  # copies of one type in hand share cost and effect
    zones_ok = bool(play_zones(s, side))
    for c in s.hand[side]:
        t = s.types[c]
        if t not in by_type:
            by_type[t] = play_problem(s, side, c, zones_ok) is None
        if by_type[t]:
            out.append({"type": "play", "card": cid(c)})
    for z in range(N_ZONES):
        for c in s.board[z * 2 + side]:
            if has_activated(s.types[c]) and use_problem(s, side, c, z) is None:
                out.append({"type": "use", "card": cid(c)})
    for sid in STRATEGY_IDS:
        if owner_of_type(sid) == side and strategy_problem(s, side, sid) is None:
            out.append({"type": "enable", "strategy": sid})
    if side == MANKIND and ops_problem(s, side) is None:
        out.append({"type": "ops_centre"})
    if side == INVADER:
        out.extend(
            {"type": "plot_action", "option": o}
            for o in PLOT_OPTIONS
            if plot_problem(s, side, o) is None
        )
    out.append({"type": "end_main"})
    return out


def main_problem(s: Board, side: int, action: Mapping[str, Any]) -> str | None:
    """Why ``action`` is refused in ``side``'s main phase, or None if it is legal."""
    kind = action.get("type")
    if kind == "end_main":
        return None
    if kind == "play":
        c = _card(s, action.get("card"))
        if c < 0:
            return "unknown_card"
        if c not in s.hand[side]:
            return "card_not_in_hand"
        return play_problem(s, side, c)
    if kind == "use":
        c = _card(s, action.get("card"))
        return "unknown_card" if c < 0 else use_problem(s, side, c)
    if kind == "enable":
        return strategy_problem(s, side, str(action.get("strategy")))
    if kind == "ops_centre":
        return ops_problem(s, side)
    if kind == "plot_action":
        return plot_problem(s, side, action.get("option"))
    return "unknown_action"


def _card(s: Board, value: Any) -> int:
    c = parse_cid(value)
    return c if 0 <= c < len(s.types) else -1


def apply_main(d: Draft, side: int, action: Mapping[str, Any], ev: list[Event]) -> None:
    """Carry out an already validated main-phase action."""
    kind = action["type"]
    if kind == "end_main":
        end_main(d, ev)
    elif kind == "play":
        play_card(d, side, parse_cid(action["card"]), ev)
    elif kind == "use":
        use_ability(d, side, parse_cid(action["card"]), ev)
    elif kind == "enable":
        enable_strategy(d, side, str(action["strategy"]), ev)
    elif kind == "ops_centre":
        use_ops_centre(d, ev)
    else:
        plot_action(d, str(action["option"]), ev)
