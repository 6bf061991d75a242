"""Zone and track primitives: place/remove −1 tokens, zone_power_mod, move_plot.

C-13: a −1 token may be placed only while the zone's (modified) power is above
0; C-17: ``each`` treats the zones one by one in board order.
"""

from __future__ import annotations

from app.games.base import Event
from app.games.invaders.cards import N_ZONES, ZONE_IDS
from app.games.invaders.clauses import Ref, primitive
from app.games.invaders.formal import Effect
from app.games.invaders.power import zone_power
from app.games.invaders.state import MANKIND, Board, Ctx, Draft, ZoneMod
from app.games.invaders.targets import ZONE_OPTIONS, ZONE_STEP, EffectZone
from app.games.invaders.victory import Reason, win

PLOT_MAX = 12  # R-TRACK-3


def _zones(s: Board, ctx: Ctx, eff: Effect) -> list[int]:
    if eff.zone == "this":
        return [ctx.zone] if ctx.zone >= 0 else []
    return list(range(N_ZONES))


def _placeable(s: Board, ctx: Ctx, eff: Effect) -> list[int]:
    return [z for z in _zones(s, ctx, eff) if zone_power(s, z) > 0]


def _removable(s: Board, ctx: Ctx, eff: Effect) -> list[int]:
    return [z for z in _zones(s, ctx, eff) if s.zone_tokens[z] > 0]


def _set_tokens(d: Draft, z: int, value: int) -> None:
    d.zone_tokens = (*d.zone_tokens[:z], value, *d.zone_tokens[z + 1 :])


def place_tokens(d: Draft, z: int, n: int, ev: list[Event]) -> None:
    """E-7: one at a time, stopping when the zone's power reaches 0 (R-ZPOW-3, T-16)."""
    placed = 0
    while placed < n and zone_power(d, z) > 0:
        _set_tokens(d, z, d.zone_tokens[z] + 1)
        placed += 1
    if placed:
        ev.append(
            Event(
                "zone_tokens_placed",
                {"zone": ZONE_IDS[z], "amount": placed, "total": d.zone_tokens[z]},
            )
        )


def remove_tokens(d: Draft, z: int, n: int, ev: list[Event]) -> None:
    """E-8: return up to n tokens to the supply."""
    removed = min(n, d.zone_tokens[z])
    if removed:
        _set_tokens(d, z, d.zone_tokens[z] - removed)
        ev.append(
            Event(
                "zone_tokens_removed",
                {"zone": ZONE_IDS[z], "amount": removed, "total": d.zone_tokens[z]},
            )
        )


@primitive("place_zone_token", lambda s, ctx, eff: bool(_placeable(s, ctx, eff)))
def place_zone_token(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    eff = ref.effect
    if eff.zone == "chosen":
        d.push(EffectZone(ctx.controller, ctx, ref))
        return
    for z in _zones(d, ctx, eff):
        place_tokens(d, z, eff.amount or 0, ev)


@primitive("remove_zone_token", lambda s, ctx, eff: bool(_removable(s, ctx, eff)))
def remove_zone_token(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    eff = ref.effect
    if eff.zone == "chosen":
        d.push(EffectZone(ctx.controller, ctx, ref))
        return
    for z in _zones(d, ctx, eff):
        remove_tokens(d, z, eff.amount or 0, ev)


ZONE_OPTIONS["place_zone_token"] = _placeable
ZONE_OPTIONS["remove_zone_token"] = _removable
ZONE_STEP["place_zone_token"] = lambda d, ctx, ref, z, ev: place_tokens(
    d, z, ref.effect.amount or 0, ev
)
ZONE_STEP["remove_zone_token"] = lambda d, ctx, ref, z, ev: remove_tokens(
    d, z, ref.effect.amount or 0, ev
)


@primitive("zone_power_mod", lambda s, ctx, eff: bool(eff.amount))
def zone_power_mod(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    """E-15: temporary; 'end_of_turn' ends in this turn's clean-up, 'end_of_next_attack'
    at the end of the next Invader attack phase (C-35)."""
    eff = ref.effect
    until = "attack" if eff.until == "end_of_next_attack" else "end_of_turn"
    zones = _zones(d, ctx, eff)
    d.zone_mods = d.zone_mods + tuple(ZoneMod(z, eff.amount or 0, until, d.turn) for z in zones)
    ev.append(
        Event(
            "zone_power_modified",
            {"zones": [ZONE_IDS[z] for z in zones], "amount": eff.amount, "until": eff.until},
        )
    )


def move_plot_by(d: Draft, amount: int, ev: list[Event], why: str) -> None:
    """E-11 / R-TRACK-3: capped at 12; reaching the skull ends the game (W1)."""
    new = min(PLOT_MAX, d.plot + amount)
    if new == d.plot:
        return
    d.plot = max(0, new)
    ev.append(Event("plot_moved", {"to": d.plot, "by": amount, "why": why}))
    if d.plot == 0:
        win(d, MANKIND, Reason.PLOT_SKULL, ev)


@primitive("move_plot", lambda s, ctx, eff: (eff.amount or 0) < 0 or s.plot < PLOT_MAX)
def move_plot(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    move_plot_by(d, ref.effect.amount or 0, ev, ctx.source_type)
