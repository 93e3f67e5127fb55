"""Directors' personal access tokens (ratings/models/tokens.py): create, revoke, and the one check every API
request that carries a token goes through.

A token is ``fesa_`` and 43 characters of ``secrets.token_urlsafe(32)`` (256 bits): the prefix lets a secret
scanner, and a person, recognise one. Only the SHA-256 digest of the whole token is stored; a random secret of
that length needs no salt nor slow hash (those are for passwords people choose), and the digest is looked up
through its unique index.

Why not a library: django-rest-knox deletes a user's expired tokens whenever he authenticates and revokes by
deleting, so an officer would lose the list of who held which token; djangorestframework-api-key is, in its own
words, not meant to identify users, and checks keys as a permission rather than an authentication. Both would
still need the admin that shows a token once, its last use and its scope written here.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import secrets
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from ratings.access import can_revoke_access_token, may_hold_access_token
from ratings.models import AccessToken

TOKEN_PREFIX = "fesa_"  # noqa: S105 - the recognisable start of every token, no secret
SHOWN_CHARACTERS = 12  # the prefix and a few characters: enough to tell one's tokens apart, useless to guess
LAST_USED_EVERY = dt.timedelta(minutes=1)  # a busy client does not write on every request


def token_digest(secret: str) -> str:
    return hashlib.sha256(secret.encode("utf-8", "surrogatepass")).hexdigest()


def access_token_expiry_problem(*, expires_at: dt.datetime, now: dt.datetime) -> str | None:
    """Why ``expires_at`` is refused: in the past, or further than ``ACCESS_TOKEN_MAX_DAYS``."""
    if expires_at <= now:
        return _("The expiry must be in the future.")
    if expires_at > now + dt.timedelta(days=settings.ACCESS_TOKEN_MAX_DAYS):
        return _("A token may live at most %(days)s days.") % {"days": settings.ACCESS_TOKEN_MAX_DAYS}
    return None


@transaction.atomic
def access_token_create(*, user: Any, name: str, expires_at: dt.datetime) -> tuple[AccessToken, str]:
    """A new token for ``user`` (for himself only); returns it and its secret, which is never stored nor shown
    again. Raises ``ValidationError`` by field."""
    if not may_hold_access_token(user):
        raise ValidationError(_("Only tournament directors and rating officers may hold an access token."))
    problem = access_token_expiry_problem(expires_at=expires_at, now=timezone.now())
    if problem:
        raise ValidationError({"expires_at": problem})
    if not name.strip():
        raise ValidationError({"name": _("Name the token.")})
    secret = TOKEN_PREFIX + secrets.token_urlsafe(32)
    token = AccessToken.objects.create(
        user=user,
        name=name.strip(),
        prefix=secret[:SHOWN_CHARACTERS],
        digest=token_digest(secret),
        expires_at=expires_at,
    )
    return token, secret


def access_token_revoke(*, token: AccessToken, user: Any) -> bool:
    """Revoke ``token`` for good; False when it was revoked already. Raises PermissionError for a user who may
    not (its owner and rating officers may)."""
    if not can_revoke_access_token(user, token):
        raise PermissionError(_("You may not revoke this token."))
    now = timezone.now()
    # Compare and set: two officers revoking at once record one of them.
    done = AccessToken.objects.filter(pk=token.pk, revoked_at__isnull=True).update(revoked_at=now, revoked_by=user)
    if done:
        token.revoked_at, token.revoked_by = now, user
    return bool(done)


def access_token_use(*, secret: str) -> AccessToken | None:
    """The active token whose secret this is, its use recorded; None for an unknown, revoked or expired one, or
    one whose owner was deactivated."""
    if not secret.startswith(TOKEN_PREFIX) or len(secret) > 200:
        return None
    token = AccessToken.objects.select_related("user").filter(digest=token_digest(secret)).first()
    now = timezone.now()
    if token is None or not token.is_active(now) or not token.user.is_active:
        return None
    if token.last_used_at is None or now - token.last_used_at >= LAST_USED_EVERY:
        AccessToken.objects.filter(pk=token.pk).update(last_used_at=now)
        token.last_used_at = now
    return token
