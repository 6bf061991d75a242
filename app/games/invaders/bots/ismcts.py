"""The strong level: single-observer information-set Monte Carlo tree search (SO-ISMCTS).

Why this shape (Cowling, Powley & Whitehouse 2012, "Information Set Monte Carlo
Tree Search"):

- **Information sets, not worlds.** Every iteration deals a fresh
  determinization of the seat's ``Knowledge`` (the opponent's hidden hand, both
  deck orders, the engine RNG) and walks ONE tree with it. A tree node is the
  sequence of the seat's own choices, never a hidden card, so statistics are
  shared across worlds and the chosen action is good for the information set,
  not for one guessed deal (no "strategy fusion" over the opponent's cards).
- **Availability.** A choice may be legal in some worlds only (a card drawn by
  an effect in this turn). UCB uses, for each child, the number of visits of the
  parent in which that child was available, as the ISMCTS paper prescribes.
- **Tree over the seat's turn, rollouts through the reply.** The tree holds the
  seat's main-phase, zone and Chainmail decisions of the current turn; routine
  follow-ups (costs, targets, discards) are finished by the heuristic's rules.
  After the tree, both seats play the heuristic policy through the opponent's
  next turn (the reply the greedy evaluator can only guess with its fixed
  "surprise"), and the heuristic evaluation scores the end position.
- **Heuristic priors and progressive widening.** A node ranks its options by
  the greedy one-ply values once, on the world that made it; only the best few
  (``width``: ``ROOT_WIDTH`` at the root, fewer below) compete, more as the node
  gets visits, and options far below the best (``MARGIN``) never do.
- **Common random numbers at the root.** Consecutive iterations share one world
  for as many iterations as the root has candidates, so the root's choices are
  first compared on the same hidden cards. With the small budgets a server can
  afford (about 10 iterations) this matters more than the sample count.

Pure: the only inputs are the Knowledge, the rng and the budget; the clock is
read only when a time budget is passed (``Budget.seconds``), and with an
iteration-bound budget the same rng seed gives the same decision.
"""

from __future__ import annotations

import json
import math
import random
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from app.games.invaders import engine
from app.games.invaders.bots.evaluation import WIN, Weights, score
from app.games.invaders.bots.knowledge import Knowledge, determinize
from app.games.invaders.bots.policy import JSON, greedy, kind_of, option_values, step
from app.games.invaders.state import SIDES, State

TREE_KINDS = frozenset({"main", "play_zone", "chainmail_window"})
"""Decisions that get a tree node; every other decision is played by the heuristic."""
MARGIN = 4.0  # options this many score units below the best prior never compete
WIDTH_BASE = 2  # options competing at a fresh node below the root ...
WIDTH_GROWTH = 0.5  # ... plus this × sqrt(visits)
ROOT_WIDTH = 4  # options competing at the root from the first iteration
EXPLORATION = 0.35  # UCB constant for values squashed into [0, 1]
SCALE = 6.0  # score units (Mankind deck cards) that move the squashed value by ~0.38
ROLLOUT_DECISIONS = 150  # safety bound on one rollout


def action_key(action: Mapping[str, Any]) -> str:
    """A stable identity for an action across determinizations (card ids are public)."""
    return json.dumps(action, sort_keys=True)


@dataclass
class Node:
    """Statistics of one sequence of the seat's own choices (an information-set node)."""

    visits: int = 0
    total: float = 0.0
    available: int = 0  # parent visits in which this choice was legal
    base_width: int = WIDTH_BASE
    ranked: list[str] = field(default_factory=list)  # option keys, best prior first
    prior: dict[str, float] = field(default_factory=dict)
    children: dict[str, Node] = field(default_factory=dict)

    @property
    def mean(self) -> float:
        return self.total / self.visits if self.visits else 0.0


@dataclass(frozen=True)
class Search:
    """What stays fixed during one decision: whose search, with which evaluators."""

    side: int
    weights: Weights
    opponent: Weights
    root_turn: int
    horizon: int  # rollouts stop once this turn is over
    reference: float  # the root's static score: values are measured from it
    leaf: Weights | None = None  # scores the horizon (default: ``weights``)

    def value(self, s: State) -> float:
        """The heuristic score of ``s`` for the searching side, squashed into [0, 1]."""
        v = score(s, self.side, self.leaf or self.weights)
        if abs(v) >= WIN / 20:
            return 1.0 if v > 0 else 0.0
        return 0.5 + 0.5 * math.tanh((v - self.reference) / SCALE)

    def in_tree(self, s: State) -> bool:
        """The seat decides now, in the root's turn, a decision the tree covers."""
        return (
            s.outcome is None
            and s.turn == self.root_turn
            and engine.owing(s) == self.side
            and kind_of(s) in TREE_KINDS
        )

    def policy(self, s: State) -> JSON:
        """The heuristic move of whoever decides in ``s`` (each seat with its own weights)."""
        side = engine.owing(s)
        assert side is not None
        return greedy(s, side, self.weights if side == self.side else self.opponent)

    def rollout(self, s: State) -> float:
        """Heuristic play for both seats until the horizon turn ends, then the evaluation."""
        for _ in range(ROLLOUT_DECISIONS):
            if s.outcome is None and s.turn <= self.horizon and engine.owing(s) is not None:
                s = step(s, SIDES[engine.owing(s) or 0], self.policy(s))
            else:
                break
        return self.value(s)


