"""Dates as European federations write them, whatever the language: ISO first, then day before month.

Django's English formats read ``01/02/2025`` month first (1 February would be read as 2 January); a table's
date typed that way must never be read so. Shown as ISO (``2025-02-01``), which every reader understands.
"""

from __future__ import annotations

DATE_INPUT_FORMATS = ["%Y-%m-%d", "%d.%m.%Y", "%d/%m/%Y", "%d.%m.%y", "%d/%m/%y"]
DATETIME_INPUT_FORMATS = [
    "%Y-%m-%d %H:%M:%S",
    "%Y-%m-%d %H:%M",
    "%d.%m.%Y %H:%M:%S",
    "%d.%m.%Y %H:%M",
    "%d/%m/%Y %H:%M:%S",
    "%d/%m/%Y %H:%M",
]
DATE_FORMAT = "Y-m-d"
SHORT_DATE_FORMAT = "Y-m-d"
FIRST_DAY_OF_WEEK = 1  # Monday
DATETIME_FORMAT = "Y-m-d H:i"
SHORT_DATETIME_FORMAT = "Y-m-d H:i"
