"""Real processes for deployment tests: Redis, ``skirmish serve`` workers, nginx.

Each runs in its own process group, on a free loopback port, with files under the
test's temp dir, and is always killed (group-wide) when the test ends. Nothing here
touches the machine's shared services: Redis is a private ``redis-server``.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import httpx

from tests.deploy import proxy_config
from tests.support.services import free_port, port_open
from tests.support.settings import TEST_PEPPER

ROOT = Path(__file__).resolve().parents[2]
NGINX = shutil.which("nginx") or "/usr/sbin/nginx"
REDIS = shutil.which("redis-server") or "/usr/bin/redis-server"


def wait_until(
    ready: Callable[[], bool], what: str, proc: subprocess.Popen[bytes], limit: float
) -> None:
    deadline = time.monotonic() + limit
    while not ready():
        if proc.poll() is not None:
            raise RuntimeError(f"{what} exited with {proc.returncode}")
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} was not ready within {limit} s")
        time.sleep(0.05)


def stop(proc: subprocess.Popen[bytes] | None) -> None:
    """SIGTERM the process group, then SIGKILL what is left."""
    if proc is None or proc.poll() is not None:
        return
    for sig, grace in ((signal.SIGTERM, 5.0), (signal.SIGKILL, 5.0)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        with contextlib.suppress(subprocess.TimeoutExpired):
            proc.wait(timeout=grace)
            return


@dataclass
class Service:
    """One child process and the files it logs to."""

    name: str
    command: list[str]
    log: Path
    env: dict[str, str] | None = None
    proc: subprocess.Popen[bytes] | None = field(default=None, init=False)

    def spawn(self) -> subprocess.Popen[bytes]:
        with self.log.open("ab") as out:
            self.proc = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=self.env,
                stdin=subprocess.DEVNULL,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,  # its own process group: killpg reaches children
            )
        return self.proc

    def stop(self) -> None:
        stop(self.proc)


class Redis(Service):
    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        command = [REDIS, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
                   "--appendonly", "no", "--dir", str(workdir)]  # fmt: skip
        super().__init__("redis", command, workdir / "redis.log")

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> Redis:
        proc = self.spawn()
        wait_until(lambda: port_open(self.port), "redis-server", proc, 10)
        return self


class Worker(Service):
    """``skirmish serve`` as the Dockerfile runs it: migrations first, behind a proxy."""

    def __init__(self, workdir: Path, index: int, database_url: str, redis_url: str) -> None:
        self.port = free_port()
        env = {
            **os.environ,
            "SKIRMISH_ENVIRONMENT": "test",
            "SKIRMISH_SECURITY__SEAT_SECRET_PEPPER": TEST_PEPPER,
            "SKIRMISH_DATABASE__URL": database_url,
            "SKIRMISH_BUS__BACKEND": "redis",
            "SKIRMISH_BUS__URL": redis_url,
            "SKIRMISH_BUS__RETRY_SECONDS": "0.2",
            "SKIRMISH_OBSERVABILITY__LOG_FORMAT": "json",
            # The test plays as fast as it can from one address: lift the abuse limits.
            "SKIRMISH_LIMITS__RATE_PER_SECOND": "1000",
            "SKIRMISH_LIMITS__RATE_BURST": "1000",
            "SKIRMISH_LIMITS__IP_RATE_PER_SECOND": "1000",
            "SKIRMISH_LIMITS__IP_RATE_BURST": "1000",
            "SKIRMISH_LIMITS__JOIN_RATE_PER_SECOND": "1000",
            "SKIRMISH_LIMITS__JOIN_RATE_BURST": "1000",
            "SKIRMISH_LIMITS__MAX_OPEN_MATCHES_PER_CREATOR": "100",
        }
        command = [sys.executable, "-m", "app.cli", "serve", "--port", str(self.port),
                   "--proxy-headers", "--forwarded-allow-ips", "127.0.0.1"]  # fmt: skip
        super().__init__(f"worker{index}", command, workdir / f"worker{index}.log", env)

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> Worker:
        proc = self.spawn()
        wait_until(self.ready, self.name, proc, 30)
        return self

    def ready(self) -> bool:
        try:
            return httpx.get(f"{self.http}/readyz", timeout=1).status_code == 200
        except httpx.HTTPError:
            return False

    def log_lines(self) -> list[str]:
        return self.log.read_text(errors="replace").splitlines()


class Nginx(Service):
    """Debian's nginx with the repo's proxy config, upstreams pointed at the workers."""

    def __init__(self, workdir: Path, upstreams: list[str]) -> None:
        self.port = free_port()
        prefix = workdir / "nginx"
        prefix.mkdir()
        site = prefix / "skirmish.conf"
        source = proxy_config.REPO_CONFIG.read_text()
        site.write_text(proxy_config.render(source, upstreams, f"127.0.0.1:{self.port}"))
        conf = prefix / "nginx.conf"
        conf.write_text(proxy_config.main_config(prefix, site, as_root=os.geteuid() == 0))
        command = [NGINX, "-p", str(prefix), "-c", str(conf), "-e", str(prefix / "error.log"),
                   "-g", "daemon off;"]  # fmt: skip
        super().__init__("nginx", command, prefix / "stdout.log")

    @property
    def http(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def ws(self, match_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/matches/{match_id}"

    def start(self) -> Nginx:
        proc = self.spawn()
        wait_until(lambda: port_open(self.port), "nginx", proc, 10)
        return self


@dataclass
class Stack:
    redis: Redis
    workers: list[Worker]
    proxy: Nginx


@contextlib.contextmanager
def running_stack(workdir: Path, database_url: str) -> Iterator[Stack]:
    """Redis, two workers (the first applies the migrations), nginx in front."""
    services: list[Service] = []
    try:
        redis = Redis(workdir).start()
        services.append(redis)
        workers = []
        for index in (1, 2):  # one after the other: the first migrates, the second finds head
            worker = Worker(workdir, index, database_url, redis.url)
            services.append(worker)
            workers.append(worker.start())
        proxy = Nginx(workdir, [f"127.0.0.1:{w.port}" for w in workers])
        services.append(proxy)
        yield Stack(redis, workers, proxy.start())
    finally:
        for service in reversed(services):
            service.stop()
