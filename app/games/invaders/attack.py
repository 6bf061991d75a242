"""The attack phase (§8): step A per zone, step B plot check, and U-1's extra attack."""

from __future__ import annotations

from dataclasses import dataclass

from app.games.base import Event
from app.games.invaders.cards import N_ZONES, ZONE_IDS
from app.games.invaders.drain import Drain
from app.games.invaders.effects_zone import move_plot_by
from app.games.invaders.power import zone_totals
from app.games.invaders.state import INVADER, MANKIND, Draft, Task, task
from app.games.invaders.triggers import card_triggers, fire


@task
@dataclass(frozen=True, slots=True)
class ResolveZone(Task):
    """Step A for one zone (§8.1), totals taken now (G-17); ``extra`` = U-1's attack.

    A zone win drains the difference (an Invader-caused drain), then
    ``on_zone_resolved`` triggers of cards in the zone fire (T-4, T-5).
    """

    zone: int
    extra: bool = False

    def run(self, d: Draft, ev: list[Event]) -> None:
        z = self.zone
        mk, inv = zone_totals(d, z)
        result = "win" if inv > mk else "hold"
        ev.append(
            Event(
                "zone_resolved",
                {
                    "zone": ZONE_IDS[z],
                    "mankind": mk,
                    "invader": inv,
                    "result": result,
                    "extra": self.extra,
                },
            )
        )
        here = [(c, z) for side in (MANKIND, INVADER) for c in d.board[z * 2 + side]]
        fire(d, card_triggers(d, f"on_zone_resolved({result})", here, live=True))
        if result == "win":
            d.push(Drain(MANKIND, inv - mk, invader_caused=True))


@task
@dataclass(frozen=True, slots=True)
class StepB(Task):
    """§8.2: no Invader-caused card drained this Invader turn -> plot marker down 1."""

    def run(self, d: Draft, ev: list[Event]) -> None:
        ev.append(Event("plot_check", {"drain_inflicted": d.drain_inflicted}))
        if not d.drain_inflicted:
            move_plot_by(d, -1, ev, "plot_check")


@task
@dataclass(frozen=True, slots=True)
class EndAttack(Task):
    """End of the attack phase: 'until end of next attack' zone modifiers end (C-35)."""

    def run(self, d: Draft, ev: list[Event]) -> None:
        if any(m.until == "attack" for m in d.zone_mods):
            d.zone_mods = tuple(m for m in d.zone_mods if m.until != "attack")
            ev.append(Event("zone_modifiers_expired", {"until": "end_of_next_attack"}))


def attack_phase_tasks() -> tuple[Task, ...]:
    return (*(ResolveZone(z) for z in range(N_ZONES)), StepB(), EndAttack())
