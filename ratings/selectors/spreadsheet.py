"""CSV cells a spreadsheet opens as text, never as a formula ("CSV injection").

Excel, LibreOffice and Google Sheets run a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula
(and tab or carriage return can hide such a start), so a player named ``=HYPERLINK("http://...")`` would
put a live link, or worse, in the sheet of whoever opens a download. Every CSV the site writes passes its
cells through ``csv_cell``: a text cell with such a start gets a leading apostrophe, which spreadsheets hide
and read as "this is text". Numbers are left alone, so a negative rating change stays a number.
"""

from __future__ import annotations

from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def csv_cell(value: Any) -> Any:
    """``value`` as a CSV cell: text that a spreadsheet would run as a formula gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_STARTS):
        return "'" + value
    return value
