"""Clubs: matching a club's name (one rule for the CSV import and a director's upload), the CSV import, a
player's membership by date, and the officers' edits of a club and of the women's list, checked against the
version their page loaded."""
