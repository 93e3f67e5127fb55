"""Results straight from the director's program: preview and submit a table of a registered tournament.

``POST /api/v1/tournaments/{id}/tables/preview/`` answers, as the admin's upload preview does, every problem at
once with its file and line, how each line was matched, and the rating effect computed in memory: nothing is
written. ``POST /api/v1/tournaments/{id}/tables/submit/`` does the same and, when there is no problem, saves the
table and submits it for rating through the same import as the upload (ratings/services/fesa/turnering.py),
which re-rates after commit. Both answers are written once, with the submit's service
(ratings/services/tables/api_submissions.py), which stores the answer a retry is given; this module reads the
request and turns the service's outcome into a status.

Only a personal access token opens them (ratings/api/auth.py), for the tournaments its owner may add tables to
and that the federation accepted (``access.tournaments_for_api_tables``). A submit carries an
``Idempotency-Key``: the same key and body again get the first answer back and never a second table; the same
key with another body is refused (ratings/services/tables/api_submissions.py).
"""

from __future__ import annotations

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
from ratings.models import Tournament
from ratings.services.fesa.turnering import MAX_UPLOAD_BYTES, TurneringRequest, turnering_request_import
from ratings.services.tables.api_submissions import SubmitResult, api_table_submit, plan_answer, plan_problems

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
        if submission.nye_spillere is not None and not access.can_create_players(request.user):
            raise ValidationError({"nye_spillere": [_("You may not create players.")]})
        return submission

    def import_request(self, request: Request, tournament: Tournament, submission: Submission) -> TurneringRequest:
        """What to import, as the admin's upload builds it (ratings/admin/upload.py)."""
        return TurneringRequest(
            data=submission.data,
            file=submission.file,
            nye_spillere=submission.nye_spillere,
            tournament=tournament,
            user=request.user,
            choices=submission.choices,
            create_new=access.can_create_players(request.user),
            sequence=submission.sequence,
            table_name=submission.table_name,
        )


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
    415: OpenApiResponse(description="A body that is neither JSON nor a form the parser can read (its Content-Type)."),
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
        plan = turnering_request_import(self.import_request(request, tournament, submission))
        return Response(plan_answer(plan, players_from_line=players_from_line(submission)))


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
        outcome = api_table_submit(
            request=self.import_request(request, tournament, submission),
            key=key,
            fingerprint=submission.fingerprint(tournament.pk),
        )
        if outcome.result == SubmitResult.SAVED:
            return Response(outcome.answer, status=outcome.status_code)
        if outcome.result == SubmitResult.REPLAYED:
            return Response(outcome.answer, status=outcome.status_code, headers={"Idempotent-Replayed": "true"})
        if outcome.result == SubmitResult.REFUSED:  # nothing saved, the key freed for the corrected table
            assert outcome.plan is not None
            body = error_body(_("The table was not saved: see problems."))
            body["problems"] = plan_problems(outcome.plan, players_from_line=players_from_line(submission))
            return Response(body, status=422)
        if outcome.result == SubmitResult.KEY_REUSED:
            return Response(
                error_body(_("This Idempotency-Key was used for another request; send a new key for a new table.")),
                status=422,
            )
        raise Conflict(_("A request with this Idempotency-Key is in progress; try again shortly."))


def players_from_line(submission: Submission) -> int | None:
    """The line of the first player of a table sent as a list of players, whose problems name the player."""
    return FIRST_PLAYER_LINE if submission.from_json_table else None
