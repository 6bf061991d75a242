"""Seat secrets: issued once, stored as HMAC-SHA256(pepper, secret), compared in constant time."""

from __future__ import annotations

import hashlib
import hmac
import secrets


def issue_secret() -> str:
    """192 random bits, URL-safe; the caller hands it out once and keeps only its hash."""
    return secrets.token_urlsafe(24)


def hash_secret(pepper: str, secret: str) -> str:
    return hmac.new(pepper.encode(), secret.encode(), hashlib.sha256).hexdigest()


def secret_matches(pepper: str, secret: str, stored_hash: str | None) -> bool:
    if stored_hash is None:
        return False
    return hmac.compare_digest(hash_secret(pepper, secret), stored_hash)
