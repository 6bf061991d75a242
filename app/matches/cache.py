"""In-memory states keyed by (match id, version): memory is only a cache, the DB is the truth."""

from __future__ import annotations

from collections import OrderedDict
from typing import Any


class StateCache:
    """A small LRU; an entry is never wrong because a version's state never changes."""

    def __init__(self, capacity: int = 1024) -> None:
        self._capacity = capacity
        self._states: OrderedDict[tuple[str, int], Any] = OrderedDict()

    def get(self, match_id: str, version: int) -> Any | None:
        key = (match_id, version)
        state = self._states.get(key)
        if state is not None:
            self._states.move_to_end(key)
        return state

    def put(self, match_id: str, version: int, state: Any) -> None:
        self._states[(match_id, version)] = state
        self._states.move_to_end((match_id, version))
        while len(self._states) > self._capacity:
            self._states.popitem(last=False)
