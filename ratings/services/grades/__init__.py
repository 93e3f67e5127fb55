"""Grades: promotions and their decisions, revisions, prior grades and their proposals."""
