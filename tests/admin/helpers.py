"""Posting the admin's forms as a browser would: start from what the page shows, change what a test needs."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.db.models import Model
from django.test import Client
from django.test.utils import ContextList

from tests.factories import make_director, make_grade_officer, make_rating_officer


def _as_post_value(value: Any) -> Any:
    if value is None:
        return ""
    if isinstance(value, Model):
        return str(value.pk)
    if isinstance(value, dt.date):
        return value.isoformat()
    if isinstance(value, (list, tuple)):
        return [_as_post_value(v) for v in value]
    return str(value)


def _add_form(data: dict[str, Any], form: Any) -> None:
    for name in form.fields:
        value = form[name].value()
        key = form.add_prefix(name)
        if isinstance(value, bool):
            if value:
                data[key] = "on"
            continue
        data[key] = _as_post_value(value)


def page_form_data(response: Any) -> dict[str, Any]:
    """The POST data of an admin change (or add) page as it was shown: main form, every inline, management forms."""
    context = response.context
    if isinstance(context, ContextList):
        context = context[0]
    data: dict[str, Any] = {}
    _add_form(data, context["adminform"].form)
    for inline in context["inline_admin_formsets"]:
        formset = inline.formset
        _add_form(data, formset.management_form)
        for form in formset.forms:
            _add_form(data, form)
    if context.get("version"):  # the hidden version of what the page shows (ratings/services/fingerprints.py)
        data[context["version_field"]] = context["version"]
    return data


def set_row(data: dict[str, Any], prefix: str, index: int, **values: Any) -> None:
    """Fill row ``index`` of the inline ``prefix`` (adding rows as needed); a value of None clears a field."""
    total_key = f"{prefix}-TOTAL_FORMS"
    if index >= int(data[total_key]):
        data[total_key] = str(index + 1)
    for name, value in values.items():
        key = f"{prefix}-{index}-{name}"
        if isinstance(value, bool):
            if value:
                data[key] = "on"
            else:
                data.pop(key, None)
        else:
            data[key] = _as_post_value(value)


def delete_row(data: dict[str, Any], prefix: str, index: int) -> None:
    data[f"{prefix}-{index}-DELETE"] = "on"


def rows(data: dict[str, Any], prefix: str) -> int:
    return int(data[f"{prefix}-TOTAL_FORMS"])


def post_page(client: Client, url: str, change: dict[str, Any] | None = None, **kwargs: Any) -> tuple[Any, Any]:
    """GET ``url``, apply ``change`` to its form data (a callable or a dict), POST it back."""
    page = client.get(url)
    assert page.status_code == 200, page.status_code
    data = page_form_data(page)
    if callable(change):
        change(data)
    elif change:
        data.update(change)
    return page, client.post(url, data, **kwargs)


def errors_of(response: Any) -> list[str]:
    """Every error the admin page shows: the main form's, the inlines' (per row and for the whole inline)."""
    context = response.context
    if isinstance(context, ContextList):
        context = context[0]
    found: list[str] = []
    adminform = context.get("adminform")
    if adminform is not None:
        for messages in adminform.form.errors.values():
            found.extend(messages)
    for inline in context.get("inline_admin_formsets", []):
        found.extend(inline.formset.non_form_errors())
        for form_errors in inline.formset.errors:
            for messages in form_errors.values():
                found.extend(messages)
    return [str(m) for m in found]


def statuses_by_role(client: Client, url: str) -> dict[str, int]:
    """The status of a GET of ``url`` by a rating officer, a director and a grade officer, each logged in."""
    statuses = {}
    for role, make in (
        ("rating officer", make_rating_officer),
        ("director", make_director),
        ("grade officer", make_grade_officer),
    ):
        client.force_login(make())
        statuses[role] = client.get(url).status_code
    return statuses
