"""Create the roles (tournament directors, rating officers, grade officers) as groups."""

from __future__ import annotations

from django.contrib.auth.management import create_permissions
from django.db import migrations

from ratings.access import ROLE_PERMISSIONS, ensure_roles


def create_roles(apps, schema_editor):
    # Permissions are normally created after all migrations; make sure ours exist now.
    for app_config in apps.get_app_configs():
        app_config.models_module = True
        create_permissions(app_config, apps=apps, verbosity=0)
        app_config.models_module = None
    ensure_roles(apps.get_model("auth", "Group"), apps.get_model("auth", "Permission"))


def remove_roles(apps, schema_editor):
    apps.get_model("auth", "Group").objects.filter(name__in=ROLE_PERMISSIONS).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0001_initial"),
        ("auth", "0012_alter_user_first_name_max_length"),
        ("contenttypes", "0002_remove_content_type_name"),
    ]

    operations = [migrations.RunPython(create_roles, remove_roles)]
