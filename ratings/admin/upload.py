"""Upload of a director's ``turnering.txt`` in the admin: upload, preview with choices, confirm.

1. **Upload** (``admin:ratings_upload_turnering``, ``?tournament=<id>`` preselects the tournament): the
   file, the tournament it belongs to (or a new one named, placed and dated after the file), optionally the program's
   ``nye-spillere`` file that comes with it (its players are matched, and created with the table; a
   director's grades in it are proposals for a rating officer), a sequence and a name.
2. **Preview**: every line as read, the player it matched (a select per line when a name is shared by
   namesakes or only close to a player's: swapped names, a letter apart; "new player" otherwise, with
   nationality and prior grade; ratings/selectors/fesa_match.py says which names are taken without
   asking), the players of ``nye-spillere`` and what becomes of their grades, the rating effect computed in
   memory (ratings/services/fesa/turnering.py: a preview writes nothing), and every problem with its file and
   line. The file travels in a signed hidden field, so the preview can be redone with other choices without
   uploading it again, and nobody can change it in between.
3. **Confirm**: the same import, kept this time, only when there is no problem; then the table's page.
   The payload is bound to the user who uploaded it and carries a token that one confirmation uses up
   (ratings/services/tables/uploads.py): a replayed or double-clicked confirmation saves nothing and
   goes to the table saved the first time.

Who may: a user who may add tables, to the tournaments ratings/access.py lets him add tables to;
new players need the permission to add players, a new tournament the permission to add tournaments.

The view hangs on the tables' admin (``TableUploadViews``, a base of ``TableAdmin``), as its other screens do.
"""

from __future__ import annotations

import base64
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse
from django.utils.html import format_html, format_html_join
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django_countries import countries

from ratings import access
from ratings.admin.forms.duplicates import last_played_words
from ratings.engine.prior_grades import all_prior_grades, prior_grade_label
from ratings.models import Player, Table, TableStatus, Tournament
from ratings.services.clubs.hosts import host_club_plan
from ratings.services.fesa.turnering import (
    MAX_UPLOAD_BYTES,
    NEW,
    Choice,
    LinePlan,
    NewPlayerFacts,
    TurneringPlan,
    TurneringRequest,
    turnering_request_import,
)
from ratings.services.tables.uploads import upload_confirm, upload_token_new

SALT = "ratings.upload.turnering"
PAYLOAD_MAX_AGE = 24 * 3600  # a preview left open overnight can still be confirmed
PRIOR_CHOICES = [
    ("", gettext_lazy("none")),
    *((f"{g.kind}:{g.level}", prior_grade_label(g.kind, g.level)) for g in all_prior_grades()),
]


