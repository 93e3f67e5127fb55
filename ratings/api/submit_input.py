"""What a director's program sends to the submission endpoints (ratings/api/submit.py), read into the bytes of a
``turnering.txt`` and the upload's options.

Three forms, one table: a ``turnering.txt`` as a file (multipart) or as text (JSON), with an optional
``nye-spillere``; or the table itself as JSON, which is written out as the ``turnering.txt`` it stands for, one
line per player, so that every check is the upload's (ratings/services/fesa/turnering.py) and its problems name
a line: the table's name is line 1, its date line 2, player *n* line *n* + 2.

The serializers check only the shape: sizes, and no character that would break a line of the file it becomes.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from django.core.validators import ProhibitNullCharactersValidator, RegexValidator
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser

from ratings.fesa_files.turnering import MAX_PLAYERS, MAX_ROUNDS
from ratings.models import Player
from ratings.services.fesa.turnering import MAX_UPLOAD_BYTES, NEW, Choice

FIRST_PLAYER_LINE = 3  # the JSON table's player n is line n + 2 of the turnering.txt it is written as
_ONE_LINE = r"^[^\[\]\x00-\x1f\x7f-\x9f]*$"
"""A text that becomes part of one line of the file: no brackets, no control characters (C0 and C1: the
trimming takes U+0085 for a space)."""
_ONE_LINE_NOT_BLANK = r"^[^\[\]\x00-\x1f\x7f-\x9f]*[^\[\]\x00-\x1f\x7f-\x9f\s][^\[\]\x00-\x1f\x7f-\x9f]*$"
"""The same, with something besides spaces (the value is trimmed: spaces alone are blank)."""
_TEXT = r"^[^\x00]*$"
"""Any text a string field takes: no NUL (every CharField refuses it; the pattern says so)."""
_DATE = r"^\d{4}-\d{2}-\d{2}(/\d{2})?$"
_CELL = r"^\d{1,4} ?[+\-=#]( ?\([+\-][0-9A-Za-z]{1,4}\))?$"
CHOICE_HELP = _(
    "For a player number (its position in the table), the federation id of the player it is, or “new”: for a "
    "name several players share or that is only close to a player's name."
)


TOO_DEEP = _("The JSON is nested too deeply for a table.")
_PLAYER_NUMBER = re.compile(r"[0-9]{1,4}")


class SubmissionJSONParser(JSONParser):
    """DRF's JSON parser, with a body nested past Python's recursion limit refused as a parse error (400)
    rather than left to raise RecursionError (a 500)."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError(TOO_DEEP) from None


class ChoicesJSONField(serializers.JSONField):
    """The multipart form's ``choices``, JSON text: nested too deeply is a field error, not a RecursionError."""

    def to_internal_value(self, data: Any) -> Any:
        try:
            return super().to_internal_value(data)
        except RecursionError:
            raise serializers.ValidationError(TOO_DEEP) from None


ONE_LINE_ONLY = _("Brackets and control characters are not allowed here.")


class TextField(serializers.CharField):
    """A free text. DRF's CharField refuses a NUL with a validator the schema does not show; here a
    ``RegexValidator`` with the same message refuses it, and the schema states it as the field's pattern. (A lone
    surrogate, which JSON can only write as an escape, is refused as DRF does: a pattern naming surrogates is one
    that schema tools written in Rust cannot read, and they then ignore it.)"""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.validators = [v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)]
        self.validators.append(RegexValidator(_TEXT, message=ProhibitNullCharactersValidator.message))


def one_line_field(**kwargs: Any) -> serializers.RegexField:
    """A ``_ONE_LINE`` text, the rule stated in the schema by its pattern. The value is trimmed before the match,
    so ``$`` cannot stop before a final newline."""
    pattern = _ONE_LINE if kwargs.get("allow_blank") else _ONE_LINE_NOT_BLANK
    return serializers.RegexField(pattern, error_messages={"invalid": ONE_LINE_ONLY}, **kwargs)


