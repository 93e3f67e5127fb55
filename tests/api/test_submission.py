"""Directors' tables through the API: access tokens (hashed, expiring, revocable, scoped), preview with every
problem at once, submit under an Idempotency-Key, and a real turnering.txt giving the same table as the admin's
upload."""

from __future__ import annotations

import datetime as dt
import hashlib
import re
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, connections, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from ratings.api.submit_input import JsonSubmissionSerializer, read_submission
from ratings.models import AccessToken, ApiSubmission, Player, Table, TableStatus, Tournament
from ratings.services.fesa.turnering import TurneringRequest, turnering_import
from ratings.services.tables.api_submissions import (
    SubmitResult,
    api_submission_claim,
    api_submission_done,
    api_table_submit,
)
from ratings.services.tokens import access_token_create, access_token_revoke, access_token_use
from tests.corrections.test_two_officers import _wait_until_blocked
from tests.factories import make_director, make_player, make_rating_officer, make_tournament
from tests.fesa.data import case_dir

pytestmark = pytest.mark.django_db

DAY = dt.date(2016, 1, 7)  # the date of the sample case
SAMPLE = (case_dir("sample-2016-01-07") / "turnering.txt").read_bytes()
UPLOAD_URL = "/admin/ratings/table/upload/turnering/"


def in_days(days: int) -> dt.datetime:
    return timezone.now() + dt.timedelta(days=days)


def accepted(tournament: Tournament) -> Tournament:
    tournament.announcement = "accepted"
    tournament.save(update_fields=["announcement"])
    return tournament


@pytest.fixture
def director() -> Any:
    return make_director(username="dir")


@pytest.fixture
def tournament(director: Any) -> Tournament:
    return accepted(make_tournament("Nekomado-ken", date=DAY, directors=[director]))


@pytest.fixture
def secret(director: Any) -> str:
    return access_token_create(user=director, name="Pairing laptop", expires_at=in_days(30))[1]


def bearer(secret: str) -> dict[str, str]:
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def preview_url(tournament: Tournament) -> str:
    return reverse("api-v1:tables_preview", args=[tournament.pk])


def submit_url(tournament: Tournament) -> str:
    return reverse("api-v1:tables_submit", args=[tournament.pk])


def post_json(url: str, secret: str, body: dict[str, Any], **headers: str) -> Any:
    return Client().post(url, body, content_type="application/json", **bearer(secret), **headers)


# --- tokens ------------------------------------------------------------------------------------------------------


def test_token_is_stored_as_its_digest_only(director: Any) -> None:
    token, secret = access_token_create(user=director, name="laptop", expires_at=in_days(10))
    assert secret.startswith("fesa_") and len(secret) >= 40
    stored = AccessToken.objects.get(pk=token.pk)
    assert stored.digest == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in {stored.digest, stored.prefix, stored.name} and secret.startswith(stored.prefix)
    assert access_token_use(secret=secret) == stored
    assert access_token_use(secret=secret[:-1] + ("A" if secret[-1] != "A" else "B")) is None


def test_token_use_is_recorded(director: Any, secret: str) -> None:
    assert AccessToken.objects.get().last_used_at is None
    access_token_use(secret=secret)
    assert AccessToken.objects.get().last_used_at is not None


def test_token_expiry_is_required_and_bounded(director: Any, settings: Any) -> None:
    settings.ACCESS_TOKEN_MAX_DAYS = 30
    with pytest.raises(ValidationError):
        access_token_create(user=director, name="x", expires_at=in_days(31))
    with pytest.raises(ValidationError):
        access_token_create(user=director, name="x", expires_at=in_days(-1))
    assert not AccessToken.objects.exists()


def test_expired_token_is_refused(director: Any, tournament: Tournament) -> None:
    token, secret = access_token_create(user=director, name="old", expires_at=in_days(1))
    AccessToken.objects.filter(pk=token.pk).update(expires_at=in_days(-1))
    response = post_json(preview_url(tournament), secret, {"turnering": SAMPLE.decode()})
    assert response.status_code == 401
    assert response.json() == {"detail": "Invalid, expired or revoked access token."}
    assert response["WWW-Authenticate"].startswith("Bearer")


