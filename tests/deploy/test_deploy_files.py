"""The deployment files agree with the code: variable names, the proxy template."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from pydantic import BaseModel

from app.config import Settings
from tests.deploy import proxy_config

ROOT = Path(__file__).resolve().parents[2]
FILES = ["Dockerfile", "docker-compose.yml", "docs/deployment.md", "README.md"]
COMPOSE_ONLY = {"SKIRMISH_PEPPER", "SKIRMISH_PUBLIC_ORIGIN"}  # compose's own inputs
VARIABLE = re.compile(r"(?<![${])\bSKIRMISH_[A-Z0-9_]*[A-Z0-9]")


def setting_exists(variable: str) -> bool:
    """``SKIRMISH_GROUP__FIELD`` (or ``SKIRMISH_FIELD``) names a field of ``Settings``."""
    model: type[BaseModel] = Settings
    for part in variable.removeprefix("SKIRMISH_").lower().split("__"):
        field = model.model_fields.get(part)
        if field is None:
            return False
        annotation = field.annotation
        if isinstance(annotation, type) and issubclass(annotation, BaseModel):
            model = annotation
    return True


@pytest.mark.parametrize("name", FILES)
def test_every_variable_named_in_the_deploy_files_is_a_setting(name: str) -> None:
    text = (ROOT / name).read_text()
    unknown = {v for v in VARIABLE.findall(text) if v not in COMPOSE_ONLY}
    unknown = {v for v in unknown if not setting_exists(v)}
    assert not unknown, f"{name} names settings that app/config.py does not have: {unknown}"


def test_proxy_template_gets_the_test_upstreams_and_listen_address() -> None:
    source = proxy_config.REPO_CONFIG.read_text()
    rendered = proxy_config.render(source, ["127.0.0.1:1001", "127.0.0.1:1002"], "127.0.0.1:9")
    assert "app1:8000" not in rendered and "listen 80;" not in rendered
    assert "server 127.0.0.1:1002 max_fails=2 fail_timeout=5s;" in rendered
    assert "listen 127.0.0.1:9;" in rendered
    assert "least_conn;" in rendered and "proxy_read_timeout 75s;" in rendered


def test_proxy_template_refuses_a_config_it_cannot_render() -> None:
    with pytest.raises(ValueError, match="upstream"):
        proxy_config.render("server { listen 80; }", ["127.0.0.1:1"], "127.0.0.1:2")
