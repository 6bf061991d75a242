"""Servers for the load scenarios: real ``skirmish serve`` processes, the baseline, nginx.

Why separate processes: CPU-seconds and RSS are read from /proc/<pid>, so each worker must
be its own process, started the way production starts it (``app.cli serve``: migrations,
then uvicorn). Everything listens on loopback, runs in its own process group and is
killed when the scenario ends.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[1]
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
APP_ROOT = ROOT  # where servers run from: a snapshot of the tree for "before" figures
LOGS = ROOT / "var" / "bench" / "logs"
PEPPER = "bench-pepper-not-secret"
POSTGRES_ADMIN = "postgresql://postgres@127.0.0.1:5432/test"

# Abuse limits are per client IP, and every bench socket comes from 127.0.0.1.
LIFTED_LIMITS = {
    "SKIRMISH_LIMITS__RATE_PER_SECOND": "1000",
    "SKIRMISH_LIMITS__RATE_BURST": "1000",
    "SKIRMISH_LIMITS__IP_RATE_PER_SECOND": "100000",
    "SKIRMISH_LIMITS__IP_RATE_BURST": "100000",
    "SKIRMISH_LIMITS__JOIN_RATE_PER_SECOND": "100000",
    "SKIRMISH_LIMITS__JOIN_RATE_BURST": "100000",
    "SKIRMISH_LIMITS__MAX_SOCKETS_PER_IP": "100000",
    "SKIRMISH_LIMITS__MAX_OPEN_MATCHES_PER_CREATOR": "100000",
}


def free_port() -> int:
    import socket

    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


@dataclass
class Process:
    """One child in its own process group; ``http`` answers /readyz once it is up."""

    name: str
    command: list[str]
    env: dict[str, str]
    log: Path
    port: int
    proc: subprocess.Popen[bytes] | None = field(default=None, init=False)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def pid(self) -> int:
        assert self.proc is not None
        return self.proc.pid

    def start(self, ready_path: str | None = "/readyz", limit: float = 60.0) -> Process:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                self.command,
                cwd=APP_ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + limit
        while ready_path is not None:
            if self.proc.poll() is not None:
                raise RuntimeError(f"{self.name} exited with {self.proc.returncode}: {self.log}")
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(self.http + ready_path, timeout=1).status_code == 200:
                    break
            if time.monotonic() > deadline:
                raise RuntimeError(f"{self.name} not ready within {limit} s")
            time.sleep(0.1)
        return self

    def kill9(self) -> None:
        """SIGKILL the process itself (not the group): the crash of S4."""
        if self.proc is not None and self.proc.poll() is None:
            os.kill(self.proc.pid, signal.SIGKILL)

    def stop(self) -> None:
        """Stop the group, then keep its log under var/bench/logs (the workdir is temporary)."""
        if self.proc is not None and self.proc.poll() is None:
            for sig, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.proc.pid, sig)
                with contextlib.suppress(subprocess.TimeoutExpired):
                    self.proc.wait(timeout=grace)
                    break
        if self.log.exists():
            LOGS.mkdir(parents=True, exist_ok=True)
            stamp = time.strftime("%H%M%S")
            shutil.copyfile(self.log, LOGS / f"{stamp}-{self.name}-{self.port}.log")


def skirmish_worker(
    workdir: Path,
    database_url: str,
    name: str = "skirmish",
    deflate: bool = True,
    bus: dict[str, str] | None = None,
    behind_proxy: bool = False,
) -> Process:
    port = free_port()
    env = {
        **os.environ,
        **LIFTED_LIMITS,
        **(bus or {}),
        "SKIRMISH_ENVIRONMENT": "test",
        "SKIRMISH_SECURITY__SEAT_SECRET_PEPPER": PEPPER,
        "SKIRMISH_DATABASE__URL": database_url,
        "SKIRMISH_OBSERVABILITY__LOG_LEVEL": "warning",
        "SKIRMISH_OBSERVABILITY__ACCESS_LOG": "false",
        "SKIRMISH_SERVER__WS_PER_MESSAGE_DEFLATE": "true" if deflate else "false",
    }
    args = ["serve", "--port", str(port)]
    if behind_proxy:
        args += ["--proxy-headers", "--forwarded-allow-ips", "127.0.0.1"]
    command = [sys.executable, "-m", "app.cli", *args]
    return Process(name, command, env, workdir / f"{name}.log", port)


def baseline_server(workdir: Path, view_bytes: int, deflate: bool = True) -> Process:
    port = free_port()
    command = [
        sys.executable,
        str(ROOT / "bench" / "baseline.py"),
        "--port",
        str(port),
        "--view-bytes",
        str(view_bytes),
    ] + ([] if deflate else ["--no-deflate"])
    return Process("baseline", command, dict(os.environ), workdir / "baseline.log", port)


def nginx_proxy(workdir: Path, upstreams: list[str]) -> Process:
    """Debian's nginx with the repo's own config, its upstreams pointed at our workers."""
    from tests.deploy import proxy_config  # the one renderer of deploy/nginx/skirmish.conf

    port = free_port()
    prefix = workdir / "nginx"
    prefix.mkdir(exist_ok=True)
    site = prefix / "skirmish.conf"
    site.write_text(
        proxy_config.render(proxy_config.REPO_CONFIG.read_text(), upstreams, f"127.0.0.1:{port}")
    )
    conf = prefix / "nginx.conf"
    main = proxy_config.main_config(prefix, site, as_root=os.geteuid() == 0)
    conf.write_text(main.replace("worker_connections 512", "worker_connections 8192"))
    command = [
        NGINX,
        "-p",
        str(prefix),
        "-c",
        str(conf),
        "-e",
        str(prefix / "error.log"),
        "-g",
        "daemon off;",
    ]
    return Process("nginx", command, dict(os.environ), prefix / "stdout.log", port)


@contextlib.contextmanager
def postgres_database() -> Iterator[str]:
    """A fresh PostgreSQL database for one scenario, dropped afterwards."""
    import asyncio

    import asyncpg

    name = f"skirmish_bench_{uuid.uuid4().hex[:10]}"

    async def admin(sql: str) -> None:
        conn = await asyncpg.connect(POSTGRES_ADMIN)
        try:
            await conn.execute(sql)
        finally:
            await conn.close()

    asyncio.run(admin(f'CREATE DATABASE "{name}"'))
    try:
        yield f"postgresql+asyncpg://postgres@127.0.0.1:5432/{name}"
    finally:
        asyncio.run(admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))


def redis_bus() -> dict[str, str]:
    """The shared Redis on 6379, on a channel prefix of our own."""
    return {
        "SKIRMISH_BUS__BACKEND": "redis",
        "SKIRMISH_BUS__URL": "redis://127.0.0.1:6379/0",
        "SKIRMISH_BUS__CHANNEL": f"bench{uuid.uuid4().hex[:8]}",
        "SKIRMISH_BUS__RETRY_SECONDS": "0.2",
    }
