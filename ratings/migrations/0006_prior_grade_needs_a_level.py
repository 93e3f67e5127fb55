"""A prior grade needs its level: the old constraint let a kind with a NULL level through.

Such a row was never rated as a prior grade (ratings.selectors.prior_grade_of reads it as none), so clearing
its kind changes no rating; it only makes the row say what the ratings already assumed.
"""

from django.db import migrations, models


def clear_kinds_without_level(apps, schema_editor):
    Player = apps.get_model("ratings", "Player")
    Player.objects.filter(prior_grade_level__isnull=True).exclude(prior_grade_kind="").update(prior_grade_kind="")


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0005_public_list_indexes"),
    ]

    operations = [
        migrations.RunPython(clear_kinds_without_level, migrations.RunPython.noop),
        migrations.RemoveConstraint(
            model_name="player",
            name="player_prior_grade_valid",
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    models.Q(("prior_grade_kind", ""), ("prior_grade_level__isnull", True)),
                    models.Q(
                        ("prior_grade_kind", "kyu"),
                        ("prior_grade_level__isnull", False),
                        ("prior_grade_level__gte", 1),
                        ("prior_grade_level__lte", 20),
                    ),
                    models.Q(
                        ("prior_grade_kind", "dan"),
                        ("prior_grade_level__isnull", False),
                        ("prior_grade_level__gte", 1),
                        ("prior_grade_level__lte", 8),
                    ),
                    models.Q(
                        ("prior_grade_kind", "pro"),
                        ("prior_grade_level__isnull", False),
                        ("prior_grade_level__gte", 1),
                        ("prior_grade_level__lte", 9),
                    ),
                    _connector="OR",
                ),
                name="player_prior_grade_valid",
            ),
        ),
    ]
