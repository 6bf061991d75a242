"""A new Battle phase: seating, storm order, leaders, traitors, hands and forces.

Everything random is drawn from the state's own RNG, seeded by the match seed.
``build_state`` is the deterministic core that tests also use to stage the
worked examples of the spec.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from app.games.dune_battle import rng
from app.games.dune_battle.board import storm_order
from app.games.dune_battle.catalog import (
    DECK,
    ELITE_TOKENS,
    LEADERS,
    START_SPICE,
    TERRITORIES,
)
from app.games.dune_battle.state import (
    Faction,
    Forces,
    GameState,
    Leader,
    Options,
    Territory,
)

TRAITORS_DEALT = 4


def build_state(
    options: Options,
    seating: tuple[str, ...],
    forces: tuple[Forces, ...],
    hands: Mapping[str, tuple[str, ...]],
    deck: tuple[str, ...],
    traitors: Mapping[str, tuple[str, ...]] | None = None,
    offers: Mapping[str, tuple[str, ...]] | None = None,
    spice: Mapping[str, int] | None = None,
    territory_spice: Mapping[str, int] | None = None,
    rng_state: int = 0,
) -> GameState:
    """A state from explicit parts; factions not given spice get the printed start."""
    spice = spice or {}
    factions = tuple(
        Faction(
            name=f,
            spice=spice.get(f, START_SPICE[f]),
            hand=tuple(hands.get(f, ())),
            traitors=tuple((traitors or {}).get(f, ())),
            traitor_offer=tuple((offers or {}).get(f, ())),
        )
        for f in options.factions
    )
    leaders = tuple(
        Leader(id=ld.id, controller=ld.faction)
        for ld in LEADERS.values()
        if ld.faction in options.factions
    )
    territories = tuple(Territory(t, (territory_spice or {}).get(t, 0)) for t in TERRITORIES)
    return GameState(
        options=options,
        factions=factions,
        storm_order=storm_order(seating, options.storm_sector),
        storm_sector=options.storm_sector,
        territories=territories,
        forces=forces,
        leaders=leaders,
        deck=deck,
        rng=rng_state,
    )


def _place_forces(options: Options, state: int) -> tuple[tuple[Forces, ...], int]:
    """Each faction's tokens in one random sector of the chosen territory.

    With ``bg_advisors`` the BG tokens stand there as advisors (R-28); they are
    never alone in the territory, so Universal Stewards never flips them.
    """
    sectors = TERRITORIES[options.territory].sectors
    out = []
    for f in options.factions:
        elite = min(ELITE_TOKENS.get(f, 0), options.forces // 4)
        sector, state = rng.choice(state, sectors)
        advisor = options.bg_advisors and f == "bene_gesserit"
        out.append(Forces(f, options.territory, sector, options.forces - elite, elite, advisor))
    return tuple(out), state


def random_state(seed: int, options: Options) -> GameState:
    """Seating, traitor deal, hands and forces all drawn from ``seed``."""
    state = rng.seed_state(seed)
    seating = options.seating
    if not seating:
        seating, state = rng.shuffled(state, options.factions)
    pool = [ld.id for ld in LEADERS.values() if ld.faction in options.factions]
    traitor_deck, state = rng.shuffled(state, pool)
    deck, state = rng.shuffled(state, DECK)
    offers: dict[str, tuple[str, ...]] = {}
    kept: dict[str, tuple[str, ...]] = {}
    hands: dict[str, tuple[str, ...]] = {}
    for f in seating:
        dealt, traitor_deck = traitor_deck[:TRAITORS_DEALT], traitor_deck[TRAITORS_DEALT:]
        if f == "harkonnen":
            kept[f] = dealt  # the Harkonnen keep all four [G]
        else:
            offers[f] = dealt
        n = min(2 * options.hand_size, 8) if f == "harkonnen" else options.hand_size
        hands[f], deck = deck[:n], deck[n:]
    forces, state = _place_forces(options, state)
    return build_state(
        options,
        seating,
        forces,
        hands,
        deck,
        traitors=kept,
        offers=offers,
        territory_spice={options.territory: options.territory_spice},
        rng_state=state,
    )


def with_seating(state: GameState, seating: tuple[str, ...]) -> GameState:
    """The same state with another seating (tests stage storm orders with it)."""
    return replace(state, storm_order=storm_order(seating, state.storm_sector))
