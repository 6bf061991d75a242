"""Hypothesis-generated WebSocket frames against a live server.

Random JSON, wrong types, huge numbers, unicode, binary, unknown actions, actions for the
other seat, replayed ids, oversized frames: the server never answers ``internal_error``,
never drops the socket, a refused frame leaves the match exactly as it was (the stored
snapshot, byte for byte), and the match still plays to its end and replays afterwards.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
import uuid
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from websockets.sync.client import ClientConnection, connect

from app.games import registry
from tests.support.server import LiveServer

EXAMPLES = 300
START = 1000
ANSWERS = ("ack", "error", "pong")

json_scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**80), max_value=2**80)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=30)
)
json_values = st.recursive(
    json_scalars,
    lambda inner: (
        st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4)
    ),
    max_leaves=12,
)
odd_numbers = st.sampled_from([-1, 0, 2**31, 2**63, 10**30, -(10**30), 1.5, 1e308, True])


@dataclass
class Table:
    """The fuzzed match: its sockets, what was acknowledged, and the database file."""

    server: LiveServer
    match_id: str
    db_path: str
    sockets: dict[str, ClientConnection]
    version: int = 0
    acked: dict[str, tuple[str, int]] = field(default_factory=dict)  # id -> (seat, version)
    codes: Counter[str] = field(default_factory=Counter)
    kinds: Counter[str] = field(default_factory=Counter)

    def to_move(self) -> str:
        return "north" if self.version % 2 == 0 else "south"

    def snapshot(self) -> tuple[int, str, str]:
        with sqlite3.connect(self.db_path) as db:
            row = db.execute(
                "SELECT version, snapshot, status FROM matches WHERE id = ?", (self.match_id,)
            ).fetchone()
            count = db.execute(
                "SELECT count(*) FROM actions WHERE match_id = ?", (self.match_id,)
            ).fetchone()[0]
        assert count == row[0]
        return row[0], row[1], row[2]


def answer(ws: ClientConnection) -> dict[str, Any]:
    """The answer to the frame just sent, skipping state and presence pushes."""
    while True:
        frame = json.loads(ws.recv(timeout=5))
        if frame["type"] in ANSWERS:
            return frame


def http_json(server: LiveServer, method: str, path: str, body: Any = None) -> Any:
    import httpx

    response = httpx.request(method, f"{server.http}{path}", json=body, timeout=10)
    response.raise_for_status()
    return response.json()


@pytest.fixture
def table(serve: Callable[..., LiveServer], sqlite_url: str) -> Iterator[Table]:
    server = serve(rate_burst=100_000, ip_rate_burst=100_000, join_rate_burst=1000)
    made = http_json(
        server,
        "POST",
        "/api/matches",
        {"game": "ballast", "options": {"start": START}, "seat": "north"},
    )
    joined = http_json(server, "POST", f"/api/matches/{made['match_id']}/seats", {})
    secrets = {"north": made["secret"], "south": joined["secret"], "spectator": None}
    with contextlib.ExitStack() as stack:
        sockets = {}
        for who, secret in secrets.items():
            ws = stack.enter_context(
                connect(server.ws(made["match_id"]), max_size=2**22, close_timeout=1)
            )
            ws.send(json.dumps({"type": "hello", "secret": secret, "version": None}))
            sockets[who] = ws
        db_path = sqlite_url.removeprefix("sqlite+aiosqlite:///")
        yield Table(server, made["match_id"], db_path, sockets)


def frames(table_version: Callable[[], int]) -> st.SearchStrategy[tuple[str, str | bytes]]:
    """(kind, frame) pairs; ``kind`` names the family for the figures."""
    act = st.fixed_dictionaries(
        {"type": st.just("act"), "id": json_values, "version": json_values, "action": json_values}
    )
    unknown_action = st.builds(
        lambda t, extra: {
            "type": "act",
            "id": str(uuid.uuid4()),
            "version": table_version(),
            "action": {"type": t, **extra},
        },
        st.text(max_size=20),
        st.dictionaries(st.text(max_size=8), json_scalars, max_size=3),
    )
    huge = st.builds(
        lambda v, n: {
            "type": "act",
            "id": str(uuid.uuid4()),
            "version": v,
            "action": {"type": "take", "amount": n},
        },
        odd_numbers | st.just(0),
        odd_numbers,
    )
    text = st.text(st.characters(exclude_categories=["Cs"]), max_size=200)
    return st.one_of(
        json_values.map(lambda v: ("random_json", json.dumps(v))),
        act.map(lambda v: ("wrong_types", json.dumps(v))),
        unknown_action.map(lambda v: ("unknown_action", json.dumps(v))),
        huge.map(lambda v: ("huge_numbers", json.dumps(v))),
        text.map(lambda v: ("unicode_text", v)),
        st.binary(max_size=200).map(lambda v: ("binary", v)),
        st.integers(4097, 20_000).map(lambda n: ("oversized", json.dumps({"type": "x" * n}))),
        st.just(("hello_again", json.dumps({"type": "hello", "secret": None, "version": None}))),
        st.just(("other_seat", "")),
        st.just(("replayed_id", "")),
        st.just(("legal", "")),
    )


def special(table: Table, kind: str, amount: int) -> tuple[str, str, str]:
    """Frames that need the table: another seat's move, a replayed id, a legal move.

    Returns (kind, sender, frame); a replay with nothing acknowledged yet is a legal move.
    """
    action = {"type": "take", "amount": amount}
    if kind == "other_seat":
        other = "south" if table.to_move() == "north" else "north"
        frame = {"type": "act", "id": str(uuid.uuid4()), "version": table.version, "action": action}
        return kind, other, json.dumps(frame)
    if kind == "replayed_id" and table.acked:
        old_id = sorted(table.acked)[amount % len(table.acked)]
        seat = table.acked[old_id][0]
        frame = {"type": "act", "id": old_id, "version": table.version, "action": action}
        return kind, seat, json.dumps(frame)
    frame = {"type": "act", "id": str(uuid.uuid4()), "version": table.version, "action": action}
    return "legal", table.to_move(), json.dumps(frame)


@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    derandomize=True,
)
@given(data=st.data())
def fuzz_frames(table: Table, data: st.DataObject) -> None:
    """One example: a frame from one socket, its answer, and the match before and after."""
    kind, frame = data.draw(frames(lambda: table.version))
    who = data.draw(st.sampled_from(["north", "south", "spectator"]))
    if kind in ("other_seat", "replayed_id", "legal"):
        kind, who, frame = special(table, kind, data.draw(st.integers(1, 3)))
    table.kinds[kind] += 1
    before = table.snapshot()
    ws = table.sockets[who]
    ws.send(frame)
    reply = answer(ws)
    after = table.snapshot()
    if reply["type"] == "error":
        table.codes[reply["code"]] += 1
        assert reply["code"] != "internal_error", (kind, frame[:200])
        assert after == before, (kind, frame[:200], reply)
    elif reply["type"] == "ack":
        table.codes["ack"] += 1
        if reply["id"] in table.acked:  # a replay: the original ack, no second effect
            assert (who, reply["version"]) == table.acked[reply["id"]]
            assert after == before
        else:
            assert kind == "legal" and reply["version"] == table.version + 1
            table.acked[reply["id"]] = (who, reply["version"])
            table.version += 1
            assert after[0] == table.version
    else:
        assert kind in ("random_json", "unicode_text", "wrong_types") or reply["type"] == "pong"
        assert after == before
    if data.draw(st.integers(0, 49)) == 0:  # now and then: every socket still answers
        for other in table.sockets.values():
            other.send('{"type":"ping"}')
            assert answer(other)["type"] == "pong"


def finish(table: Table) -> None:
    """Play the match out normally after the fuzzing."""
    while table.snapshot()[2] == "active":
        ws = table.sockets[table.to_move()]
        left = json.loads(table.snapshot()[1])["counter"]
        frame = {
            "type": "act",
            "id": str(uuid.uuid4()),
            "version": table.version,
            "action": {"type": "take", "amount": min(3, left)},
        }
        ws.send(json.dumps(frame))
        reply = answer(ws)
        assert reply["type"] == "ack", reply
        table.version += 1


def test_fuzzed_frames_change_nothing_and_the_match_still_finishes(
    table: Table, figures: Callable[..., None]
) -> None:
    fuzz_frames(table)  # type: ignore[call-arg]
    fuzzed_version = table.version
    finish(table)
    version, snapshot, status = table.snapshot()
    assert status == "finished"
    game = registry.get("ballast")
    with sqlite3.connect(table.db_path) as db:
        seed, options = db.execute(
            "SELECT seed, options FROM matches WHERE id = ?", (table.match_id,)
        ).fetchone()
        log = db.execute(
            "SELECT seq, seat, payload FROM actions WHERE match_id = ? ORDER BY seq",
            (table.match_id,),
        ).fetchall()
    assert [seq for seq, _, _ in log] == list(range(1, version + 1))
    state = game.setup(seed, json.loads(options))
    for _, seat, payload in log:
        state = game.apply(state, seat, json.loads(payload)).state
    assert game.to_json(state) == json.loads(snapshot)
    figures(
        examples=EXAMPLES,
        frames_by_kind=dict(sorted(table.kinds.items())),
        answers_by_code=dict(sorted(table.codes.items())),
        internal_errors=table.codes["internal_error"],
        accepted_during_fuzz=fuzzed_version,
        final_version=version,
    )
