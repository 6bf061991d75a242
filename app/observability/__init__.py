"""Logs, metrics and request context: what an operator sees of a running worker."""
