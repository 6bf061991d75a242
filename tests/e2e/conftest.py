"""Browser tests: the real server in a subprocess, driven by headless Chromium (Playwright).

One server (``python -m app.cli serve``, the production entry point) and one browser per
session; each test opens its own browser contexts, so storage and sockets never leak
between tests. Chromium comes from Debian (/usr/bin/chromium); when it or Playwright is
missing the tests skip with a reason naming it, and fail instead under CI=true
(``require_service``, DESIGN.md §8).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.support.services import free_port, require_service

REPO = Path(__file__).resolve().parents[2]
CHROMIUM = os.environ.get("SKIRMISH_CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
DESKTOP = {"width": 1280, "height": 900}
PHONE = {"width": 390, "height": 844}


def require_chromium() -> None:
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        require_service(
            "chromium", False, "Playwright for Python is not installed (pip install playwright)"
        )
    require_service(
        "chromium",
        Path(CHROMIUM).is_file() and os.access(CHROMIUM, os.X_OK),
        f"{CHROMIUM} not found (apt-get install chromium)",
    )


class E2EServer:
    """``skirmish serve`` on a free loopback port with its own SQLite file."""

    def __init__(self, workdir: Path) -> None:
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = workdir / "server.log"
        env = {
            **os.environ,
            "SKIRMISH_ENVIRONMENT": "test",
            "SKIRMISH_SECURITY__SEAT_SECRET_PEPPER": "e2e-pepper-not-secret",
            "SKIRMISH_SECURITY__ALLOWED_ORIGINS": json.dumps([self.url]),
            "SKIRMISH_DATABASE__URL": f"sqlite+aiosqlite:///{workdir / 'e2e.db'}",
            "SKIRMISH_SERVER__STATIC_DIR": str(REPO / "static"),
            # a scripted player clicks faster than a person: keep the limiter out of the way
            "SKIRMISH_LIMITS__RATE_PER_SECOND": "100",
            "SKIRMISH_LIMITS__RATE_BURST": "200",
            # every page of every e2e test shares 127.0.0.1: lift the per-address budgets too
            "SKIRMISH_LIMITS__IP_RATE_PER_SECOND": "1000",
            "SKIRMISH_LIMITS__IP_RATE_BURST": "2000",
            "SKIRMISH_LIMITS__JOIN_RATE_PER_SECOND": "100",
            "SKIRMISH_LIMITS__JOIN_RATE_BURST": "1000",
            # a bot opponent answers quickly and searches briefly, so a whole game fits a test
            "SKIRMISH_BOTS__DELAY_SECONDS": "0.05",
            "SKIRMISH_BOTS__FOLLOWUP_DELAY_SECONDS": "0",
            "SKIRMISH_BOTS__BUDGET_SECONDS": "0.2",
            "SKIRMISH_BOTS__BUDGET_ITERATIONS": "20",
        }
        self._log = self.log_path.open("w")
        self.process = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "app.cli",
                "serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.port),
            ],
            cwd=REPO,
            env=env,
            stdout=self._log,
            stderr=subprocess.STDOUT,
        )

    def wait_ready(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                break
            try:
                with urllib.request.urlopen(f"{self.url}/healthz", timeout=1) as response:
                    if response.status == 200:
                        return
            except (urllib.error.URLError, OSError):
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"the e2e server did not start:\n{self.log_path.read_text()[-3000:]}")

    def ws_url(self, match_id: str) -> str:
        return f"ws://127.0.0.1:{self.port}/ws/matches/{match_id}"

    def api(self, method: str, path: str, body: dict[str, Any] | None = None) -> Any:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            f"{self.url}/api{path}",
            data=data,
            method=method,
            headers={"Content-Type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._log.close()


@pytest.fixture(scope="session")
def e2e_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[E2EServer]:
    require_chromium()
    server = E2EServer(tmp_path_factory.mktemp("e2e"))
    server.wait_ready()
    yield server
    server.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    """Module-scoped: sync Playwright runs an event loop in this thread while it is open,
    which would break every async test collected after the e2e modules."""
    require_chromium()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Any, e2e_server: E2EServer) -> Iterator[Any]:
    """``new_page(**context_options)``: a page in a fresh context (own storage, own sockets).

    Uncaught page errors fail the test: the client must not throw while playing.
    """
    contexts: list[Any] = []
    errors: list[str] = []

    def make(**options: Any) -> Any:
        options.setdefault("viewport", DESKTOP)
        options.setdefault("locale", "en-GB")
        context = browser.new_context(base_url=e2e_server.url, **options)
        context.set_default_timeout(10_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, f"uncaught errors in the page: {errors}"
