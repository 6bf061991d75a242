"""The game contract (DESIGN.md §4) that every engine under app/games/ fulfils.

The platform (matches, persistence, realtime, API) knows a game only through
this module and the registry. Engines are pure: every function is a function of
its arguments, the state carries its own RNG, and nothing mutates its input.

Wire forms: actions, events and views are JSON-ready dicts with a ``type``
discriminator where relevant. Engines are free to use typed records inside.

Optional hooks a game module may also provide (looked up with ``getattr``):
- ``seats_in_play(options)``: the seats a match fills (see ``seats_in_play`` below);
- ``SEAT_OPTION``: ``(option key, fewest, most)`` when that option lists the seats in play,
  so a lobby can let the creator choose them (the Dune battle: ``("factions", 2, 6)``);
- ``secrets(state, viewer)``: every hidden value ``viewer`` must never see, for leak tests;
- ``invariants(state)``: raise if the state breaks a conservation rule (conformance suite);
- ``timeout_action(state, seat)``: the default action a turn clock plays on expiry.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

Seat = str
"""A seat name such as ``"mankind"`` or ``"invader"``."""

Viewer = Seat | None
"""Who looks at a state: a seat, or ``None`` for a spectator."""

Action = Mapping[str, Any]
"""An intent in wire form: ``{"type": "<action type>", ...parameters}``."""

JSON = dict[str, Any]


class IllegalAction(Exception):
    """An action refused by the rules; ``code`` is snake_case and stable."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(frozen=True)
class Event:
    """Something that happened, as the full truth.

    ``private_to`` names the only seat that may see ``secret`` fields; everyone
    else receives the event through ``Game.redact``.
    """

    type: str
    data: Mapping[str, Any] = field(default_factory=dict)
    private_to: Seat | None = None

    def to_json(self) -> JSON:
        out: JSON = {"type": self.type, **self.data}
        if self.private_to is not None:
            out["private_to"] = self.private_to
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Event:
        rest = {k: v for k, v in data.items() if k not in ("type", "private_to")}
        return cls(type=data["type"], data=rest, private_to=data.get("private_to"))


@dataclass(frozen=True)
class Outcome:
    """How a game ended: the winning seat (``None`` for a draw) and why."""

    winner: Seat | None
    reason: str
    detail: str = ""

    def to_json(self) -> JSON:
        return {"winner": self.winner, "reason": self.reason, "detail": self.detail}


@dataclass(frozen=True)
class Transition:
    """The result of ``apply``: the new state and what happened, in order."""

    state: Any
    events: tuple[Event, ...] = ()


@runtime_checkable
class Game(Protocol):
    """What a game module provides. Every function is pure."""

    NAME: str
    TITLE: str
    SEATS: tuple[Seat, ...]
    RULES_VERSION: str
    SNAPSHOT_VERSION: int

    def default_options(self) -> JSON: ...

    def validate_options(self, options: Mapping[str, Any]) -> JSON:
        """Return the full option set or raise ``IllegalAction('bad_options', ...)``."""
        ...

    def setup(self, seed: int, options: Mapping[str, Any]) -> Any: ...

    def active_seats(self, state: Any) -> frozenset[Seat]:
        """Seats that owe a decision now (empty once the game is over)."""
        ...

    def legal_actions(self, state: Any, seat: Seat) -> list[JSON]: ...

    def apply(self, state: Any, seat: Seat, action: Action) -> Transition: ...

    def view(self, state: Any, viewer: Viewer) -> JSON:
        """What ``viewer`` may see, with its ``legal_actions`` and ``prompt``."""
        ...

    def redact(self, event: Event, viewer: Viewer) -> JSON | None:
        """The event as ``viewer`` may see it, or ``None`` to hide it entirely."""
        ...

    def outcome(self, state: Any) -> Outcome | None: ...

    def to_json(self, state: Any) -> JSON: ...

    def from_json(self, data: Mapping[str, Any]) -> Any: ...


def redact_private(event: Event, viewer: Viewer, public_fields: tuple[str, ...]) -> JSON:
    """Allow-list redaction shared by games: the owner sees all, others only ``public_fields``."""
    if event.private_to is None or event.private_to == viewer:
        return event.to_json()
    out: JSON = {"type": event.type}
    for name in public_fields:
        if name in event.data:
            out[name] = event.data[name]
    return out


def seats_in_play(game: Game, options: Mapping[str, Any]) -> tuple[Seat, ...]:
    """The seats a match with these options fills; games with a fixed roster use ``SEATS``.

    A game whose player count is an option (the Dune battle: 2–6 of six factions) provides
    an optional ``seats_in_play(options)``; seats outside it never act and cannot be joined.
    """
    chooser = getattr(game, "seats_in_play", None)
    return tuple(chooser(options)) if chooser is not None else game.SEATS


def seat_option(game: Game) -> JSON | None:
    """``{"key", "min", "max"}`` of the option that lists the seats in play, if any."""
    found = getattr(game, "SEAT_OPTION", None)
    if found is None:
        return None
    key, fewest, most = found
    return {"key": key, "min": fewest, "max": most}
