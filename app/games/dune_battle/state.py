"""The battle-phase state: frozen dataclasses and tuples only, RNG included.

Everything the rules need is here and nothing else; secrets (hands, traitors,
drafts) live beside public facts and only ``view.py`` decides who sees what.
Transitions build new values with ``dataclasses.replace``; nothing mutates.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace


@dataclass(frozen=True)
class Options:
    """Validated match options (see options.py for meaning and defaults)."""

    factions: tuple[str, ...] = ("atreides", "harkonnen")
    advanced: bool = True
    bg_advisors: bool = False
    storm_battles: str = "same_sector"
    voice_targets: str = "seed"
    captured_leader_traitor_to_owner: bool = True
    kill_captured_later: bool = False
    territory: str = "test_basin"
    storm_sector: int = 1
    forces: int = 10
    hand_size: int = 4
    territory_spice: int = 0
    plan_revisions: int = 12
    seating: tuple[str, ...] = ()


@dataclass(frozen=True)
class Forces:
    """One faction's tokens in one sector of one territory.

    ``advisor`` marks Bene Gesserit tokens on their advisor side (advanced,
    R-28): on the board, but never in contact, never dialed, never lost by
    losing a battle; only an explosion (DB-40) takes them.
    """

    faction: str
    territory: str
    sector: int
    normal: int
    elite: int = 0
    advisor: bool = False


@dataclass(frozen=True)
class Leader:
    """A leader disc: who controls it now and where it is.

    ``zone`` is ``pool`` (available), ``territory`` (fought and stays there
    until leader return, DB-7) or ``tanks``. ``captured_from`` is set while the
    Harkonnen hold it (§8); ``secret`` hides its identity from third parties.
    ``fought_for_captor`` marks a captured leader that fought for the Harkonnen
    this phase: it goes home at leader return (DB-54). A leader captured after
    fighting for its owner keeps its ``territory`` binding (DB-7) but stays
    captured at leader return (R-31).
    """

    id: str
    controller: str
    zone: str = "pool"
    territory: str | None = None
    face_down: bool = False
    captured_from: str | None = None
    secret: bool = False
    fought_for_captor: bool = False


@dataclass(frozen=True)
class Faction:
    """Per-faction holdings: spice, hand, traitors, Tanks, KH bookkeeping."""

    name: str
    spice: int
    hand: tuple[str, ...] = ()
    traitors: tuple[str, ...] = ()
    traitor_offer: tuple[str, ...] = ()
    tanks_normal: int = 0
    tanks_elite: int = 0
    reserves_normal: int = 0
    reserves_elite: int = 0
    kh_losses: int = 0
    kh_used_in: str | None = None
    kh_dead: bool = False
    special_karama_used: bool = False


@dataclass(frozen=True)
class Territory:
    id: str
    spice: int = 0


@dataclass(frozen=True)
class Plan:
    """A battle plan (§4). ``leader`` is a leader id, a Cheap Hero card id or None."""

    leader: str | None = None
    weapon: str | None = None
    defense: str | None = None
    normal: int = 0
    elite: int = 0
    spice: int = 0
    kh: bool = False


@dataclass(frozen=True)
class Binding:
    """A constraint on one side's plan, in the order it arose.

    kind ``voice`` (subject = target category, value = must|must_not),
    ``prescience`` (subject = element, value = answer), ``truthtrance``
    (subject = question kind, param, value = yes|no) or ``lock`` (plan).
    """

    kind: str
    subject: str = ""
    param: str = ""
    value: str = ""
    plan: Plan | None = None
    active: bool = True


@dataclass(frozen=True)
class Question:
    """A Truthtrance question of the structured catalog (DB-24), and its answer."""

    asker: str
    asked: str
    kind: str
    param: str = ""
    answer: str | None = None


@dataclass(frozen=True)
class Side:
    """One combatant: its draft plan and the constraints on it."""

    faction: str
    draft: Plan | None = None
    committed: bool = False
    revisions: int = 0
    bindings: tuple[Binding, ...] = ()
    traitor_call: str | None = None  # "call" | "decline" once decided


@dataclass(frozen=True)
class Pending:
    """An interrupt on top of the step sequence (truthtrance answer, forced draft)."""

    kind: str  # answer_truthtrance | draft_for_full_view
    seat: str


@dataclass(frozen=True)
class Battle:
    """One battle between an aggressor and a defender in a battle zone (DB-3)."""

    territory: str
    sectors: tuple[int, ...]
    aggressor: Side
    defender: Side
    step: str = "voice"
    stack: tuple[Pending, ...] = ()
    prescience_element: str | None = None
    prescience_answer: str | None = None
    full_view: Plan | None = None
    kh_cancelled: bool = False
    elite_cancelled: bool = False
    questions: tuple[Question, ...] = ()
    karama_played: tuple[str, ...] = ()
    result: str | None = None  # traitor | two_traitors | explosion | normal
    winner: str | None = None
    totals: tuple[tuple[str, int], ...] = ()  # (faction, half-units) of a normal resolution
    keepable: tuple[str, ...] = ()
    capture_take: bool = False
    victim: str | None = None

    def side(self, faction: str) -> Side:
        return self.aggressor if self.aggressor.faction == faction else self.defender

    def other(self, faction: str) -> Side:
        return self.defender if self.aggressor.faction == faction else self.aggressor

    def with_side(self, side: Side) -> Battle:
        if side.faction == self.aggressor.faction:
            return replace(self, aggressor=side)
        return replace(self, defender=side)

    @property
    def combatants(self) -> tuple[str, str]:
        return (self.aggressor.faction, self.defender.faction)


@dataclass(frozen=True)
class GameState:
    """The whole match: one Battle phase on a small map."""

    options: Options
    factions: tuple[Faction, ...]
    storm_order: tuple[str, ...]
    storm_sector: int
    territories: tuple[Territory, ...]
    forces: tuple[Forces, ...]
    leaders: tuple[Leader, ...]
    deck: tuple[str, ...]
    discard: tuple[str, ...] = ()
    rng: int = 0
    phase: str = "traitor_pick"  # traitor_pick | choose_battle | battle | over
    battle: Battle | None = None
    battles_fought: int = 0
    battle_wins: tuple[str, ...] = field(default=())

    def faction(self, name: str) -> Faction:
        for f in self.factions:
            if f.name == name:
                return f
        raise KeyError(name)

    def with_faction(self, fac: Faction) -> GameState:
        return replace(
            self, factions=tuple(fac if f.name == fac.name else f for f in self.factions)
        )

    def leader(self, leader_id: str) -> Leader:
        for ld in self.leaders:
            if ld.id == leader_id:
                return ld
        raise KeyError(leader_id)

    def with_leader(self, leader: Leader) -> GameState:
        return replace(
            self, leaders=tuple(leader if ld.id == leader.id else ld for ld in self.leaders)
        )

    def territory(self, tid: str) -> Territory:
        for t in self.territories:
            if t.id == tid:
                return t
        raise KeyError(tid)

    @property
    def in_play(self) -> tuple[str, ...]:
        return tuple(f.name for f in self.factions)
