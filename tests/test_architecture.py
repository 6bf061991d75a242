"""DESIGN.md §6: dependencies point one way, and rules engines stay pure."""

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parents[1]


def test_import_contracts_hold() -> None:
    """The import-linter contracts in pyproject.toml are kept (layers, pure games)."""
    exe = shutil.which("lint-imports")
    if exe is None:
        pytest.fail("import-linter is a dev dependency: pip install -e '.[dev]'")
    result = subprocess.run(
        [exe, "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=120
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert "broken" in result.stdout and "0 broken" in result.stdout


def test_app_type_checks() -> None:
    """Type hints are checked, not decoration: mypy finds no error in the application."""
    result = subprocess.run(
        [sys.executable, "-m", "mypy", "app"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_code_is_ruff_clean() -> None:
    """Style is part of the build: ruff reports nothing on the whole tree."""
    result = subprocess.run(
        [sys.executable, "-m", "ruff", "check", "app", "tests", "bench"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.returncode == 0, result.stdout + result.stderr
