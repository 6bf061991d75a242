"""One production-shaped stack per module: nginx → two workers → PostgreSQL + Redis."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.deploy.stack import NGINX, REDIS, Stack, running_stack
from tests.support.services import postgres_database, require_service


@pytest.fixture(scope="module")
def stack(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    require_service("nginx", os.access(NGINX, os.X_OK), "apt-get install -y nginx")
    require_service("redis", bool(shutil.which(REDIS) or os.access(REDIS, os.X_OK)),
                    "apt-get install -y redis-server")  # fmt: skip
    with postgres_database() as url:
        workdir: Path = tmp_path_factory.mktemp("deploy")
        with running_stack(workdir, url) as running:
            yield running
