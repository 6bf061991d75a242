"""Printed data the battle needs: factions, leaders, treachery cards, territories.

Leaders, cards and the map are data (leaders.toml, treachery.toml,
territories.toml), read once at import; the handful of faction numbers live
here as constants because they are few and checked by tests.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path

FACTIONS: tuple[str, ...] = (
    "atreides",
    "bene_gesserit",
    "emperor",
    "fremen",
    "guild",
    "harkonnen",
)
"""The six classic factions; also the game's SEATS (unused seats never act)."""

START_SPICE = {
    "atreides": 10,
    "bene_gesserit": 5,
    "emperor": 10,
    "fremen": 3,
    "guild": 5,
    "harkonnen": 10,
}
HAND_LIMIT = {f: (8 if f == "harkonnen" else 4) for f in FACTIONS}
ELITE_TOKENS = {"emperor": 5, "fremen": 3}  # Sardaukar, Fedaykin (§11.3)
FORCES_PER_FACTION = 20

WEAPON_KINDS = frozenset({"projectile", "poison", "lasgun", "worthless"})
DEFENSE_KINDS = frozenset({"shield", "snooper", "worthless"})


@dataclass(frozen=True)
class LeaderType:
    id: str
    name: str
    faction: str
    strength: int


@dataclass(frozen=True)
class CardType:
    slug: str
    name: str
    kind: str
    count: int


@dataclass(frozen=True)
class TerritoryType:
    """A territory of the battle map; ``sectors`` are contiguous storm sectors."""

    id: str
    name: str
    terrain: str  # rock | sand | stronghold | polar
    sectors: tuple[int, ...]


_HERE = Path(__file__).parent


def _load_leaders() -> dict[str, LeaderType]:
    data = tomllib.loads((_HERE / "leaders.toml").read_text(encoding="utf-8"))
    return {
        row["id"]: LeaderType(row["id"], row["name"], row["faction"], int(row["strength"]))
        for row in data["leader"]
    }


def _load_cards() -> dict[str, CardType]:
    data = tomllib.loads((_HERE / "treachery.toml").read_text(encoding="utf-8"))
    return {
        row["slug"]: CardType(row["slug"], row["name"], row["kind"], int(row["count"]))
        for row in data["card"]
    }


LEADERS: dict[str, LeaderType] = _load_leaders()
CARD_TYPES: dict[str, CardType] = _load_cards()

DECK: tuple[str, ...] = tuple(
    f"{c.slug}-{i}" for c in CARD_TYPES.values() for i in range(1, c.count + 1)
)
"""Every card id of the 33-card deck, e.g. ``shield-3``; ids are unique."""


def _load_map() -> tuple[dict[str, TerritoryType], tuple[int, ...]]:
    data = tomllib.loads((_HERE / "territories.toml").read_text(encoding="utf-8"))
    territories = {
        row["id"]: TerritoryType(
            row["id"], row["name"], row["terrain"], tuple(int(s) for s in row["sectors"])
        )
        for row in data["territory"]
    }
    return territories, tuple(int(s) for s in data["dot_sectors"])


TERRITORIES, DOT_SECTORS = _load_map()
"""The small battle map (R-23; territories.toml) and where the six player dots sit."""


def leader_faction(leader_id: str) -> str:
    return LEADERS[leader_id].faction


def strength(leader_id: str) -> int:
    return LEADERS[leader_id].strength


def card_kind(card_id: str) -> str:
    """``shield-3`` -> ``shield``."""
    return CARD_TYPES[card_id.rsplit("-", 1)[0]].kind


def card_name(card_id: str) -> str:
    return CARD_TYPES[card_id.rsplit("-", 1)[0]].name


def card_slug(card_id: str) -> str:
    return card_id.rsplit("-", 1)[0]


def is_card(card_id: object) -> bool:
    return isinstance(card_id, str) and card_id in _DECK_SET


_DECK_SET = frozenset(DECK)
assert len(DECK) == 33, "the base treachery deck has 33 cards"
assert len(LEADERS) == 30
