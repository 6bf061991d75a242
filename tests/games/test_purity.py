"""Rules engines stay pure (STYLE.md §1, DESIGN.md §6): no framework, no I/O.

Scans the AST of every module under app/games: forbidden imports, and calls
that do I/O (open, print, input, os/sys/socket/subprocess/logging, time.sleep).
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

GAMES = Path(__file__).parents[2] / "app" / "games"
FORBIDDEN_MODULES = {
    "fastapi",
    "starlette",
    "sqlalchemy",
    "pydantic",
    "asyncio",
    "redis",
    "asyncpg",
    "aiosqlite",
    "httpx",
    "logging",
    "uvicorn",
    "socket",
    "subprocess",
    "requests",
    "urllib",
    "http",
    "threading",
    "multiprocessing",
    "os",
    "shutil",
    "sys",
}
FORBIDDEN_CALLS = {"open", "print", "input", "exec", "eval", "__import__", "breakpoint"}
#: catalog.py reads its own data file once at import: the only sanctioned read.
READS_DATA = {"catalog.py"}


def modules() -> list[Path]:
    return sorted(p for p in GAMES.rglob("*.py") if "__pycache__" not in p.parts)


def imported(tree: ast.AST) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(GAMES)))
def test_module_imports_no_framework_or_io(path: Path) -> None:
    tree = ast.parse(path.read_text(), filename=str(path))
    bad = imported(tree) & FORBIDDEN_MODULES
    if path.name in READS_DATA:
        bad -= {"os"}
    assert not bad, f"{path.name} imports {sorted(bad)}"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(GAMES)))
def test_module_does_no_io(path: Path) -> None:
    tree = ast.parse(path.read_text(), filename=str(path))
    calls = {
        n.func.id
        for n in ast.walk(tree)
        if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
    }
    bad = calls & FORBIDDEN_CALLS
    if path.name in READS_DATA:
        bad -= {"open"}
    assert not bad, f"{path.name} calls {sorted(bad)}"


@pytest.mark.parametrize("path", modules(), ids=lambda p: str(p.relative_to(GAMES)))
def test_module_uses_no_global_random(path: Path) -> None:
    """STYLE.md §5: randomness comes from the state; ``random.Random(seed)`` is allowed,
    the module-level functions (``random.shuffle``, ``random.choice`` …) are not."""
    tree = ast.parse(path.read_text(), filename=str(path))
    bad = [
        n.func.attr
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id == "random"
        and n.func.attr != "Random"
    ]
    froms = [
        a.name
        for n in ast.walk(tree)
        if isinstance(n, ast.ImportFrom) and n.module == "random"
        for a in n.names
        if a.name != "Random"
    ]
    assert not bad and not froms, f"{path.name} uses random.{(bad + froms)[0]}"


def test_the_scan_sees_the_engines() -> None:
    names = {p.name for p in modules()}
    assert {"base.py", "registry.py", "engine.py", "state.py"} <= names
