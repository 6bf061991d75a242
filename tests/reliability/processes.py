"""Processes a fault test may kill or restart: server workers, PostgreSQL, Redis.

Each fault test starts its own PostgreSQL cluster or Redis server on a free loopback
port in a temporary folder, so restarting it never disturbs the shared services.
"""

from __future__ import annotations

import glob
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Mapping
from pathlib import Path

from tests.support.services import free_port, port_open

ROOT = Path(__file__).resolve().parents[2]

LOAD_LIMITS = {
    # Every test client comes from 127.0.0.1: the per-IP limits must not get in the way.
    "SKIRMISH_LIMITS__IP_RATE_BURST": "1000000",
    "SKIRMISH_LIMITS__JOIN_RATE_BURST": "1000000",
    "SKIRMISH_LIMITS__MAX_SOCKETS_PER_IP": "100000",
    "SKIRMISH_LIMITS__MAX_OPEN_MATCHES_PER_CREATOR": "100000",
    "SKIRMISH_LIMITS__RATE_BURST": "1000",
    "SKIRMISH_LIMITS__HEARTBEAT_SECONDS": "1",
}


def wait_for_port(port: int, timeout: float, alive: subprocess.Popen[bytes] | None = None) -> None:
    deadline = time.monotonic() + timeout
    while not port_open(port):
        if time.monotonic() > deadline or (alive is not None and alive.poll() is not None):
            raise RuntimeError(f"nothing listens on port {port}")
        time.sleep(0.05)


class Worker:
    """``skirmish serve`` with the test games, as a child process on its own port."""

    def __init__(self, database_url: str, env: Mapping[str, str] | None = None) -> None:
        self.port = free_port()
        self.env = {
            **os.environ,
            "SKIRMISH_DATABASE__URL": database_url,
            "SKIRMISH_DATABASE__MIGRATE_ON_START": "false",
            "SKIRMISH_ENVIRONMENT": "development",
            "SKIRMISH_OBSERVABILITY__LOG_LEVEL": "warning",
            **LOAD_LIMITS,
            **(env or {}),
        }
        self.proc: subprocess.Popen[bytes] | None = None

    def start(self) -> Worker:
        command = [sys.executable, "-m", "tests.reliability.serve", "serve"]
        self.proc = subprocess.Popen(
            [*command, "--port", str(self.port)],
            cwd=ROOT,
            env=self.env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port, 20, self.proc)
        return self

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, match_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/matches/{match_id}"

    def signal(self, sig: int) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(sig)

    def wait(self, timeout: float = 20) -> int:
        assert self.proc is not None
        return self.proc.wait(timeout=timeout)

    def kill(self) -> None:
        self.signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait(timeout=10)


def postgres_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if not found:
        raise FileNotFoundError(name)
    return found[-1]


def as_postgres(command: list[str]) -> list[str]:
    """PostgreSQL refuses to run as root: run its tools as the postgres user then."""
    if os.geteuid() == 0:
        return ["runuser", "-u", "postgres", "--", *command]
    return command


class PostgresCluster:
    """A throwaway cluster (initdb) on a free port, trust auth, that a test may restart."""

    def __init__(self) -> None:
        self.port = free_port()
        # Its own folder under /tmp: the postgres user cannot enter pytest's root-only one.
        self.root = Path(tempfile.mkdtemp(prefix="skirmish-pg-"))
        self.folder = self.root / "pgdata"
        self.socket_dir = self.root / "pgsock"

    @property
    def url(self) -> str:
        return f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"

    def init(self) -> PostgresCluster:
        for path in (self.root, self.folder, self.socket_dir):
            path.mkdir(exist_ok=True)
            if os.geteuid() == 0:
                shutil.chown(path, "postgres", "postgres")
        subprocess.run(
            as_postgres(
                [
                    postgres_bin("initdb"),
                    "-D",
                    str(self.folder),
                    "-A",
                    "trust",
                    "-U",
                    "postgres",
                    "--no-sync",
                ]
            ),
            check=True,
            stdout=subprocess.DEVNULL,
        )
        return self

    def start(self) -> None:
        options = f"-p {self.port} -k {self.socket_dir} -c listen_addresses=127.0.0.1 -c fsync=off"
        subprocess.run(
            as_postgres(
                [
                    postgres_bin("pg_ctl"),
                    "-D",
                    str(self.folder),
                    "-o",
                    options,
                    "-w",
                    "-l",
                    str(self.folder / "log"),
                    "start",
                ]
            ),
            check=True,
            stdout=subprocess.DEVNULL,
        )
        wait_for_port(self.port, 20)

    def remove(self) -> None:
        self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)

    def stop(self, mode: str = "fast") -> None:
        subprocess.run(
            as_postgres([postgres_bin("pg_ctl"), "-D", str(self.folder), "-m", mode, "-w", "stop"]),
            check=False,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )


class RedisServer:
    """A private redis-server on a free port, without persistence, that a test may restart."""

    def __init__(self, folder: Path) -> None:
        self.port = free_port()
        self.folder = folder
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        binary = shutil.which("redis-server")
        if binary is None:
            raise FileNotFoundError("redis-server")
        self.proc = subprocess.Popen(
            [
                binary,
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
                "--dir",
                str(self.folder),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.port, 10, self.proc)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
