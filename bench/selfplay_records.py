"""Self-play games saved one per line, so a long run can be stopped, resumed and merged.

A 2,000-game run of the strong level takes longer than one sitting here (docs/balance.md
§15.4). Every finished game is appended to a JSON-lines file whose first line names what
the games were played with: the bots' configuration, their revision and a digest of the
card catalog. Files are merged only when those agree and no seed repeats, so a merged
report is the report one long run with the same seeds would have printed.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import tomllib
from dataclasses import asdict
from pathlib import Path
from typing import IO, TYPE_CHECKING, Any

from app.games.invaders.bots import REVISION

if TYPE_CHECKING:
    from bench.selfplay import Config, GameRecord

CATALOG_FILE = Path(__file__).resolve().parents[1] / "app" / "games" / "invaders" / "cards.toml"
THINK_DIGITS = 4
"""Decision times are kept to 0.1 ms: the report's medians and p99 need no more, and a
2,000-game strong run stays small enough to commit (less than half the full floats)."""


class RecordsMismatch(ValueError):
    """Two record files were not played with the same bots and catalog, or share a seed."""


def catalog_digest(path: Path = CATALOG_FILE) -> str:
    """What the games were dealt from: a card change makes a different balance. The data is
    hashed, not the file, so a new changelog comment leaves a run's games mergeable."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def _commit() -> str:
    try:
        out = subprocess.run(
            ["git", "-C", str(CATALOG_FILE.parent), "rev-parse", "--short", "HEAD"],
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return out.stdout.strip()


FIRST_REVISION = 1
"""Files saved before the header named the bots' revision hold revision 1's games."""


def header(cfg: Config) -> dict[str, Any]:
    return {
        "config": _plain(asdict(cfg)),
        "catalog": catalog_digest(),
        "bots": REVISION,
        "commit": _commit(),
    }


def _plain(value: Any) -> Any:
    """JSON's view of a value (tuples become lists), so headers compare after a round trip."""
    return json.loads(json.dumps(value))


def played_with(path: Path, cfg: Config) -> bool:
    """Whether the games saved in ``path`` were played with the configuration ``cfg``."""
    with path.open(encoding="utf-8") as f:
        return bool(json.loads(f.readline())["config"] == _plain(asdict(cfg)))


def open_records(path: Path, cfg: Config) -> IO[str]:
    """Open ``path`` for appending; a new file gets the header, an old one must match it
    (and loses a last line that a stopped run left half written)."""
    head = header(cfg)
    if path.exists() and path.stat().st_size:
        with path.open(encoding="utf-8") as f:
            _check_same(json.loads(f.readline()), head, path)
        text = path.read_text(encoding="utf-8")
        if not text.endswith("\n"):
            path.write_text(text[: text.rfind("\n") + 1], encoding="utf-8")
        return path.open("a", encoding="utf-8")
    f = path.open("w", encoding="utf-8")
    f.write(json.dumps(head) + "\n")
    f.flush()
    return f


def append_records(f: IO[str], records: list[GameRecord]) -> None:
    for rec in records:
        row = asdict(rec)
        row["played"] = sorted(rec.played)
        row["think"] = {s: [round(t, THINK_DIGITS) for t in ts] for s, ts in rec.think.items()}
        f.write(json.dumps(row) + "\n")
    f.flush()


def saved_seeds(path: Path) -> set[int]:
    """Seeds ``path`` already holds: a resumed run plays only the others."""
    return set(saved_winners(path))


def saved_winners(path: Path) -> dict[int, str | None]:
    """Each saved game's winner by seed (none yet: empty)."""
    if not path.exists() or not path.stat().st_size:
        return {}
    return {rec.seed: rec.winner for rec in _rows(path)}


def _rows(path: Path) -> list[GameRecord]:
    from bench.selfplay import GameRecord

    out = []
    with path.open(encoding="utf-8") as f:
        f.readline()
        for line in f:
            if not line.endswith("\n"):
                break  # the half-written last line of a stopped run
            row = json.loads(line)
            row["played"] = set(row["played"])
            out.append(GameRecord(**row))
    return out


def load_records(paths: list[Path]) -> tuple[Config, list[GameRecord]]:
    """All games of ``paths`` in seed order, with the configuration they share."""
    first: dict[str, Any] | None = None
    records: dict[int, GameRecord] = {}
    for path in paths:
        with path.open(encoding="utf-8") as f:
            head = json.loads(f.readline())
        first = first or head
        _check_same(head, first, path)
        for rec in _rows(path):
            if rec.seed in records:
                raise RecordsMismatch(f"{path}: seed {rec.seed} is held twice")
            records[rec.seed] = rec
    if first is None:
        raise RecordsMismatch("no record files given")
    return _config(first), [records[seed] for seed in sorted(records)]


def saved_config(path: Path) -> Config:
    """The configuration the games in ``path`` were played with (its header's)."""
    with path.open(encoding="utf-8") as f:
        return _config(json.loads(f.readline()))


def _config(head: dict[str, Any]) -> Config:
    from bench.selfplay import Config

    c = head["config"]
    return Config(
        **{
            **c,
            "weights": [tuple(w) for w in c["weights"]],
            "overrides": [tuple(o) for o in c["overrides"]],
        }
    )


def _check_same(head: dict[str, Any], expected: dict[str, Any], path: Path) -> None:
    for key in ("config", "catalog", "bots"):
        mine, theirs = _field(head, key), _field(expected, key)
        if mine != theirs:
            raise RecordsMismatch(f"{path}: {key} differs ({mine!r} against {theirs!r})")


def _field(head: dict[str, Any], key: str) -> Any:
    """A header's field; only the bots' revision may be missing (an older file's)."""
    return head.get(key, FIRST_REVISION) if key == "bots" else head[key]