def test_revoked_token_is_refused_and_only_its_owner_or_an_officer_revokes(
    director: Any, tournament: Tournament, secret: str
) -> None:
    token = AccessToken.objects.get()
    with pytest.raises(PermissionError):
        access_token_revoke(token=token, user=make_director())
    assert post_json(preview_url(tournament), secret, {"turnering": SAMPLE.decode()}).status_code == 200
    assert access_token_revoke(token=token, user=make_rating_officer()) is True
    assert access_token_revoke(token=token, user=director) is False  # once only
    assert post_json(preview_url(tournament), secret, {"turnering": SAMPLE.decode()}).status_code == 401


def test_token_of_another_directors_tournament_is_forbidden(tournament: Tournament) -> None:
    other = make_director()
    other_secret = access_token_create(user=other, name="theirs", expires_at=in_days(5))[1]
    response = post_json(preview_url(tournament), other_secret, {"turnering": SAMPLE.decode()})
    assert response.status_code == 403
    assert set(response.json()) == {"detail"}


def test_tournament_not_accepted_is_refused(director: Any, secret: str) -> None:
    tournament = make_tournament(date=DAY, directors=[director])  # entered, never registered
    assert post_json(preview_url(tournament), secret, {"turnering": SAMPLE.decode()}).status_code == 409


def test_no_session_and_no_token_means_401(director: Any, tournament: Tournament) -> None:
    client = Client(enforce_csrf_checks=True)
    client.force_login(director)  # an admin session opens nothing here
    response = client.post(preview_url(tournament), {"turnering": SAMPLE.decode()}, content_type="application/json")
    assert response.status_code == 401


def test_submissions_are_throttled_per_owner(tournament: Tournament, secret: str, settings: Any) -> None:
    settings.API_SUBMIT_RATE = "2/hour"
    answers = [post_json(preview_url(tournament), secret, {"turnering": SAMPLE.decode()}) for _ in range(3)]
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert "Retry-After" in answers[2] and set(answers[2].json()) == {"detail"}


# --- admin ---------------------------------------------------------------------------------------------------------


def test_director_creates_a_token_in_the_admin_and_sees_it_once(director: Any) -> None:
    client = Client()
    client.force_login(director)
    add = reverse("admin:ratings_accesstoken_add")
    day = (timezone.localdate() + dt.timedelta(days=20)).isoformat()
    response = client.post(add, {"name": "Swiss pairing program", "expires_on": day})
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    secret = re.search(r'value="(fesa_[^"]+)"', response.content.decode()).group(1)  # type: ignore[union-attr]
    token = AccessToken.objects.get()
    assert (token.user, token.name) == (director, "Swiss pairing program")
    assert access_token_use(secret=secret) == token
    page = client.get(reverse("admin:ratings_accesstoken_change", args=[token.pk])).content.decode()
    assert token.prefix in page and secret not in page


def test_admin_refuses_a_token_beyond_the_longest_life(director: Any, settings: Any) -> None:
    settings.ACCESS_TOKEN_MAX_DAYS = 30
    client = Client()
    client.force_login(director)
    day = (timezone.localdate() + dt.timedelta(days=60)).isoformat()
    response = client.post(reverse("admin:ratings_accesstoken_add"), {"name": "x", "expires_on": day})
    assert response.status_code == 200 and not AccessToken.objects.exists()
    assert "at most 30 days" in response.content.decode()


def test_officer_sees_and_revokes_any_token_a_director_only_his(director: Any, secret: str) -> None:
    other = make_director()
    access_token_create(user=other, name="other's", expires_at=in_days(5))
    listing = reverse("admin:ratings_accesstoken_changelist")
    client = Client()
    client.force_login(director)
    page = client.get(listing).content.decode()
    assert "Pairing laptop" in page and "other&#x27;s" not in page and "other's" not in page
    officer = Client()
    officer.force_login(make_rating_officer())
    ids = [str(pk) for pk in AccessToken.objects.values_list("pk", flat=True)]
    officer.post(listing, {"action": "revoke", "_selected_action": ids})
    assert not AccessToken.objects.filter(revoked_at__isnull=True).exists()
    assert access_token_use(secret=secret) is None


