"""Card primitives: destroy, return_to_hand, move_card, add_power_token, boost, recover.

Each primitive is written once; every card using it only supplies parameters
(invaders-cards.md §1.4). Target picking lives in targets.py.
"""

from __future__ import annotations

from app.games.base import Event
from app.games.invaders.board import (
    free_zones,
    leave_play,
    owner,
    reveal_in_hand,
    set_side,
    to_discard,
    zone_of,
)
from app.games.invaders.cards import ZONE_IDS
from app.games.invaders.clauses import Ref, primitive
from app.games.invaders.decisions import cid
from app.games.invaders.formal import Effect
from app.games.invaders.heroes import HeroEnter
from app.games.invaders.state import INVADER, Board, Boost, Ctx, Draft
from app.games.invaders.targets import FINISH, MoveDest, any_candidate, start_targeting
from app.games.invaders.triggers import card_triggers, fire
from app.games.invaders.victory import Reason, win


def _any_candidate(s: Board, ctx: Ctx, eff: Effect) -> bool:
    return any_candidate(s, ctx, eff)


def destroy_cards(d: Draft, ctx: Ctx, cards: tuple[int, ...], ev: list[Event]) -> None:
    """E-1: all chosen cards go to their owners' discard piles, then the hero is
    replaced (G-7) and ``on_destroyed`` triggers fire (T-2), in C-5 order."""
    gone: list[tuple[int, int]] = []
    hero_gone = False
    for c in cards:
        hero_gone = hero_gone or c == d.hero
        z = leave_play(d, c)
        to_discard(d, c)
        gone.append((c, z))
        ev.append(
            Event(
                "card_destroyed",
                {
                    "card": cid(c),
                    "card_type": d.types[c],
                    "zone": ZONE_IDS[z],
                    "by": ctx.source_type,
                },
            )
        )
    if hero_gone and not d.hero_pile:
        win(d, INVADER, Reason.LAST_HERO, ev)
        return
    fire(d, card_triggers(d, "on_destroyed", gone, live=False))
    if hero_gone:
        d.push(HeroEnter(True))


@primitive("destroy", _any_candidate)
def destroy(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    start_targeting(d, ctx, ref, ev)


def _finish_destroy(
    d: Draft, ctx: Ctx, ref: Ref, chosen: tuple[int, ...], zone: int, ev: list[Event]
) -> None:
    if chosen:
        destroy_cards(d, ctx, chosen, ev)


@primitive("return_to_hand", _any_candidate)
def return_to_hand(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    start_targeting(d, ctx, ref, ev)


def _finish_return(
    d: Draft, ctx: Ctx, ref: Ref, chosen: tuple[int, ...], zone: int, ev: list[Event]
) -> None:
    """E-2 / C-43: back to the owner's hand, losing tokens, wards and boosts."""
    for c in chosen:
        z = leave_play(d, c)
        reveal_in_hand(d, owner(d, c), c)
        ev.append(
            Event("card_returned", {"card": cid(c), "card_type": d.types[c], "zone": ZONE_IDS[z]})
        )


def _can_move(s: Board, ctx: Ctx, eff: Effect) -> bool:
    if eff.count == "self":
        z = zone_of(s, ctx.source)
        return z >= 0 and bool(free_zones(s, owner(s, ctx.source), exclude=z))
    return _any_candidate(s, ctx, eff)


@primitive("move_card", _can_move)
def move_card(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    """E-3: a move is not a play; tokens, boosts and 'used' stay with the card (C-30)."""
    if ref.effect.count == "self":
        if zone_of(d, ctx.source) >= 0:
            d.push(MoveDest(ctx.controller, ctx.source, ()))
    else:
        start_targeting(d, ctx, ref, ev)


def _finish_move(
    d: Draft, ctx: Ctx, ref: Ref, chosen: tuple[int, ...], zone: int, ev: list[Event]
) -> None:
    if chosen:
        d.push(MoveDest(ctx.controller, chosen[0], chosen[1:]))


def _can_add_token(s: Board, ctx: Ctx, eff: Effect) -> bool:
    if eff.count == "self":
        if zone_of(s, ctx.source) < 0:
            return False
        return eff.max is None or s.plus_tokens.get(ctx.source, 0) < eff.max
    return _any_candidate(s, ctx, eff)


@primitive("add_power_token", _can_add_token)
def add_power_token(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    """E-9: +1 power tokens; the self form never exceeds ``max`` tokens (C-11)."""
    eff = ref.effect
    if eff.count != "self":
        start_targeting(d, ctx, ref, ev)
        return
    if zone_of(d, ctx.source) < 0:
        return
    have = d.plus_tokens.get(ctx.source, 0)
    add = eff.amount or 1
    if eff.max is not None:
        add = max(0, min(add, eff.max - have))
    if add:
        _put_tokens(d, (ctx.source,), add, ev)


def _put_tokens(d: Draft, cards: tuple[int, ...], n: int, ev: list[Event]) -> None:
    tokens = dict(d.plus_tokens)
    for c in cards:
        tokens[c] = tokens.get(c, 0) + n
        ev.append(Event("power_token_added", {"card": cid(c), "amount": n, "total": tokens[c]}))
    d.plus_tokens = tokens


def _finish_tokens(
    d: Draft, ctx: Ctx, ref: Ref, chosen: tuple[int, ...], zone: int, ev: list[Event]
) -> None:
    if chosen:
        _put_tokens(d, chosen, ref.effect.amount or 1, ev)


@primitive("boost", _any_candidate)
def boost(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    start_targeting(d, ctx, ref, ev)


def boost_expiry(d: Board, until: str | None) -> int:
    """C-33: the turn in whose clean-up a boost ends."""
    if until == "end_of_next_invader_turn":
        return d.turn + 1 if d.active != INVADER else d.turn + 2
    return d.turn


def _finish_boost(
    d: Draft, ctx: Ctx, ref: Ref, chosen: tuple[int, ...], zone: int, ev: list[Event]
) -> None:
    """E-10: only the cards chosen (or matching) now get it; newcomers do not (C-33)."""
    eff = ref.effect
    expires = boost_expiry(d, eff.until)
    amount = eff.amount or 0
    d.boosts = d.boosts + tuple(Boost(c, amount, expires) for c in chosen)
    for c in chosen:
        ev.append(Event("card_boosted", {"card": cid(c), "amount": amount, "until": eff.until}))


@primitive("recover", _any_candidate)
def recover(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    start_targeting(d, ctx, ref, ev)


def _finish_recover(
    d: Draft, ctx: Ctx, ref: Ref, chosen: tuple[int, ...], zone: int, ev: list[Event]
) -> None:
    """E-14: from the controller's (public) discard pile into his hand."""
    side = ctx.controller
    for c in chosen:
        d.discard = set_side(d.discard, side, tuple(x for x in d.discard[side] if x != c))
        reveal_in_hand(d, side, c)
        ev.append(Event("card_recovered", {"card": cid(c), "card_type": d.types[c]}))


FINISH.update(
    {
        "destroy": _finish_destroy,
        "return_to_hand": _finish_return,
        "move_card": _finish_move,
        "add_power_token": _finish_tokens,
        "boost": _finish_boost,
        "recover": _finish_recover,
    }
)

__all__ = ["destroy_cards", "to_discard"]
