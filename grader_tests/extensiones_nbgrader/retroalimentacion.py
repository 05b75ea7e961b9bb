"""The exporter of ``nbgrader generate_feedback``: the Spanish template, only there.

``nbgrader_config.py`` sets ``c.GenerateFeedback.exporter_class`` to
``ExportadorRetroalimentacion``, so the Spanish feedback template
(``plantillas/retroalimentacion``) is used by ``nbgrader generate_feedback``
and by formgrader's «Generate feedback» buttons, and nowhere else: formgrader
keeps nbgrader's own templates for its views (before, a global
``HTMLExporter.template_name`` broke them with ``TemplateNotFound``).

formgrader's API forces ``HTMLExporter.template_name = 'feedback'`` when it
generates feedback; configuration of this subclass (its own section) wins over
the parent's, and the defaults below make it independent of configuration.
The sanitising configuration of every ``HTMLExporter`` (``html_seguro``)
applies here too, and here only the math is typeset as MathML
(``resources["curso_mathml"]``): the page has no script at all.
"""
from __future__ import annotations

import os
import re

from markupsafe import Markup
from nbconvert.exporters import HTMLExporter
from traitlets import default

PLANTILLAS = os.path.join(os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))), "plantillas")
PLANTILLA = "retroalimentacion"


_FUENTE_DE_FUERA = re.compile(r"@font-face\s*\{[^{}]*url\(\s*(?!['\"]?data:)[^{}]*\}", re.I)


def sin_fuentes_de_fuera(css: str) -> Markup:
    """The page's inlined CSS without ``@font-face`` rules that load a file (Bootstrap's Glyphicons).

    The page's policy (``font-src data:``) blocks them anyway, but the browser tries each one and
    logs an error in the console every time the feedback is opened (fifth TA's report, P3); the
    feedback uses no icon font.  ``css``: the template's ``<style>`` blocks (the course's own CSS,
    never a student's).
    """
    return Markup(_FUENTE_DE_FUERA.sub("", str(css)))


class ExportadorRetroalimentacion(HTMLExporter):
    """``HTMLExporter`` with the course's Spanish feedback template (``plantillas/retroalimentacion``)."""

    export_from_notebook = None          # not offered as a generic «Download as» format

    @default("template_name")
    def _template_name_default(self):
        return PLANTILLA

    @default("extra_template_basedirs")
    def _extra_template_basedirs_default(self):
        return [PLANTILLAS]

    def default_filters(self):
        yield from super().default_filters()
        yield ("sin_fuentes_de_fuera", sin_fuentes_de_fuera)

    def from_notebook_node(self, nb, resources=None, **kw):
        from .html_seguro import CLAVE_MATHML, presupuesto_mathml
        resources = dict(resources or {})
        resources[CLAVE_MATHML] = True
        with presupuesto_mathml():      # one page's typesetting budget (html_seguro)
            return super().from_notebook_node(nb, resources, **kw)
