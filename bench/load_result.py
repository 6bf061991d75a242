"""What one load run found: the correctness gate, the figures, and their one-screen summary."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass
class Gate:
    """The correctness gate: counts of violations; all zero means it passed."""

    duplicates: int = 0
    gaps: int = 0
    missing_at_end: int = 0  # viewers that never reached their match's last version
    lost_acks: int = 0  # acknowledged versions beyond what the viewers finally saw
    dropped_by_server: int = 0  # closes we did not cause (1013, a dead worker)
    examples: list[str] = field(default_factory=list)

    @property
    def passed(self) -> bool:
        return not (self.duplicates or self.gaps or self.missing_at_end or self.lost_acks)

    def note(self, text: str) -> None:
        if len(self.examples) < 10:
            self.examples.append(text)


@dataclass
class Result:
    label: str
    config: dict[str, Any]
    window_seconds: float
    actions: int
    actions_per_second: float
    deliveries: int
    deliveries_per_second: float
    latency_ms: dict[str, dict[str, float]]
    errors: dict[str, int]
    gate: dict[str, Any]
    server_cpu_seconds: float | None
    server_cpu_share: float | None  # CPU-seconds per wall second (1.0 = one core)
    server_wait_share: float | None  # seconds runnable but not running, per wall second
    deliveries_per_cpu_second: float | None
    rss_mb: list[float]
    bytes_per_delivery_text: float
    bytes_per_delivery_wire: float | None
    client_cpu_share: float
    stages_ms: dict[str, dict[str, float]]
    reconnect_ms: dict[str, float]
    sockets: int
    matches_played: int
    rss_kb_per_socket: float | None = None
    """RSS growth from before the matches were created to all sockets connected, per
    socket: an upper bound for an idle socket, since it includes the matches' states."""
    rss_kb_per_socket_marginal: float | None = None
    """The same over the second half of the matches only: what one more idle socket (and
    its share of one more match) costs once the worker is warm; still an upper bound."""
    notes: list[str] = field(default_factory=list)
    gc: dict[str, float] = field(default_factory=dict)
    """Garbage collections inside the window, summed over workers (server_probe.gc_summary)."""


def render_text(result: Result) -> str:
    """A short human summary of one run (the scenario runner writes the tables)."""
    lines = [
        f"== {result.label or 'load'}: {result.sockets} sockets, window {result.window_seconds} s"
    ]
    lines.append(
        f"actions/s {result.actions_per_second}  deliveries/s {result.deliveries_per_second}"
        f"  server CPU {result.server_cpu_share} (waiting for a core "
        f"{result.server_wait_share})  deliveries/CPU-s "
        f"{result.deliveries_per_cpu_second}  client CPU {result.client_cpu_share}"
    )
    for cls, figures in result.latency_ms.items():
        lines.append(f"  {cls:<10} {figures}")
    for stage, figures in result.stages_ms.items():
        lines.append(f"  stage {stage:<11} {figures}")
    if result.gc:
        lines.append(f"  gc {result.gc}")
    lines.append(
        f"  bytes/delivery text {result.bytes_per_delivery_text} wire "
        f"{result.bytes_per_delivery_wire}  RSS MB {result.rss_mb}  KB/socket "
        f"{result.rss_kb_per_socket} (marginal {result.rss_kb_per_socket_marginal})"
    )
    lines.append(f"  gate passed={result.gate['passed']} {result.gate}  errors {result.errors}")
    if result.reconnect_ms.get("n"):
        lines.append(f"  reconnects {result.reconnect_ms}")
    lines.extend(f"  note: {n}" for n in result.notes)
    return "\n".join(lines)
