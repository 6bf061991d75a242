"""The driver: run automatic tasks until someone owes a decision, and apply one choice.

``apply`` copies the input into a Draft, validates in the fixed guard order
(game over, malformed, unknown type, not your decision, wrong phase, the
rule-specific code), carries the choice out, runs the stack forward, and
freezes a new State. The input is never modified.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Event, IllegalAction, Transition
from app.games.invaders import effects, effects_player, effects_zone  # noqa: F401 - registers
from app.games.invaders.actions import MAIN_TYPES, apply_main, legal_main, main_problem
from app.games.invaders.decisions import JSON, Decision
from app.games.invaders.state import SIDES, Board, Draft, State
from app.games.invaders.victory import check_zone_collapse

DECISION_TYPES = frozenset(
    {
        "choose_zone",
        "choose_target",
        "done",
        "discard",
        "sacrifice",
        "spend_ward",
        "decline_ward",
        "choose_branch",
        "choose_trigger",
        "decline",
        "enable",
    }
)
KNOWN_TYPES = MAIN_TYPES | DECISION_TYPES


def pending(s: Board) -> Decision | None:
    """The decision on top of the stack, if any (None in the main phase)."""
    if s.outcome is None and s.stack:
        top = s.stack[-1]
        if isinstance(top, Decision):
            return top
    return None


def owing(s: Board) -> int | None:
    """Side index that owes the next decision, or None once the game is over."""
    if s.outcome is not None:
        return None
    top = pending(s)
    if top is not None:
        return top.owner
    return s.active if s.phase == "main" and not s.stack else None


def advance(d: Draft, ev: list[Event]) -> list[JSON] | None:
    """Run automatic work; auto-take decisions with a single option; stop at a real choice.

    Returns the options of the decision it stopped at (None if it stopped elsewhere).
    """
    collapse = d.options.zone_collapse_win
    while d.outcome is None and d.stack:
        top = d.stack[-1]
        if isinstance(top, Decision):
            opts = top.options(d)
            if len(opts) > 1:
                return opts
            d.stack = d.stack[:-1]
            if opts:
                top.choose(d, opts[0], ev)
            else:
                top.exhausted(d, ev)
        else:
            d.stack = d.stack[:-1]
            top.run(d, ev)
        if collapse:
            check_zone_collapse(d, ev)
    return None


# One-entry memos keyed on the frozen State object (held, so identity is exact):
# clients and bots call legal_actions(s) and then apply(s, ...) on the same value,
# and apply already computed the options of the decision it stopped at.
# Each entry is replaced as a whole (one atomic dict store), read with one get.
_MEMO: dict[str, tuple[State, list[JSON]]] = {}


def _options(s: State, top: Decision) -> list[JSON]:
    hit = _MEMO.get("options")
    if hit is not None and hit[0] is s:
        return hit[1]
    return top.options(s)


def _main_list(s: State, side: int) -> list[JSON]:
    hit = _MEMO.get("main")
    if hit is not None and hit[0] is s:
        return hit[1]
    found = legal_main(s, side)
    _MEMO["main"] = (s, found)
    return found


def _find(options: list[JSON], action: Mapping[str, Any]) -> JSON | None:
    """The listed option that ``action`` names (extra keys in ``action`` are ignored)."""
    kind = action["type"]
    for o in options:
        if o["type"] == kind and all(action.get(k) == v for k, v in o.items()):
            return o
    return None


def legal_actions(s: State, seat: str) -> list[JSON]:
    side = SIDES.index(seat) if seat in SIDES else -1
    if side < 0 or owing(s) != side:
        return []
    top = pending(s)
    found = _options(s, top) if top is not None else _main_list(s, side)
    return [dict(a) for a in found]


def _guard(s: State, seat: str, action: Mapping[str, Any]) -> int:
    """The checks every action passes first, in the documented order; returns the side."""
    if s.outcome is not None:
        raise IllegalAction("game_over", "the game is over")
    if not isinstance(action, Mapping) or not isinstance(action.get("type"), str):
        raise IllegalAction("bad_action", "an action is an object with a string 'type'")
    kind = action["type"]
    if kind not in KNOWN_TYPES:
        raise IllegalAction("unknown_action", f"no action type {kind!r}")
    side = SIDES.index(seat) if seat in SIDES else -1
    if side < 0 or owing(s) != side:
        raise IllegalAction("not_your_decision", f"{seat!r} owes no decision now")
    return side


def _apply_main(s: State, d: Draft, side: int, action: Mapping[str, Any], ev: list[Event]) -> None:
    kind = action["type"]
    if kind not in MAIN_TYPES:
        raise IllegalAction("wrong_phase", f"{kind!r} answers no pending decision")
    if _find(_main_list(s, side), action) is None:
        problem = main_problem(s, side, action) or "invalid_choice"
        raise IllegalAction(problem, f"{kind!r} is not allowed: {problem}")
    apply_main(d, side, action, ev)


def _answer(s: State, d: Draft, top: Decision, action: Mapping[str, Any], ev: list[Event]) -> None:
    opts = _options(s, top)
    chosen = _find(opts, action)
    if chosen is None:
        if not any(o["type"] == action["type"] for o in opts):
            raise IllegalAction("wrong_phase", f"{action['type']!r} does not answer {top.kind!r}")
        raise IllegalAction(top.bad_value_code, f"not an option of {top.kind!r}")
    d.stack = d.stack[:-1]
    top.choose(d, chosen, ev)


def apply(s: State, seat: str, action: Mapping[str, Any]) -> Transition:
    side = _guard(s, seat, action)
    d = Draft(s)
    ev: list[Event] = []
    top = pending(s)
    if top is None:
        _apply_main(s, d, side, action, ev)
    else:
        _answer(s, d, top, action, ev)
    d.decisions += 1
    stopped_at = advance(d, ev)
    if d.options.zone_collapse_win:
        check_zone_collapse(d, ev)  # the choice itself may have been the last step
        if d.outcome is not None:
            stopped_at = None
    new = d.freeze()
    if stopped_at is not None:
        _MEMO["options"] = (new, stopped_at)
    return Transition(new, tuple(ev))
