"""Filter matching F-1 … F-12 (invaders-cards.md §1.2) for cards in play.

One function, used by statics (power.py), targets (targets.py) and protection.
"""

from __future__ import annotations

from collections.abc import Mapping

from app.games.invaders.board import zone_of
from app.games.invaders.cards import card, owner_of_type
from app.games.invaders.catalog import CATALOG
from app.games.invaders.formal import Filter
from app.games.invaders.state import SIDES, Board

_INFO = {
    t: (
        ("invader" if ct.side == "invader" else "mankind"),
        ct.category,
        frozenset(ct.keywords),
        ct.power or 0,
    )
    for t, ct in CATALOG.cards.items()
}


def category_matches(cat: str, wanted: tuple[str, ...], hero_is_defender: bool = True) -> bool:
    """F-2; ``defender`` also matches the hero (G-10) unless the caller excludes it (C-7)."""
    return cat in wanted or (hero_is_defender and cat == "hero" and "defender" in wanted)


def matches(
    s: Board,
    c: int,
    f: Filter | None,
    *,
    source: int = -1,
    zone: int = -1,
    chosen: int = -1,
    powers: Mapping[int, int] | None = None,
    card_zone: int | None = None,
) -> bool:
    """Whether card ``c`` in play matches ``f`` seen from a source in ``zone``.

    ``powers`` gives current power (C-4); without it power tests use printed
    power (statics never test power, which keeps power computation acyclic).
    ``card_zone`` may be passed when the caller already knows it.
    """
    if f is None:
        return True
    side, cat, keywords, printed = _INFO[s.types[c]]
    if f.side is not None and side != f.side:
        return False
    if f.categories and not category_matches(cat, f.categories):
        return False
    if f.keywords and keywords.isdisjoint(f.keywords):
        return False
    if f.self_only and c != source:
        return False
    if f.other and c == source:
        return False
    if f.hero is True and c != s.hero:
        return False
    if f.hero is False and c == s.hero:
        return False
    if f.hero_state is not None and (c != s.hero or s.hero_turned != (f.hero_state == "turned")):
        return False
    if f.zone is not None:
        where = zone_of(s, c) if card_zone is None else card_zone
        if f.zone == "this" and where != zone:
            return False
        if f.zone == "chosen" and chosen >= 0 and where != chosen:
            return False
    if f.power_le is not None or f.power_ge is not None:
        p = powers[c] if powers is not None else printed
        if f.power_le is not None and p > f.power_le:
            return False
        if f.power_ge is not None and p < f.power_ge:
            return False
    return True


def matches_printed(type_id: str, f: Filter | None) -> bool:
    """F-12: filters on cards outside play (discard pile, hand) use printed values."""
    if f is None:
        return True
    ct = card(type_id)
    if f.side is not None and SIDES[owner_of_type(type_id)] != f.side:
        return False
    if f.categories and not category_matches(ct.category, f.categories, hero_is_defender=False):
        return False
    if f.keywords and not any(k in ct.keywords for k in f.keywords):
        return False
    p = ct.power
    if f.power_le is not None and (p is None or p > f.power_le):
        return False
    return not (f.power_ge is not None and (p is None or p < f.power_ge))
