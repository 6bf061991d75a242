"""Turn structure (§4): begin turn, draw phase, main-phase start, attack, end phase.

Phases run automatically; the only stops are decisions and the main phase,
which ends with the explicit ``end_main`` action (R-MAIN-2).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from app.games.base import Event
from app.games.invaders.attack import attack_phase_tasks
from app.games.invaders.board import in_play
from app.games.invaders.cards import OPPONENT_TURN_STRATEGIES
from app.games.invaders.decisions import JSON, Decision
from app.games.invaders.drain import Draw
from app.games.invaders.state import INVADER, MANKIND, SIDES, Board, Draft, Task, task
from app.games.invaders.strategies import enable_strategy, strategy_problem
from app.games.invaders.triggers import card_triggers, fire

DRAW_PER_TURN = 2  # R-DRAW-1


@task
@dataclass(frozen=True, slots=True)
class BeginTurn(Task):
    """Reset per-turn state (R-END-1), U-1's extra attack (Mankind), then the draw phase."""

    side: int

    def run(self, d: Draft, ev: list[Event]) -> None:
        d.turn += 1
        d.active = self.side
        d.phase = "draw"
        d.used = frozenset()
        d.plot_action_used = False
        d.reduction = ""
        if self.side == INVADER:
            d.drain_inflicted = False
        ev.append(Event("turn_started", {"seat": SIDES[self.side], "turn": d.turn}))
        extra: list[Task] = []
        if self.side == MANKIND:
            invaders = [(c, z) for c, z, side in in_play(d) if side == INVADER]
            extra.extend(card_triggers(d, "unique", invaders, live=True))
        d.push(*extra, Draw(self.side, DRAW_PER_TURN), StartMain(self.side))


@task
@dataclass(frozen=True, slots=True)
class StartMain(Task):
    """R-TURN-1: Mankind's hero turns upright, then ``start_of_turn`` triggers (T-3, C-5)."""

    side: int

    def run(self, d: Draft, ev: list[Event]) -> None:
        d.phase = "main"
        if self.side == MANKIND and d.hero >= 0 and d.hero_turned:
            d.hero_turned = False
            ev.append(Event("hero_upright", {"card": f"c{d.hero}"}))
        mine = [(c, z) for c, z, side in in_play(d) if side == self.side]
        fire(d, card_triggers(d, "start_of_turn", mine, live=True))
        ev.append(Event("main_phase", {"seat": SIDES[self.side]}))


def end_main(d: Draft, ev: list[Event]) -> None:
    """R-MAIN-2: Mankind goes to the end phase; the Invader to the attack phase."""
    ev.append(Event("main_phase_ended", {"seat": SIDES[d.active]}))
    if d.active == MANKIND:
        d.push(EndTurn(MANKIND))
        return
    d.phase = "attack"
    window = [
        ChainmailWindow(MANKIND, s) for s in sorted(OPPONENT_TURN_STRATEGIES) if s not in d.enabled
    ]
    d.push(*window, *attack_phase_tasks(), EndTurn(INVADER))


@task
@dataclass(frozen=True, slots=True)
class ChainmailWindow(Decision):
    """C-35 (b): after the Invader's main phase, before step A, while still dormant and
    enableable (requirements and costs as in Mankind's own turn: BAL-6 gates Chainmail)."""

    seat: int
    strategy: str

    kind: ClassVar[str] = "chainmail_window"
    bad_value_code: ClassVar[str] = "invalid_choice"

    def options(self, s: Board) -> list[JSON]:
        if strategy_problem(s, MANKIND, self.strategy) is not None:
            return []
        return [{"type": "enable", "strategy": self.strategy}, {"type": "decline"}]

    def choose(self, d: Draft, action: JSON, ev: list[Event]) -> None:
        if action["type"] == "enable":
            enable_strategy(d, MANKIND, self.strategy, ev)

    def info(self, s: Board) -> JSON:
        return {"strategy": self.strategy}


@task
@dataclass(frozen=True, slots=True)
class EndTurn(Task):
    """R-END-1 / G-5: expire temporary effects, empty the shield pool after an Invader
    turn (C-19), then the other player becomes active."""

    side: int

    def run(self, d: Draft, ev: list[Event]) -> None:
        d.phase = "end"
        turn = d.turn
        if any(b.expires <= turn for b in d.boosts):
            d.boosts = tuple(b for b in d.boosts if b.expires > turn)
        if any(m.until == "end_of_turn" for m in d.zone_mods):
            d.zone_mods = tuple(m for m in d.zone_mods if m.until != "end_of_turn")
        d.reduction = ""
        if self.side == INVADER and d.shield:
            d.shield = 0
            ev.append(Event("shield_expired", {}))
        ev.append(Event("turn_ended", {"seat": SIDES[self.side], "turn": turn}))
        d.push(BeginTurn(1 - self.side))
