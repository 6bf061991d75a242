"""Per-viewer views, event redaction and the list of secrets (allow-list, R-GEN-5).

Every view is a NEW dict naming each field a viewer may know; nothing is
copied from the state and then deleted. Hidden: the opponent's hand, both deck
orders and the hero pile (sizes only). Public: everything in play, discard
piles, tokens, turned state, strategies, plot marker, shield pool, wards.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Event, Viewer, redact_private
from app.games.invaders.board import total_wards
from app.games.invaders.cards import (
    OPS_CENTRE,
    PRINTED_ZONE_POWER,
    STRATEGY_IDS,
    ZONE_IDS,
    ZONE_NAMES,
    catalog_entry,
    clauses,
    owner_of_type,
)
from app.games.invaders.costs import requirements_met
from app.games.invaders.decisions import JSON, cid
from app.games.invaders.engine import legal_actions, owing, pending
from app.games.invaders.power import all_powers, card_cost, zone_power, zone_totals
from app.games.invaders.state import INVADER, MANKIND, SIDES, State

PRIVATE_EVENT_FIELDS: dict[str, tuple[str, ...]] = {"card_drawn": ("seat",)}


def _in_play_card(s: State, c: int, powers: Mapping[int, int]) -> JSON:
    return {
        "id": cid(c),
        "type": s.types[c],
        "power": powers[c],
        "plus_tokens": s.plus_tokens.get(c, 0),
        "wards": s.wards.get(c, 0),
        "boosts": [{"amount": b.amount, "until_turn": b.expires} for b in s.boosts if b.card == c],
        "used": c in s.used,
        "hero": c == s.hero,
        "turned": c == s.hero and s.hero_turned,
    }


def _zones(s: State, powers: Mapping[int, int]) -> list[JSON]:
    out = []
    for z, zid in enumerate(ZONE_IDS):
        mk, inv = zone_totals(s, z, powers)
        out.append(
            {
                "id": zid,
                "name": ZONE_NAMES[z],
                "printed_power": PRINTED_ZONE_POWER[z],
                "tokens": s.zone_tokens[z],
                "power": zone_power(s, z),
                "modifiers": [
                    {"amount": m.amount, "until": m.until} for m in s.zone_mods if m.zone == z
                ],
                "mankind": [_in_play_card(s, c, powers) for c in s.board[z * 2 + MANKIND]],
                "invader": [_in_play_card(s, c, powers) for c in s.board[z * 2 + INVADER]],
                "totals": {"mankind": mk, "invader": inv},
            }
        )
    return out


def _strategies(s: State, side: int) -> list[JSON]:
    out = []
    for sid in STRATEGY_IDS:
        if owner_of_type(sid) == side:
            reqs = clauses(sid, "enable")[0][1].requirements
            out.append(
                {
                    "id": sid,
                    "enabled": sid in s.enabled,
                    "requirements_met": requirements_met(s, side, reqs),
                }
            )
    return out


def _player(s: State, side: int, viewer: Viewer) -> JSON:
    own = viewer == SIDES[side]
    out: JSON = {
        "deck_size": len(s.deck[side]),
        "hand_size": len(s.hand[side]),
        "discard": [{"id": cid(c), "type": s.types[c]} for c in s.discard[side]],
        "known_hand": [{"id": cid(c), "type": s.types[c]} for c in s.hand[side] if c in s.revealed],
        "strategies": _strategies(s, side),
    }
    if own:
        out["hand"] = [
            {
                "id": cid(c),
                "type": s.types[c],
                "cost": dict(zip(("discard", "drain"), card_cost(s, c), strict=True)),
            }
            for c in s.hand[side]
        ]
    if side == MANKIND:
        out["hero_pile_size"] = len(s.hero_pile)
        out["wards"] = total_wards(s)
        out["shield"] = s.shield
        out["ops_centre_used"] = OPS_CENTRE in s.used
    else:
        out["plot_action_used"] = s.plot_action_used
        out["cost_reduction"] = s.reduction or None
        out["drain_inflicted"] = s.drain_inflicted
    return out


def prompt(s: State, viewer: Viewer) -> JSON:
    """Who owes what now; the options only for the seat that owes the decision."""
    if s.outcome is not None:
        return {"seat": None, "kind": "game_over", "info": s.outcome.to_json()}
    side = owing(s)
    seat = SIDES[side] if side is not None else None
    top = pending(s)
    out: JSON = {
        "seat": seat,
        "kind": top.kind if top is not None else "main",
        "info": top.info(s) if top is not None else {},
    }
    if viewer is not None and viewer == seat:
        out["options"] = legal_actions(s, viewer)
    return out


def _visible_types(s: State, viewer: Viewer) -> list[str]:
    seen: dict[str, None] = {}
    cards = [c for column in s.board for c in column]
    cards += [*s.discard[0], *s.discard[1], *s.limbo]
    cards += s.revealed
    if viewer in SIDES:
        cards += s.hand[SIDES.index(viewer)]
    for c in cards:
        seen[s.types[c]] = None
    return [*seen, *STRATEGY_IDS, OPS_CENTRE]


def view(s: State, viewer: Viewer) -> JSON:
    powers = all_powers(s)
    return {
        "game": "invaders",
        "viewer": viewer,
        "turn": s.turn,
        "active": SIDES[s.active],
        "phase": s.phase,
        "plot": s.plot,
        "outcome": s.outcome.to_json() if s.outcome is not None else None,
        "options": {
            "zone_collapse_win": s.options.zone_collapse_win,
            "first_player": s.options.first_player,
            "opening_hand": s.options.opening_hand,
        },
        "zones": _zones(s, powers),
        "hero": {"id": cid(s.hero), "turned": s.hero_turned} if s.hero >= 0 else None,
        "limbo": [{"id": cid(c), "type": s.types[c]} for c in s.limbo],
        "players": {seat: _player(s, i, viewer) for i, seat in enumerate(SIDES)},
        "prompt": prompt(s, viewer),
        "legal_actions": legal_actions(s, viewer) if viewer in SIDES else [],
        "catalog": {t: catalog_entry(t) for t in _visible_types(s, viewer)},
    }


def redact(event: Event, viewer: Viewer) -> JSON | None:
    """A drawn card is known only to its drawer; everything else is public."""
    return redact_private(event, viewer, PRIVATE_EVENT_FIELDS.get(event.type, ()))


def secrets(s: State, viewer: Viewer) -> set[str]:
    """Strings ``viewer`` must never receive (conformance/leak tests hook).

    Card ids of every hidden card (decks, hero pile, the opponent's hand) and the
    type ids of card types all of whose instances are hidden from the viewer.
    """
    hidden = [*s.deck[0], *s.deck[1], *s.hero_pile]
    for i, seat in enumerate(SIDES):
        if viewer != seat:
            hidden += [c for c in s.hand[i] if c not in s.revealed]
    visible_types = set(_visible_types(s, viewer))
    out = {f'"{cid(c)}"' for c in hidden}
    out |= {f'"{s.types[c]}"' for c in hidden if s.types[c] not in visible_types}
    return out


__all__ = ["Any", "prompt", "redact", "secrets", "view"]