@extend_schema_field({"type": "string", "pattern": _CELL, "example": "2+"})
class CellField(serializers.RegexField):
    """One round of a player in the file's notation: opponent's number and result, a handicap in brackets
    (``2+``, ``5-(+2P)``, ``0+`` for a bye, ``0-`` absent, ``0=`` half-point bye, ``0#`` no-show)."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(_CELL, max_length=20, **kwargs)


class TablePlayerSerializer(serializers.Serializer):
    family_name = one_line_field(max_length=100)
    given_name = one_line_field(max_length=100, allow_blank=True, default="")
    nationality = serializers.RegexField(r"^([A-Za-z]{2})?$", required=False, allow_blank=True, default="")
    new = serializers.BooleanField(default=False, help_text=_("Marked as a new player (the file's N)."))
    # Spaces alone are blank: the pattern also names the spaces Python trims that a schema's \s does not match,
    # and the NUL every CharField refuses.
    federation_id = serializers.RegexField(
        r"^[^\x00]*[^\s\x00\x1c-\x1f\x85][^\x00]*$",
        max_length=20,
        required=False,
        help_text=_("The player this line is, when his name is ambiguous."),
    )
    simul_giver = serializers.BooleanField(default=False, help_text=_("Gave a simultaneous display (&)."))
    rounds = serializers.ListField(child=CellField(), max_length=MAX_ROUNDS, default=list)


class TableSerializer(serializers.Serializer):
    name = one_line_field(max_length=150)
    date = serializers.RegexField(_DATE, help_text=_("YYYY-MM-DD, or YYYY-MM-DD/DD for two days."))
    players = serializers.ListField(child=TablePlayerSerializer(), min_length=1, max_length=MAX_PLAYERS)


class OptionsSerializer(serializers.Serializer):
    choices = serializers.DictField(child=TextField(max_length=20), required=False, default=dict, help_text=CHOICE_HELP)
    sequence = serializers.IntegerField(min_value=1, required=False, allow_null=True, default=None)
    table_name = TextField(max_length=100, required=False, allow_blank=True, default="")


class JsonSubmissionSerializer(OptionsSerializer):
    """The JSON body: ``turnering`` (the file's text) or ``table``, exactly one."""

    turnering = TextField(
        required=False, trim_whitespace=False, max_length=MAX_UPLOAD_BYTES, help_text=_("The turnering.txt's text.")
    )
    nye_spillere = TextField(
        required=False, trim_whitespace=False, max_length=MAX_UPLOAD_BYTES, help_text=_("The nye-spillere's text.")
    )
    table = TableSerializer(required=False)

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "turnering" in attrs and "table" in attrs:
            raise serializers.ValidationError({"turnering": [_("Send either turnering or table, not both.")]})
        if "turnering" not in attrs and "table" not in attrs:
            raise serializers.ValidationError({"turnering": [_("Send turnering or table.")]})
        return attrs


class MultipartSubmissionSerializer(OptionsSerializer):
    """The multipart form: the files as the program writes them; ``choices`` as JSON text."""

    # An empty file is the table's reader's to refuse, with the file named among the table's problems.
    turnering = serializers.FileField(allow_empty_file=True, help_text=_("turnering.txt"))
    nye_spillere = serializers.FileField(required=False, allow_empty_file=True, help_text=_("nye-spillere"))
    choices = ChoicesJSONField(required=False, default=dict, help_text=CHOICE_HELP)  # type: ignore[assignment]

    def validate_turnering(self, upload: Any) -> Any:
        if upload.size > MAX_UPLOAD_BYTES:
            raise serializers.ValidationError(_("The file is too large for a table."))
        return upload

    def validate_nye_spillere(self, upload: Any) -> Any:
        if upload.size > MAX_UPLOAD_BYTES:
            raise serializers.ValidationError(_("The file is too large."))
        return upload

    def validate_choices(self, value: Any) -> Any:
        if not isinstance(value, dict) or not all(isinstance(v, str) for v in value.values()):
            raise serializers.ValidationError(_("A JSON object of player numbers and federation ids."))
        return value


@dataclass(frozen=True)
class Submission:
    """A submission read: the bytes the upload takes and its options."""

    data: bytes
    file: str
    nye_spillere: bytes | None
    choices: dict[int, Choice]
    sequence: int | None
    table_name: str
    from_json_table: bool

    def fingerprint(self, tournament_id: int) -> str:
        """The same submission however it was sent (a multipart boundary differs at each retry)."""
        facts = {
            "tournament": tournament_id,
            "data": hashlib.sha256(self.data).hexdigest(),
            "nye": hashlib.sha256(self.nye_spillere).hexdigest() if self.nye_spillere is not None else None,
            "choices": sorted((n, str(c)) for n, c in self.choices.items()),
            "sequence": self.sequence,
            "name": self.table_name,
        }
        return hashlib.sha256(json.dumps(facts, sort_keys=True).encode()).hexdigest()


def table_text(table: dict[str, Any]) -> str:
    """The JSON table as the ``turnering.txt`` it stands for (see the module doc for its line numbers)."""
    lines = [f"[{table['name']}]", f"[{table['date']}]"]
    for number, p in enumerate(table["players"], start=1):
        results = "&" if p["simul_giver"] else " ".join(c.replace(" ", "") for c in p["rounds"])
        free = " ".join(word for word in (p["nationality"].upper(), "N" if p["new"] else "") if word)
        lines.append(f"{number} [{p['family_name']}] [{p['given_name']}] {free} [{results}]")
    return "\n".join(lines) + "\n"


def read_submission(validated: dict[str, Any]) -> Submission:
    """The submission from a serializer's data; raises ``ValidationError`` for a federation id that names
    nobody."""
    table = validated.get("table")
    choices_text: dict[str, str] = dict(validated.get("choices") or {})
    if table is not None:
        data = table_text(table).encode("utf-8")
        file = "turnering.txt"
        for number, p in enumerate(table["players"], start=1):
            if p.get("federation_id"):
                choices_text.setdefault(str(number), p["federation_id"])
        nye = None
    else:
        turnering = validated["turnering"]
        if isinstance(turnering, str):
            data, file = turnering.encode("utf-8"), "turnering.txt"
        else:
            data, file = turnering.read(), turnering.name or "turnering.txt"
        nye_value = validated.get("nye_spillere")
        nye = (
            None if nye_value is None else nye_value.encode("utf-8") if isinstance(nye_value, str) else nye_value.read()
        )
    return Submission(
        data=data,
        file=file,
        nye_spillere=nye,
        choices=_choices(choices_text),
        sequence=validated.get("sequence"),
        table_name=validated.get("table_name") or "",
        from_json_table=table is not None,
    )


def _choices(given: dict[str, str]) -> dict[int, Choice]:
    errors = []
    ids = dict(Player.objects.filter(federation_id__in=given.values()).values_list("federation_id", "pk"))
    choices: dict[int, Choice] = {}
    for number, value in given.items():
        if not _PLAYER_NUMBER.fullmatch(number):  # str.isdigit takes "²" (no int) and "١" (read as 1)
            errors.append(_("%(number)s is not a player number.") % {"number": number[:20]})
        elif value == NEW:
            choices[int(number)] = NEW
        elif value in ids:
            choices[int(number)] = ids[value]
        else:
            errors.append(_("No player has the federation id %(id)s.") % {"id": value[:20]})
    if errors:
        raise serializers.ValidationError({"choices": errors})
    return choices
