"""Triggered clauses (T-2 … T-5) and the order of simultaneous triggers (C-5)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import ClassVar

from app.games.base import Event
from app.games.invaders.board import owner
from app.games.invaders.cards import ZONE_IDS, category, clauses, source
from app.games.invaders.clauses import RunClause
from app.games.invaders.decisions import JSON, Decision, cid
from app.games.invaders.state import Board, Ctx, Draft, task


def card_triggers(
    s: Board, timing: str, cards: Iterable[tuple[int, int]], live: bool
) -> list[RunClause]:
    """RunClause tasks for each (card, zone) whose type has clauses of ``timing``.

    A turned hero's triggers do nothing (C-8) except ``on_play``.
    """
    out: list[RunClause] = []
    for c, z in cards:
        t = s.types[c]
        found = clauses(t, timing)
        if not found or (live and c == s.hero and s.hero_turned):
            continue
        ctx = Ctx(owner(s, c), c, t, z, category(t))
        out.extend(RunClause(ctx, t, i, 0, live) for i, _ in found)
    return out


def fire(d: Draft, found: list[RunClause]) -> None:
    """Queue triggers: the active player's first, each side's in an order it chooses (C-5).

    A side is asked only when its triggers differ (same card type in the same zone
    resolve identically, so their order cannot matter).
    """
    if not found:
        return
    groups = [
        [t for t in found if t.ctx.controller == d.active],
        [t for t in found if t.ctx.controller != d.active],
    ]
    items: list[object] = []
    for group in groups:
        if len({(t.type_id, t.clause, t.ctx.zone) for t in group}) > 1:
            items.append(OrderTriggers(group[0].ctx.controller, tuple(group)))
        else:
            items.extend(group)
    d.push(*items)  # type: ignore[arg-type]


@task
@dataclass(frozen=True, slots=True)
class OrderTriggers(Decision):
    """The controller picks which of his simultaneous triggers resolves next (C-5)."""

    seat: int
    pending: tuple[RunClause, ...]

    kind: ClassVar[str] = "order_triggers"
    bad_value_code: ClassVar[str] = "invalid_choice"

    def options(self, s: Board) -> list[JSON]:
        return [{"type": "choose_trigger", "index": i} for i in range(len(self.pending))]

    def choose(self, d: Draft, action: JSON, ev: list[Event]) -> None:
        i = int(action["index"])
        first = self.pending[i]
        rest = self.pending[:i] + self.pending[i + 1 :]
        tail: object = rest[0] if len(rest) == 1 else OrderTriggers(self.seat, rest)
        d.push(first, tail)  # type: ignore[arg-type]

    def info(self, s: Board) -> JSON:
        return {
            "triggers": [
                {
                    "index": i,
                    "card": cid(t.ctx.source) if t.ctx.source >= 0 else None,
                    "card_type": t.type_id,
                    "zone": ZONE_IDS[t.ctx.zone] if t.ctx.zone >= 0 else None,
                    "text": source(t.type_id).text,
                }
                for i, t in enumerate(self.pending)
            ]
        }
