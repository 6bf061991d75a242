"""A tiny seeded PRNG (splitmix64) whose whole state is one integer.

Why not ``random.Random``: its state is a 625-word tuple, which bloats every
snapshot and is awkward to compare. One integer in the State makes ``to_json``
trivial and replays bit-identical on every Python version.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

T = TypeVar("T")

_MASK = (1 << 64) - 1


def seed_state(seed: int) -> int:
    """Turn any integer seed into a 64-bit PRNG state."""
    return (seed * 0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019) & _MASK


def next_u64(state: int) -> tuple[int, int]:
    """Return (new_state, 64-bit output): one splitmix64 step."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def below(state: int, n: int) -> tuple[int, int]:
    """Return (new_state, k) with 0 <= k < n (rejection sampling: no modulo bias)."""
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state, z = next_u64(state)
        if z < limit:
            return state, z % n


def shuffled(state: int, items: Sequence[T]) -> tuple[int, tuple[T, ...]]:
    """Return (new_state, items in a Fisher-Yates shuffled order)."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        state, j = below(state, i + 1)
        out[i], out[j] = out[j], out[i]
    return state, tuple(out)
