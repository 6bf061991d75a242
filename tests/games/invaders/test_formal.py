"""The formal-line grammar of invaders-cards.md §1.8."""

import pytest

from app.games.invaders.formal import (
    Effect,
    Filter,
    FormalLineError,
    Requirement,
    Static,
    parse_formal_line,
)


def test_vanilla_card_has_no_clauses() -> None:
    assert parse_formal_line("") == ()


def test_activated_clause_parses_costs_and_filter() -> None:
    (clause,) = parse_formal_line(
        "activated[discard 1]: destroy(1, side=invader, zone=this, power<=2)"
    )
    assert clause.timing == "activated"
    assert clause.requirements == (Requirement("discard", 1),)
    assert clause.effects == (
        Effect("destroy", count=1, filter=Filter(side="invader", zone="this", power_le=2)),
    )


def test_requirements_cover_every_cost_form() -> None:
    (clause,) = parse_formal_line("activated[destroy_self, drain 2, plot<=7, deck<=40]: shield(1)")
    assert clause.requirements == (
        Requirement("destroy_self"),
        Requirement("drain", 2),
        Requirement("plot<=", 7),
        Requirement("deck<=", 40),
    )


def test_two_clauses_split_on_semicolon() -> None:
    clauses = parse_formal_line(
        "on_play: ward_tokens(8); static: forbid(destroy, self, by=one_shot)"
    )
    assert [c.timing for c in clauses] == ["on_play", "static"]
    assert clauses[0].effects == (Effect("ward_tokens", amount=8),)
    assert clauses[1].statics == (
        Static("forbid", filter=Filter(self_only=True), action="destroy", by="one_shot"),
    )


def test_bare_effect_continues_the_previous_clause() -> None:
    (clause,) = parse_formal_line("on_play: draw(invader, 1); move_plot(-1)")
    assert [e.name for e in clause.effects] == ["draw", "move_plot"]


def test_keyword_list_and_hero_words_become_filters() -> None:
    (clause,) = parse_formal_line(
        "on_play: destroy(all, side=invader, keyword in [Robot, Tank], zone=chosen, power<=3)"
    )
    assert clause.effects[0].filter == Filter(
        side="invader", keywords=("Robot", "Tank"), zone="chosen", power_le=3
    )
    (hero,) = parse_formal_line("on_play: destroy(1, side=mankind, hero, upright)")
    assert hero.effects[0].filter == Filter(side="mankind", hero=True, hero_state="upright")


def test_choose_one_has_two_branches() -> None:
    (clause,) = parse_formal_line(
        "activated[discard 2]: choose_one(remove_zone_token(chosen, 1) / "
        "move_card(1, side=mankind, category=defender, not hero, to=chosen))"
    )
    first, second = clause.effects[0].branches
    assert first == Effect("remove_zone_token", zone="chosen", amount=1)
    assert second.filter == Filter(side="mankind", categories=("defender",), hero=False)
    assert second.to == "chosen"


def test_self_power_tokens_carry_their_cap() -> None:
    (clause,) = parse_formal_line("start_of_turn: add_power_token(self, 1, max=3)")
    assert clause.effects[0] == Effect("add_power_token", count="self", amount=1, max=3)


def test_static_zone_power_mod_and_temporary_one_differ() -> None:
    (static,) = parse_formal_line("static: zone_power_mod(this, -2)")
    assert static.statics == (Static("zone_power_mod", amount=-2),)
    (temporary,) = parse_formal_line("enable: zone_power_mod(each, +2, until=end_of_next_attack)")
    assert temporary.effects[0] == Effect(
        "zone_power_mod", zone="each", amount=2, until="end_of_next_attack"
    )


def test_cost_mod_reads_signed_parts() -> None:
    (clause,) = parse_formal_line("static: cost_mod(side=mankind, category=location, discard=-1)")
    assert clause.statics[0] == Static(
        "cost_mod", filter=Filter(side="mankind", categories=("location",)), discard=-1
    )


@pytest.mark.parametrize(
    "line",
    [
        "destroy(1)",  # no timing
        "on_play: obliterate(1)",  # unknown primitive
        "on_play: destroy(1, side=aliens)",  # unknown side
        "on_play: move_plot(up)",  # not a number
        "static: power_mod(+1, until=end_of_turn)",  # a static has no duration
        "activated[pay 3]: shield(1)",  # unknown cost
        "on_play: destroy(1, category=spaceship)",  # unknown category
    ],
)
def test_malformed_lines_are_refused(line: str) -> None:
    with pytest.raises(FormalLineError):
        parse_formal_line(line)
