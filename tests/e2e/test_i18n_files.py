"""The translation files: every language has every key, and every card text (no browser)."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from app.games.invaders.catalog import CATALOG

I18N = Path(__file__).resolve().parents[2] / "static" / "i18n"
LANGUAGES = ("en", "nl", "de", "ru")


def flatten(tree: dict[str, Any], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in tree.items():
        if isinstance(value, dict):
            out.update(flatten(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value
    return out


def load(lang: str) -> dict[str, str]:
    return flatten(json.loads((I18N / f"{lang}.json").read_text(encoding="utf-8")))


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_language_has_the_english_keys_and_placeholders(lang: str) -> None:
    english, other = load("en"), load(lang)
    assert sorted(set(english) - set(other)) == []
    assert sorted(set(other) - set(english)) == []
    for key, text in english.items():
        wanted = set(re.findall(r"\{(\w+)\}", text))
        assert set(re.findall(r"\{(\w+)\}", other[key])) == wanted, key


@pytest.mark.parametrize("lang", LANGUAGES)
def test_every_card_and_strategy_text_is_translated(lang: str) -> None:
    texts = load(lang)
    for card_id in CATALOG.cards:
        assert texts.get(f"invaders.cards.{card_id}"), card_id
    for strategy_id in CATALOG.strategies:
        assert texts.get(f"invaders.strategies.{strategy_id}"), strategy_id


def test_english_card_texts_match_the_catalog() -> None:
    """A changed card text in cards.toml must be re-translated: this test names it."""
    texts = load("en")
    stale = [c.id for c in CATALOG.cards.values() if texts[f"invaders.cards.{c.id}"] != c.text]
    stale += [
        s.id for s in CATALOG.strategies.values() if texts[f"invaders.strategies.{s.id}"] != s.text
    ]
    assert stale == []