# --- preview -----------------------------------------------------------------------------------------------------

BROKEN = """[Nekomado-ken]
[2016-01-07]
1 [Ishikawa] [Musashi] [2+ 4+ 3+]
2 [Ould Ahmed] [Samy] [1+ 3+ 4+]
3 [Hebert] [Pascal] [4+ 2- 1-]
4 [Mazouzi] [Sana] [3- 1- 9-]
"""


def test_preview_answers_every_problem_at_once_with_its_line(tournament: Tournament, secret: str) -> None:
    before = (Table.objects.count(), Player.objects.count())
    response = post_json(preview_url(tournament), secret, {"turnering": BROKEN})
    assert response.status_code == 200
    body = response.json()
    assert body["ok"] is False
    lines = sorted({p["line"] for p in body["problems"]})
    assert 4 in lines and 6 in lines, body["problems"]  # 1+ against 2+ (line 4), opponent 9 (line 6)
    assert all(p["file"] == "turnering.txt" and p["message"] for p in body["problems"])
    assert (Table.objects.count(), Player.objects.count()) == before


def test_preview_of_a_good_table_gives_the_rating_effect_and_saves_nothing(tournament: Tournament, secret: str) -> None:
    make_player("Ishikawa", "Musashi")
    response = post_json(preview_url(tournament), secret, {"turnering": SAMPLE.decode()})
    body = response.json()
    assert body["ok"] is True and body["problems"] == []
    assert body["table"]["name"] == "Nekomado-ken" and body["table"]["date"] == "2016-01-07"
    assert [p["new_player"] for p in body["players"]] == [False, True, True, True]
    assert body["players"][0]["player"] == Player.objects.get(family_name="Ishikawa").federation_id
    assert len(body["rating_effect"]) == 4 and body["rating_effect"][0]["games"] == 3
    assert not Table.objects.exists()


def test_preview_of_a_json_table_names_the_players_in_error(tournament: Tournament, secret: str) -> None:
    table = {
        "name": "Nekomado-ken",
        "date": "2016-01-07",
        "players": [
            {"family_name": "Ishikawa", "given_name": "Musashi", "rounds": ["2+", "3+"]},
            {"family_name": "Hebert", "given_name": "Pascal", "rounds": ["1+", "3+"]},
            {"family_name": "Mazouzi", "given_name": "Sana", "rounds": ["2-", "1-"]},
        ],
    }
    body = post_json(preview_url(tournament), secret, {"table": table}).json()
    assert body["ok"] is False
    assert {p.get("player") for p in body["problems"]} >= {1, 2}


def test_json_shape_errors_are_the_apis_one_error_shape(tournament: Tournament, secret: str) -> None:
    table = {"name": "A [bracket]", "date": "7 Jan", "players": []}
    response = post_json(preview_url(tournament), secret, {"table": table})
    assert response.status_code == 400
    body = response.json()
    assert body["detail"] and set(body) == {"detail", "errors"}


# --- submit ------------------------------------------------------------------------------------------------------


def test_submit_saves_one_table_however_often_it_is_retried(
    tournament: Tournament, secret: str, django_capture_on_commit_callbacks: Any
) -> None:
    body = {"turnering": SAMPLE.decode()}
    with django_capture_on_commit_callbacks(execute=True):
        first = post_json(submit_url(tournament), secret, body, HTTP_IDEMPOTENCY_KEY="k-1")
    assert first.status_code == 201
    again = [post_json(submit_url(tournament), secret, body, HTTP_IDEMPOTENCY_KEY="k-1") for _ in range(2)]
    assert [a.status_code for a in again] == [201, 201]
    assert all(a.json() == first.json() and a["Idempotent-Replayed"] == "true" for a in again)
    table = Table.objects.get()
    assert first.json()["table_id"] == table.pk and table.tournament == tournament
    assert table.status == TableStatus.RATED  # submitted, and re-rated after commit as the upload does
    assert ApiSubmission.objects.get().table == table