class UploadForm(forms.Form):
    tournament = forms.ModelChoiceField(
        queryset=Tournament.objects.none(),
        required=False,
        empty_label=gettext_lazy("— a new tournament: name, city, country and date from the file —"),
        label=gettext_lazy("Tournament"),
    )
    file = forms.FileField(
        label=gettext_lazy("turnering.txt"),
        help_text=gettext_lazy("The table as the pairing program writes it (ISO-8859-1 or UTF-8 text)."),
    )
    new_players = forms.FileField(
        required=False,
        label=gettext_lazy("nye-spillere"),
        help_text=gettext_lazy(
            "Optional: the FESA program's new-player file that comes with the table (names, nationality, "
            "prior grade, any stored rating); its players are created as the program reads them."
        ),
    )
    sequence = forms.IntegerField(
        required=False,
        min_value=1,
        label=gettext_lazy("Sequence"),
        help_text=gettext_lazy("Order among the tables of the same date; empty: after them."),
    )
    table_name = forms.CharField(
        required=False,
        max_length=100,
        label=gettext_lazy("Table name"),
        help_text=gettext_lazy("For tournaments with several."),
    )
    host_club = forms.CharField(
        required=False,
        max_length=150,
        label=gettext_lazy("Host club"),
        help_text=gettext_lazy(
            "The club that hosted the tournament, as you write it: matched to the site's clubs (case and accents "
            "aside); a club the site does not know is created only if you keep it in the preview."
        ),
    )

    def __init__(self, *args: Any, user: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user
        field = self.fields["tournament"]
        assert isinstance(field, forms.ModelChoiceField)
        field.queryset = access.tournaments_for_new_tables(user).order_by("-end_date", "name")
        if not access.can_create_tournaments(user):
            field.required = True

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(_("The file is too large for a table."))
        return upload

    def clean_new_players(self) -> Any:
        upload = self.cleaned_data["new_players"]
        if upload and not access.can_create_players(self.user):
            raise forms.ValidationError(_("You may not create players."))
        if upload and upload.size > MAX_UPLOAD_BYTES:
            raise forms.ValidationError(_("The file is too large."))
        return upload


def _told_apart(player_ids: list[int]) -> dict[int, str]:
    """What tells namesakes apart beside a candidate's name, rating and country (as the add form's duplicate
    warning gives it): his federation id and when he last played. One query for the preview's choices."""
    players = Player.objects.filter(pk__in=player_ids).only("federation_id", "last_played")
    return {p.pk: f"{p.federation_id} · {last_played_words(p)}" for p in players}


class ChoicesForm(forms.Form):
    """One select per line that needs or allows a choice of player; the new players' nationality and prior
    grade are selects too, rendered by :meth:`rows` from one list of options each (a preview may hold a
    thousand new players: a form field and its widget template each would cost seconds)."""

    def __init__(self, *args: Any, plan: TurneringPlan, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.plan = plan
        self.details: dict[int, NewPlayerFacts] = {}  # the lines that take a new player's details
        told = _told_apart([c.player_id for line in plan.lines if _needs_choice(line) for c in line.match.candidates])
        for line in plan.lines:
            options: list[tuple[str, str]] = [
                (str(c.player_id), f"{c.label} · {told[c.player_id]}" if c.player_id in told else c.label)
                for c in line.match.candidates
            ]
            if options and _needs_choice(line):
                if line.choice is None:
                    options.insert(0, ("", _("— choose —")))
                options.append((NEW, _("new player")))
                self.fields[f"match_{line.number}"] = forms.ChoiceField(
                    choices=options, required=False, initial="" if line.choice is None else str(line.choice)
                )
            if not (options and _needs_choice(line)) and line.choice != NEW:
                continue  # a unique exact match: nothing to choose, no new player's details
            self.details[line.number] = line.new_player or NewPlayerFacts(nationality=_file_country(line))

    @property
    def has_choices(self) -> bool:
        return bool(self.fields or self.details)

    def rows(self) -> list[dict[str, Any]]:
        """Per line: the line, its bound select of players and its new player's selects, for the template."""
        countries_html = _options_html([("", "—"), *countries])
        priors_html = _options_html(PRIOR_CHOICES)
        out = []
        for line in self.plan.lines:
            n = line.number
            match = self[f"match_{n}"] if f"match_{n}" in self.fields else None
            facts = self.details.get(n)
            row: dict[str, Any] = {"line": line, "match": match, "nationality": None, "prior": None}
            # A line the reader could not read has no name nor results to show: its problems say why, in its row.
            row["problems"] = [
                p.message for p in self.plan.problems if p.line == line.line and p.file == self.plan.file
            ]
            row["fixed"] = _fixed_label(line) if match is None else ""
            if facts is not None:
                prior = f"{facts.prior_kind}:{facts.prior_level}" if facts.prior_kind else ""
                row["nationality"] = _select(f"nationality_{n}", countries_html, facts.nationality)
                row["prior"] = _select(f"prior_{n}", priors_html, prior)
            out.append(row)
        return out


def _options_html(choices: Any) -> str:
    return format_html_join("", '<option value="{}">{}</option>', ((str(v), str(label)) for v, label in choices))


def _select(name: str, options_html: str, value: str) -> dict[str, str]:
    """A select named ``name`` with ``value`` chosen, as Django's Select renders it; ``id`` for its label."""
    chosen = format_html('<option value="{}">', value)
    options = options_html.replace(chosen, chosen[:-1] + " selected>", 1)
    safe = mark_safe(options)  # noqa: S308 - the options and the marker were escaped by format_html above
    html = format_html('<select name="{}" id="id_{}">{}</select>', name, name, safe)
    return {"html": html, "id": f"id_{name}"}


def _needs_choice(line: LinePlan) -> bool:
    """A select for namesakes, close names, and an exact name the file marks as a new player (``N``)."""
    return line.match.taken is None or line.marked_new


def _file_country(line: LinePlan) -> str:
    for word in line.free_text.split():
        if len(word) == 2 and word.isalpha() and countries.alpha2(word.upper()):
            return word.upper()
    return ""


def _fixed_label(line: LinePlan) -> str:
    if line.choice == NEW:
        return _("new player")
    taken = line.match.taken
    return taken.label if taken is not None else ""


def _choices_from_post(data: Any) -> tuple[dict[int, Choice], dict[int, NewPlayerFacts]]:
    """The director's choices and new players' facts from the preview form (missing values are ignored)."""
    choices: dict[int, Choice] = {}
    facts: dict[int, NewPlayerFacts] = {}
    for key, value in data.items():
        kind, _sep, number_text = key.partition("_")
        if not number_text.isdigit():
            continue
        number = int(number_text)
        if kind == "match" and value:
            if value == NEW:
                choices[number] = NEW
            elif value.removeprefix("-").isdigit():  # below zero: a player of nye-spillere, not created yet
                choices[number] = int(value)
    for number in {int(k.partition("_")[2]) for k in data if k.startswith("nationality_") and k[12:].isdigit()}:
        prior = data.get(f"prior_{number}", "")
        kind, _sep, level = prior.partition(":")
        facts[number] = NewPlayerFacts(
            nationality=data.get(f"nationality_{number}", ""),
            prior_kind=kind if level.isdigit() else "",
            prior_level=int(level) if level.isdigit() else None,
        )
    return choices, facts


def _payload(
    *,
    user: Any,
    data: bytes,
    file: str,
    nye: bytes | None,
    tournament: Tournament | None,
    sequence: int | None,
    name: str,
    club: str = "",
) -> str:
    return signing.dumps(
        {
            "user": user.pk,
            "token": upload_token_new(),
            "data": base64.b64encode(data).decode("ascii"),
            "file": file,
            "nye": base64.b64encode(nye).decode("ascii") if nye is not None else None,
            "tournament": tournament.pk if tournament else None,
            "sequence": sequence,
            "name": name,
            "club": club,
        },
        salt=SALT,
        compress=True,
    )


def upload_view(request: HttpRequest) -> HttpResponse:
    """Step 1 (the form) and the first preview after the file is sent."""
    if not access.can_upload_table(request.user):
        raise PermissionDenied
    if request.method == "POST" and "payload" in request.POST:
        return _preview_or_confirm(request)
    initial = {}
    if "tournament" in request.GET and request.GET["tournament"].isdigit():
        initial["tournament"] = request.GET["tournament"]
    form = UploadForm(request.POST or None, request.FILES or None, user=request.user, initial=initial)
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        data = upload.read()
        nye = form.cleaned_data["new_players"]
        payload = _payload(
            user=request.user,
            data=data,
            file=upload.name or "turnering.txt",
            nye=nye.read() if nye else None,
            tournament=form.cleaned_data["tournament"],
            sequence=form.cleaned_data["sequence"],
            name=form.cleaned_data["table_name"] or "",
            club=form.cleaned_data["host_club"] or "",
        )
        return _render_preview(request, payload, choices=None)
    return _render(request, "admin/ratings/upload/upload_form.html", {"form": form, "title": _("Upload turnering.txt")})


def _preview_or_confirm(request: HttpRequest) -> HttpResponse:
    payload = request.POST["payload"]
    return _render_preview(request, payload, choices=request.POST, confirm="confirm" in request.POST)


def _load(request: HttpRequest, payload: str) -> tuple[dict[str, Any], Tournament | None]:
    try:
        content = signing.loads(payload, salt=SALT, max_age=PAYLOAD_MAX_AGE)
    except signing.BadSignature as exc:
        raise PermissionDenied(_("The upload expired or was altered; upload the file again.")) from exc
    if content.get("user") != request.user.pk or not content.get("token"):
        raise PermissionDenied(_("This upload was previewed by another user; upload the file again."))
    tournament = None
    if content["tournament"] is not None:
        tournament = access.tournaments_for_new_tables(request.user).filter(pk=content["tournament"]).first()
        if tournament is None:
            raise PermissionDenied
    elif not access.can_create_tournaments(request.user):
        raise PermissionDenied
    return content, tournament


def _render_preview(request: HttpRequest, payload: str, *, choices: Any, confirm: bool = False) -> HttpResponse:
    content, tournament = _load(request, payload)
    picked, facts = _choices_from_post(choices) if choices is not None else ({}, {})
    import_request = TurneringRequest(
        data=base64.b64decode(content["data"]),
        file=content["file"],
        # Checked on upload: only a user who may add players could send it.
        nye_spillere=base64.b64decode(content["nye"]) if content.get("nye") else None,
        tournament=tournament,
        user=request.user,
        choices=picked,
        new_players=facts,
        create_new=access.can_create_players(request.user),
        sequence=content["sequence"],
        table_name=content["name"],
    )
    if confirm:
        submit = request.POST.get("submit") == "on" and access.can_submit_upload(request.user, tournament)
        outcome = upload_confirm(
            request=import_request,
            token=content["token"],
            submit=submit,
            host_club=content.get("club") or "",
            create_club=request.POST.get("create_club") == "on",
        )
        if outcome.plan is None:
            return _confirmed_before(request, outcome.earlier_table_id)
        if outcome.club_not_created:
            messages.warning(request, _("The host club was not created: the tournament has no country."))
        plan = outcome.plan
        if plan.table_id is not None:
            return _saved(request, plan, submitted=submit)
    else:
        plan = turnering_request_import(import_request)
    form = ChoicesForm(plan=plan)
    club_name = content.get("club") or ""
    context = {
        "host_club": host_club_plan(name=club_name, country=tournament.country.code if tournament else ""),
        "title": _("Upload turnering.txt: preview"),
        "plan": plan,
        "form": form,
        "rows": form.rows(),
        # "Preview again" only when a select could change the preview: a file's own problems need a new file.
        "has_choices": form.has_choices,
        "may_set_prior_grades": access.may_set_prior_grades(request.user),
        "payload": payload,
        "tournament": tournament,
        "may_submit": access.can_submit_upload(request.user, tournament),
        "upload_url": upload_url(tournament),  # another file for the same tournament, not a new one
    }
    return _render(request, "admin/ratings/upload/preview.html", context)


def _saved(request: HttpRequest, plan: TurneringPlan, *, submitted: bool) -> HttpResponse:
    assert plan.table_id is not None, "a saved plan has its table"
    table = Table.objects.get(pk=plan.table_id)
    if not submitted:
        messages.success(
            request, _("%(table)s was saved as a draft: check it, then submit it for rating.") % {"table": table}
        )
    elif table.status == TableStatus.RATED:
        messages.success(request, _("%(table)s was saved, submitted and is rated already.") % {"table": table})
    else:
        messages.success(request, _("%(table)s was saved and submitted; it will be rated shortly.") % {"table": table})
    if plan.created_players:
        count = plan.created_players
        messages.info(
            request,
            ngettext("%(count)s new player was created.", "%(count)s new players were created.", count)
            % {"count": count},
        )
    return HttpResponseRedirect(reverse("admin:ratings_table_change", args=[table.pk]))


def _confirmed_before(request: HttpRequest, table_id: int | None) -> HttpResponse:
    messages.warning(request, _("This upload was confirmed already; nothing more was saved."))
    if table_id is None:  # the table was deleted since
        return HttpResponseRedirect(reverse("admin:ratings_upload_turnering"))
    return HttpResponseRedirect(reverse("admin:ratings_table_change", args=[table_id]))


def _render(request: HttpRequest, template: str, context: dict[str, Any]) -> TemplateResponse:
    opts = Tournament._meta
    return TemplateResponse(
        request,
        template,
        {**admin.site.each_context(request), "opts": opts, "app_label": opts.app_label, **context},
    )


def upload_url(tournament: Tournament | None = None) -> str:
    """Where to upload a table, for links (``?tournament=`` preselects the tournament)."""
    url = reverse("admin:ratings_upload_turnering")
    return f"{url}?tournament={tournament.pk}" if tournament is not None else url


class TableUploadViews(admin.ModelAdmin):
    """The upload of a turnering.txt, on the tables' admin (its own checks decide who may)."""

    def get_urls(self) -> list[URLPattern]:
        own = [path("upload/turnering/", self.admin_site.admin_view(upload_view), name="ratings_upload_turnering")]
        return [*own, *super().get_urls()]
