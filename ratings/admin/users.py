"""The users' and groups' pages name each permission in the reader's language: Django stores a permission's name
in English when the migrations run ("Can add official list entry") and shows it as stored; here it is written
from the model's verbose name at display time."""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group, Permission
from django.db.models import Field
from django.forms import Field as FormField
from django.http import HttpRequest
from django.utils.translation import gettext

ACTIONS = {
    "add": lambda model: gettext("Can add %(model)s") % {"model": model},
    "change": lambda model: gettext("Can change %(model)s") % {"model": model},
    "delete": lambda model: gettext("Can delete %(model)s") % {"model": model},
    "view": lambda model: gettext("Can view %(model)s") % {"model": model},
}


def permission_label(permission: Permission) -> str:
    """ "Ratings | Can add official list entry", in the active language; a permission of its own as stored."""
    model = permission.content_type.model_class()
    action = permission.codename.split("_", 1)[0]
    if model is None or action not in ACTIONS or permission.codename != f"{action}_{model._meta.model_name}":
        return str(permission)
    return f"{model._meta.app_config.verbose_name} | {ACTIONS[action](model._meta.verbose_name)}"


class PermissionChoices(forms.ModelMultipleChoiceField):
    """A user's or a group's permissions, each named by ``permission_label``."""

    def label_from_instance(self, obj: Permission) -> str:
        return permission_label(obj)


class PermissionLabels(admin.ModelAdmin):
    def formfield_for_dbfield(self, db_field: Field[Any, Any], request: HttpRequest, **kwargs: Any) -> FormField | None:
        if db_field.name in ("permissions", "user_permissions"):
            # Handed on through formfield_for_manytomany (and Django's GroupAdmin's) to the model field, which
            # builds its form field of this class.
            kwargs["form_class"] = PermissionChoices
        return super().formfield_for_dbfield(db_field, request, **kwargs)


class GroupPermissionsAdmin(PermissionLabels, GroupAdmin):
    pass


class UserPermissionsAdmin(PermissionLabels, UserAdmin):
    pass


for model, model_admin in ((Group, GroupPermissionsAdmin), (get_user_model(), UserPermissionsAdmin)):
    if admin.site.is_registered(model):
        admin.site.unregister(model)
    admin.site.register(model, model_admin)
