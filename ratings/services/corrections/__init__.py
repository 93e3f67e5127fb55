"""Corrections of rated tables and players: what a change does (preview), saving it, undoing it."""
