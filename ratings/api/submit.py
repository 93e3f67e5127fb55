"""Results straight from the director's program: preview and submit a table of a registered tournament.

``POST /api/v1/tournaments/{id}/tables/preview/`` answers, as the admin's upload preview does, every problem at
once with its file and line, how each line was matched, and the rating effect computed in memory: nothing is
written. ``POST /api/v1/tournaments/{id}/tables/submit/`` does the same and, when there is no problem, saves the
table and submits it for rating through the same service as the upload (ratings/services/fesa/turnering.py),
which re-rates after commit.

Only a personal access token opens them (ratings/api/auth.py), for the tournaments its owner may add tables to
and that the federation accepted (``access.tournaments_for_api_tables``). A submit carries an
``Idempotency-Key``: the same key and body again get the first answer back and never a second table; the same
key with another body is refused (ratings/services/tables/api_submissions.py).
"""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers, status
from rest_framework.exceptions import APIException, NotFound, PermissionDenied, ValidationError
from rest_framework.parsers import MultiPartParser
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from ratings import access
from ratings.api.auth import AccessTokenAuthentication
from ratings.api.errors import error_body
from ratings.api.submit_input import (
    FIRST_PLAYER_LINE,
    JsonSubmissionSerializer,
    MultipartSubmissionSerializer,
    Submission,
    SubmissionJSONParser,
    read_submission,
)
from ratings.api.throttling import ApiSubmitThrottle
from ratings.models import Player, Table, Tournament
from ratings.services.fesa.turnering import MAX_UPLOAD_BYTES, NEW, TurneringPlan, TurneringRejected, turnering_import
from ratings.services.tables.api_submissions import api_table_submit

IDEMPOTENCY_HEADER = "Idempotency-Key"
MAX_KEY = 200
KEY_SCHEMA = {"type": "string", "minLength": 1, "maxLength": MAX_KEY, "pattern": "^[!-~](?:[ -~]*[!-~])?$"}
"""What the key may be, as the schema states it: 1 to 200 printable ASCII characters (else 400)."""
MAX_BODY = 3 * MAX_UPLOAD_BYTES  # a table and its nye-spillere, encoded; refused before it is read


class PayloadTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_detail = gettext_lazy("The request is larger than a table and its new players can be.")


class SubmissionView(APIView):
    authentication_classes = [AccessTokenAuthentication]
    permission_classes = [IsAuthenticated]
    throttle_classes = [ApiSubmitThrottle]
    parser_classes = [SubmissionJSONParser, MultiPartParser]

    def tournament(self, request: Request, pk: int) -> Tournament:
        """The tournament, if the token's owner may send its tables: 404 for none, 403 for another's, 409 for
        one the federation has not accepted."""
        tournament = Tournament.objects.filter(pk=pk).first()
        if tournament is None:
            raise NotFound(_("No such tournament."))
        if not access.tournaments_for_new_tables(request.user).filter(pk=pk).exists():
            raise PermissionDenied(_("This token may send tables of its owner's tournaments only."))
        if not access.tournaments_for_api_tables(request.user).filter(pk=pk).exists():
            raise Conflict(_("The tournament is not registered and accepted by the federation."))
        return tournament

    def read(self, request: Request) -> Submission:
        length = request.META.get("CONTENT_LENGTH") or "0"
        if not length.isdigit() or int(length) > MAX_BODY:
            raise PayloadTooLarge
        multipart = request.content_type.startswith("multipart/")
        serializer_class = MultipartSubmissionSerializer if multipart else JsonSubmissionSerializer
        serializer = serializer_class(data=request.data)
        serializer.is_valid(raise_exception=True)
        submission = read_submission(serializer.validated_data)
        if submission.nye_spillere is not None and not request.user.has_perm("ratings.add_player"):
            raise ValidationError({"nye_spillere": [_("You may not create players.")]})
        return submission

    def import_kwargs(self, request: Request, tournament: Tournament, submission: Submission) -> dict[str, Any]:
        """The upload's arguments, as the admin's upload passes them (ratings/admin/upload.py)."""
        return {
            "data": submission.data,
            "file": submission.file,
            "nye_spillere": submission.nye_spillere,
            "tournament": tournament,
            "user": request.user,
            "choices": submission.choices,
            "create_new": request.user.has_perm("ratings.add_player"),
            "sequence": submission.sequence,
            "table_name": submission.table_name,
        }


class Conflict(PermissionDenied):
    status_code = status.HTTP_409_CONFLICT


