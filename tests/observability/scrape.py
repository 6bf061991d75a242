"""Reading Prometheus text in tests."""

from __future__ import annotations


def sample(text: str, name: str) -> float:
    """The value of one sample line (``name`` includes its labels, if any)."""
    line = next(x for x in text.splitlines() if x.startswith(name + " "))
    return float(line.rsplit(" ", 1)[1])
