"""Storm geometry: contact, battle zones and storm order (DB-1…DB-5).

Pure functions over the state's forces and storm sector. A territory cut by the
storm is several battlefields; the stormed sector itself is one more ("battling
blind", [F]) unless ``storm_battles = none``.
"""

from __future__ import annotations

from dataclasses import dataclass

from app.games.dune_battle.catalog import DOT_SECTORS, TERRITORIES
from app.games.dune_battle.state import Forces, GameState

SECTORS = 18


@dataclass(frozen=True)
class Battlefield:
    """A set of sectors of one territory whose force groups are all in contact."""

    territory: str
    sectors: tuple[int, ...]
    factions: tuple[str, ...]


def storm_order(seating: tuple[str, ...], storm_sector: int) -> tuple[str, ...]:
    """Factions from the First Player on: dots the storm reaches next come first.

    The storm moves counter-clockwise, i.e. towards higher sector numbers; a dot
    under the storm has already been passed, so it comes last.
    """
    dots = {f: DOT_SECTORS[i] for i, f in enumerate(seating)}
    return tuple(sorted(seating, key=lambda f: (dots[f] - storm_sector - 1) % SECTORS))


def _runs(sectors: list[int]) -> list[tuple[int, ...]]:
    """Split sectors into groups joined by adjacency (cyclic, 1..18)."""
    remaining = set(sectors)
    out: list[tuple[int, ...]] = []
    for start in sectors:
        if start not in remaining:
            continue
        group, todo = set(), [start]
        while todo:
            s = todo.pop()
            if s not in remaining:
                continue
            remaining.discard(s)
            group.add(s)
            todo += [(s % SECTORS) + 1, ((s - 2) % SECTORS) + 1]
        out.append(tuple(sorted(group)))
    return out


def zones(territory: str, storm_sector: int, storm_battles: str) -> list[tuple[int, ...]]:
    """The battle zones of a territory under the current storm (DB-2, DB-3)."""
    t = TERRITORIES[territory]
    if t.terrain == "polar":
        return []
    clear = [s for s in t.sectors if s != storm_sector]
    out = _runs(clear)
    if storm_sector in t.sectors and storm_battles == "same_sector":
        out.append((storm_sector,))
    return out


def tokens_in(
    forces: tuple[Forces, ...], faction: str, territory: str, sectors: tuple[int, ...]
) -> tuple[int, int]:
    """(normal, elite) fighting tokens a faction has in those sectors of a territory.

    BG advisors are not counted: they are never in contact (DB-1) nor dialed (R-28).
    """
    normal = elite = 0
    for f in forces:
        if f.faction == faction and f.territory == territory and f.sector in sectors:
            if f.advisor:
                continue
            normal += f.normal
            elite += f.elite
    return normal, elite


def battlefields(state: GameState) -> list[Battlefield]:
    """Every zone where two or more factions are in contact (DB-1), map order."""
    out: list[Battlefield] = []
    for tid in TERRITORIES:
        for sectors in zones(tid, state.storm_sector, state.options.storm_battles):
            present = tuple(
                f for f in state.in_play if sum(tokens_in(state.forces, f, tid, sectors)) > 0
            )
            if len(present) >= 2:
                out.append(Battlefield(tid, sectors, present))
    return out


def aggressor(state: GameState) -> str | None:
    """The first faction in storm order that still has a battle (DB-4)."""
    fields = battlefields(state)
    for f in state.storm_order:
        if any(f in b.factions for b in fields):
            return f
    return None


def battle_options(state: GameState, faction: str) -> list[tuple[str, tuple[int, ...], str]]:
    """(territory, zone, opponent) for every battle the aggressor may pick (DB-5)."""
    return [
        (b.territory, b.sectors, other)
        for b in battlefields(state)
        if faction in b.factions
        for other in b.factions
        if other != faction
    ]


def remove_forces(
    forces: tuple[Forces, ...], faction: str | None, territory: str, sectors: tuple[int, ...]
) -> tuple[tuple[Forces, ...], dict[str, tuple[int, int]]]:
    """Take away every token of one faction's fighters, or of everyone, in those sectors.

    ``faction=None`` is the explosion (DB-40): advisors go too. A named faction
    loses only fighters, since advisors take no part in a battle (R-28).
    Returns the new force tuple and, per faction, the (normal, elite) removed.
    """
    kept: list[Forces] = []
    lost: dict[str, tuple[int, int]] = {}
    for f in forces:
        hit = faction is None or (f.faction == faction and not f.advisor)
        if f.territory == territory and f.sector in sectors and hit:
            n, e = lost.get(f.faction, (0, 0))
            lost[f.faction] = (n + f.normal, e + f.elite)
        else:
            kept.append(f)
    return tuple(kept), lost


def remove_tokens(
    forces: tuple[Forces, ...],
    faction: str,
    territory: str,
    sectors: tuple[int, ...],
    normal: int,
    elite: int,
) -> tuple[Forces, ...]:
    """Take ``normal`` and ``elite`` fighting tokens from the zone, lowest sector first."""
    out: list[Forces] = []
    for f in forces:
        mine = f.faction == faction and not f.advisor
        if mine and f.territory == territory and f.sector in sectors:
            dn, de = min(normal, f.normal), min(elite, f.elite)
            normal, elite = normal - dn, elite - de
            f = Forces(f.faction, f.territory, f.sector, f.normal - dn, f.elite - de)
            if f.normal == 0 and f.elite == 0:
                continue
        out.append(f)
    return tuple(out)