def test_submit_under_a_used_key_with_another_body_is_refused(tournament: Tournament, secret: str) -> None:
    post_json(submit_url(tournament), secret, {"turnering": SAMPLE.decode()}, HTTP_IDEMPOTENCY_KEY="k-2")
    other = SAMPLE.decode().replace("[2+ 4+ 3+]", "[2+ 4+ 3=]").replace("[4+ 2- 1-]", "[4+ 2- 1=]")
    response = post_json(submit_url(tournament), secret, {"turnering": other}, HTTP_IDEMPOTENCY_KEY="k-2")
    assert response.status_code == 422
    assert "Idempotency-Key" in response.json()["detail"]
    assert Table.objects.count() == 1


def test_refused_submit_lists_its_problems_and_frees_the_key(tournament: Tournament, secret: str) -> None:
    response = post_json(submit_url(tournament), secret, {"turnering": BROKEN}, HTTP_IDEMPOTENCY_KEY="k-3")
    assert response.status_code == 422
    body = response.json()
    assert body["detail"] and {p["line"] for p in body["problems"]} >= {4, 6}
    assert not Table.objects.exists() and not ApiSubmission.objects.exists()
    fixed = post_json(submit_url(tournament), secret, {"turnering": SAMPLE.decode()}, HTTP_IDEMPOTENCY_KEY="k-3")
    assert fixed.status_code == 201 and Table.objects.count() == 1


def test_api_table_submit_gives_the_answer_it_stores_and_replays_it(director: Any, tournament: Tournament) -> None:
    request = TurneringRequest(data=SAMPLE, tournament=tournament, user=director, create_new=True)
    first = api_table_submit(request=request, key="s-1", fingerprint="f-1")
    assert first.result == SubmitResult.SAVED and first.status_code == 201 and first.answer is not None
    assert first.answer["table_id"] == Table.objects.get().pk
    assert ApiSubmission.objects.get().answer == first.answer
    again = api_table_submit(request=request, key="s-1", fingerprint="f-1")
    assert again.result == SubmitResult.REPLAYED and again.answer == first.answer and again.status_code == 201
    other = api_table_submit(request=request, key="s-1", fingerprint="f-2")
    assert other.result == SubmitResult.KEY_REUSED and other.answer is None
    assert Table.objects.count() == 1


def test_api_table_submit_under_a_key_still_saving_says_so(director: Any, tournament: Tournament) -> None:
    ApiSubmission.objects.create(user=director, key="s-2", fingerprint="f-1")
    request = TurneringRequest(data=SAMPLE, tournament=tournament, user=director, create_new=True)
    outcome = api_table_submit(request=request, key="s-2", fingerprint="f-1")
    assert outcome.result == SubmitResult.IN_PROGRESS and outcome.answer is None
    assert not Table.objects.exists()


def test_api_table_submit_refused_returns_the_problems_and_frees_the_key(director: Any, tournament: Tournament) -> None:
    request = TurneringRequest(data=BROKEN.encode(), tournament=tournament, user=director, create_new=True)
    outcome = api_table_submit(request=request, key="s-3", fingerprint="f-1")
    assert outcome.result == SubmitResult.REFUSED and outcome.plan is not None and outcome.plan.problems
    assert not Table.objects.exists() and not ApiSubmission.objects.exists()


def test_submit_needs_an_idempotency_key(tournament: Tournament, secret: str) -> None:
    response = post_json(submit_url(tournament), secret, {"turnering": SAMPLE.decode()})
    assert response.status_code == 400 and "Idempotency-Key" in response.json()["errors"]
    assert not Table.objects.exists()


def _summary(table: Table) -> tuple[Any, ...]:
    entries = [(e.seat, e.player.family_name, e.player.given_name) for e in table.entries.select_related("player")]
    games = sorted(
        (g.round, g.first.family_name, g.second.family_name if g.second else "", g.result, g.handicap)
        for g in table.games.select_related("first", "second")
    )
    return (table.date, table.sequence, table.name, table.tournament_id, table.status, sorted(entries), games)


