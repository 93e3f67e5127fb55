"""The rows' links (``row_url``): a page of rows reverses each view once, and every row's link is the one
``reverse`` gives."""

from __future__ import annotations

import pytest
from django.urls import reverse, set_script_prefix

from ratings.templatetags.ratings_public import row_url


@pytest.mark.parametrize("federation_id", ["12345", "E-0042", "Müller 2", "a&b", "x'y", "~:@!$()*+,;="])
def test_a_row_url_is_what_reverse_gives(federation_id: str) -> None:
    assert row_url("ratings:player")(federation_id) == reverse("ratings:player", args=[federation_id])


@pytest.mark.parametrize("pk", [1, 42, 999999])
def test_an_integer_argument_is_what_reverse_gives(pk: int) -> None:
    assert row_url("ratings:club")(pk) == reverse("ratings:club", args=[pk])


@pytest.mark.parametrize("federation_id", ["12345", "Müller 2", "a&b"])
def test_leading_arguments_are_kept(federation_id: str) -> None:
    rows = row_url("ratings:player_table", federation_id)
    assert rows(17) == reverse("ratings:player_table", args=[federation_id, 17])


def test_a_site_below_a_script_prefix_keeps_it() -> None:
    set_script_prefix("/ratings/")
    try:
        assert row_url("ratings:player")("7") == reverse("ratings:player", args=["7"]) == "/ratings/players/7/"
    finally:
        set_script_prefix("/")
