"""Form widgets written in Python rather than through Django's widget templates.

Django renders a ``<select>`` by including a template for every option: the grade filters' forty options each
cost more than the rest of their field. These widgets write the same HTML (the same attributes, ``selected`` as
a bare attribute, values and labels escaped) directly: through Django's templates, or Django's widgets through
its Jinja2 form renderer, the rating list's filter form alone takes more than half of a list page's first-view
budget (bench/README.md; bench/filter_widgets.py compares the three).
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms.widgets import Input
from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe


def attrs_html(attrs: dict[str, Any]) -> str:
    """The attributes as Django's attrs.html writes them, in their order: True as a bare name, False left out."""
    return "".join(
        f" {escape(name)}" if value is True else f' {escape(name)}="{escape(value)}"'
        for name, value in attrs.items()
        if value is not False
    )


class QuickSelect(forms.Select):
    """A ``forms.Select`` whose options are written in Python."""

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        parts = [f'<select name="{escape(widget["name"])}"{attrs_html(widget["attrs"])}>']
        for group_name, options, _index in widget["optgroups"]:
            if group_name:
                parts.append(format_html('  <optgroup label="{}">', group_name))
            parts.extend(
                f'  <option value="{escape(o["value"])}"{attrs_html(o["attrs"])}>{escape(o["label"])}</option>'
                for o in options
            )
            if group_name:
                parts.append("  </optgroup>")
        parts.append("</select>")
        return mark_safe("\n".join(parts))  # noqa: S308 - every value is escaped


class QuickInput(Input):
    """The ``render`` of an ``<input>`` written in Python, for a subclass of a Django input widget."""

    def render(self, name: str, value: Any, attrs: dict[str, Any] | None = None, renderer: Any = None) -> SafeString:
        widget = self.get_context(name, value, attrs)["widget"]
        shown = {"type": widget["type"], "name": widget["name"]}
        if widget["value"] is not None:
            shown["value"] = widget["value"]
        return mark_safe(f"<input{attrs_html(shown)}{attrs_html(widget['attrs'])}>")  # noqa: S308 - escaped


class QuickTextInput(QuickInput, forms.TextInput):
    """A ``forms.TextInput`` written in Python."""
