"""Doing a thing at most once per key (ratings/services/idempotency.py), on the two keys the site has."""

from __future__ import annotations

import pytest
from django.db import transaction

from ratings.models import ApiSubmission, UploadConfirmation
from ratings.services.idempotency import key_claim, key_done
from tests.factories import make_director, make_player, make_table

pytestmark = pytest.mark.django_db


def test_key_claim_is_none_first_then_the_earlier_row() -> None:
    director = make_director()
    assert key_claim(UploadConfirmation, key={"token": "t1"}, user=director) is None
    table = make_table([make_player(), make_player()])
    key_done(UploadConfirmation, key={"token": "t1"}, table_id=table.pk)
    earlier = key_claim(UploadConfirmation, key={"token": "t1"}, user=make_director())
    assert earlier is not None and earlier.user == director and earlier.table == table
    assert UploadConfirmation.objects.count() == 1


def test_key_claim_rolled_back_frees_the_key() -> None:
    director = make_director()
    with pytest.raises(RuntimeError), transaction.atomic():
        assert key_claim(ApiSubmission, key={"user": director, "key": "k"}, fingerprint="f") is None
        raise RuntimeError("the work it guards failed")
    assert key_claim(ApiSubmission, key={"user": director, "key": "k"}, fingerprint="g") is None
    assert ApiSubmission.objects.get().fingerprint == "g"


def test_key_claim_is_per_whole_key() -> None:
    """The API's keys are the client's, unique per user: another user's same key is his own."""
    first, second = make_director(), make_director()
    assert key_claim(ApiSubmission, key={"user": first, "key": "k"}, fingerprint="f") is None
    assert key_claim(ApiSubmission, key={"user": second, "key": "k"}, fingerprint="f") is None
    taken = key_claim(ApiSubmission, key={"user": first, "key": "k"}, fingerprint="other")
    assert taken is not None and taken.fingerprint == "f"
