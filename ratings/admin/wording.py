"""Django's admin messages that the site's catalogues word again, or translate where Django and django-axes do not.

Django's Spanish, Italian, Dutch and Polish catalogues put a masculine article or ending before any model's name:
"El tabla «…» se cambió correctamente", "Il tabella", "De toernooi", "został(a)(-ło) … zmieniony(-na)(-ne)". The
site's catalogues come before Django's (LOCALE_PATHS), so these messages, worded there without an article or an
ending that must agree, are what a director reads after each save. Django's Dutch and Italian catalogues leave the
admin index's column names in English ("MODEL NAME"), and django-axes has no Dutch, Italian, Spanish or Japanese.

Nothing imports these lists: they are here for ``makemessages``, which collects only what the site's own code marks.
"""

from __future__ import annotations

from django.utils.translation import gettext_noop

REWORDED = (
    gettext_noop("The {name} “{obj}” was added successfully."),
    gettext_noop("The {name} “{obj}” was added successfully. You may add another {name} below."),
    gettext_noop("The {name} “{obj}” was changed successfully."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may edit it again below."),
    gettext_noop("The {name} “{obj}” was changed successfully. You may add another {name} below."),
    gettext_noop("The %(name)s “%(obj)s” was deleted successfully."),
    gettext_noop("Add another %(verbose_name)s"),
    gettext_noop("Added {name} “{object}”."),
    gettext_noop("Deleted {name} “{object}”."),
    gettext_noop("Logged out"),  # "Wylogowany(-na)"
    gettext_noop("Select %s to view"),  # "Seleziona correzione per visualizzarlo"
    # French and Polish put the model's name where it needs an article or a case ("Affichage de erreur signalée",
    # "Zmień tabela"), Japanese between spaces: the site's titles set it after a colon.
    gettext_noop("Select %s to change"),
    # Dutch puts the model's name first, so each admin page's title began in lower case ("tabel weergeven").
    gettext_noop("Add %s"),
    gettext_noop("Change %s"),
    gettext_noop("View %s"),
    gettext_noop("Add %(name)s"),
    gettext_noop(
        'Are you sure you want to delete the %(object_name)s "%(escaped_object)s"? All of the following related items '
        "will be deleted:"
    ),
    gettext_noop(
        "Deleting the %(object_name)s '%(escaped_object)s' would result in deleting related objects, but your account "
        "doesn't have permission to delete the following types of objects:"
    ),
    gettext_noop(
        "Deleting the %(object_name)s '%(escaped_object)s' would require deleting the following protected related "
        "objects:"
    ),
    gettext_noop(
        "Are you sure you want to delete the selected %(objects_name)s? All of the following objects and their related "
        "items will be deleted:"
    ),
)

UNTRANSLATED = (
    gettext_noop("Model name"),
    gettext_noop("Add link"),
    gettext_noop("Change or view list link"),
    gettext_noop("access attempt"),
    gettext_noop("access attempts"),
    gettext_noop("access failure"),
    gettext_noop("access failures"),
    gettext_noop("access log"),
    gettext_noop("access logs"),
)