def test_a_real_turnering_gives_the_same_table_as_the_admin_upload(
    director: Any, tournament: Tournament, secret: str
) -> None:
    """A real club table (13 players, its nye-spillere with three newcomers and their prior grades)."""
    nye = case_dir("nekomadoken-13") / "nye-spillere"
    real = case_dir("nekomadoken-13") / "turnering.txt"
    tournament.start_date = tournament.end_date = dt.date(2017, 4, 15)  # the file's date
    tournament.save()
    admin = Client()
    admin.force_login(director)
    with transaction.atomic():
        files = {
            "file": SimpleUploadedFile("turnering.txt", real.read_bytes()),
            "new_players": SimpleUploadedFile("nye-spillere", nye.read_bytes()),
            "tournament": str(tournament.pk),
        }
        preview = admin.post(UPLOAD_URL, files).content.decode()
        payload = re.search(r'name="payload" value="([^"]+)"', preview).group(1)  # type: ignore[union-attr]
        admin.post(UPLOAD_URL, {"payload": payload, "confirm": "1", "submit": "on"})
        by_admin = _summary(Table.objects.get())
        transaction.set_rollback(True)
    assert not Table.objects.exists()
    response = Client().post(
        submit_url(tournament),
        {
            "turnering": SimpleUploadedFile("turnering.txt", real.read_bytes()),
            "nye_spillere": SimpleUploadedFile("nye-spillere", nye.read_bytes()),
        },
        HTTP_IDEMPOTENCY_KEY="real",
        **bearer(secret),
    )
    assert response.status_code == 201, response.json()
    assert _summary(Table.objects.get()) == by_admin


@pytest.mark.parametrize(
    ("lang", "page_text", "api_text"),
    [
        ("fr", "Copiez le jeton maintenant", "Jeton d'accès invalide, expiré ou révoqué."),
        ("de", "Kopieren Sie das Token jetzt", "Ungültiges, abgelaufenes oder widerrufenes Zugangstoken."),
    ],
)
def test_token_page_and_api_errors_read_in_french_and_german(
    director: Any, tournament: Tournament, lang: str, page_text: str, api_text: str
) -> None:
    client = Client(headers={"accept-language": lang})
    client.force_login(director)
    day = (timezone.localdate() + dt.timedelta(days=20)).isoformat()
    page = client.post(reverse("admin:ratings_accesstoken_add"), {"name": "PC", "expires_on": day})
    assert page_text in page.content.decode()
    answer = Client(headers={"accept-language": lang}).post(
        preview_url(tournament), {}, content_type="application/json", HTTP_AUTHORIZATION="Bearer fesa_nothing"
    )
    assert answer.status_code == 401 and answer.json()["detail"] == api_text


@pytest.mark.django_db(transaction=True)
def test_a_retry_while_the_first_submit_is_saving_waits_and_gets_its_answer(
    director: Any, tournament: Tournament, secret: str
) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("two live connections at once: the PostgreSQL run has them (SQLite serialises all writes)")
    body = {"turnering": SAMPLE.decode()}
    serializer = JsonSubmissionSerializer(data=body)
    assert serializer.is_valid()
    fingerprint = read_submission(serializer.validated_data).fingerprint(tournament.pk)
    outcome: dict[str, Any] = {}

    def retry() -> None:  # its own connection: Django's are per thread
        try:
            response = post_json(submit_url(tournament), secret, body, HTTP_IDEMPOTENCY_KEY="slow")
            replayed = response.get("Idempotent-Replayed")
            outcome.update(status=response.status_code, body=response.json(), replayed=replayed)
        finally:
            connections.close_all()

    with transaction.atomic():  # the first submit, its key taken and its table being saved
        assert api_submission_claim(user=director, key="slow", fingerprint=fingerprint) is None
        plan = turnering_import(data=SAMPLE, tournament=tournament, user=director, create_new=True, commit=True)
        api_submission_done(user=director, key="slow", table_id=plan.table_id, status_code=201, answer={"first": 1})
        worker = threading.Thread(target=retry)
        worker.start()
        _wait_until_blocked()
    worker.join(timeout=30)
    assert outcome == {"status": 201, "body": {"first": 1}, "replayed": "true"}
    assert Table.objects.count() == 1


