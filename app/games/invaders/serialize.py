"""Snapshot format (versioned): State <-> plain JSON data, losslessly.

``from_json(to_json(s)) == s`` holds for every reachable state; the pending
stack is data (registered task dataclasses), so a snapshot taken mid-decision
resumes exactly. Bump SNAPSHOT_VERSION on any incompatible change.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields, is_dataclass
from typing import Any

from app.games.base import IllegalAction, Outcome
from app.games.invaders.clauses import Ref
from app.games.invaders.state import Boost, Ctx, Options, State, Task, ZoneMod

SNAPSHOT_VERSION = 1
_VALUE_CLASSES: dict[str, type] = {"Ctx": Ctx, "Ref": Ref}


def _enc(value: Any) -> Any:
    if isinstance(value, bool | int | str) or value is None:
        return value
    if isinstance(value, tuple):
        return [_enc(v) for v in value]
    if is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {"t": type(value).__name__}
        for f in fields(value):
            out[f.name] = _enc(getattr(value, f.name))
        return out
    raise TypeError(f"cannot encode {value!r}")


def _dec(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_dec(v) for v in value)
    if isinstance(value, dict):
        cls = Task.registry.get(value["t"]) or _VALUE_CLASSES[value["t"]]
        return cls(**{k: _dec(v) for k, v in value.items() if k != "t"})
    return value


def to_json(s: State) -> dict[str, Any]:
    return {
        "version": SNAPSHOT_VERSION,
        "seed": s.seed,
        "options": {
            "zone_collapse_win": s.options.zone_collapse_win,
            "first_player": s.options.first_player,
            "opening_hand": s.options.opening_hand,
        },
        "rng": s.rng,
        "types": list(s.types),
        "deck": [list(x) for x in s.deck],
        "hand": [list(x) for x in s.hand],
        "discard": [list(x) for x in s.discard],
        "board": [list(x) for x in s.board],
        "hero_pile": list(s.hero_pile),
        "hero": s.hero,
        "hero_turned": s.hero_turned,
        "limbo": list(s.limbo),
        "revealed": sorted(s.revealed),
        "plus_tokens": sorted([k, v] for k, v in s.plus_tokens.items()),
        "wards": sorted([k, v] for k, v in s.wards.items()),
        "boosts": [[b.card, b.amount, b.expires] for b in s.boosts],
        "used": sorted(s.used, key=str),
        "zone_tokens": list(s.zone_tokens),
        "zone_mods": [[m.zone, m.amount, m.until, m.turn] for m in s.zone_mods],
        "plot": s.plot,
        "enabled": sorted(s.enabled),
        "turn": s.turn,
        "active": s.active,
        "phase": s.phase,
        "plot_action_used": s.plot_action_used,
        "reduction": s.reduction,
        "drain_inflicted": s.drain_inflicted,
        "shield": s.shield,
        "stack": [_enc(t) for t in s.stack],
        "outcome": s.outcome.to_json() if s.outcome is not None else None,
        "decisions": s.decisions,
    }


def _pair(x: list[Any]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    return (tuple(x[0]), tuple(x[1]))


def from_json(data: Mapping[str, Any]) -> State:
    if data.get("version") != SNAPSHOT_VERSION:
        raise IllegalAction("bad_snapshot", f"snapshot version {data.get('version')!r} unknown")
    out = data["outcome"]
    return State(
        seed=data["seed"],
        options=Options(**data["options"]),
        rng=data["rng"],
        types=tuple(data["types"]),
        deck=_pair(data["deck"]),
        hand=_pair(data["hand"]),
        discard=_pair(data["discard"]),
        board=tuple(tuple(c) for c in data["board"]),
        hero_pile=tuple(data["hero_pile"]),
        hero=data["hero"],
        hero_turned=data["hero_turned"],
        limbo=tuple(data["limbo"]),
        revealed=frozenset(data["revealed"]),
        plus_tokens={k: v for k, v in data["plus_tokens"]},
        wards={k: v for k, v in data["wards"]},
        boosts=tuple(Boost(*b) for b in data["boosts"]),
        used=frozenset(data["used"]),
        zone_tokens=tuple(data["zone_tokens"]),
        zone_mods=tuple(ZoneMod(*m) for m in data["zone_mods"]),
        plot=data["plot"],
        enabled=frozenset(data["enabled"]),
        turn=data["turn"],
        active=data["active"],
        phase=data["phase"],
        plot_action_used=data["plot_action_used"],
        reduction=data["reduction"],
        drain_inflicted=data["drain_inflicted"],
        shield=data["shield"],
        stack=tuple(_dec(t) for t in data["stack"]),
        outcome=Outcome(**out) if out is not None else None,
        decisions=data["decisions"],
    )
