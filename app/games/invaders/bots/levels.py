"""The three bot levels behind one signature: ``(knowledge, rng, budget, weights) -> action``.

Every level starts from the seat's ``Knowledge`` (never the real State) and
works on determinizations of it, so the same knowledge and the same rng seed
give the same decision whatever the hidden cards really are.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from app.games.invaders import engine
from app.games.invaders.bots.evaluation import INVADER_WEIGHTS, MANKIND_WEIGHTS, Weights, score
from app.games.invaders.bots.knowledge import Knowledge, determinize
from app.games.invaders.bots.policy import JSON, greedy, kind_of, option_values, step
from app.games.invaders.state import MANKIND, SIDES, State


@dataclass(frozen=True)
class Budget:
    """How much work one decision may take: whichever limit is reached first."""

    iterations: int = 200
    seconds: float = 1.0


def random_level(k: Knowledge, rng: random.Random, budget: Budget, weights: Weights) -> JSON:
    """Uniform over the legal actions (they depend on public data only)."""
    s = determinize(k, rng)
    return rng.choice(engine.legal_actions(s, k.seat))


def heuristic_level(k: Knowledge, rng: random.Random, budget: Budget, weights: Weights) -> JSON:
    """The prototype's greedy one-ply bot on one determinization."""
    s = determinize(k, rng)
    return greedy(s, k.side, weights)


SEARCHED_KINDS = frozenset({"main", "play_zone", "chainmail_window"})
TOP_K = 4  # candidates kept for search, ranked by the greedy value
MARGIN = 4.0  # ... and within this many score units (Mankind deck cards) of the best
ROLLOUT_DECISIONS = 120


def _opponent_weights(side: int, other: Weights | None) -> Weights:
    """The opponent is modelled with its own side's default weights unless told otherwise."""
    if other is not None:
        return other
    return MANKIND_WEIGHTS if side == MANKIND else INVADER_WEIGHTS


def rollout(s: State, root_side: int, weights: Weights, other: Weights, horizon: int) -> float:
    """Play both sides greedily until turn ``horizon`` ends (or the game does); score it."""
    for _ in range(ROLLOUT_DECISIONS):
        if s.outcome is not None or s.turn > horizon:
            break
        side = engine.owing(s)
        if side is None:
            break
        w = weights if side == root_side else other
        s = step(s, SIDES[side], greedy(s, side, w))
    return score(s, root_side, weights)


def strong_level(
    k: Knowledge,
    rng: random.Random,
    budget: Budget,
    weights: Weights,
    opponent: Weights | None = None,
) -> JSON:
    """Information-set Monte Carlo search over the root's candidates.

    Each round samples one determinization of the hidden cards (the opponent's
    hand and both deck orders) and plays every candidate in that same world
    (paired sampling: the candidates are compared on identical hidden cards and
    identical engine randomness, which removes most of the noise from the
    comparison). Rollouts play both seats with the greedy policy through the
    opponent's next turn, so the evaluator's fixed surprise is replaced by the
    sampled reply, then the end position is scored. Averaging over worlds makes
    the choice one for the information set, not for one guessed world.

    Candidates are the greedy bot's top ``TOP_K`` options within ``MARGIN`` of
    its best (the rest cannot plausibly win); ties fall back to the greedy order.
    """
    first = determinize(k, rng)
    options = engine.legal_actions(first, k.seat)
    if len(options) == 1:
        return options[0]
    if kind_of(first) not in SEARCHED_KINDS:
        return greedy(first, k.side, weights, options)
    prior = option_values(first, k.side, options, weights)
    top = max(prior)
    order = sorted(range(len(options)), key=lambda i: -prior[i])[:TOP_K]
    order = [i for i in order if prior[i] >= top - MARGIN]
    if len(order) == 1:
        return options[order[0]]
    other = _opponent_weights(1 - k.side, opponent)
    horizon = first.turn + (1 if first.active == k.side else 0)  # through the reply
    totals = dict.fromkeys(order, 0.0)
    worlds = 0
    deadline = time.monotonic() + budget.seconds
    rollouts = 0
    while worlds == 0 or (rollouts < budget.iterations and time.monotonic() < deadline):
        s = determinize(k, rng) if worlds else first
        for i in order:
            totals[i] += rollout(step(s, k.seat, options[i]), k.side, weights, other, horizon)
        rollouts += len(order)
        worlds += 1
    best = max(order, key=lambda j: (totals[j], prior[j]))
    return options[best]
