"""Targets and chosen zones: candidates (C-1, C-3, C-7, S-5) and the one-at-a-time decisions.

Targets are picked one by one ("done" ends an "up to n" pick once at least one
is chosen), then the primitive acts on all of them at once (C-1).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import ClassVar

from app.games.base import Event
from app.games.invaders.board import free_zones, lift, owner, place, zone_of
from app.games.invaders.cards import N_ZONES, ZONE_IDS, card
from app.games.invaders.clauses import Ref
from app.games.invaders.decisions import JSON, Decision, cid, parse_cid, zone_action, zone_index
from app.games.invaders.filters import matches, matches_printed
from app.games.invaders.formal import Effect, Filter
from app.games.invaders.power import all_powers, forbidden
from app.games.invaders.state import Board, Ctx, Draft, task

ACTION_OF = {"destroy": "destroy", "return_to_hand": "return_to_hand", "move_card": "move"}

Finish = Callable[[Draft, Ctx, Ref, tuple[int, ...], int, list[Event]], None]
ZoneStep = Callable[[Draft, Ctx, Ref, int, list[Event]], None]
ZoneOptions = Callable[[Board, Ctx, Effect], list[int]]
FINISH: dict[str, Finish] = {}
ZONE_STEP: dict[str, ZoneStep] = {}
ZONE_OPTIONS: dict[str, ZoneOptions] = {}


def board_candidates(
    s: Board, ctx: Ctx, eff: Effect, zone: int = -1, first_only: bool = False
) -> list[int]:
    """Cards in play that ``eff`` may pick now, in ``zone`` if given.

    ``first_only`` stops at the first match (the C-2 "would change something" test).
    """
    f = eff.filter
    needs_power = f is not None and (f.power_le is not None or f.power_ge is not None)
    powers = all_powers(s) if needs_power and any(s.board) else None
    act = ACTION_OF.get(eff.name)
    out = []
    board = s.board
    for i in range(len(board)) if zone < 0 else (zone * 2, zone * 2 + 1):
        z, side = i // 2, i % 2
        for c in board[i]:
            if _pick(s, c, z, side, ctx, eff, f, powers, act):
                out.append(c)
                if first_only:
                    return out
    return out


def _pick(
    s: Board,
    c: int,
    z: int,
    side: int,
    ctx: Ctx,
    eff: Effect,
    f: Filter | None,
    powers: Mapping[int, int] | None,
    act: str | None,
) -> bool:
    """One card of ``board_candidates``: filter, C-7, S-5 and C-30 checks."""
    if not matches(s, c, f, source=ctx.source, zone=ctx.zone, powers=powers, card_zone=z):
        return False
    if eff.name == "return_to_hand" and c == s.hero:  # C-7
        return False
    if act is not None and forbidden(s, c, act, ctx):  # S-5, R-GEN-1
        return False
    # C-30: a card that cannot move anywhere is not a move target
    return not (eff.name == "move_card" and not free_zones(s, side, exclude=z))


def discard_candidates(s: Board, ctx: Ctx, eff: Effect) -> list[int]:
    """F-12 / C-9: cards in the controller's discard pile; never a hero card."""
    return [
        c
        for c in s.discard[ctx.controller]
        if card(s.types[c]).category != "hero" and matches_printed(s.types[c], eff.filter)
    ]


def candidates(s: Board, ctx: Ctx, eff: Effect, zone: int = -1) -> list[int]:
    if eff.name == "recover":
        return discard_candidates(s, ctx, eff)
    return board_candidates(s, ctx, eff, zone)


def any_candidate(s: Board, ctx: Ctx, eff: Effect) -> bool:
    if eff.name == "recover":
        f = eff.filter
        return any(
            card(s.types[c]).category != "hero" and matches_printed(s.types[c], f)
            for c in s.discard[ctx.controller]
        )
    return bool(board_candidates(s, ctx, eff, first_only=True))


def target_zones(s: Board, ctx: Ctx, eff: Effect) -> list[int]:
    """C-3: the zones the controller may name, those holding a legal target."""
    return [z for z in range(N_ZONES) if board_candidates(s, ctx, eff, z, first_only=True)]


def start_targeting(d: Draft, ctx: Ctx, ref: Ref, ev: list[Event]) -> None:
    """Entry for every targeted primitive: chosen zone first if the filter says so."""
    eff = ref.effect
    if eff.filter is not None and eff.filter.zone == "chosen":
        d.push(EffectZone(ctx.controller, ctx, ref))
    else:
        pick_in_zone(d, ctx, ref, -1, ev)


