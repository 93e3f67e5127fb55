"""The same date formats in every language: federation/formats/en/formats.py says why."""

from __future__ import annotations

from federation.formats.en.formats import *  # noqa: F403