PROBLEM = inline_serializer(
    "Problem",  # the error shape's (ratings/api/schema.py): the same items in a preview and a refused submit
    {
        "file": serializers.CharField(),
        "line": serializers.IntegerField(allow_null=True),
        "player": serializers.IntegerField(required=False),
        "message": serializers.CharField(),
    },
    many=True,
)
PLAN_FIELDS = {
    "ok": serializers.BooleanField(),
    "problems": PROBLEM,
    "notes": serializers.ListField(child=serializers.CharField()),
    "table": inline_serializer(
        "TablePreview",
        {
            "name": serializers.CharField(),
            "date": serializers.DateField(),
            "rounds": serializers.IntegerField(),
            "sequence": serializers.IntegerField(allow_null=True),
        },
        allow_null=True,
    ),
    "players": inline_serializer(
        "LinePreview",
        {
            "number": serializers.IntegerField(),
            "line": serializers.IntegerField(allow_null=True),
            "family_name": serializers.CharField(),
            "given_name": serializers.CharField(),
            "results": serializers.CharField(),
            "points": serializers.CharField(),
            "player": serializers.CharField(allow_null=True, help_text="The federation id it matched."),
            "new_player": serializers.BooleanField(),
            "candidates": inline_serializer(
                "Candidate",
                {"federation_id": serializers.CharField(), "label": serializers.CharField()},
                many=True,
                help_text="The players a name may mean, when it needs a choice (see ``choices``).",
            ),
        },
        many=True,
    ),
    "rating_effect": inline_serializer(
        "RatingEffect",
        {
            "number": serializers.IntegerField(),
            "name": serializers.CharField(),
            "method": serializers.CharField(),
            "rating_before": serializers.IntegerField(),
            "rating_after": serializers.IntegerField(),
            "change": serializers.IntegerField(allow_null=True),
            "games": serializers.IntegerField(),
            "score": serializers.FloatField(),
            "new_player": serializers.BooleanField(),
            "grade_before": serializers.CharField(),
            "promoted_to": serializers.CharField(),
        },
        many=True,
    ),
}
PREVIEW = inline_serializer("SubmissionPreview", PLAN_FIELDS)
SAVED = inline_serializer(
    "SubmissionSaved",
    {
        **PLAN_FIELDS,
        "table_id": serializers.IntegerField(),
        "table_url": serializers.CharField(),
        "status": serializers.CharField(),
        "created_players": serializers.IntegerField(),
    },
)
REFUSED = OpenApiResponse(
    description="Not saved: ``problems`` lists every problem of the table, each with its file and line; or the "
    "Idempotency-Key was used for another request."
)
REQUEST = {"application/json": JsonSubmissionSerializer, "multipart/form-data": MultipartSubmissionSerializer}
EXAMPLE = OpenApiExample(
    "A table as JSON",
    request_only=True,
    value={
        "table": {
            "name": "Paris Open 2026",
            "date": "2026-06-13",
            "players": [
                {"family_name": "Dupont", "given_name": "Jean", "nationality": "FR", "rounds": ["2+"]},
                {"family_name": "Martin", "given_name": "Luc", "nationality": "FR", "rounds": ["1-"]},
            ],
        }
    },
)
DENIED = OpenApiResponse(description="Another director's tournament.")
COMMON = {
    400: OpenApiResponse(
        description="A body or header of the wrong shape, with `errors` naming each field: JSON nested too deeply, "
        "a value too long or holding a control character, a choice that is not a player number or names nobody, "
        "an Idempotency-Key that is not 1 to 200 printable ASCII characters."
    ),
    401: OpenApiResponse(description="No access token, or an invalid, expired or revoked one."),
    403: DENIED,
    409: OpenApiResponse(description="The tournament is not registered and accepted by the federation."),
    413: OpenApiResponse(description="A body larger than a table and its new players can be."),
}


class PreviewView(SubmissionView):
    @extend_schema(
        operation_id="tables_preview",
        summary="Check a table and preview its rating effect; nothing is saved",
        request=REQUEST,
        examples=[EXAMPLE],
        responses={200: PREVIEW, **COMMON},
        tags=["submission"],
    )
    def post(self, request: Request, pk: int) -> Response:
        tournament = self.tournament(request, pk)
        submission = self.read(request)
        plan = turnering_import(**self.import_kwargs(request, tournament, submission))
        return Response(plan_answer(plan, submission))


