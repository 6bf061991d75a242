"""A tiny seeded PRNG (SplitMix64) whose whole state is one integer.

The state lives inside the game state, so replaying the action log from the
setup seed reproduces every draw bit for bit, on any Python, with no module
level ``random``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def seed_state(seed: int) -> int:
    """Fold any integer seed into a 64-bit state."""
    return seed & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """One SplitMix64 step: (output, next state)."""
    state = (state + _GOLDEN) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31), state


def below(state: int, n: int) -> tuple[int, int]:
    """A uniform integer in [0, n) by rejection sampling (no modulo bias)."""
    if n <= 0:
        raise ValueError("n must be positive")
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        value, state = next_u64(state)
        if value < limit:
            return value % n, state


def shuffled(state: int, items: Sequence[T]) -> tuple[tuple[T, ...], int]:
    """Fisher–Yates over a copy; returns the new order and the next state."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j, state = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return tuple(out), state


def choice(state: int, items: Sequence[T]) -> tuple[T, int]:
    """One uniformly chosen item."""
    i, state = below(state, len(items))
    return items[i], state
