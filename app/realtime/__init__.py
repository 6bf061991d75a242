"""Realtime: the WebSocket protocol, per-audience fan-out, and the bus between workers."""
