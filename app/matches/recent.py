"""What this worker itself just committed, so the hot path need not read it back.

The database stays the truth. A head here is a hint: an action checked against it is
still written with the guarded UPDATE (version and status), and a write that loses
falls back to reading the database (service.py ``_after_conflict``). Steps here are
served to the hub only as a contiguous run that reaches the version it was told of;
anything else (a gap, a version another worker wrote, a clock's forfeit) is read from
the database as before.
"""

from __future__ import annotations

from collections import OrderedDict, deque
from dataclasses import dataclass

from app.matches.records import Step


@dataclass(frozen=True)
class Head:
    """The newest version of a match this worker knows it committed, and its status."""

    game: str
    version: int
    status: str


@dataclass
class _Recent:
    head: Head
    steps: deque[Step]


class RecentSteps:
    """A bounded LRU of matches, each with its last few committed steps."""

    def __init__(self, matches: int = 1024, steps_per_match: int = 4) -> None:
        self._matches = matches
        self._steps_per_match = steps_per_match
        self._recent: OrderedDict[str, _Recent] = OrderedDict()

    def head(self, match_id: str) -> Head | None:
        recent = self._recent.get(match_id)
        return recent.head if recent is not None else None

    def record(self, match_id: str, head: Head, step: Step) -> None:
        """A step this worker committed; it must follow the known head, or it starts afresh."""
        recent = self._recent.get(match_id)
        if recent is None or recent.head.version != step.version - 1:
            recent = _Recent(head, deque(maxlen=self._steps_per_match))
            self._recent[match_id] = recent
        recent.head = head
        recent.steps.append(step)
        self._recent.move_to_end(match_id)
        while len(self._recent) > self._matches:
            self._recent.popitem(last=False)

    def observe(self, match_id: str, version: int) -> None:
        """A version announced on the bus: beyond our head, someone else wrote it."""
        recent = self._recent.get(match_id)
        if recent is not None and version > recent.head.version:
            del self._recent[match_id]

    def forget(self, match_id: str) -> None:
        self._recent.pop(match_id, None)

    def steps_after(self, match_id: str, after: int, upto: int) -> tuple[Step, ...] | None:
        """Steps ``after+1 .. head``, if held without a gap and reaching at least ``upto``."""
        recent = self._recent.get(match_id)
        if recent is None or recent.head.version < max(upto, after + 1):
            return None
        steps = tuple(s for s in recent.steps if s.version > after)
        if not steps or steps[0].version != after + 1:
            return None
        return steps
