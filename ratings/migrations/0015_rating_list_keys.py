"""The rating list's keys: each player's place among equal ratings (``list_order``, from his opening state) and
each rating row's validity (``valid_until``, the date of the player's next row), filled for the rows there are."""

import datetime

from django.db import migrations, models


def fill(apps, schema_editor):
    Player = apps.get_model("ratings", "Player")
    OpeningState = apps.get_model("ratings", "OpeningState")
    orders = []
    for player_id, state in OpeningState.objects.values_list("player_id", "state"):
        order = ((state or {}).get("fesa") or {}).get("order")
        if isinstance(order, int):
            orders.append(Player(pk=player_id, list_order=order + 1))
    Player.objects.bulk_update(orders, ["list_order"], batch_size=1000)
    connection = schema_editor.connection
    table, row_id, player, date, sequence, valid = (
        connection.ops.quote_name(name)
        for name in ("ratings_ratingrow", "id", "player_id", "date", "sequence", "valid_until")
    )
    with connection.cursor() as cursor:
        cursor.execute(
            f"UPDATE {table} SET {valid} = chain.next_date FROM (SELECT {row_id} AS row_id, LEAD({date}, 1, %s) "
            f"OVER (PARTITION BY {player} ORDER BY {date}, {sequence}) AS next_date FROM {table}) AS chain "
            f"WHERE {table}.{row_id} = chain.row_id AND {table}.{valid} <> chain.next_date",
            [connection.ops.adapt_datefield_value(datetime.date(9999, 12, 31))],
        )


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0014_prior_grade_proposals_and_revisions"),
    ]

    operations = [
        migrations.RemoveIndex(
            model_name="player",
            name="player_list_order_idx",
        ),
        migrations.AddField(
            model_name="historicalplayer",
            name="list_order",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name="player",
            name="list_order",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.AddField(
            model_name="ratingrow",
            name="valid_until",
            field=models.DateField(db_default=datetime.date(9999, 12, 31), editable=False),
        ),
        migrations.AddIndex(
            model_name="player",
            index=models.Index(fields=["-rating", "list_order", "id"], name="player_list_rank_idx"),
        ),
        migrations.AddIndex(
            model_name="ratingrow",
            index=models.Index(fields=["player", "valid_until", "date"], name="rating_row_valid_idx"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
