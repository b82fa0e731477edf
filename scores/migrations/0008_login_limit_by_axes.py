# The login limit moved to django-axes (its own tables); sign-ups and reset mails are counted in RequestCount.

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("scores", "0007_invite_expiry_removal_watch_link_off"),
    ]

    operations = [
        migrations.DeleteModel(
            name="LoginFailure",
        ),
        migrations.CreateModel(
            name="RequestCount",
            fields=[
                ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                ("key", models.CharField(max_length=300)),
                ("window", models.DateTimeField()),
                ("count", models.PositiveIntegerField(default=0)),
            ],
            options={
                "constraints": [models.UniqueConstraint(fields=("key", "window"), name="unique_request_count_key_window")],
                "indexes": [models.Index(fields=["window"], name="scores_requ_window_c07707_idx")],
            },
        ),
    ]