class SubmitView(SubmissionView):
    @extend_schema(
        operation_id="tables_submit",
        summary="Save a table and submit it for rating",
        request=REQUEST,
        examples=[EXAMPLE],
        parameters=[
            OpenApiParameter(
                IDEMPOTENCY_HEADER,
                type=KEY_SCHEMA,
                location=OpenApiParameter.HEADER,
                required=True,
                description="A key of the client's choosing, new for each table (a UUID): a retry with the same "
                "key and body gets the first answer back and saves nothing more. 1 to 200 printable ASCII "
                "characters; any other is refused with 400.",
            )
        ],
        responses={
            201: SAVED,
            422: REFUSED,
            **COMMON,
            409: OpenApiResponse(
                description="The tournament is not registered and accepted, or a request with this key is in progress."
            ),
        },
        tags=["submission"],
    )
    def post(self, request: Request, pk: int) -> Response:
        key = request.headers.get(IDEMPOTENCY_HEADER, "").strip()
        if not key or len(key) > MAX_KEY or not key.isascii() or not key.isprintable():
            raise ValidationError(
                {IDEMPOTENCY_HEADER: [_("Send a key of 1 to %(max)s printable characters.") % {"max": MAX_KEY}]}
            )
        tournament = self.tournament(request, pk)
        submission = self.read(request)
        fingerprint = submission.fingerprint(tournament.pk)
        try:
            earlier, answer = api_table_submit(
                key=key,
                fingerprint=fingerprint,
                answer=lambda plan: saved_answer(plan, submission),
                import_kwargs=self.import_kwargs(request, tournament, submission),
            )
        except TurneringRejected as exc:  # nothing saved, the key freed for the corrected table
            body = error_body(_("The table was not saved: see problems."))
            body["problems"] = problems(exc.plan, submission)
            return Response(body, status=422)
        if earlier is None:
            return Response(answer, status=201)
        if earlier.fingerprint != fingerprint:
            return Response(
                error_body(_("This Idempotency-Key was used for another request; send a new key for a new table.")),
                status=422,
            )
        if earlier.answer is None:
            raise Conflict(_("A request with this Idempotency-Key is in progress; try again shortly."))
        return Response(earlier.answer, status=earlier.status_code or 201, headers={"Idempotent-Replayed": "true"})


def problems(plan: TurneringPlan, submission: Submission) -> list[dict[str, Any]]:
    out = []
    for p in plan.problems:
        item: dict[str, Any] = {"file": p.file, "line": p.line, "message": p.message}
        if submission.from_json_table and p.line is not None and p.line >= FIRST_PLAYER_LINE:
            item["player"] = p.line - FIRST_PLAYER_LINE + 1
        out.append(item)
    return out


def plan_answer(plan: TurneringPlan, submission: Submission) -> dict[str, Any]:
    """The preview as JSON: what the admin's preview shows."""
    ids = {line.choice for line in plan.lines if isinstance(line.choice, int) and line.choice > 0}
    ids |= {c.player_id for line in plan.lines for c in line.match.candidates}
    federation_ids = dict(Player.objects.filter(pk__in=ids).values_list("pk", "federation_id"))
    turnering = plan.turnering
    return {
        "ok": plan.ok,
        "problems": problems(plan, submission),
        "notes": list(plan.notes),
        "table": None
        if turnering is None
        else {
            "name": turnering.name,
            "date": turnering.date.isoformat(),
            "rounds": turnering.rounds,
            "sequence": plan.sequence,
        },
        "players": [
            {
                "number": line.number,
                "line": line.line,
                "family_name": line.family_name,
                "given_name": line.given_name,
                "results": line.results,
                "points": line.points,
                "player": federation_ids.get(line.choice) if isinstance(line.choice, int) else None,
                "new_player": line.choice == NEW or line.from_new_players,
                "candidates": [
                    {"federation_id": federation_ids[c.player_id], "label": c.label}
                    for c in line.match.candidates
                    if c.player_id in federation_ids
                ],
            }
            for line in plan.lines
        ],
        "rating_effect": [
            {
                "number": e.number,
                "name": e.name,
                "method": e.method,
                "rating_before": e.rating_before,
                "rating_after": e.rating_after,
                "change": e.change,
                "games": e.games,
                "score": e.score,
                "new_player": e.new_player,
                "grade_before": e.grade_before,
                "promoted_to": e.promoted_to,
            }
            for e in plan.effects
        ],
    }


def saved_answer(plan: TurneringPlan, submission: Submission) -> dict[str, Any]:
    assert plan.table_id is not None, "a saved plan has its table"
    table = Table.objects.get(pk=plan.table_id)
    return {
        **plan_answer(plan, submission),
        "table_id": table.pk,
        "table_url": reverse("api-v1:table", args=[table.pk]),
        "status": table.status,
        "created_players": plan.created_players,
    }
