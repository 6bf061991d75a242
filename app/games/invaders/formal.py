"""The formal-line language of invaders-cards.md §1.8, parsed into typed clauses.

Each card's text is data (cards.toml); this module turns a formal line such as
``activated[discard 1]: destroy(1, side=invader, zone=this, power<=2)`` into
``Clause`` values that the effect interpreter composes from the primitives.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

EFFECT_NAMES = frozenset(
    {
        "destroy",
        "return_to_hand",
        "move_card",
        "drain",
        "draw",
        "discard",
        "place_zone_token",
        "remove_zone_token",
        "add_power_token",
        "boost",
        "move_plot",
        "shield",
        "ward_tokens",
        "recover",
        "zone_power_mod",
        "choose_one",
        "extra_attack",
    }
)
STATIC_NAMES = frozenset({"power_mod", "power_per", "zone_power_mod", "cost_mod", "forbid"})
TIMINGS = frozenset(
    {
        "on_play",
        "on_destroyed",
        "start_of_turn",
        "on_zone_resolved(win)",
        "on_zone_resolved(hold)",
        "static",
        "activated",
        "enable",
        "unique",
    }
)


class FormalLineError(ValueError):
    """A formal line that does not follow the grammar of invaders-cards.md §1.8."""


@dataclass(frozen=True)
class Filter:
    """A conjunction of the filters F-1 … F-12; ``None``/empty means unrestricted."""

    side: str | None = None  # F-1: "mankind" | "invader"
    categories: tuple[str, ...] = ()  # F-2: any of these printed categories
    keywords: tuple[str, ...] = ()  # F-3: carries any of these keywords
    zone: str | None = None  # F-4/F-5: "this" | "chosen"
    power_le: int | None = None  # F-6
    power_ge: int | None = None  # F-6
    hero: bool | None = None  # F-7: True = only the hero, False = never the hero
    hero_state: str | None = None  # F-8: "upright" | "turned"
    other: bool = False  # F-9
    self_only: bool = False  # F-10


@dataclass(frozen=True)
class Effect:
    """One-time primitive E-1 … E-16 (and U-1's ``extra_attack``).

    Fields are used by the primitives that take them; the rest stay ``None``.
    """

    name: str
    count: int | str | None = None  # n, "all" or "self"
    filter: Filter | None = None
    player: str | None = None  # drain/draw/discard: "mankind" | "invader"
    zone: str | None = None  # token and zone-power effects: "this" | "chosen" | "each"
    amount: int | None = None  # signed where the grammar allows a sign
    mode: str | None = None  # discard: "random" | "chosen"
    until: str | None = None  # boost/zone_power_mod duration
    to: str | None = None  # move_card destination: "chosen"
    max: int | None = None  # add_power_token(self, n, max=m)
    branches: tuple[Effect, ...] = ()  # choose_one


@dataclass(frozen=True)
class Static:
    """Continuous primitive S-1 … S-5."""

    name: str
    filter: Filter | None = None
    amount: int = 0  # power_mod / power_per / zone_power_mod
    discard: int = 0  # cost_mod
    drain: int = 0  # cost_mod
    action: str | None = None  # forbid: "destroy" | "return_to_hand" | "move"
    by: str | None = None  # forbid: category of the forbidden source, e.g. "one_shot"


@dataclass(frozen=True)
class Requirement:
    """A bracketed cost (K-1 … K-3) or requirement (K-4, K-5)."""

    kind: str  # "discard" | "drain" | "destroy_self" | "plot<=" | "deck<="
    n: int = 0


@dataclass(frozen=True)
class Clause:
    """``timing: effect ; effect …`` — statics carry ``statics``, the rest ``effects``."""

    timing: str
    requirements: tuple[Requirement, ...] = ()
    effects: tuple[Effect, ...] = ()
    statics: tuple[Static, ...] = ()


SIDES = frozenset({"mankind", "invader"})
CATEGORIES = frozenset({"invader_unit", "desolator", "defender", "location", "hero", "one_shot"})
ZONE_WORDS = frozenset({"this", "chosen", "each"})
DURATIONS = frozenset({"end_of_turn", "end_of_next_invader_turn", "end_of_next_attack"})
FILTER_WORDS: dict[str, dict[str, Any]] = {
    "hero": {"hero": True},
    "not hero": {"hero": False},
    "upright": {"hero_state": "upright"},
    "turned": {"hero_state": "turned"},
    "other": {"other": True},
}
_TIMING = re.compile(
    r"^(on_play|on_destroyed|start_of_turn|on_zone_resolved\((?:win|hold)\)|static|activated|enable"
    r"|unique)(?:\[([^\]]*)\])?:\s*(.+)$"
)
_CALL = re.compile(r"^([a-z_]+)\((.*)\)$")
_INT = re.compile(r"^[+-]?\d+$")
_POWER = re.compile(r"^power(<=|>=)(\d+)$")
_REQ = re.compile(r"^(discard|drain) (\d+)$|^(plot<=|deck<=)(\d+)$|^(destroy_self)$")

# Positional slots per primitive, in order (filters and key=value args may sit anywhere).
_POSITIONAL: dict[str, tuple[str, ...]] = {
    "destroy": ("count",),
    "return_to_hand": ("count",),
    "recover": ("count",),
    "move_card": ("count",),
    "boost": ("count", "amount"),
    "add_power_token": ("count", "amount"),
    "drain": ("player", "amount"),
    "draw": ("player", "amount"),
    "discard": ("player", "amount", "mode"),
    "place_zone_token": ("zone", "amount"),
    "remove_zone_token": ("zone", "amount"),
    "zone_power_mod": ("zone", "amount"),
    "move_plot": ("amount",),
    "shield": ("amount",),
    "ward_tokens": ("amount",),
    "extra_attack": ("zone",),
    "power_mod": ("amount",),
    "power_per": ("amount",),
    "cost_mod": (),
    "forbid": ("action",),
}
_KEYS = frozenset({"to", "until", "by", "max", "discard", "drain"})


def parse_formal_line(text: str) -> tuple[Clause, ...]:
    """Parse a whole card text; an empty text (a vanilla card) has no clauses."""
    text = text.strip()
    if not text:
        return ()
    clauses: list[Clause] = []
    for part in _split_top(text, ";"):
        match = _TIMING.match(part)
        if match:
            timing, reqs, body = match.groups()
            clauses.append(_clause(timing, _requirements(reqs), body))
        elif clauses:  # a bare effect continues the previous clause (§1.8)
            prev = clauses[-1]
            more = _clause(prev.timing, (), part)
            clauses[-1] = Clause(
                prev.timing,
                prev.requirements,
                prev.effects + more.effects,
                prev.statics + more.statics,
            )
        else:
            raise FormalLineError(f"{text!r}: the first clause needs a timing")
    return tuple(clauses)


def _clause(timing: str, reqs: tuple[Requirement, ...], body: str) -> Clause:
    if timing == "static":
        return Clause(timing, reqs, statics=(parse_static(body),))
    return Clause(timing, reqs, effects=(parse_effect(body),))


def _requirements(text: str | None) -> tuple[Requirement, ...]:
    if not text:
        return ()
    out = []
    for item in _split_top(text, ","):
        m = _REQ.match(item)
        if not m:
            raise FormalLineError(f"unknown cost or requirement {item!r}")
        if m.group(1):
            out.append(Requirement(m.group(1), int(m.group(2))))
        elif m.group(3):
            out.append(Requirement(m.group(3), int(m.group(4))))
        else:
            out.append(Requirement("destroy_self"))
    return tuple(out)


def parse_effect(text: str) -> Effect:
    """One one-time primitive call, e.g. ``destroy(1, side=mankind)``."""
    name, args = _call(text)
    if name not in EFFECT_NAMES:
        raise FormalLineError(f"unknown effect {name!r} in {text!r}")
    if name == "choose_one":
        branches = tuple(parse_effect(b) for b in _split_top(args, "/"))
        if len(branches) != 2:
            raise FormalLineError(f"choose_one needs two branches: {text!r}")
        return Effect(name, branches=branches)
    fields = _arguments(name, args)
    if name == "add_power_token" and fields.get("count") != "self":
        fields["amount"] = 1  # one token on each of up to n cards (E-9)
    return Effect(name, **fields)


def parse_static(text: str) -> Static:
    """One continuous primitive call, e.g. ``power_mod(side=invader, zone=this, +1)``."""
    name, args = _call(text)
    if name not in STATIC_NAMES:
        raise FormalLineError(f"unknown static {name!r} in {text!r}")
    fields = _arguments(name, args)
    fields.pop("zone", None)  # the static zone_power_mod always means "this"
    if "until" in fields:
        raise FormalLineError(f"a static has no duration: {text!r}")
    return Static(name, **fields)


def _call(text: str) -> tuple[str, str]:
    m = _CALL.match(text.strip())
    if not m:
        raise FormalLineError(f"not a call: {text!r}")
    return m.group(1), m.group(2)


def _arguments(name: str, args: str) -> dict[str, Any]:
    slots = list(_POSITIONAL[name])
    fields: dict[str, Any] = {}
    flt: dict[str, Any] = {}
    for arg in _split_top(args, ","):
        if _filter_arg(arg, flt, name):
            continue
        if "=" in arg and not arg.startswith(("side", "category", "keyword", "zone")):
            key, value = (s.strip() for s in arg.split("=", 1))
            if key not in _KEYS:
                raise FormalLineError(f"unknown key {key!r} in {name}")
            fields[key] = _key_value(key, value)
            continue
        if not slots:
            raise FormalLineError(f"too many arguments to {name}: {arg!r}")
        slot = slots.pop(0)
        fields[slot] = _positional(slot, arg, name)
    if flt:
        fields["filter"] = Filter(**flt)
    return fields


def _filter_arg(arg: str, flt: dict[str, Any], name: str) -> bool:
    """Fold one filter argument (F-1 … F-10) into ``flt``; False if it is not one."""
    if arg in FILTER_WORDS:
        flt.update(FILTER_WORDS[arg])
        return True
    if arg == "self" and name == "forbid":
        flt["self_only"] = True
        return True
    power = _POWER.match(arg)
    if power:
        flt["power_le" if power.group(1) == "<=" else "power_ge"] = int(power.group(2))
        return True
    for key in ("category", "keyword"):
        if arg.startswith(f"{key} in ["):
            values = tuple(v.strip() for v in arg[len(key) + 5 : -1].split(","))
            flt[key + "s" if key == "keyword" else "categories"] = _checked(key, values)
            return True
        if arg.startswith(f"{key}="):
            values = (arg.split("=", 1)[1].strip(),)
            flt[key + "s" if key == "keyword" else "categories"] = _checked(key, values)
            return True
    if arg.startswith("side="):
        flt["side"] = _one_of(arg[5:], SIDES, "side")
        return True
    if arg.startswith("zone="):
        flt["zone"] = _one_of(arg[5:], frozenset({"this", "chosen"}), "zone")
        return True
    return False


def _checked(key: str, values: tuple[str, ...]) -> tuple[str, ...]:
    if key == "category":
        for v in values:
            _one_of(v, CATEGORIES, "category")
    return values


def _positional(slot: str, arg: str, name: str) -> object:
    if slot == "count":
        if arg in ("all", "self"):
            return arg
        return _int(arg, name)
    if slot == "amount":
        return _int(arg, name)
    if slot == "player":
        return _one_of(arg, SIDES, "player")
    if slot == "zone":
        return _one_of(arg, ZONE_WORDS, "zone")
    if slot == "mode":
        return _one_of(arg, frozenset({"random", "chosen"}), "mode")
    return _one_of(arg, frozenset({"destroy", "return_to_hand", "move"}), "forbidden action")


def _key_value(key: str, value: str) -> object:
    if key in ("max", "discard", "drain"):
        return _int(value, key)
    if key == "until":
        return _one_of(value, DURATIONS, "until")
    if key == "by":
        return _one_of(value, CATEGORIES, "by")
    return _one_of(value, frozenset({"chosen"}), key)


def _int(text: str, where: str) -> int:
    if not _INT.match(text):
        raise FormalLineError(f"{where}: expected a number, got {text!r}")
    return int(text)


def _one_of(value: str, allowed: frozenset[str], what: str) -> str:
    value = value.strip()
    if value not in allowed:
        raise FormalLineError(f"unknown {what} {value!r}")
    return value


def _split_top(text: str, sep: str) -> list[str]:
    """Split on ``sep`` outside parentheses and brackets."""
    parts, depth, cur = [], 0, ""
    for ch in text:
        if ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        if ch == sep and depth == 0:
            parts.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        parts.append(cur.strip())
    return parts
