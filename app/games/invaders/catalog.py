"""The Invaders card catalog, loaded from cards.toml and validated at import.

Data, not code: every card, hero, strategy, the Ops Centre and the zones come
from the TOML file; each formal line is parsed once here (formal.py).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from app.games.invaders.formal import Clause, FormalLineError, parse_formal_line


@dataclass(frozen=True)
class CardType:
    """A printed card (deck card or hero)."""

    id: str
    name: str
    side: str  # "invader" | "mankind" | "hero"
    category: str  # invader_unit | desolator | defender | location | one_shot | hero
    power: int | None  # None for one-shots
    discard: int
    drain: int
    copies: int
    keywords: tuple[str, ...]
    text: str
    formal: str
    clauses: tuple[Clause, ...]

    @property
    def is_permanent(self) -> bool:
        return self.power is not None


@dataclass(frozen=True)
class StrategyType:
    """A strategy space (or the Ops Centre) printed on the board."""

    id: str
    name: str
    owner: str  # "invader" | "mankind"
    text: str
    formal: str
    clauses: tuple[Clause, ...]
    repeatable: bool = False  # True only for the Ops Centre (once per Mankind turn)
    opponent_turn: bool = False  # may be enabled in the opponent's turn (Chainmail, C-35)


@dataclass(frozen=True)
class ZoneType:
    id: str
    name: str
    printed_power: int
    order: int


@dataclass(frozen=True)
class Catalog:
    cards: dict[str, CardType]
    invader_deck: tuple[str, ...]  # card type ids, one entry per copy (70)
    mankind_deck: tuple[str, ...]  # 70
    heroes: tuple[str, ...]  # 11
    strategies: dict[str, StrategyType]  # 5 invader + 4 mankind + ops_centre
    zones: tuple[ZoneType, ...]  # in resolution order (G-17)


class CatalogError(ValueError):
    """cards.toml breaks a rule of invaders-cards.md (a sum, a field, a formal line)."""


DECK_SIZE = 70
HERO_COUNT = 11
STRATEGY_COUNTS = {"invader": 5, "mankind": 4}
_SIDE_CATEGORIES = {
    "invader": {"invader_unit", "desolator", "one_shot"},
    "mankind": {"defender", "location", "one_shot"},
    "hero": {"hero"},
}
_TIMINGS_FOR_STRATEGY = {"enable", "activated"}


def load_catalog(path: Path | None = None) -> Catalog:
    """Read and validate the catalog; every failure names the offending entry."""
    raw = tomllib.loads((path or Path(__file__).with_name("cards.toml")).read_text("utf-8"))
    cards = {c.id: c for c in (_card(entry) for entry in raw["card"])}
    strategies = {s.id: s for s in (_strategy(entry) for entry in raw["strategy"])}
    zones = tuple(sorted((_zone(z) for z in raw["zone"]), key=lambda z: z.order))
    catalog = Catalog(
        cards=cards,
        invader_deck=_deck(cards, "invader"),
        mankind_deck=_deck(cards, "mankind"),
        heroes=_deck(cards, "hero"),
        strategies=strategies,
        zones=zones,
    )
    _validate(catalog, raw)
    return catalog


def _card(entry: dict[str, Any]) -> CardType:
    where = f"card {entry.get('id')!r}"
    try:
        card = CardType(
            id=entry["id"],
            name=entry["name"],
            side=entry["side"],
            category=entry["category"],
            power=entry.get("power"),
            discard=int(entry["discard"]),
            drain=int(entry["drain"]),
            copies=int(entry["copies"]),
            keywords=tuple(entry["keywords"]),
            text=entry["text"],
            formal=entry["formal"],
            clauses=parse_formal_line(entry["formal"]),
        )
    except (KeyError, FormalLineError) as exc:
        raise CatalogError(f"{where}: {exc}") from exc
    if card.category not in _SIDE_CATEGORIES.get(card.side, set()):
        raise CatalogError(f"{where}: category {card.category} is not a {card.side} category")
    if (card.power is None) != (card.category == "one_shot"):
        raise CatalogError(f"{where}: only one-shots lack a power value (R-CARD-1/2)")
    if min(card.discard, card.drain, card.copies) < 0:
        raise CatalogError(f"{where}: negative cost or copies")
    for clause in card.clauses:
        if clause.timing == "enable":
            raise CatalogError(f"{where}: only strategies have an enable clause")
    return card


def _strategy(entry: dict[str, Any]) -> StrategyType:
    where = f"strategy {entry.get('id')!r}"
    try:
        strategy = StrategyType(
            id=entry["id"],
            name=entry["name"],
            owner=entry["owner"],
            text=entry["text"],
            formal=entry["formal"],
            clauses=parse_formal_line(entry["formal"]),
            repeatable=bool(entry.get("repeatable", False)),
            opponent_turn=bool(entry.get("opponent_turn", False)),
        )
    except (KeyError, FormalLineError) as exc:
        raise CatalogError(f"{where}: {exc}") from exc
    if len(strategy.clauses) != 1 or strategy.clauses[0].timing not in _TIMINGS_FOR_STRATEGY:
        raise CatalogError(f"{where}: a strategy is one enable (or activated) clause")
    return strategy


def _zone(entry: dict[str, Any]) -> ZoneType:
    return ZoneType(entry["id"], entry["name"], int(entry["printed_power"]), int(entry["order"]))


def _deck(cards: dict[str, CardType], side: str) -> tuple[str, ...]:
    return tuple(c.id for c in cards.values() if c.side == side for _ in range(c.copies))


def _validate(catalog: Catalog, raw: dict[str, Any]) -> None:
    if len(catalog.invader_deck) != DECK_SIZE or len(catalog.mankind_deck) != DECK_SIZE:
        raise CatalogError(
            f"decks must hold {DECK_SIZE} cards each: invader {len(catalog.invader_deck)}, "
            f"mankind {len(catalog.mankind_deck)}"
        )
    unique = all(catalog.cards[h].copies == 1 for h in catalog.heroes)
    if len(catalog.heroes) != HERO_COUNT or not unique:
        raise CatalogError(f"there must be {HERO_COUNT} unique heroes")
    for owner, count in STRATEGY_COUNTS.items():
        found = [s for s in catalog.strategies.values() if s.owner == owner and not s.repeatable]
        if len(found) != count:
            raise CatalogError(f"{owner} needs {count} strategies, has {len(found)}")
    if [s.id for s in catalog.strategies.values() if s.repeatable] != ["ops_centre"]:
        raise CatalogError("the Ops Centre is the only repeatable board ability")
    if len(catalog.zones) != 3 or len(raw["card"]) != len(catalog.cards):
        raise CatalogError("three zones and unique card ids are required")


CATALOG: Catalog = load_catalog()
"""The catalog every match uses; loaded once at import."""
