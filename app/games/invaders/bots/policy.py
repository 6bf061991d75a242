"""Decision rules shared by the heuristic and strong bots, on a complete (determinized) State.

``greedy`` is the prototype's one-ply bot (invaders-cards.md §3.6): score every
legal option by applying it, finishing the seat's own follow-up choices with
cheap rules (``complete``), and evaluating the result; "stop" options
(``end_main``, ``decline``) are scored as the position as it stands, which the
evaluator already projects through the coming attack. Called once per decision,
this repeats "until no action improves the score".
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.invaders import engine
from app.games.invaders.bots.evaluation import Weights, card_value, score, surprise_of
from app.games.invaders.cards import STRATEGY_IDS, ZONE_IDS, card, clauses, owner_of_type
from app.games.invaders.decisions import parse_cid
from app.games.invaders.drain import Drain
from app.games.invaders.power import all_powers, zone_totals
from app.games.invaders.state import INVADER, MANKIND, SIDES, State

JSON = dict[str, Any]
STOP_TYPES = frozenset({"end_main", "decline"})
MAX_FOLLOW_UPS = 40  # own follow-up decisions finished by rule after one option
WARD_GATE_DECK = 10  # ``ward_gate`` lets a drain through only from a deck at least this big


def kind_of(s: State) -> str:
    """The prompt kind the seat answers now ("main" in the main phase)."""
    top = engine.pending(s)
    return "main" if top is None else top.kind


def step(s: State, seat: str, action: Mapping[str, Any]) -> State:
    hit = _STEPPED[0]
    if hit is not None and hit[0] is s:
        done = hit[1].get(id(action))
        if done is not None and done[0] is action:
            return done[1]  # the option greedy scored and then chose
    return engine.apply(s, seat, action).state


_STEPPED: list[tuple[State, dict[int, tuple[Mapping[str, Any], State]]] | None] = [None]
"""The last ``option_values`` call's one-step results, by the option objects it was given:
greedy scores every option and its caller then applies the chosen one, the same object, to
the same state. The entry holds both, so an identity hit is exact (the engine is pure)."""


def _zone_need(s: State, side: int, z: int, power: int, surprise: float) -> float:
    """How much one more card of ``power`` is worth in zone ``z`` for ``side`` (zone choice)."""
    mk, inv = zone_totals(s, z, all_powers(s))
    if side == MANKIND:
        before = max(0.0, inv + surprise - mk)
        after = max(0.0, inv + surprise - mk - power)
        return (before - after) * 10 + (inv - mk)
    before = max(0, inv - mk)
    after = max(0, inv + power - mk)
    return (after - before) * 10 + (inv + power - mk) * 0.5


def _gate_plots() -> dict[str, int]:
    """The plot space at which each Invader strategy unlocks (its ``plot<=n`` gate)."""
    out = {}
    for sid in STRATEGY_IDS:
        if owner_of_type(sid) != INVADER:
            continue
        for r in clauses(sid, "enable")[0][1].requirements:
            if r.kind == "plot<=":
                out[sid] = r.n
    return out


_INVADER_GATES = _gate_plots()


def _opens_gate(s: State) -> bool:
    """The pending ward answers the first drain the Invader inflicts in his turn, and a
    failed plot check would move the marker onto the gate of a dormant strategy of his."""
    below = s.stack[-2] if len(s.stack) >= 2 else None
    if not (isinstance(below, Drain) and below.invader_caused and not below.cost):
        return False
    if s.active != INVADER or s.drain_inflicted:
        return False
    return any(n == s.plot - 1 and sid not in s.enabled for sid, n in _INVADER_GATES.items())


def _ward_choice(s: State, options: list[JSON], w: Weights) -> JSON:
    """Spend a ward on every drain (a prevented drain is not drain, C-21), but on a draw
    only from an empty deck: a skipped draw is a card lost (C-20 leaves it to Mankind).
    With ``ward_gate`` (a probe, off when shipped) the drain that would keep the Invader's
    plot check from failing onto one of his gates goes through."""
    top = engine.pending(s)
    spend = getattr(top, "what", "drain") == "drain" or not s.deck[MANKIND]
    if spend and w.ward_gate and len(s.deck[MANKIND]) >= WARD_GATE_DECK and _opens_gate(s):
        spend = False
    wanted = "spend_ward" if spend else "decline_ward"
    return next((o for o in options if o["type"] == wanted), options[0])


def rule_choice(s: State, side: int, options: list[JSON], w: Weights) -> JSON | None:
    """A cheap answer for routine follow-ups, or None when the option needs scoring."""
    kind = kind_of(s)
    if kind == "discard":
        return min(options, key=lambda o: card_value(s.types[parse_cid(o["card"])]))
    if kind in ("sacrifice", "sacrifice_for_hero"):
        powers = all_powers(s)
        return min(options, key=lambda o: powers.get(parse_cid(o["card"]), 0))
    if kind == "ward":
        return _ward_choice(s, options, w)
    if kind == "chainmail_window":
        return next((o for o in options if o["type"] == "decline"), options[0])
    if kind in ("play_zone", "place_hero"):
        surprise = surprise_of(s, w) if side == MANKIND else 0.0
        top = engine.pending(s)
        c = getattr(top, "card", -1)
        power = (card(s.types[c]).power or 0) if c >= 0 else 0
        return max(
            options,
            key=lambda o: _zone_need(s, side, ZONE_IDS.index(o["zone"]), power, surprise),
        )
    return None


def complete(s: State, side: int, w: Weights) -> State:
    """Finish the seat's own pending follow-up decisions (zone, costs, targets) by rule."""
    seat = SIDES[side]
    for _ in range(MAX_FOLLOW_UPS):
        if s.outcome is not None or engine.owing(s) != side or engine.pending(s) is None:
            return s
        options = engine.legal_actions(s, seat)
        chosen = rule_choice(s, side, options, w)
        if chosen is None:
            chosen = max(options, key=lambda o: score(step(s, seat, o), side, w))
        s = step(s, seat, chosen)
    return s


def option_values(s: State, side: int, options: list[JSON], w: Weights) -> list[float]:
    """Greedy value of each option for ``side`` (one ply plus rule follow-ups)."""
    seat = SIDES[side]
    here = score(s, side, w)
    out = []
    stepped: dict[int, tuple[Mapping[str, Any], State]] = {}
    for o in options:
        if o["type"] in STOP_TYPES:
            out.append(here)
        else:
            after = step(s, seat, o)
            stepped[id(o)] = (o, after)
            out.append(score(complete(after, side, w), side, w))
    _STEPPED[0] = (s, stepped)
    return out


def greedy(s: State, side: int, w: Weights, options: list[JSON] | None = None) -> JSON:
    """The best option by ``option_values`` (the first on ties: deterministic)."""
    options = engine.legal_actions(s, SIDES[side]) if options is None else options
    if len(options) == 1:
        return options[0]
    quick = rule_choice(s, side, options, w) if kind_of(s) != "main" else None
    if quick is not None and kind_of(s) not in ("play_zone", "chainmail_window"):
        return quick
    values = option_values(s, side, options, w)
    best = max(range(len(options)), key=lambda i: values[i])
    return options[best]


__all__ = ["complete", "greedy", "kind_of", "option_values", "step"]
