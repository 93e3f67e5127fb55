"""E-mail about a player, without an account: the form that asks for it, the confirmation link's page and the
one-click unsubscribe (ratings/services/season/subscriptions.py).

These pages are never kept in the page cache (they carry a CSRF token or a personal link) and never show an
address. The answer to the form is the same whether the address was new, waiting or subscribed already.
"""

from __future__ import annotations

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_http_methods

from ratings.services.season.subscriptions import (
    confirm_payload,
    subscription_cancel,
    subscription_confirm,
    subscription_confirmed,
    subscription_request,
    unsubscribe_id,
    unsubscribe_token,
)
from ratings.web.forms import SubscribeForm
from ratings.web.throttling import SubscribeThrottle
from ratings.web.views.players import player_or_404


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def subscribe(request: HttpRequest, federation_id: str) -> HttpResponse:
    """The form: an address, a language (the page's by default) and the events; then the same answer for all."""
    player = player_or_404(federation_id)
    status = 200
    if request.method == "POST":
        form = SubscribeForm(request.POST)
        if not form.is_valid():
            status = 400
        elif not SubscribeThrottle().allow_request(request, None):
            form.add_error(None, _("Too many requests from your address: try again later."))
            status = 429
        else:
            data = form.cleaned_data
            subscription_request(
                player=player,
                email=data["email"],
                language=data["language"],
                on_tables=data["on_tables"],
                on_grades=data["on_grades"],
            )
            return redirect("ratings:subscribe_sent", federation_id=player.federation_id)
    else:
        form = SubscribeForm(initial={"language": translation.get_language() or settings.LANGUAGE_CODE})
    return render(request, "ratings/subscribe.html", {"player": player, "form": form}, status=status)


@never_cache
def subscribe_sent(request: HttpRequest, federation_id: str) -> HttpResponse:
    player = player_or_404(federation_id)
    return render(request, "ratings/subscribe_sent.html", {"player": player})


@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def subscription_confirm_view(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a button (a mail program that follows links to check them must not confirm for the person);
    POST confirms."""
    payload = confirm_payload(token)
    if payload is None:
        return render(request, "ratings/subscription_confirm.html", {"state": "invalid"}, status=400)
    if request.method != "POST":
        # A link opened again once confirmed says so, rather than asking as if nothing had been done.
        subscription = subscription_confirmed(payload)
        if subscription is None:
            return render(request, "ratings/subscription_confirm.html", {"state": "ask"})
    else:
        subscription = subscription_confirm(token=token)
        if subscription is None:
            return render(request, "ratings/subscription_confirm.html", {"state": "invalid"}, status=400)
    # The way to stop them at once, before the first message brings its own.
    context = {"state": "done", "player": subscription.player, "stop": unsubscribe_token(subscription)}
    return render(request, "ratings/subscription_confirm.html", context)


@csrf_exempt  # RFC 8058: the mail program POSTs without a token; the signed link is the authority
@never_cache
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request: HttpRequest, token: str) -> HttpResponse:
    """GET shows a button; POST (the button, or the mail program's one-click ``List-Unsubscribe=One-Click``)
    deletes the subscription. A link followed twice says the same."""
    if unsubscribe_id(token) is None:
        return render(request, "ratings/unsubscribe.html", {"state": "invalid"}, status=400)
    if request.method != "POST":
        return render(request, "ratings/unsubscribe.html", {"state": "ask"})
    subscription_cancel(token=token)
    return render(request, "ratings/unsubscribe.html", {"state": "done"})
