"""Invaders (White Goblin Games, 2013): Mankind against the Invader, as a pure engine.

This module is the game contract of ``app.games.base`` as module-level names;
the registry registers the module itself. Rules: invaders.md + invaders-cards.md,
our rulings: docs/rulings.md, wire format: docs/invaders-view.md.

Module map (one concept each):
  state       State (frozen), Draft (apply's scratch copy), Ctx, Task registry
  rng         splitmix64 PRNG whose state is one int in the State
  setup       options, shuffled decks/ids, the setup steps (§3)
  engine      driver: run tasks until a decision; legal_actions; apply
  decisions   the Decision protocol, wire ids
  actions     main-phase actions (R-MAIN-1) and their refusal codes
  play        action A: zone, sacrifice, costs, placement (§5.1)
  abilities   action B (activated) and D (plot action)
  strategies  action C (strategies) and the Ops Centre
  costs       payability and payment (K-1 … K-5)
  clauses     running a clause; the primitive registry; C-2 test
  effects*    the primitives (cards / zones and track / players)
  targets     candidates and target/zone decisions (C-1, C-3, S-5)
  triggers    triggered clauses and their order (C-5)
  drain       drawing and draining card by card; shields and wards
  heroes      hero entry, replacement, sacrifice (§9, G-7)
  attack      step A, step B, U-1's extra attack (§8)
  flow        turn structure (§4), Chainmail window (C-35)
  power       current power, zone power, costs, protection (statics)
  filters     filter matching (F-1 … F-12)
  victory     W1–W6, G-3, G-16
  view        per-seat views, redaction, secrets; serialize: snapshots
  invariants  card conservation and other structural checks
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Action, Event, Outcome, Seat, Transition, Viewer
from app.games.invaders import engine, serialize
from app.games.invaders import invariants as _invariants
from app.games.invaders import setup as _setup
from app.games.invaders import view as _view
from app.games.invaders.state import SIDES, Draft, State

NAME = "invaders"
TITLE = "Invaders"
SEATS: tuple[Seat, ...] = SIDES
RULES_VERSION = "invaders-1.0 (invaders.md + invaders-cards.md v1, C-1…C-48, U-1)"
SNAPSHOT_VERSION = serialize.SNAPSHOT_VERSION


def default_options() -> dict[str, Any]:
    return dict(_setup.DEFAULT_OPTIONS)


def validate_options(options: Mapping[str, Any]) -> dict[str, Any]:
    return _setup.validate_options(options)


def setup(seed: int, options: Mapping[str, Any]) -> State:
    """A new match; runs up to the first decision (Mankind places the starting hero)."""
    return _run_setup(_setup.new_state(seed, options))[0]


def _run_setup(state: State) -> tuple[State, tuple[Event, ...]]:
    """Run a freshly built state's setup steps up to the first decision."""
    d = Draft(state)
    ev: list[Event] = []
    engine.advance(d, ev)
    return d.freeze(), tuple(ev)


def active_seats(state: State) -> frozenset[Seat]:
    side = engine.owing(state)
    return frozenset() if side is None else frozenset({SIDES[side]})


def legal_actions(state: State, seat: Seat) -> list[dict[str, Any]]:
    return engine.legal_actions(state, seat)


def apply(state: State, seat: Seat, action: Action) -> Transition:
    return engine.apply(state, seat, action)


def view(state: State, viewer: Viewer) -> dict[str, Any]:
    return _view.view(state, viewer)


def redact(event: Event, viewer: Viewer) -> dict[str, Any] | None:
    return _view.redact(event, viewer)


def secrets(state: State, viewer: Viewer) -> set[str]:
    """Optional conformance hook: JSON fragments ``viewer`` must never receive."""
    return _view.secrets(state, viewer)


def invariants(state: State) -> list[str]:
    """Optional conformance hook: broken invariants (card conservation …), empty if none."""
    return _invariants.problems(state)


def outcome(state: State) -> Outcome | None:
    return state.outcome


def to_json(state: State) -> dict[str, Any]:
    return serialize.to_json(state)


def from_json(data: Mapping[str, Any]) -> State:
    return serialize.from_json(data)