def _pairs(players: int) -> str:
    """A one-round table of ``players`` known players (FamilyA, FamilyB, …), each odd one beating the next."""
    lines = ["[Club]", "[2016-01-07]"]
    for i in range(1, players + 1):
        opponent, sign = (i + 1, "+") if i % 2 else (i - 1, "-")
        lines.append(f"{i} [Family{chr(64 + i)}] [Given] [{opponent}{sign}]")
    return "\n".join(lines) + "\n"


def test_preview_queries_do_not_grow_with_the_players(tournament: Tournament, secret: str) -> None:
    for i in range(1, 9):
        make_player(f"Family{chr(64 + i)}", "Given")
    counts = []
    for players in (2, 8):
        with CaptureQueriesContext(connection) as queries:
            response = post_json(preview_url(tournament), secret, {"turnering": _pairs(players)})
        assert response.json()["ok"] and len(response.json()["players"]) == players
        # The token's use is recorded at most once a minute, whichever request that falls on.
        counts.append(sum(1 for q in queries if not q["sql"].startswith('UPDATE "ratings_accesstoken"')))
    assert counts[0] == counts[1], counts


def test_a_name_two_players_share_waits_for_a_choice_by_federation_id(tournament: Tournament, secret: str) -> None:
    first, second = make_player("Ishikawa", "Musashi"), make_player("Ishikawa", "Musashi")
    body = post_json(preview_url(tournament), secret, {"turnering": SAMPLE.decode()}).json()
    assert body["ok"] is False and [p["line"] for p in body["problems"]] == [3]
    offered = {c["federation_id"] for c in body["players"][0]["candidates"]}
    assert offered == {first.federation_id, second.federation_id}
    chosen = {"turnering": SAMPLE.decode(), "choices": {"1": second.federation_id}}
    body = post_json(preview_url(tournament), secret, chosen).json()
    assert body["ok"] is True and body["players"][0]["player"] == second.federation_id
    unknown = post_json(preview_url(tournament), secret, {**chosen, "choices": {"1": "NOBODY"}})
    assert unknown.status_code == 400 and "choices" in unknown.json()["errors"]


def test_a_body_larger_than_any_table_is_refused_unread(tournament: Tournament, secret: str) -> None:
    response = post_json(preview_url(tournament), secret, {"turnering": "x" * 3_000_001})
    assert response.status_code == 413 and set(response.json()) == {"detail"}


def _two_players(table: int) -> str:
    """A one-game table of two known players of their own (``Family<table>A`` beats ``Family<table>B``)."""
    return f"[Club {table}]\n[2016-01-07]\n1 [Family{table}A] [Given] [2+]\n2 [Family{table}B] [Given] [1-]\n"


@pytest.mark.django_db(transaction=True)
def test_twenty_tables_sent_twice_at_once_to_one_date_all_land_once(
    tournament: Tournament, secret: str, settings: Any
) -> None:
    """Each submit takes the date's next free sequence while holding the date: none is refused for another's
    save, and each key's retry gets the first answer."""
    if connection.vendor != "postgresql":
        pytest.skip("concurrent connections: the PostgreSQL run has them (SQLite serialises all writes)")
    settings.API_SUBMIT_RATE = "1000/minute"
    for table in range(20):
        make_player(f"Family{table}A", "Given"), make_player(f"Family{table}B", "Given")
    start = threading.Barrier(20)

    def send(table: int) -> int:
        try:
            start.wait(timeout=30)
            body = {"turnering": _two_players(table)}
            response = post_json(submit_url(tournament), secret, body, HTTP_IDEMPOTENCY_KEY=f"table-{table}")
            return response.status_code
        finally:
            connections.close_all()

    with ThreadPoolExecutor(max_workers=20) as pool:
        statuses = list(pool.map(send, [t for t in range(20) for _ in range(2)]))
    assert statuses == [201] * 40, statuses
    assert Table.objects.count() == 20 and ApiSubmission.objects.count() == 20
    assert sorted(Table.objects.values_list("sequence", flat=True)) == list(range(1, 21))


