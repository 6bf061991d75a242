"""Render the repo's nginx config (deploy/nginx/skirmish.conf) for a test's own ports.

The repo file stays the single source: only its ``listen`` line and the ``server`` lines
of the ``upstream skirmish_app`` block are replaced; every other directive (WebSocket
upgrade, timeouts, forwarded headers, blocked paths) is tested as shipped.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REPO_CONFIG = ROOT / "deploy" / "nginx" / "skirmish.conf"

_UPSTREAM = re.compile(r"(upstream\s+skirmish_app\s*\{)(.*?)(\n\})", re.S)
_SERVER_LINE = re.compile(r"^\s*server\s+\S+[^;]*;[^\n]*\n", re.M)
_LISTEN = re.compile(r"^(\s*)listen\s+80;", re.M)


def render(source: str, upstreams: list[str], listen: str) -> str:
    """``source`` with the upstream servers and the listen address replaced."""
    block = _UPSTREAM.search(source)
    if block is None or not _SERVER_LINE.search(block.group(2)):
        raise ValueError("no upstream skirmish_app block with server lines")
    kept = _SERVER_LINE.sub("", block.group(2))
    servers = "".join(f"\n    server {u} max_fails=2 fail_timeout=5s;" for u in upstreams)
    body = block.group(1) + servers + kept + block.group(3)
    rendered = source[: block.start()] + body + source[block.end() :]
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
