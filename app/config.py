"""All settings in one typed object, read from ``SKIRMISH_*`` environment variables.

Nested groups use ``__``: ``SKIRMISH_DATABASE__URL``, ``SKIRMISH_LIMITS__MAX_FRAME_BYTES``.
Nothing else in the code reads the environment; tests call ``get_settings.cache_clear()``.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, Field, SecretStr, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

PLACEHOLDER_PEPPER = "change-me"
REPO_ROOT = Path(__file__).resolve().parents[1]


class DatabaseSettings(BaseModel):
    """Where the truth lives: SQLite for one worker, PostgreSQL for several."""

    url: str = "sqlite+aiosqlite:///./var/skirmish.db"
    echo: bool = False
    migrate_on_start: bool = True


class SecuritySettings(BaseModel):
    """Seat secrets are stored as HMAC-SHA256(pepper, secret); the pepper never leaves here."""

    seat_secret_pepper: SecretStr = SecretStr(PLACEHOLDER_PEPPER)
    allowed_origins: list[str] = Field(
        default_factory=lambda: ["http://localhost:8000", "http://127.0.0.1:8000"]
    )
    allow_missing_origin: bool = True  # non-browser clients (bots, tests) send no Origin


class LimitSettings(BaseModel):
    """Protection for the WebSocket hot path."""

    max_frame_bytes: int = 4096
    rate_per_second: float = 10.0
    rate_burst: int = 30
    heartbeat_seconds: float = 20.0
    idle_timeout_seconds: float = 60.0
    send_queue_frames: int = 256
    resend_max_versions: int = 500
    # Per client IP (per worker): actions across all its sockets, joins, open sockets.
    ip_rate_per_second: float = 30.0
    ip_rate_burst: int = 90
    join_rate_per_second: float = 2.0  # hello frames, seat claims and match creations
    join_rate_burst: int = 40  # room for a NAT full of players reconnecting at once
    socket_join_burst: int = 5  # hello attempts one socket may make (secret guessing)
    max_sockets_per_ip: int = 64
    max_open_matches_per_creator: int = 10  # lobby or active matches created by one IP
    shutdown_grace_seconds: float = 10.0  # SIGTERM: time for in-flight actions to finish
    clock_tick_seconds: float = 1.0  # how often turn deadlines and absences are checked


class BusSettings(BaseModel):
    """Fan-out of "match M is at version v" between workers; memory means one worker.

    ``redis`` uses ``url``; ``postgresql`` uses LISTEN/NOTIFY on the database itself
    (``SKIRMISH_DATABASE__URL``), so it needs no extra service.
    """

    backend: Literal["memory", "redis", "postgresql"] = "memory"
    url: str = "redis://127.0.0.1:6379/0"  # used by the redis backend only
    channel: str = Field(default="skirmish", max_length=24)  # prefix: one channel per match
    retry_seconds: float = 0.5  # pause between reconnection attempts
    keepalive_seconds: float = 5.0  # a silent connection is probed this often


class ServerSettings(BaseModel):
    """How ``skirmish serve`` runs uvicorn (also flags of that command)."""

    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    proxy_headers: bool = False  # trust X-Forwarded-* (also: skirmish serve --proxy-headers)
    forwarded_allow_ips: str = "127.0.0.1"  # ...but only from these proxy addresses / CIDRs
    static_dir: Path = REPO_ROOT / "static"  # served at / when the folder exists
    # permessage-deflate compresses each frame again for each socket: most of the fan-out's
    # CPU (docs/benchmarks.md). Clients that ask in their hello get large frames compressed
    # once per audience instead (docs/protocol.md §3.4), so it is off by default.
    ws_per_message_deflate: bool = False
    # uvicorn's WebSocket implementation. The sans-I/O one writes frames straight to the
    # transport and keeps no tasks of its own per connection (the legacy "websockets" one
    # keeps three, plus a stream reader): less memory per socket and fewer hops per frame
    # (docs/benchmarks.md, session 4).
    ws_protocol: Literal["websockets-sansio", "websockets"] = "websockets-sansio"
    # Full garbage collections scan only objects made since the last one (app/gc_freeze.py):
    # survivors are frozen, and thawed every gc_thaw_seconds so dead cycles are reclaimed.
    gc_freeze: bool = True
    gc_thaw_seconds: float = Field(default=300.0, gt=0)


class BotSettings(BaseModel):
    """Computer opponents: a human-like pause before each move and a search budget."""

    delay_seconds: float = 0.6  # before the bot's first move after the opponent's
    followup_delay_seconds: float = 0.2  # between the bot's own consecutive decisions
    budget_seconds: float = 1.0  # thinking time of the strong level per decision
    budget_iterations: int = 200


class ObservabilitySettings(BaseModel):
    """Logs and metrics: JSON lines for log shippers, Prometheus text at /metrics."""

    log_format: Literal["json", "text"] = "json"
    log_level: Literal["debug", "info", "warning", "error"] = "info"
    access_log: bool = True
    metrics: bool = True  # serve /metrics (keep it off the public proxy)


class Settings(BaseSettings):
    """The whole configuration; see README for every variable."""

    model_config = SettingsConfigDict(
        env_prefix="SKIRMISH_", env_nested_delimiter="__", extra="ignore"
    )

    environment: Literal["development", "test", "production"] = "development"
    database: DatabaseSettings = Field(default_factory=DatabaseSettings)
    security: SecuritySettings = Field(default_factory=SecuritySettings)
    limits: LimitSettings = Field(default_factory=LimitSettings)
    bus: BusSettings = Field(default_factory=BusSettings)
    server: ServerSettings = Field(default_factory=ServerSettings)
    observability: ObservabilitySettings = Field(default_factory=ObservabilitySettings)
    bots: BotSettings = Field(default_factory=BotSettings)

    @model_validator(mode="after")
    def _refuse_placeholder_secrets(self) -> Settings:
        """A leaked default pepper would let anyone precompute seat hashes: refuse it in prod."""
        pepper = self.security.seat_secret_pepper.get_secret_value()
        if self.environment != "development" and pepper in ("", PLACEHOLDER_PEPPER):
            raise ValueError(
                "SKIRMISH_SECURITY__SEAT_SECRET_PEPPER must be set outside development"
            )
        return self


@lru_cache
def get_settings() -> Settings:
    """The process-wide settings, read once."""
    return Settings()


def ensure_sqlite_dir(url: str) -> None:
    """Create the folder of a file-based SQLite URL (./var by default) before connecting."""
    prefix = "sqlite+aiosqlite:///"
    if url.startswith(prefix) and ":memory:" not in url:
        Path(url.removeprefix(prefix)).parent.mkdir(parents=True, exist_ok=True)
