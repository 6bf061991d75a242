"""Skirmish: an authoritative match server for asymmetric card and board games."""
