"""Match options (dune-battle.md §0.2 plus the scenario settings of this module).

The seed [F] is the default wherever it and the GF9 rules differ; every
difference is one option so that a GF9 purist can switch it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict
from typing import Any

from app.games.base import IllegalAction
from app.games.dune_battle.catalog import FACTIONS, TERRITORIES
from app.games.dune_battle.state import Options


def default_options() -> dict[str, Any]:
    """The full default option set in wire form."""
    return options_to_json(Options())


def options_to_json(opts: Options) -> dict[str, Any]:
    out = asdict(opts)
    out["factions"] = list(opts.factions)
    out["seating"] = list(opts.seating)
    return out


def _bad(message: str) -> IllegalAction:
    return IllegalAction("bad_options", message)


def _int(raw: Mapping[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    value = raw.get(key, default)
    if not isinstance(value, int) or isinstance(value, bool) or not lo <= value <= hi:
        raise _bad(f"{key} must be an integer in {lo}..{hi}")
    return value


def _bool(raw: Mapping[str, Any], key: str, default: bool) -> bool:
    value = raw.get(key, default)
    if not isinstance(value, bool):
        raise _bad(f"{key} must be true or false")
    return value


def _choice(raw: Mapping[str, Any], key: str, default: str, allowed: tuple[str, ...]) -> str:
    value = raw.get(key, default)
    if value not in allowed:
        raise _bad(f"{key} must be one of {', '.join(allowed)}")
    return str(value)


def _factions(raw: Mapping[str, Any], key: str, default: tuple[str, ...]) -> tuple[str, ...]:
    value = raw.get(key, list(default))
    if not isinstance(value, list | tuple) or any(f not in FACTIONS for f in value):
        raise _bad(f"{key} must list faction names from {', '.join(FACTIONS)}")
    if len(set(value)) != len(value):
        raise _bad(f"{key} names a faction twice")
    return tuple(value)


def validate_options(raw: Mapping[str, Any]) -> Options:
    """Every option checked and defaulted; ``bad_options`` names the first fault."""
    d = Options()
    unknown = set(raw) - set(asdict(d))
    if unknown:
        raise _bad(f"unknown options: {', '.join(sorted(unknown))}")
    factions = _factions(raw, "factions", d.factions)
    if not 2 <= len(factions) <= 6:
        raise _bad("factions must name 2 to 6 factions")
    seating = _factions(raw, "seating", d.seating)
    if seating and sorted(seating) != sorted(factions):
        raise _bad("seating must be empty or a permutation of factions")
    advanced = _bool(raw, "advanced", d.advanced)
    bg_advisors = _bool(raw, "bg_advisors", d.bg_advisors)
    if bg_advisors and not (advanced and "bene_gesserit" in factions):
        raise _bad("bg_advisors needs the advanced game and the bene_gesserit in factions")
    return Options(
        factions=factions,
        advanced=advanced,
        bg_advisors=bg_advisors,
        storm_battles=_choice(raw, "storm_battles", d.storm_battles, ("same_sector", "none")),
        voice_targets=_choice(raw, "voice_targets", d.voice_targets, ("seed", "gf9")),
        captured_leader_traitor_to_owner=_bool(
            raw, "captured_leader_traitor_to_owner", d.captured_leader_traitor_to_owner
        ),
        kill_captured_later=_bool(raw, "kill_captured_later", d.kill_captured_later),
        territory=_choice(raw, "territory", d.territory, tuple(TERRITORIES)),
        storm_sector=_int(raw, "storm_sector", d.storm_sector, 1, 18),
        forces=_int(raw, "forces", d.forces, 1, 20),
        hand_size=_int(raw, "hand_size", d.hand_size, 0, 4),
        territory_spice=_int(raw, "territory_spice", d.territory_spice, 0, 50),
        plan_revisions=_int(raw, "plan_revisions", d.plan_revisions, 1, 100),
        seating=seating,
    )
