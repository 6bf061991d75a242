"""The real-service policy: a missing service skips locally and fails under CI=true."""

from __future__ import annotations

import pytest
from _pytest.outcomes import Failed, Skipped

from tests.support.services import require_service


def test_missing_service_skips_locally(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(Skipped, match="postgresql is not available"):
        require_service("postgresql", available=False)


def test_missing_service_fails_under_ci(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    with pytest.raises(Failed, match=r"redis is not available.*CI=true"):
        require_service("redis", available=False)


def test_available_service_passes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    require_service("chromium", available=True)
