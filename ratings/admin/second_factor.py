"""The admin's second factor: a one-time code from an authenticator app (TOTP), with recovery codes.

Rating and grade officers and superusers can change any player's rating or grade, so while the site requires it
(SECOND_FACTOR_REQUIRED, on unless DEBUG) their login opens the admin only after a code (ratings/access.py
``needs_second_factor``); a director may set one up for himself, and is then asked for it too. The first visit
after login sets the authenticator up (a QR code to scan, one code to confirm it) and shows ten recovery codes
once, each good for one login. Codes are checked by django-otp, which also slows down repeated wrong guesses.

docs/deploy.md says how the first officer sets it up and what to do when a phone is lost.
"""

from __future__ import annotations

import base64
from collections.abc import Callable
from typing import Any
from urllib.parse import urlencode

import segno
from django import forms
from django.conf import settings
from django.contrib import admin
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import path, reverse
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_otp import login as otp_login
from django_otp import match_token, user_has_device
from django_otp.plugins.otp_static.models import StaticDevice, StaticToken
from django_otp.plugins.otp_totp.models import TOTPDevice

from ratings import access

RECOVERY_CODES = 10
AUTHENTICATOR = "Authenticator"
RECOVERY = "Recovery codes"


class CodeForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Code"),
        max_length=16,
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "inputmode": "numeric", "autofocus": True}),
    )


def _next(request: HttpRequest) -> str:
    """Where to go once the code is accepted: the admin page asked for, never another site."""
    target = request.POST.get("next") or request.GET.get("next") or ""
    if url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return reverse("admin:index")


def _to(name: str, next_url: str) -> str:
    return reverse(name) + "?" + urlencode({"next": next_url})


def _context(request: HttpRequest, **extra: Any) -> dict[str, Any]:
    return {**admin.site.each_context(request), "next": _next(request), **extra}


@login_required(login_url="admin:login")
def verify(request: HttpRequest) -> HttpResponse:
    """Ask for a code from the authenticator, or one of the recovery codes."""
    if not user_has_device(request.user):
        return HttpResponseRedirect(_to("second_factor:setup", _next(request)))
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        device = match_token(request.user, form.cleaned_data["code"].replace(" ", ""))
        if device is not None:
            otp_login(request, device)
            return HttpResponseRedirect(_next(request))
        form.add_error("code", _("That code is not right, or was used already. Try the next one."))
    return render(request, "admin/second_factor/verify.html", _context(request, form=form, title=_("Second factor")))


def _qr_svg(url: str) -> str:
    """The authenticator's address as an inline SVG QR code (no image request, nothing inline the CSP forbids)."""
    return segno.make(url, error="m").svg_inline(scale=5, dark="#000", light="#fff")


@login_required(login_url="admin:login")
def setup(request: HttpRequest) -> HttpResponse:
    """Set up the authenticator: scan, type one code to confirm; then the recovery codes, shown once."""
    user = request.user
    if TOTPDevice.objects.filter(user=user, confirmed=True).exists():
        return HttpResponseRedirect(_to("second_factor:verify", _next(request)))
    device, _created = TOTPDevice.objects.get_or_create(user=user, confirmed=False, defaults={"name": AUTHENTICATOR})
    form = CodeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        if device.verify_token(form.cleaned_data["code"].replace(" ", "")):
            codes = _confirm(device)
            otp_login(request, device)
            context = _context(request, codes=codes, title=_("Your recovery codes"))
            return render(request, "admin/second_factor/recovery_codes.html", context)
        form.add_error("code", _("That code is not right. Check the phone's clock and try the next code."))
    context = _context(
        request,
        form=form,
        qr=mark_safe(_qr_svg(device.config_url)),  # noqa: S308 - segno's own SVG markup, no user text in it
        secret=_base32(device),
        title=_("Set up the second factor"),
    )
    return render(request, "admin/second_factor/setup.html", context)


def _base32(device: TOTPDevice) -> str:
    """The secret as people type it into an app that cannot scan (groups of four)."""
    text = base64.b32encode(device.bin_key).decode().rstrip("=")
    return " ".join(text[i : i + 4] for i in range(0, len(text), 4))


@transaction.atomic
def _confirm(device: TOTPDevice) -> list[str]:
    """Confirm the authenticator and replace the recovery codes with new ones; return them (shown once)."""
    device.confirmed = True
    device.save(update_fields=["confirmed"])
    recovery, _created = StaticDevice.objects.get_or_create(user=device.user, name=RECOVERY)
    recovery.token_set.all().delete()
    codes = [StaticToken.random_token() for _ in range(RECOVERY_CODES)]
    StaticToken.objects.bulk_create(StaticToken(device=recovery, token=code) for code in codes)
    return codes


def require_second_factor(get_response: Callable[[HttpRequest], HttpResponse]) -> Callable[[HttpRequest], HttpResponse]:
    """Send a user who needs a second factor and has not given it this session to the code page, from any
    admin page but the login, the logout and the code pages themselves."""
    admin_prefix = "/" + settings.ADMIN_URL.lstrip("/")
    open_paths = (admin_prefix + "login/", admin_prefix + "logout/", admin_prefix + "second-factor/")

    def middleware(request: HttpRequest) -> HttpResponse:
        user = getattr(request, "user", None)
        if (
            request.path.startswith(admin_prefix)
            and not request.path.startswith(open_paths)
            and user is not None
            and user.is_authenticated
            and not user.is_verified()
            and access.needs_second_factor(user)
        ):
            return HttpResponseRedirect(_to("second_factor:verify", request.get_full_path()))
        return get_response(request)

    return middleware


app_name = "second_factor"
urlpatterns = [
    path("", verify, name="verify"),
    path("setup/", setup, name="setup"),
]
