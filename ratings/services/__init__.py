"""Writes: every change to the federation's data goes through a function here (STYLE.md: services write)."""
