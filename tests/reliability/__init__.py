"""Reliability and security: access, limits, clocks, slow consumers, shutdown, fuzz, faults."""
