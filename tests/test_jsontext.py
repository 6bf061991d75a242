"""app/jsontext.py: orjson speed without changing what the text parses to."""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from app import jsontext

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(1 << 80), max_value=1 << 80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_dumps_parses_back_to_what_json_would(value: object) -> None:
    assert json.loads(jsontext.dumps(value)) == json.loads(json.dumps(value))


@given(json_values)
def test_loads_reads_what_json_reads(value: object) -> None:
    text = json.dumps(value)
    assert jsontext.loads(text) == json.loads(text)


@pytest.mark.parametrize("number", [(1 << 64), (1 << 64) - 1, -(1 << 63) - 1, 10**30])
def test_integers_beyond_64_bits_stay_integers(number: int) -> None:
    parsed = jsontext.loads(jsontext.dumps({"n": number}))
    assert parsed == {"n": number}
    assert isinstance(parsed["n"], int)


def test_non_string_keys_become_strings_as_in_json() -> None:
    assert jsontext.loads(jsontext.dumps({1: "a"})) == {"1": "a"}


def test_non_ascii_text_is_kept_verbatim() -> None:
    assert jsontext.dumps({"name": "Мир"}) == '{"name":"Мир"}'
