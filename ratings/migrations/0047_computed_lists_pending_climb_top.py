from django.db import migrations


def drop_computed_lists(apps, schema_editor):
    """A computed list's line now holds the top of a pending climb of Dan grades, not its first step: the computed
    lists are deleted, to be made again as they are asked for (and by the beat for the lists the pages link). The
    official lists keep what they published."""
    StoredList = apps.get_model("ratings", "StoredList")
    ListEntry = apps.get_model("ratings", "ListEntry")
    db = schema_editor.connection.alias
    computed = StoredList.objects.using(db).filter(kind="computed")
    ListEntry.objects.using(db).filter(stored_list__in=computed).delete()
    computed.delete()


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0046_list_entry_sort_filter_indexes"),
    ]

    operations = [
        migrations.RunPython(drop_computed_lists, migrations.RunPython.noop),
    ]
