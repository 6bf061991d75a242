"""Countdown: a tiny two-seat game that exercises the whole game contract in tests.

Seats alternately take 1-3 tokens from a counter; whoever takes the last token wins.
Each seat holds a secret "hand" (a sentinel string) redrawn after each take and
announced by a private event, so leak tests have secrets to look for.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

from app.games.base import JSON, Event, IllegalAction, Outcome, Transition, Viewer, redact_private

NAME = "countdown"
TITLE = "Countdown (test game)"
SEATS = ("north", "south")
RULES_VERSION = "1"
SNAPSHOT_VERSION = 1
SECRET_PREFIX = "SENTINEL-"


@dataclass(frozen=True)
class State:
    counter: int
    turn: str
    hands: tuple[tuple[str, str], ...]
    rng: int
    winner: str | None = None

    def hand(self, seat: str) -> str:
        return dict(self.hands)[seat]


def _next(rng: int) -> int:
    return (rng * 6364136223846793005 + 1442695040888963407) % 2**64


def _draw(rng: int) -> tuple[str, int]:
    rng = _next(rng)
    return f"{SECRET_PREFIX}{rng:016x}", rng


def default_options() -> JSON:
    return {"start": 10}


def validate_options(options: Mapping[str, Any]) -> JSON:
    start = options.get("start", 10)
    if not isinstance(start, int) or not 1 <= start <= 60:
        raise IllegalAction("bad_options", "start must be an integer from 1 to 60.")
    return {"start": start}


def setup(seed: int, options: Mapping[str, Any]) -> State:
    rng = seed
    hands = []
    for seat in SEATS:
        hand, rng = _draw(rng)
        hands.append((seat, hand))
    return State(counter=options["start"], turn=SEATS[0], hands=tuple(hands), rng=rng)


def active_seats(state: State) -> frozenset[str]:
    return frozenset() if state.winner else frozenset({state.turn})


def legal_actions(state: State, seat: str) -> list[JSON]:
    if seat not in active_seats(state):
        return []
    return [{"type": "take", "amount": n} for n in range(1, min(3, state.counter) + 1)]


def apply(state: State, seat: str, action: Mapping[str, Any]) -> Transition:
    if action not in legal_actions(state, seat):
        raise IllegalAction("illegal_take", "Take 1 to 3 tokens, no more than are left.")
    amount = int(action["amount"])
    counter = state.counter - amount
    hand, rng = _draw(state.rng)
    hands = tuple((s, hand if s == seat else h) for s, h in state.hands)
    other = SEATS[1] if seat == SEATS[0] else SEATS[0]
    new = replace(
        state,
        counter=counter,
        turn=other,
        hands=hands,
        rng=rng,
        winner=seat if counter == 0 else None,
    )
    events = (
        Event("took", {"seat": seat, "amount": amount, "counter": counter}),
        Event("drew", {"seat": seat, "hand": hand}, private_to=seat),
    )
    return Transition(new, events)


def view(state: State, viewer: Viewer) -> JSON:
    out: JSON = {"counter": state.counter, "turn": state.turn, "winner": state.winner}
    if viewer is not None:
        out["hand"] = state.hand(viewer)
    out["legal_actions"] = legal_actions(state, viewer) if viewer else []
    out["prompt"] = "Take 1 to 3 tokens." if out["legal_actions"] else None
    return out


def redact(event: Event, viewer: Viewer) -> JSON | None:
    return redact_private(event, viewer, public_fields=("seat",))


def outcome(state: State) -> Outcome | None:
    return Outcome(state.winner, "last_token") if state.winner else None


def to_json(state: State) -> JSON:
    return {
        "v": SNAPSHOT_VERSION,
        "counter": state.counter,
        "turn": state.turn,
        "hands": dict(state.hands),
        "rng": state.rng,
        "winner": state.winner,
    }


def from_json(data: Mapping[str, Any]) -> State:
    hands = tuple((seat, data["hands"][seat]) for seat in SEATS)
    return State(data["counter"], data["turn"], hands, data["rng"], data["winner"])