def width(node: Node) -> int:
    """Progressive widening: how many of the best-ranked options compete at ``node``."""
    return node.base_width + int(WIDTH_GROWTH * math.sqrt(node.visits))


def rank(node: Node, s: State, search: Search, options: list[JSON]) -> None:
    """Give a new node its priors: the greedy one-ply values, on the world that made it."""
    values = option_values(s, search.side, options, search.weights)
    best = max(values)
    pairs = [(action_key(o), v) for o, v in zip(options, values, strict=True)]
    node.prior = dict(pairs)
    node.ranked = [k for k, v in sorted(pairs, key=lambda kv: -kv[1]) if v >= best - MARGIN]


def candidates(node: Node, legal: dict[str, JSON]) -> list[str]:
    """The competing options at ``node`` that are legal in this world, best prior first.

    An option never ranked (first seen in another world) competes after the ranked ones.
    """
    ranked = [k for k in node.ranked if k in legal]
    unranked = [k for k in legal if k not in node.prior]
    return (ranked + unranked)[: max(1, width(node))]


def select(node: Node, keys: list[str]) -> str:
    """An unvisited candidate in prior order, else the best UCB with availability counts."""
    for k in keys:
        child = node.children.get(k)
        if child is None or child.visits == 0:
            return k

    def ucb(k: str) -> float:
        c = node.children[k]
        return c.mean + EXPLORATION * math.sqrt(math.log(max(1, c.available)) / c.visits)

    return max(keys, key=ucb)


def iterate(root: Node, s: State, search: Search) -> None:
    """One ISMCTS iteration on the determinization ``s``: select, expand, roll out, back up."""
    seat = SIDES[search.side]
    path = [root]
    node = root
    while True:
        while s.outcome is None and engine.owing(s) == search.side and not search.in_tree(s):
            if s.turn != search.root_turn:
                break
            s = step(s, seat, search.policy(s))  # a routine follow-up of the seat's own
        if not search.in_tree(s):
            break
        options = engine.legal_actions(s, seat)
        if len(options) == 1:
            s = step(s, seat, options[0])
            continue
        if not node.ranked:
            rank(node, s, search, options)
        legal = {action_key(o): o for o in options}
        keys = candidates(node, legal)
        if not keys:
            break  # every ranked choice is illegal in this world: evaluate from here
        for k in keys:
            node.children.setdefault(k, Node()).available += 1
        chosen = select(node, keys)
        child = node.children[chosen]
        s = step(s, seat, legal[chosen])
        path.append(child)
        node = child
        if child.visits == 0:
            break  # expansion: one new node per iteration, then the rollout
    value = search.rollout(s)
    for n in path:
        n.visits += 1
        n.total += value


def best_child(root: Node) -> str:
    """The most visited root choice (robust child); ties by mean value, then prior."""
    return max(
        root.children,
        key=lambda k: (root.children[k].visits, root.children[k].mean, root.prior.get(k, 0.0)),
    )


def grow(
    k: Knowledge,
    rng: random.Random,
    iterations: int,
    seconds: float | None,
    weights: Weights,
    opponent: Weights,
    leaf: Weights | None = None,
) -> tuple[Node, list[JSON]]:
    """The searched tree for the seat's decision, and the root's legal options.

    The root is ranked on the first determinization; when its ranking leaves a
    single option (all others far below), or the decision is routine, no
    iteration runs and the root has no children.
    """
    first = determinize(k, rng)
    options = engine.legal_actions(first, k.seat)
    root = Node(base_width=ROOT_WIDTH)
    if len(options) == 1 or kind_of(first) not in TREE_KINDS:
        return root, options
    own_turn = first.active == k.side
    search = Search(
        side=k.side,
        weights=weights,
        opponent=opponent,
        root_turn=first.turn,
        horizon=first.turn + (1 if own_turn else 0),  # through the opponent's reply
        reference=score(first, k.side, leaf or weights),
        leaf=leaf,
    )
    rank(root, first, search, options)
    if len(root.ranked) == 1:
        return root, options
    # Common random numbers: consecutive iterations share one world for as many
    # iterations as there are root candidates, so the first visits of the root's
    # choices are compared on the same hidden cards (the comparison's noise drops
    # far more than the sample count does); every sweep deals a new world.
    deadline = None if seconds is None else time.monotonic() + seconds
    sweep = min(len(root.ranked), ROOT_WIDTH)
    world = first
    done = 0
    while done < max(1, iterations):
        if done and done % sweep == 0:
            world = determinize(k, rng)
        iterate(root, world, search)
        done += 1
        if deadline is not None and time.monotonic() >= deadline:
            break
    return root, options


def search_root(
    k: Knowledge,
    rng: random.Random,
    iterations: int,
    seconds: float | None,
    weights: Weights,
    opponent: Weights,
    leaf: Weights | None = None,
) -> JSON:
    """Run ISMCTS from the seat's information set; return the chosen legal action.

    Routine decisions (one option, or a follow-up the tree does not cover) take
    the heuristic's move; a root whose ranking leaves one option takes it.
    """
    root, options = grow(k, rng, iterations, seconds, weights, opponent, leaf)
    if len(options) == 1:
        return options[0]
    if root.children:
        chosen = best_child(root)
    elif root.ranked:
        chosen = root.ranked[0]
    else:
        return greedy(determinize(k, rng), k.side, weights, options)
    return next(o for o in options if action_key(o) == chosen)


__all__ = ["Node", "Search", "action_key", "grow", "search_root"]
