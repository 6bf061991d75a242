"""Dune battle (Avalon Hill 1979 / GF9 2019): one Battle phase as a pure engine.

This module is the game contract of ``app/games/base.py``. SEATS are the six
factions; ``options["factions"]`` chooses which 2–6 of them play, and a seat not
in play never owes a decision (see docs/dune-battle.md, "Seats").

Optional hooks beyond base.py (found with ``getattr``): ``secrets`` and
``invariants`` for the conformance suite, ``seats_in_play`` for match creation,
``timeout_action`` for the clock.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.games.base import Event, Outcome, Transition, Viewer
from app.games.dune_battle import actions as _actions
from app.games.dune_battle import options as _options
from app.games.dune_battle import serialize as _serialize
from app.games.dune_battle import view as _view
from app.games.dune_battle.actions import timeout_action as timeout_action
from app.games.dune_battle.audit import invariants as invariants
from app.games.dune_battle.audit import secrets as secrets
from app.games.dune_battle.battles import advance
from app.games.dune_battle.catalog import FACTIONS
from app.games.dune_battle.outcome import outcome as _outcome
from app.games.dune_battle.setup import random_state
from app.games.dune_battle.state import GameState

NAME = "dune_battle"
TITLE = "Dune: the Battle"
SEATS: tuple[str, ...] = FACTIONS
RULES_VERSION = "dune-battle-2"  # 2: captured leaders keep their DB-7 binding
SEAT_OPTION = ("factions", 2, 6)
"""The option that lists the factions in play (platform hook: a lobby lets the creator pick)."""
SNAPSHOT_VERSION = _serialize.SNAPSHOT_VERSION


def default_options() -> dict[str, Any]:
    return _options.default_options()


def validate_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The full option set, or ``IllegalAction('bad_options', ...)``."""
    return _options.options_to_json(_options.validate_options(options))


def seats_in_play(options: Mapping[str, Any]) -> tuple[str, ...]:
    """The seats a match with these options needs filled (optional platform hook).

    SEATS is fixed at all six factions; only ``options["factions"]`` play. The
    platform should create, offer and wait for these seats only; the others
    never owe a decision and may be treated as spectators.
    """
    return _options.validate_options(options).factions


def setup(seed: int, options: Mapping[str, Any]) -> GameState:
    """Deal and place everything from ``seed``; the first decision is the traitor pick."""
    state = random_state(seed, _options.validate_options(options))
    state, _ = advance(state)
    return state


def active_seats(state: GameState) -> frozenset[str]:
    return _actions.active_seats(state)


def legal_actions(state: GameState, seat: str) -> list[dict[str, Any]]:
    return _actions.legal_actions(state, seat)


def apply(state: GameState, seat: str, action: Mapping[str, Any]) -> Transition:
    return _actions.apply(state, seat, action)


def view(state: GameState, viewer: Viewer) -> dict[str, Any]:
    return _view.view(state, viewer)


def redact(event: Event, viewer: Viewer) -> dict[str, Any] | None:
    return _view.redact(event, viewer)


def outcome(state: GameState) -> Outcome | None:
    return _outcome(state)


def to_json(state: GameState) -> dict[str, Any]:
    return _serialize.to_json(state)


def from_json(data: Mapping[str, Any]) -> GameState:
    return _serialize.from_json(data)
