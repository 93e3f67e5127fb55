"""The error answers every API operation can give, added to the OpenAPI schema (a drf-spectacular hook)."""

from __future__ import annotations

from typing import Any

DETAIL = {
    "type": "object",
    "properties": {"detail": {"type": "string"}},
    "required": ["detail"],
}
FIELD_ERRORS = {
    "type": "object",
    "description": "For each parameter in error, its messages.",
    "additionalProperties": {"type": "array", "items": {"type": "string"}},
}
NOT_FOUND = {"description": "No such page, player or table.", "content": {"application/json": {"schema": DETAIL}}}
BAD_REQUEST = {"description": "A malformed parameter.", "content": {"application/json": {"schema": FIELD_ERRORS}}}
TOO_MANY = {
    "description": "Too many requests from this address: wait as many seconds as Retry-After says.",
    "headers": {"Retry-After": {"schema": {"type": "integer"}, "description": "Seconds to wait."}},
    "content": {"application/json": {"schema": DETAIL}},
}


def add_error_responses(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    """429 on every operation; 404 on those with a path parameter or pages; 400 on those with filters."""
    for operations in result.get("paths", {}).values():
        for operation in operations.values():
            responses = operation.setdefault("responses", {})
            parameters = operation.get("parameters", [])
            responses.setdefault("429", TOO_MANY)
            if any(p["in"] == "path" or p["name"] == "page" for p in parameters):
                responses.setdefault("404", NOT_FOUND)
            if any(p["in"] == "query" and p["name"] not in {"page", "page_size"} for p in parameters):
                responses.setdefault("400", BAD_REQUEST)
    return result
