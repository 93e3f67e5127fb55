"""Personal access tokens in the admin: a director (or a rating officer) creates his own, sees it once, and
revokes it; a rating officer sees every token and may revoke any. The rules are in ratings/services/tokens.py
and ratings/access.py; a token is never changed nor deleted here, so the list keeps who held which, and when."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django import forms
from django.conf import settings
from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from ratings import access
from ratings.models import AccessToken
from ratings.services.tokens import access_token_create, access_token_expiry_problem, access_token_revoke

DEFAULT_DAYS = 90


def _expiry(day: dt.date) -> dt.datetime:
    """A token expiring "on" a day works through that day."""
    return timezone.make_aware(dt.datetime.combine(day + dt.timedelta(days=1), dt.time.min))


def _last_day(expires_at: dt.datetime) -> dt.date:
    return timezone.localdate(expires_at - dt.timedelta(microseconds=1))


class AccessTokenForm(forms.ModelForm):
    expires_on = forms.DateField(
        label=gettext_lazy("Expires on"),
        help_text=gettext_lazy("The last day the token works (at most %(days)s days from today)."),
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    class Meta:
        model = AccessToken
        fields = ["name"]

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        days = settings.ACCESS_TOKEN_MAX_DAYS
        field = self.fields["expires_on"]
        field.help_text = str(field.help_text) % {"days": days}
        field.initial = timezone.localdate() + dt.timedelta(days=min(DEFAULT_DAYS, days) - 1)

    def clean_expires_on(self) -> dt.date:
        day: dt.date = self.cleaned_data["expires_on"]
        problem = access_token_expiry_problem(expires_at=_expiry(day), now=timezone.now())
        if problem:
            raise ValidationError(problem)
        return day


@admin.register(AccessToken)
class AccessTokenAdmin(admin.ModelAdmin):
    form = AccessTokenForm
    list_display = ["name", "prefix_shown", "user", "created_at", "last_day", "last_used_at", "state"]
    list_filter = ["created_at"]
    list_select_related = ["user", "revoked_by"]
    search_fields = ["name", "prefix", "user__username"]
    readonly_fields = ["name", "prefix_shown", "user", "created_at", "last_day", "last_used_at", "state"]
    actions = ["revoke"]

    @admin.display(description=gettext_lazy("begins with"))
    def prefix_shown(self, token: AccessToken) -> str:
        return f"{token.prefix}…"

    @admin.display(description=gettext_lazy("Expires on"), ordering="expires_at")
    def last_day(self, token: AccessToken) -> dt.date:
        return _last_day(token.expires_at)

    @admin.display(description=gettext_lazy("state"))
    def state(self, token: AccessToken) -> str:
        if token.revoked_at is not None:
            return _("revoked on %(date)s by %(user)s") % {
                "date": timezone.localdate(token.revoked_at).isoformat(),
                "user": token.revoked_by or "—",
            }
        if not token.is_active():
            return _("expired")
        return _("active")

    def get_queryset(self, request: HttpRequest) -> QuerySet[AccessToken]:
        return access.access_tokens_visible(request.user, super().get_queryset(request))

    def get_fields(self, request: HttpRequest, obj: Any = None) -> tuple[str, ...]:
        return ("name", "expires_on") if obj is None else tuple(self.readonly_fields)

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        return [] if obj is None else list(self.readonly_fields)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return access.may_hold_access_token(request.user) and super().has_add_permission(request)

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # a token is revoked (the action), never edited

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False  # kept, revoked: the list says who held which token

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return super().has_view_permission(request, obj) and (
            obj is None or access.can_revoke_access_token(request.user, obj)
        )

    def has_revoke_permission(self, request: HttpRequest) -> bool:
        return access.may_hold_access_token(request.user)

    @admin.action(description=gettext_lazy("Revoke the selected tokens"), permissions=["revoke"])
    def revoke(self, request: HttpRequest, queryset: QuerySet[AccessToken]) -> None:
        done = 0
        for token in queryset:
            if access.can_revoke_access_token(request.user, token):
                done += access_token_revoke(token=token, user=request.user)
        messages.success(
            request, ngettext("%(count)s token was revoked.", "%(count)s tokens were revoked.", done) % {"count": done}
        )

    def save_model(self, request: HttpRequest, obj: AccessToken, form: Any, change: bool) -> None:
        token, secret = access_token_create(
            user=request.user, name=form.cleaned_data["name"], expires_at=_expiry(form.cleaned_data["expires_on"])
        )
        obj.pk, obj.prefix = token.pk, token.prefix
        request.access_token_secret = secret  # type: ignore[attr-defined]  # this request's only: the admin is shared

    def response_add(self, request: HttpRequest, obj: AccessToken, post_url_continue: Any = None) -> HttpResponse:
        """The token, this once: it is not stored, so it never goes into a message, the session or a URL."""
        token = AccessToken.objects.get(pk=obj.pk)
        context = {
            **self.admin_site.each_context(request),
            "opts": self.opts,
            "title": _("Your new access token"),
            "token": token,
            "expires_on": _last_day(token.expires_at),
            "secret": request.access_token_secret,  # type: ignore[attr-defined]
            "list_url": reverse("admin:ratings_accesstoken_changelist"),
            "docs_url": reverse("api-v1:docs"),
        }
        return TemplateResponse(request, "admin/ratings/accesstoken/created.html", context)  # the admin: no-store
