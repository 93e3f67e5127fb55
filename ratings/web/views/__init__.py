"""The public site's views, by area. Thin: each reads through ratings/selectors/ and renders.

Bad input never gives a 500: an unknown player, table or list date is a 404; a malformed filter value is a
400 that shows the filter form with its message; a page number out of range shows the nearest page.
"""

from __future__ import annotations
