"""Cached catalog lookups: the engine asks these, never the TOML, in hot paths.

Everything is computed once at import from ``CATALOG`` so rules code can ask
"which clauses of this card have timing X" in O(1).
"""

from __future__ import annotations

from functools import cache

from app.games.invaders.catalog import CATALOG, CardType, StrategyType
from app.games.invaders.formal import Clause, Effect, Static

ZONE_IDS: tuple[str, ...] = tuple(z.id for z in CATALOG.zones)
ZONE_NAMES: tuple[str, ...] = tuple(z.name for z in CATALOG.zones)
PRINTED_ZONE_POWER: tuple[int, ...] = tuple(z.printed_power for z in CATALOG.zones)
N_ZONES = len(ZONE_IDS)
SLOTS_PER_SIDE = 4  # R-ZONE-2
OPS_CENTRE = next(s.id for s in CATALOG.strategies.values() if s.repeatable)
STRATEGY_IDS: tuple[str, ...] = tuple(s.id for s in CATALOG.strategies.values() if not s.repeatable)
#: Strategies the catalog lets their owner enable in the opponent's turn (Chainmail, C-35).
OPPONENT_TURN_STRATEGIES = frozenset(s.id for s in CATALOG.strategies.values() if s.opponent_turn)

Source = CardType | StrategyType


def card(type_id: str) -> CardType:
    return CATALOG.cards[type_id]


def source(type_id: str) -> Source:
    """A card type or a strategy/Ops Centre, by id."""
    found = CATALOG.cards.get(type_id)
    return found if found is not None else CATALOG.strategies[type_id]


_OWNER = {
    **{t: int(ct.side == "invader") for t, ct in CATALOG.cards.items()},
    **{t: int(st.owner == "invader") for t, st in CATALOG.strategies.items()},
}


def owner_of_type(type_id: str) -> int:
    """Side index (0 mankind, 1 invader) owning cards of this type; heroes are Mankind's."""
    return _OWNER[type_id]


@cache
def clauses(type_id: str, timing: str) -> tuple[tuple[int, Clause], ...]:
    """(clause index, clause) pairs of the given timing."""
    return tuple((i, c) for i, c in enumerate(source(type_id).clauses) if c.timing == timing)


@cache
def statics(type_id: str) -> tuple[Static, ...]:
    return tuple(s for _, c in clauses(type_id, "static") for s in c.statics)


_HAS_STATICS = {t: any(c.timing == "static" for c in ct.clauses) for t, ct in CATALOG.cards.items()}


def has_statics(type_id: str) -> bool:
    return _HAS_STATICS[type_id]


_HAS_ACTIVATED = {
    t: any(c.timing == "activated" for c in ct.clauses) for t, ct in CATALOG.cards.items()
}


def has_activated(type_id: str) -> bool:
    return _HAS_ACTIVATED[type_id]


def clause_at(type_id: str, index: int) -> Clause:
    return source(type_id).clauses[index]


def effect_at(type_id: str, clause_index: int, path: tuple[int, ...]) -> Effect:
    """The effect at ``path`` (effect index, then choose_one branch indexes)."""
    eff = clause_at(type_id, clause_index).effects[path[0]]
    for branch in path[1:]:
        eff = eff.branches[branch]
    return eff


def is_permanent(type_id: str) -> bool:
    return CATALOG.cards[type_id].power is not None


def category(type_id: str) -> str:
    return CATALOG.cards[type_id].category


def catalog_entry(type_id: str) -> dict[str, object]:
    """Public catalog data for a visible card, strategy or the Ops Centre (view)."""
    found = CATALOG.cards.get(type_id)
    if found is None:
        s = CATALOG.strategies[type_id]
        return {
            "id": s.id,
            "name": s.name,
            "owner": s.owner,
            "text": s.text,
            "formal": s.formal,
            "repeatable": s.repeatable,
        }
    return {
        "id": found.id,
        "name": found.name,
        "side": found.side,
        "category": found.category,
        "power": found.power,
        "discard": found.discard,
        "drain": found.drain,
        "keywords": list(found.keywords),
        "text": found.text,
        "formal": found.formal,
    }
