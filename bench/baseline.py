"""The bare fan-out baseline: the same protocol subset, no rules, no database.

Why: "deliveries per server CPU-second" means little alone. This server runs on the same
stack as Skirmish (Starlette WebSockets on uvicorn, the same WebSocket implementation,
frame-size limit, ping and per-message-deflate settings) and speaks just enough of
docs/protocol.md for bench/load.py to drive it unchanged: create and join over REST,
``hello`` → ``welcome`` + ``state``, ``act`` → ``ack`` + one ``state`` frame per socket.
Each version's three frames (two seats, spectators) are built by string formatting around
one pre-encoded board, so what is left is the cost of receiving, acknowledging and fanning
out. The ratio of Skirmish's deliveries per CPU-second to this one's is the price of rules,
database and rendering.

The board is a real Invaders spectator view (random play from a fixed seed until the view
is at least ``--view-bytes`` long), so frames have the size and the compressibility of real
ones. Seats alternate: the seat to act is offered ``[{"type": "pass"}]``.

    python bench/baseline.py --port 8100 --view-bytes 17000
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import secrets
import sys
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.realtime.compression import Encoded

SEATS = ("mankind", "invader")
QUEUE_FRAMES = 256  # as Skirmish's send_queue_frames
PASS = '[{"type":"pass"}]'


def board_text(min_bytes: int, seed: int = 7) -> str:
    """A real spectator view of a game in progress, JSON-encoded, minus legal actions."""
    from app.games import invaders as game

    rng = random.Random(seed)
    state = game.setup(seed, {})
    text = ""
    for _ in range(2_000):
        view = game.view(state, None)
        view.pop("legal_actions", None)
        text = json.dumps(view, separators=(",", ":"), ensure_ascii=False)
        if len(text) >= min_bytes or game.outcome(state) is not None:
            break
        seat = next(iter(game.active_seats(state)))
        state = game.apply(state, seat, rng.choice(game.legal_actions(state, seat))).state
    return text


@dataclass(eq=False)
class Socket:
    seat: str | None
    compress: bool = False  # as Skirmish: large frames compressed once per audience
    queue: asyncio.Queue[str | bytes | None] = field(
        default_factory=lambda: asyncio.Queue(QUEUE_FRAMES)
    )


@dataclass
class Room:
    secrets: dict[str, str] = field(default_factory=dict)  # secret -> seat
    version: int = 0
    sockets: list[Socket] = field(default_factory=list)
    acks: dict[str, int] = field(default_factory=dict)


class Baseline:
    def __init__(self, board: str) -> None:
        self.board = board
        self.rooms: dict[str, Room] = {}

    def frames(self, room: Room) -> dict[str | None, Encoded]:
        """The state frame of the room's version for each audience (built once each)."""
        actor = SEATS[room.version % 2]
        head = f'{{"type":"state","version":{room.version},"view":{{"legal_actions":'
        tail = f',"board":{self.board}}},"events":[]}}'
        out: dict[str | None, Encoded] = {None: Encoded(head + "[]" + tail)}
        for seat in SEATS:
            out[seat] = Encoded(head + (PASS if seat == actor else "[]") + tail)
        return out

    async def create(self, request: Request) -> JSONResponse:
        body = await request.json()
        match_id = str(uuid.uuid4())
        room = self.rooms[match_id] = Room()
        seat = body.get("seat") or SEATS[0]
        return self.grant(match_id, room, seat)

    async def join(self, request: Request) -> JSONResponse:
        match_id = request.path_params["match_id"]
        room = self.rooms[match_id]
        taken = set(room.secrets.values())
        seat = next(s for s in SEATS if s not in taken)
        return self.grant(match_id, room, seat)

    @staticmethod
    def grant(match_id: str, room: Room, seat: str) -> JSONResponse:
        secret = secrets.token_urlsafe(16)
        room.secrets[secret] = seat
        body = {"match_id": match_id, "seat": seat, "secret": secret, "ws": f"/ws/{match_id}"}
        return JSONResponse(body, status_code=201)

    async def ready(self, _request: Request) -> JSONResponse:
        return JSONResponse({"status": "ready"})

    async def socket(self, websocket: WebSocket) -> None:
        await websocket.accept()
        room = self.rooms[websocket.path_params["match_id"]]
        hello = json.loads(await websocket.receive_text())
        member = Socket(room.secrets.get(hello.get("secret") or ""), bool(hello.get("compress")))
        sender = asyncio.create_task(self.drain(websocket, member))
        member.queue.put_nowait(json.dumps({"type": "welcome", "seat": member.seat}))
        member.queue.put_nowait(self.frames(room)[member.seat].for_socket(member.compress))
        room.sockets.append(member)
        try:
            while True:
                frame = json.loads(await websocket.receive_text())
                if frame.get("type") == "act":
                    self.act(room, member, frame)
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            room.sockets.remove(member)
            sender.cancel()

    def act(self, room: Room, member: Socket, frame: dict[str, object]) -> None:
        client_id = str(frame["id"])
        if client_id not in room.acks:
            room.version += 1
            room.acks[client_id] = room.version
            ack = json.dumps({"type": "ack", "id": client_id, "version": room.version})
            member.queue.put_nowait(ack)
            rendered = self.frames(room)
            for other in room.sockets:
                with contextlib.suppress(asyncio.QueueFull):
                    other.queue.put_nowait(rendered[other.seat].for_socket(other.compress))
        else:
            ack = json.dumps({"type": "ack", "id": client_id, "version": room.acks[client_id]})
            member.queue.put_nowait(ack)

    @staticmethod
    async def drain(websocket: WebSocket, member: Socket) -> None:
        while (frame := await member.queue.get()) is not None:
            try:
                if isinstance(frame, bytes):
                    await websocket.send_bytes(frame)
                else:
                    await websocket.send_text(frame)
            except Exception:
                return


def create_app(board: str) -> Starlette:
    server = Baseline(board)
    routes = [
        Route("/api/matches", server.create, methods=["POST"]),
        Route("/api/matches/{match_id}/seats", server.join, methods=["POST"]),
        Route("/readyz", server.ready),
        WebSocketRoute("/ws/matches/{match_id}", server.socket),
    ]
    return Starlette(routes=routes)


def main(argv: list[str] | None = None) -> None:
    from app.config import LimitSettings, ServerSettings

    parser = argparse.ArgumentParser(description="bare WebSocket fan-out baseline")
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--view-bytes", type=int, default=17_000)
    parser.add_argument("--no-deflate", action="store_true")
    parser.add_argument(
        "--ws",
        default=ServerSettings().ws_protocol,
        help="uvicorn's WebSocket implementation; the same as Skirmish's by default",
    )
    args = parser.parse_args(argv)
    limits = LimitSettings()
    uvicorn.run(
        create_app(board_text(args.view_bytes)),
        host="127.0.0.1",
        port=args.port,
        ws=args.ws,
        ws_max_size=limits.max_frame_bytes * 16,
        ws_ping_interval=limits.heartbeat_seconds,
        ws_ping_timeout=limits.heartbeat_seconds,
        ws_per_message_deflate=not args.no_deflate,
        log_level="warning",
        access_log=False,
    )


if __name__ == "__main__":
    main()
