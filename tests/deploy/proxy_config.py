"""Render the repo's nginx config (deploy/nginx/skirmish.conf) for a test's own ports.

The repo file stays the single source: only its ``listen`` line and the ``server`` lines
of its ``upstream`` blocks (``skirmish_app``; ``skirmish_ws`` for sockets) are replaced;
every other directive (WebSocket upgrade, match affinity, timeouts, forwarded headers,
blocked paths) is tested as shipped.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REPO_CONFIG = ROOT / "deploy" / "nginx" / "skirmish.conf"

_UPSTREAM = re.compile(r"(upstream\s+skirmish_\w+\s*\{)(.*?)(\n\})", re.S)
_SERVER_LINE = re.compile(r"^[ \t]*server\s+\S+[^;]*;[^\n]*(?:\n|\Z)", re.M)
_LISTEN = re.compile(r"^(\s*)listen\s+80;", re.M)


def render(source: str, upstreams: list[str], listen: str) -> str:
    """``source`` with every upstream's servers and the listen address replaced."""
    blocks = list(_UPSTREAM.finditer(source))
    if not blocks or not all(_SERVER_LINE.search(b.group(2)) for b in blocks):
        raise ValueError("no upstream skirmish_* block with server lines")
    servers = "".join(f"\n    server {u} max_fails=2 fail_timeout=5s;" for u in upstreams)
    rendered, end = "", 0
    for block in blocks:
        kept = _SERVER_LINE.sub("", block.group(2))
        rendered += source[end : block.start()] + block.group(1) + servers + kept + block.group(3)
        end = block.end()
    rendered += source[end:]
    rendered, count = _LISTEN.subn(rf"\1listen {listen};", rendered)
    if count != 1:
        raise ValueError("expected exactly one 'listen 80;' line")
    return rendered


def main_config(prefix: Path, site: Path, as_root: bool) -> str:
    """A minimal nginx.conf around the rendered site, everything kept under ``prefix``."""
    user = "user root;\n" if as_root else ""  # workers must read the test's private tmp dir
    temp = "".join(
        f"    {kind}_temp_path {prefix / kind};\n"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    return (
        f"{user}worker_processes 1;\npid {prefix / 'nginx.pid'};\n"
        f"error_log {prefix / 'error.log'} warn;\n"
        "events { worker_connections 512; }\n"
        "http {\n"
        f"    access_log {prefix / 'access.log'};\n"
        f"{temp}"
        f"    include {site};\n"
        "}\n"
    )