# --- hostile bodies ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize("url", [preview_url, submit_url], ids=["preview", "submit"])
def test_a_body_nested_beyond_any_table_is_a_400_naming_the_problem(
    url: Any, tournament: Tournament, secret: str
) -> None:
    response = Client().post(
        url(tournament),
        "[" * 100_000,
        content_type="application/json",
        HTTP_IDEMPOTENCY_KEY="deep",
        **bearer(secret),
    )
    assert response.status_code == 400 and "nested" in response.json()["detail"]


def test_choices_nested_beyond_any_table_are_a_400(tournament: Tournament, secret: str) -> None:
    form = {"turnering": SimpleUploadedFile("turnering.txt", SAMPLE), "choices": "[" * 100_000}
    response = Client().post(preview_url(tournament), form, **bearer(secret))
    assert response.status_code == 400 and "choices" in response.json()["errors"]
    in_json = post_json(preview_url(tournament), secret, {"turnering": SAMPLE.decode(), "choices": "[" * 100_000})
    assert in_json.status_code == 400 and "choices" in in_json.json()["errors"]


@pytest.mark.parametrize("number", ["²", "١", "1.0", "-1", " 1"])
def test_a_choice_for_anything_but_a_number_of_ascii_digits_is_a_400(
    number: str, tournament: Tournament, secret: str
) -> None:
    player = make_player("Ishikawa", "Musashi")
    body = {"turnering": SAMPLE.decode(), "choices": {number: player.federation_id}}
    response = post_json(preview_url(tournament), secret, body)
    assert response.status_code == 400 and "is not a player number" in " ".join(response.json()["errors"]["choices"])


@pytest.mark.parametrize("hidden", ["\u202e", "\u200b", "\u2066"], ids=["RLO", "ZWSP", "LRI"])
def test_a_table_name_with_an_invisible_format_character_is_refused_everywhere(
    hidden: str, director: Any, tournament: Tournament, secret: str
) -> None:
    """As a player's or a tournament's name is: it would show in the table page's title."""
    name = f"Group{hidden}A"
    preview = post_json(preview_url(tournament), secret, {"turnering": SAMPLE.decode(), "table_name": name}).json()
    assert preview["ok"] is False and any("U+" in p["message"] for p in preview["problems"])
    body = {"turnering": SAMPLE.decode(), "table_name": name}
    submitted = post_json(submit_url(tournament), secret, body, HTTP_IDEMPOTENCY_KEY=f"name-{ord(hidden)}")
    assert submitted.status_code == 422 and not Table.objects.exists()

    admin = Client()
    admin.force_login(director)
    form = {"file": SimpleUploadedFile("turnering.txt", SAMPLE), "tournament": str(tournament.pk), "table_name": name}
    page = admin.post(UPLOAD_URL, form).content.decode()
    assert "U+" in page
    payload = re.search(r'name="payload" value="([^"]+)"', page)
    if payload is not None:
        admin.post(UPLOAD_URL, {"payload": payload.group(1), "confirm": "1", "submit": "on"})
    assert not Table.objects.exists()


@pytest.mark.parametrize("key", ["k" * 201, "clé", "a\tb", " "], ids=["201 characters", "not ASCII", "tab", "blank"])
def test_a_key_outside_the_schemas_limits_is_the_documented_400(key: str, tournament: Tournament, secret: str) -> None:
    response = post_json(submit_url(tournament), secret, {"turnering": SAMPLE.decode()}, HTTP_IDEMPOTENCY_KEY=key)
    assert response.status_code == 400 and "Idempotency-Key" in response.json()["errors"]
    assert not Table.objects.exists()
