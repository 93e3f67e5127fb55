"""The one way to authenticate with the API: a director's personal access token (ratings/services/tokens.py) as
``Authorization: Bearer fesa_…``. Only the submission endpoints take it; no session and so no CSRF token is
involved, and the read-only endpoints stay anonymous."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from rest_framework import exceptions
from rest_framework.authentication import BaseAuthentication, get_authorization_header
from rest_framework.request import Request

from ratings.services.tokens import access_token_use

KEYWORD = "Bearer"


class AccessTokenAuthentication(BaseAuthentication):
    """``request.user`` the token's owner, ``request.auth`` the token; 401 for a missing, unknown, expired or
    revoked token (one message for all: which of them is nobody's business but the owner's)."""

    def authenticate(self, request: Request) -> tuple[Any, Any] | None:
        words = get_authorization_header(request).split()
        if not words or words[0].lower() != KEYWORD.lower().encode():
            return None
        if len(words) != 2:
            raise exceptions.AuthenticationFailed(_("Send the header as: Authorization: Bearer <token>."))
        try:
            secret = words[1].decode("ascii")
        except UnicodeDecodeError as exc:
            raise exceptions.AuthenticationFailed(_("Invalid, expired or revoked access token.")) from exc
        token = access_token_use(secret=secret)
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid, expired or revoked access token."))
        return token.user, token

    def authenticate_header(self, request: Request) -> str:
        return f'{KEYWORD} realm="api"'


class AccessTokenScheme(OpenApiAuthenticationExtension):  # type: ignore[no-untyped-call]
    """The scheme in the OpenAPI schema."""

    target_class = "ratings.api.auth.AccessTokenAuthentication"
    name = "accessToken"

    def get_security_definition(self, auto_schema: Any) -> dict[str, str]:
        return {
            "type": "http",
            "scheme": "bearer",
            "description": "A director's personal access token (fesa_…), created in the admin under "
            "“Access tokens” and shown once. It expires, may be revoked, and lets its owner send tables "
            "of his own registered tournaments only.",
        }
