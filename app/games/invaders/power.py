"""Current power, zone power, zone totals, costs and protection: the statics S-1 … S-5.

All continuous effects are *computed* from the board, never stored, so a card
that moves or leaves play takes its static with it (C-15, C-31).
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from app.games.invaders.board import owner
from app.games.invaders.cards import (
    N_ZONES,
    PRINTED_ZONE_POWER,
    card,
    category,
    has_statics,
    statics,
)
from app.games.invaders.catalog import CATALOG
from app.games.invaders.filters import matches, matches_printed
from app.games.invaders.formal import Static
from app.games.invaders.state import INVADER, MANKIND, Board, Ctx

_PRINTED = {t: ct.power or 0 for t, ct in CATALOG.cards.items()}

# One-entry memos. The key is the tuple of the immutable field values the result
# depends on, compared by identity: a Draft assigns a NEW value whenever it
# changes a field, and the memo holds references, so an identity hit is exact.
_MEMO: dict[str, tuple[tuple[object, ...], object]] = {}


def _key(s: Board, with_tokens: bool) -> tuple[object, ...]:
    if with_tokens:
        return (s.board, s.types, s.hero, s.hero_turned, s.plus_tokens, s.boosts)
    return (s.board, s.types, s.hero, s.hero_turned, None, None)


def _memo_get(name: str, key: tuple[object, ...]) -> object | None:
    hit = _MEMO.get(name)
    if hit is None:
        return None
    k = hit[0]
    if (
        k[0] is key[0]
        and k[1] is key[1]
        and k[2] == key[2]
        and k[3] == key[3]
        and k[4] is key[4]
        and k[5] is key[5]
    ):
        return hit[1]
    return None


def active_statics(s: Board) -> list[tuple[int, int, Static]]:
    """(source card, its zone, static) for every active static (C-8: turned hero inactive)."""
    key = _key(s, False)
    hit = _memo_get("statics", key)
    if hit is not None:
        return hit  # type: ignore[return-value]
    out: list[tuple[int, int, Static]] = []
    for i, column in enumerate(s.board):
        for c in column:
            t = s.types[c]
            if has_statics(t) and not (c == s.hero and s.hero_turned):
                out.extend((c, i // 2, st) for st in statics(t))
    _MEMO["statics"] = (key, out)
    return out


def all_powers(s: Board) -> Mapping[int, int]:
    """Current power of every card in play (§1.1): printed + tokens + boosts + statics.

    Read-only (a mapping proxy): the result is memoized and shared.
    """
    key = _key(s, True)
    hit = _memo_get("powers", key)
    if hit is not None:
        return hit  # type: ignore[return-value]
    board = s.board
    plus = s.plus_tokens
    out = {c: _PRINTED[s.types[c]] + plus.get(c, 0) for column in board for c in column}
    for b in s.boosts:
        if b.card in out:
            out[b.card] += b.amount
    for src, z, st in active_statics(s):
        if st.name not in ("power_mod", "power_per"):
            continue
        f = st.filter
        n = 0
        # A "this zone" filter can only match the two columns of the source's zone.
        cols = (z * 2, z * 2 + 1) if f is not None and f.zone == "this" else range(len(board))
        for i in cols:
            for c in board[i]:
                if matches(s, c, f, source=src, zone=z, card_zone=i // 2):
                    if st.name == "power_mod":
                        out[c] += st.amount
                    else:
                        n += 1
        if n:
            out[src] += st.amount * n
    frozen = MappingProxyType(out)
    _MEMO["powers"] = (key, frozen)
    return frozen


def zone_powers(s: Board) -> list[int]:
    """C-13 for every zone in board order: max(0, printed + static and temporary modifiers
    − tokens), reading the statics once."""
    total = [PRINTED_ZONE_POWER[z] - s.zone_tokens[z] for z in range(N_ZONES)]
    for _src, z, st in active_statics(s):
        if st.name == "zone_power_mod":
            total[z] += st.amount
    for m in s.zone_mods:
        total[m.zone] += m.amount
    return [max(0, t) for t in total]


def zone_power(s: Board, zone: int) -> int:
    """C-13 for one zone (one pass over the statics either way)."""
    return zone_powers(s)[zone]


def _column_totals(s: Board, zone: int, powers: Mapping[int, int]) -> tuple[int, int]:
    """(Mankind cards' power, a turned hero left out; Invader cards' power) in ``zone``."""
    turned = s.hero if s.hero_turned else -1
    mk = inv = 0
    for c in s.board[zone * 2 + MANKIND]:  # loops, not sum(): the bots' hot path
        if c != turned:
            mk += powers[c]
    for c in s.board[zone * 2 + INVADER]:
        inv += powers[c]
    return mk, inv


def zone_totals(s: Board, zone: int, powers: Mapping[int, int] | None = None) -> tuple[int, int]:
    """(Mankind total incl. zone power, Invader total) for step A (§8.1, R-HERO-3)."""
    mk, inv = _column_totals(s, zone, all_powers(s) if powers is None else powers)
    return zone_power(s, zone) + mk, inv


def all_zone_totals(s: Board, powers: Mapping[int, int]) -> list[tuple[int, int]]:
    """``zone_totals`` of every zone in board order, reading the statics once (the bots
    evaluate every position they consider, so this is on their hot path)."""
    out = []
    for z, zp in enumerate(zone_powers(s)):
        mk, inv = _column_totals(s, z, powers)
        out.append((zp + mk, inv))
    return out


def cost_mods(s: Board) -> list[Static]:
    """Active ``cost_mod`` statics (S-4), memoized like the other statics."""
    key = _key(s, False)
    hit = _memo_get("cost_mods", key)
    if hit is not None:
        return hit  # type: ignore[return-value]
    out = [st for _src, _z, st in active_statics(s) if st.name == "cost_mod"]
    _MEMO["cost_mods"] = (key, out)
    return out


def card_cost(s: Board, c: int) -> tuple[int, int]:
    """(discard, drain) to play hand card ``c`` now: C-24 order, each part floored at 0."""
    t = s.types[c]
    ct = card(t)
    discard, drain = ct.discard, ct.drain
    for st in cost_mods(s):
        if matches_printed(t, st.filter):
            discard += st.discard
            drain += st.drain
    discard, drain = max(0, discard), max(0, drain)
    if owner(s, c) == INVADER and s.reduction:
        if s.reduction == "discard":
            discard = max(0, discard - 1)
        else:
            drain = max(0, drain - 1)
    return discard, drain


def forbidden(s: Board, c: int, action: str, ctx: Ctx) -> bool:
    """S-5, R-GEN-1: is ``c`` protected from ``action`` by this source?"""
    for src, z, st in active_statics(s):
        if (
            st.name == "forbid"
            and st.action == action
            and st.by == ctx.by
            and owner(s, src) != ctx.controller
            and matches(s, c, st.filter, source=src, zone=z)
        ):
            return True
    return False


def source_category(type_id: str) -> str:
    return category(type_id)
