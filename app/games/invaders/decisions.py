"""The pending-decision protocol: a Decision is a Task that waits for one choice.

Every multi-part choice is a stack of small decisions (one card, one zone, one
ward at a time), so ``legal_actions`` lists at most a few dozen entries and
never enumerates combinations.
"""

from __future__ import annotations

from typing import Any, ClassVar

from app.games.base import Event
from app.games.invaders.cards import ZONE_IDS
from app.games.invaders.state import Board, Draft, Task

JSON = dict[str, Any]


class Decision(Task):
    """A task that needs a choice from ``seat`` (a side index)."""

    __slots__ = ()
    decision: ClassVar[bool] = True
    kind: ClassVar[str] = "decision"
    #: code raised when a well-formed action of the right type names a bad value
    bad_value_code: ClassVar[str] = "invalid_choice"

    @property
    def owner(self) -> int:
        return int(getattr(self, "seat"))  # noqa: B009 - every decision has a seat field

    def options(self, s: Board) -> list[JSON]:  # pragma: no cover - overridden
        raise NotImplementedError

    def choose(self, d: Draft, action: JSON, ev: list[Event]) -> None:  # pragma: no cover
        raise NotImplementedError

    def exhausted(self, d: Draft, ev: list[Event]) -> None:
        """Called instead of ``choose`` when no option is left (nothing to do)."""
        return None

    def info(self, s: Board) -> JSON:
        """Public details of the decision for the prompt (both seats may see them)."""
        return {}


_CIDS = tuple(f"c{i}" for i in range(512))


def cid(c: int) -> str:
    """Opaque wire id of a card instance (assigned from a shuffled order at setup)."""
    return _CIDS[c] if 0 <= c < 512 else f"c{c}"


def parse_cid(value: Any) -> int:
    """Inverse of ``cid``; -1 for anything malformed."""
    if isinstance(value, str) and value.startswith("c") and value[1:].isdigit():
        return int(value[1:])
    return -1


def zone_action(z: int) -> JSON:
    return {"type": "choose_zone", "zone": ZONE_IDS[z]}


def zone_index(value: Any) -> int:
    return ZONE_IDS.index(value) if value in ZONE_IDS else -1
