"""Probe wrapper, not a rule (docs/balance.md §46): bench/selfplay.py with a rule for the
game's first turn, chosen by ``--rule`` (taken off the command line before selfplay's own
arguments are read):

- ``no_attack``: the first turn ends after its main phase, so a first-moving Invader deploys
  but neither attacks nor takes the plot check (step A and step B both skipped) before
  Mankind's first turn. With Mankind first nothing changes (he has no attack phase).
- ``no_draw``: the first player draws nothing in his first draw phase, whichever side he is.

It prices a first-turn rule for the owners of invaders.md: §45.5 read B-2's first-move edge
as the turn order itself, and G-1 ("the first player draws normally") and G-22 ("no special
case" for the first Invader turn) are proposals of the rules text, not ours to change. The
records' ``bots`` field names the rule, so its games never resume or merge with a real
row's. Otherwise the same arguments as bench/selfplay.py:

    python bench/records/probes/first_turn_probe.py --rule no_attack --games 200 \\
        --seed 1000 --mankind strong --invader strong --first invader --iterations 10 \\
        --seconds 600 --records bench/records/probes/strong10_first_noattack1_v1.12_r5.jsonl
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[3]))

from app.games.base import Event
from app.games.invaders import actions, flow
from app.games.invaders.state import INVADER, SIDES, Draft
from bench import selfplay, selfplay_records

RULES = ("no_attack", "no_draw")
_end_main = flow.end_main
_begin_turn = flow.BeginTurn.run


def end_main_no_first_attack(d: Draft, ev: list[Event]) -> None:
    """R-MAIN-2, except that the Invader's main phase in turn 1 goes to the end phase."""
    if d.active == INVADER and d.turn == 1:
        ev.append(Event("main_phase_ended", {"seat": SIDES[d.active]}))
        d.push(flow.EndTurn(INVADER))
        return
    _end_main(d, ev)


def begin_turn_no_first_draw(self: flow.BeginTurn, d: Draft, ev: list[Event]) -> None:
    """BeginTurn, with a draw phase of no cards in the game's first turn."""
    if d.turn != 0:
        _begin_turn(self, d, ev)
        return
    per_turn = flow.DRAW_PER_TURN
    flow.DRAW_PER_TURN = 0  # read by BeginTurn.run when it pushes the draw phase
    try:
        _begin_turn(self, d, ev)
    finally:
        flow.DRAW_PER_TURN = per_turn


def install(rule: str) -> None:
    """Patch the engine for ``rule`` and name it in the records' ``bots`` field."""
    if rule == "no_attack":
        actions.end_main = end_main_no_first_attack  # type: ignore[assignment]
    elif rule == "no_draw":
        flow.BeginTurn.run = begin_turn_no_first_draw  # type: ignore[method-assign]
    else:
        raise SystemExit(f"--rule must be one of {', '.join(RULES)}")
    selfplay_records.REVISION = f"{selfplay_records.REVISION}+first_turn_{rule}"  # type: ignore[assignment]


def _pop_rule(argv: list[str]) -> str:
    i = argv.index("--rule")
    rule = argv[i + 1]
    del argv[i : i + 2]
    return rule


if __name__ == "__main__":
    install(_pop_rule(sys.argv))
    selfplay.main()
