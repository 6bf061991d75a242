"""Action B, use a card in play (§5.2, T-7), and action D, the invasion plot action (§5.4).

Activated abilities: own main phase, once per owner's turn, costs paid in full
first (C-25), and only if the ability would change something (C-2).
"""

from __future__ import annotations

from dataclasses import dataclass

from app.games.base import Event
from app.games.invaders.board import owner, zone_of
from app.games.invaders.cards import category, clauses
from app.games.invaders.clauses import RunClause, clause_can_change
from app.games.invaders.costs import PayDiscard, can_pay, requirement_costs
from app.games.invaders.decisions import cid
from app.games.invaders.drain import Drain, Draw
from app.games.invaders.effects import destroy_cards
from app.games.invaders.effects_zone import move_plot_by
from app.games.invaders.state import INVADER, SIDES, Board, Ctx, Draft, Task, task

PLOT_OPTIONS = ("draw", "reduce_discard", "reduce_drain")


def use_problem(s: Board, side: int, c: int, z: int | None = None) -> str | None:
    """Why ``side`` cannot use card ``c``'s ability now (an IllegalAction code), or None.

    ``z`` may carry the zone of ``c`` when the caller already knows it.
    """
    z = zone_of(s, c) if z is None else z
    if z < 0 or owner(s, c) != side:
        return "card_not_in_play"
    t = s.types[c]
    found = clauses(t, "activated")
    if not found:
        return "no_ability"
    if c in s.used:
        return "already_used"
    if c == s.hero and s.hero_turned:
        return "hero_turned"  # C-8
    i, clause = found[0]
    discard, drain, _ = requirement_costs(clause.requirements)
    if not can_pay(s, side, discard, drain):
        return "cost_unpayable"
    if not clause_can_change(s, Ctx(side, c, t, z, category(t)), t, i):
        return "no_effect"
    return None


def use_ability(d: Draft, side: int, c: int, ev: list[Event]) -> None:
    t = d.types[c]
    z = zone_of(d, c)
    i, clause = clauses(t, "activated")[0]
    d.used = d.used | {c}
    ev.append(Event("ability_used", {"seat": SIDES[side], "card": cid(c), "card_type": t}))
    discard, drain, destroy_self = requirement_costs(clause.requirements)
    ctx = Ctx(side, c, t, z, category(t))
    steps: list[Task] = [PayDiscard(side, discard), Drain(side, drain, cost=True)]
    if destroy_self:
        steps.append(DestroySelf(ctx))
    d.push(*steps, RunClause(ctx, t, i))


@task
@dataclass(frozen=True, slots=True)
class DestroySelf(Task):
    """K-3 / C-25: the source is destroyed (on_destroyed fires) before the effect."""

    ctx: Ctx

    def run(self, d: Draft, ev: list[Event]) -> None:
        if zone_of(d, self.ctx.source) >= 0:
            destroy_cards(d, self.ctx, (self.ctx.source,), ev)


def plot_problem(s: Board, side: int, option: object) -> str | None:
    if side != INVADER:
        return "invader_only"
    if option not in PLOT_OPTIONS:
        return "invalid_choice"
    if s.plot_action_used:
        return "already_used"
    if option == "draw" and not s.deck[INVADER]:
        return "deck_empty"  # §5.4 [P], G-12
    return None


def plot_action(d: Draft, option: str, ev: list[Event]) -> None:
    """§5.4: draw 1 or reduce the next card's discard/drain by 1; the marker moves down 1."""
    d.plot_action_used = True
    ev.append(Event("plot_action", {"option": option}))
    move_plot_by(d, -1, ev, "plot_action")
    if d.outcome is not None:
        return  # T-11: the skull ends the game; the option is irrelevant
    if option == "draw":
        d.push(Draw(INVADER, 1))
    else:
        d.reduction = option.removeprefix("reduce_")
