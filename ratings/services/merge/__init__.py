"""Merging a duplicate player into the one kept: its refusals, preview, the moves and the undo."""
