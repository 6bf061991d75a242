"""Test-only helpers: a tiny game, a live server, a WebSocket client."""
