"""Why a card is rarely played (B-7, docs/balance.md §18.3): per game, was it in its owner's
hand at one of his main-phase decisions, could he pay for it there, and did he play it; and,
at every main-phase decision where it was legal, whether the bot chose it, its greedy value
below the best option, and (``--recheck N``) what the same bot chooses there with N
iterations from the same rng state.

    python bench/card_offers.py --card norad_bunker --games 16 --seed 3000
    python bench/card_offers.py --card norad_bunker --games 16 --seed 3000 --recheck 100

Strong against strong at ``--iterations`` unless ``--level`` says otherwise; Mankind first;
seeds and bot rngs as in bench/selfplay.py, so the games are that bench's games. One process.
It asserts nothing.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.games import invaders as game
from app.games.invaders import engine
from app.games.invaders.bots import Budget, choose, default_weights
from app.games.invaders.bots.policy import JSON, kind_of, option_values
from app.games.invaders.cards import card
from app.games.invaders.decisions import parse_cid
from app.games.invaders.state import SIDES, State


@dataclass
class Offers:
    """One game's record for the card."""

    held: bool = False
    payable: bool = False
    played: bool = False
    chosen: list[bool] = field(default_factory=list)  # at each decision where it was legal
    rechosen: list[bool] = field(default_factory=list)  # the same, with --recheck iterations
    gaps: list[float] = field(default_factory=list)  # greedy value below the best option


def _plays(s: State, action: JSON, type_id: str) -> bool:
    """``action`` plays a copy of ``type_id`` (any copy: copies are interchangeable here)."""
    return action["type"] == "play" and s.types[parse_cid(action["card"])] == type_id


def _look(s: State, seat: str, type_id: str, rng: random.Random, a: argparse.Namespace) -> Offers:
    """The card at one main-phase decision of its owner (before the bot decides)."""
    side = SIDES.index(seat)
    out = Offers(held=any(s.types[c] == type_id for c in s.hand[side]))
    options = engine.legal_actions(s, seat) if out.held else []
    plays = [i for i, o in enumerate(options) if _plays(s, o, type_id)]
    if not plays:
        return out
    out.payable = True
    values = option_values(s, side, options, default_weights(seat))
    out.gaps.append(max(values) - values[plays[0]])
    if a.recheck:
        again = random.Random()
        again.setstate(rng.getstate())
        pick = choose(s, seat, again, Budget(a.recheck, 600.0), a.level)
        out.rechosen.append(_plays(s, pick, type_id))
    return out


def run(seed: int, type_id: str, a: argparse.Namespace) -> Offers:
    """One game between two bots of ``a.level``, watching ``type_id`` in its owner's hand."""
    owner = card(type_id).side
    s = game.setup(seed, {"first_player": "mankind"})
    rngs = {seat: random.Random(seed * 2 + i) for i, seat in enumerate(game.SEATS)}
    rec = Offers()
    while game.outcome(s) is None:
        seat = next(iter(game.active_seats(s)))
        seen = None
        if seat == owner and kind_of(s) == "main":
            seen = _look(s, seat, type_id, rngs[seat], a)
            rec.held |= seen.held
            rec.payable |= seen.payable
            rec.gaps += seen.gaps
            rec.rechosen += seen.rechosen
        action = choose(s, seat, rngs[seat], Budget(a.iterations, 600.0), a.level)
        if seen is not None and seen.payable:
            rec.chosen.append(_plays(s, action, type_id))
        tr = game.apply(s, seat, action)
        rec.played |= any(
            e.type == "card_played" and e.data["card_type"] == type_id for e in tr.events
        )
        s = tr.state
    return rec


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--card", required=True, help="card type id, e.g. norad_bunker")
    ap.add_argument("--games", type=int, default=16)
    ap.add_argument("--seed", type=int, default=3000)
    ap.add_argument("--level", default="strong", choices=["heuristic", "strong"])
    ap.add_argument("--iterations", type=int, default=10)
    ap.add_argument("--recheck", type=int, default=0, help="iterations of a second look")
    a = ap.parse_args()
    card(a.card)  # an unknown id fails here, before any game is played
    res = [run(a.seed + i, a.card, a) for i in range(a.games)]
    decisions = [c for r in res for c in r.chosen]
    gaps = [g for r in res for g in r.gaps]
    print(f"{a.card}, {a.level} against {a.level} ({a.iterations} it), {len(res)} games:")
    print(
        f"  held at a main decision in {sum(r.held for r in res)}, payable in "
        f"{sum(r.payable for r in res)}, played in {sum(r.played for r in res)}"
    )
    print(f"  decisions where it was legal {len(decisions)}, chosen at {sum(decisions)}")
    if gaps:
        print(f"  greedy value below the best option: median {statistics.median(gaps):.2f}")
    if a.recheck:
        again = [c for r in res for c in r.rechosen]
        print(f"  with {a.recheck} iterations: chosen at {sum(again)} of {len(again)}")


if __name__ == "__main__":
    main()