def pick_in_zone(d: Draft, ctx: Ctx, ref: Ref, zone: int, ev: list[Event]) -> None:
    eff = ref.effect
    if eff.count == "all":
        FINISH[eff.name](d, ctx, ref, tuple(candidates(d, ctx, eff, zone)), zone, ev)
    else:
        d.push(ChooseTargets(ctx.controller, ctx, ref, zone, ()))


@task
@dataclass(frozen=True, slots=True)
class ChooseTargets(Decision):
    """Pick the next target of an effect; 'done' once at least one is chosen."""

    seat: int
    ctx: Ctx
    ref: Ref
    zone: int
    chosen: tuple[int, ...]

    kind: ClassVar[str] = "choose_targets"
    bad_value_code: ClassVar[str] = "invalid_target"

    def remaining(self, s: Board) -> list[int]:
        return [
            c for c in candidates(s, self.ctx, self.ref.effect, self.zone) if c not in self.chosen
        ]

    def options(self, s: Board) -> list[JSON]:
        n = self.ref.effect.count
        if isinstance(n, int) and len(self.chosen) >= n:
            return []
        opts: list[JSON] = [{"type": "choose_target", "card": cid(c)} for c in self.remaining(s)]
        if self.chosen and opts:
            opts.append({"type": "done"})
        return opts

    def exhausted(self, d: Draft, ev: list[Event]) -> None:
        FINISH[self.ref.effect.name](d, self.ctx, self.ref, self.chosen, self.zone, ev)

    def choose(self, d: Draft, action: JSON, ev: list[Event]) -> None:
        if action["type"] == "done":
            self.exhausted(d, ev)
            return
        chosen = (*self.chosen, parse_cid(action["card"]))
        d.push(ChooseTargets(self.seat, self.ctx, self.ref, self.zone, chosen))

    def info(self, s: Board) -> JSON:
        eff = self.ref.effect
        return {
            "effect": eff.name,
            "up_to": eff.count,
            "source_type": self.ctx.source_type,
            "chosen": [cid(c) for c in self.chosen],
            "zone": ZONE_IDS[self.zone] if self.zone >= 0 else None,
            "from": "discard" if eff.name == "recover" else "play",
        }


@task
@dataclass(frozen=True, slots=True)
class EffectZone(Decision):
    """The controller names the zone of a ``zone=chosen`` filter or a ``chosen`` token effect."""

    seat: int
    ctx: Ctx
    ref: Ref

    kind: ClassVar[str] = "choose_zone"
    bad_value_code: ClassVar[str] = "invalid_zone"

    def options(self, s: Board) -> list[JSON]:
        eff = self.ref.effect
        zones = (
            ZONE_OPTIONS[eff.name](s, self.ctx, eff)
            if eff.name in ZONE_OPTIONS
            else (target_zones(s, self.ctx, eff))
        )
        return [zone_action(z) for z in zones]

    def exhausted(self, d: Draft, ev: list[Event]) -> None:
        return None

    def choose(self, d: Draft, action: JSON, ev: list[Event]) -> None:
        z = zone_index(action["zone"])
        eff = self.ref.effect
        step = ZONE_STEP.get(eff.name)
        if step is not None:
            step(d, self.ctx, self.ref, z, ev)
        else:
            pick_in_zone(d, self.ctx, self.ref, z, ev)

    def info(self, s: Board) -> JSON:
        return {"effect": self.ref.effect.name, "source_type": self.ctx.source_type}


@task
@dataclass(frozen=True, slots=True)
class MoveDest(Decision):
    """Where a moved card goes: a free slot on its owner's side of another zone (E-3, C-30)."""

    seat: int
    card: int
    rest: tuple[int, ...]

    kind: ClassVar[str] = "move_destination"
    bad_value_code: ClassVar[str] = "invalid_zone"

    def options(self, s: Board) -> list[JSON]:
        z = zone_of(s, self.card)
        if z < 0:
            return []
        return [zone_action(x) for x in free_zones(s, owner(s, self.card), exclude=z)]

    def exhausted(self, d: Draft, ev: list[Event]) -> None:
        self.next(d)

    def next(self, d: Draft) -> None:
        if self.rest:
            d.push(MoveDest(self.seat, self.rest[0], self.rest[1:]))

    def choose(self, d: Draft, action: JSON, ev: list[Event]) -> None:
        z = zone_index(action["zone"])
        origin = lift(d, self.card)
        place(d, self.card, z, owner(d, self.card))
        ev.append(
            Event(
                "card_moved",
                {
                    "card": cid(self.card),
                    "card_type": d.types[self.card],
                    "from": ZONE_IDS[origin],
                    "to": ZONE_IDS[z],
                },
            )
        )
        self.next(d)

    def info(self, s: Board) -> JSON:
        return {"card": cid(self.card), "card_type": s.types[self.card]}
