"""Clubs: matching a club's name (one rule for the CSV import and a director's upload), the CSV import, and a
player's membership by date."""
