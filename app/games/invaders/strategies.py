"""Action C, enable a dormant strategy (§5.3, T-8), and the Ops Centre (§2.6, C-40).

Strategies are not cards (C-38): ``by`` is 'strategy', so no ``forbid(by=one_shot)``
stops them; the Ops Centre is a repeatable board ability ('board').
"""

from __future__ import annotations

from app.games.base import Event
from app.games.invaders.cards import OPS_CENTRE, STRATEGY_IDS, clauses, owner_of_type
from app.games.invaders.clauses import RunClause, clause_can_change
from app.games.invaders.costs import PayDiscard, can_pay, requirement_costs, requirements_met
from app.games.invaders.drain import Drain
from app.games.invaders.state import MANKIND, SIDES, Board, Ctx, Draft


def _clause(sid: str, timing: str) -> int:
    return clauses(sid, timing)[0][0]


# Per strategy, computed once: (owner, enable clause index, requirements, discard, drain).
_ENABLE = {
    sid: (
        owner_of_type(sid),
        _clause(sid, "enable"),
        clauses(sid, "enable")[0][1].requirements,
        *requirement_costs(clauses(sid, "enable")[0][1].requirements)[:2],
    )
    for sid in STRATEGY_IDS
}


_CTX = {sid: Ctx(owner_of_type(sid), -1, sid, -1, "strategy") for sid in STRATEGY_IDS}


def strategy_problem(s: Board, side: int, sid: str) -> str | None:
    """Why ``side`` cannot enable ``sid`` now (an IllegalAction code), or None."""
    found = _ENABLE.get(sid)
    if found is None:
        return "unknown_strategy"
    owner, index, reqs, discard, drain = found
    if owner != side:
        return "not_your_strategy"
    if sid in s.enabled:
        return "strategy_used"
    if not requirements_met(s, side, reqs):
        return "requirement_unmet"
    if not can_pay(s, side, discard, drain):
        return "cost_unpayable"
    if not clause_can_change(s, _CTX[sid], sid, index):
        return "no_effect"
    return None


def enable_strategy(d: Draft, side: int, sid: str, ev: list[Event]) -> None:
    """Flip the marker (once per game), pay any printed cost, carry out the text."""
    d.enabled = d.enabled | {sid}
    ev.append(Event("strategy_enabled", {"seat": SIDES[side], "strategy": sid}))
    i = _clause(sid, "enable")
    _, clause = clauses(sid, "enable")[0]
    discard, drain, _ = requirement_costs(clause.requirements)
    ctx = Ctx(side, -1, sid, -1, "strategy")
    d.push(PayDiscard(side, discard), Drain(side, drain, cost=True), RunClause(ctx, sid, i))


def ops_problem(s: Board, side: int) -> str | None:
    """C-40: once per Mankind turn, his main phase only; discard paid; a branch must work."""
    if side != MANKIND:
        return "not_your_ability"
    if OPS_CENTRE in s.used:
        return "already_used"
    _, clause = clauses(OPS_CENTRE, "activated")[0]
    discard, drain, _ = requirement_costs(clause.requirements)
    if not can_pay(s, side, discard, drain):
        return "cost_unpayable"
    ctx = Ctx(side, -1, OPS_CENTRE, -1, "board")
    if not clause_can_change(s, ctx, OPS_CENTRE, _clause(OPS_CENTRE, "activated")):
        return "no_effect"
    return None


def use_ops_centre(d: Draft, ev: list[Event]) -> None:
    d.used = d.used | {OPS_CENTRE}
    ev.append(Event("ops_centre_used", {}))
    i = _clause(OPS_CENTRE, "activated")
    _, clause = clauses(OPS_CENTRE, "activated")[0]
    discard, drain, _ = requirement_costs(clause.requirements)
    ctx = Ctx(MANKIND, -1, OPS_CENTRE, -1, "board")
    d.push(
        PayDiscard(MANKIND, discard),
        Drain(MANKIND, drain, cost=True),
        RunClause(ctx, OPS_CENTRE, i),
    )
