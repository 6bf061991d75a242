"""Stand-ins that record what the code under test announced."""

from __future__ import annotations


class Notifications(list[tuple[str, int]]):
    """A ``notify`` callable for MatchService that keeps every (match id, version)."""

    async def __call__(self, match_id: str, version: int) -> None:
        self.append((match_id, version))
