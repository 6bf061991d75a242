"""app/matches/recent.py: only a contiguous run reaching the announced version is served."""

from __future__ import annotations

from app.matches.recent import Head, RecentSteps
from app.matches.records import Step


def step(version: int) -> Step:
    return Step(version, {"v": version}, ())


def recorded(*versions: int, steps_per_match: int = 4) -> RecentSteps:
    recent = RecentSteps(steps_per_match=steps_per_match)
    for version in versions:
        recent.record("m", Head("g", version, "active"), step(version))
    return recent


def test_contiguous_steps_are_served() -> None:
    steps = recorded(1, 2, 3).steps_after("m", 1, 3)
    assert steps is not None and [s.version for s in steps] == [2, 3]


def test_steps_short_of_the_announced_version_are_not_served() -> None:
    assert recorded(1, 2).steps_after("m", 1, 3) is None


def test_a_gap_restarts_the_run() -> None:
    recent = recorded(1, 2, 5)
    assert recent.steps_after("m", 1, 5) is None
    steps = recent.steps_after("m", 4, 5)
    assert steps is not None and [s.version for s in steps] == [5]


def test_steps_older_than_the_window_are_not_served() -> None:
    assert recorded(1, 2, 3, steps_per_match=2).steps_after("m", 0, 3) is None


def test_a_later_version_from_elsewhere_drops_the_match() -> None:
    recent = recorded(1)
    recent.observe("m", 1)
    assert recent.head("m") == Head("g", 1, "active")
    recent.observe("m", 2)
    assert recent.head("m") is None


def test_least_recently_used_match_is_evicted() -> None:
    recent = RecentSteps(matches=1)
    recent.record("a", Head("g", 1, "active"), step(1))
    recent.record("b", Head("g", 1, "active"), step(1))
    assert (recent.head("a"), recent.head("b")) == (None, Head("g", 1, "active"))
