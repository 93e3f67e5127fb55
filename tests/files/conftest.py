"""Fixtures of the FESA file tests."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _static_files_without_collectstatic(settings: pytest.FixtureRequest) -> None:
    # WhiteNoise warns (an error under our warning filter) when STATIC_ROOT has not been collected, as on a
    # fresh checkout; in autorefresh mode it looks files up on each request instead.
    settings.WHITENOISE_AUTOREFRESH = True
