"""Matches: create, join, act, resume — the hot path of DESIGN §2, with no HTTP in it."""
