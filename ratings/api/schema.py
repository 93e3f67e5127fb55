"""The API's schema, made to say what the API does (a drf-spectacular post-processing hook).

* One error shape on every error answer (ratings/api/errors.py): ``Error``.
* 401, 403, 409 and 422 (the directors' submission endpoints, ratings/api/submit.py) in the same shape; a refused
  table's ``problems`` list every problem with its file and line.
* 400 and 404 on every operation: each refuses an unknown, repeated or malformed parameter (ratings/api/params.py)
  and answers 404 for what does not exist (a player, a table, a page past the last); 429 past the client's limit.
* A table sent as JSON holds ``turnering`` or ``table``, exactly one (ratings/api/submit_input.py): a body with
  neither or both, or no body, is not one the schema allows. A form field cannot be null: left out, it takes its
  default; a file part holds something.
* Each parameter as the API reads it: a country one of the ISO 3166 codes, free text without control characters
  and no longer than the API takes (the site refuses both, federation/middleware.py), pages whole numbers from 1.
"""

from __future__ import annotations

from typing import Any

from django_countries import countries

from ratings.selectors.search import MAX_QUERY

NO_CONTROL_CHARACTERS = "^[^\\u0000-\\u001F\\u007F]*$"
TEXT_LENGTH = {"q": MAX_QUERY}
TEXT_LENGTH_DEFAULT = 100  # federation ids and other path values are far shorter; longer ones name nothing

PROBLEM = {
    "type": "object",
    "description": "A problem of a table: its file and line (null when no one line is to blame); for a table sent "
    "as JSON, ``player`` is the number of the player in error.",
    "properties": {
        "file": {"type": "string"},
        "line": {"type": "integer", "nullable": True},
        "player": {"type": "integer"},
        "message": {"type": "string"},
    },
    "required": ["file", "line", "message"],
}
ERROR = {
    "type": "object",
    "description": "Every error answer. ``errors``, on a 400 only, gives each parameter in error its messages; "
    "``problems``, on a table refused by a submit (422), every problem of the table.",
    "properties": {
        "detail": {"type": "string"},
        "errors": {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "string"}}},
        "problems": {"type": "array", "items": {"$ref": "#/components/schemas/Problem"}},
    },
    "required": ["detail"],
}
TABLE_BODY_REQUIRED = {"tables_preview", "tables_submit"}
ERROR_REF = {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}
BAD_REQUEST = {
    "description": "An unknown, repeated, empty or malformed parameter: ``errors`` names each.",
    "content": ERROR_REF,
}
NOT_FOUND = {"description": "No such player, table, list or page.", "content": ERROR_REF}
TOO_MANY = {
    "description": "Too many requests from this address: wait as many seconds as Retry-After says.",
    "headers": {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."}},
    "content": ERROR_REF,
}


def _describe(parameter: dict[str, Any]) -> None:
    schema = parameter.setdefault("schema", {})
    if parameter["name"] == "country":
        schema["enum"] = [code for code, _ in countries]
        parameter.setdefault("description", "ISO 3166 code.")
    elif schema.get("type") == "string" and "enum" not in schema and "format" not in schema:
        schema.setdefault("pattern", NO_CONTROL_CHARACTERS)  # a view's own (the Idempotency-Key's) stays
        schema.setdefault("maxLength", TEXT_LENGTH.get(parameter["name"], TEXT_LENGTH_DEFAULT))


def add_error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    schemas = result.setdefault("components", {}).setdefault("schemas", {})
    schemas["Error"], schemas["Problem"] = ERROR, PROBLEM
    json_table = schemas.get("JsonSubmissionRequest")
    if json_table is not None:
        json_table["oneOf"] = [{"required": ["turnering"]}, {"required": ["table"]}]
    for field in schemas.get("MultipartSubmissionRequest", {}).get("properties", {}).values():
        field.pop("nullable", None)
        if field.get("format") == "binary":
            field["minLength"] = 1  # a part without content is no file to Django's form parser
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            if operation.get("operationId") in TABLE_BODY_REQUIRED:
                operation["requestBody"]["required"] = True
            for parameter in operation.get("parameters", []):
                _describe(parameter)
            responses = operation.setdefault("responses", {})
            responses.setdefault("400", BAD_REQUEST)
            responses.setdefault("404", NOT_FOUND)
            responses.setdefault("429", TOO_MANY)
            for status, response in responses.items():
                if status.startswith("4") and "content" not in response:
                    response["content"] = ERROR_REF
                if status.startswith("30") and "headers" not in response:
                    response["headers"] = {"Location": {"schema": {"type": "string"}, "description": "Where to ask."}}
    return result
