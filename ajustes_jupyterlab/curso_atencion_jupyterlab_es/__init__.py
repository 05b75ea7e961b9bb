"""The server side of the course's JupyterLab: two strings JupyterLab 4.6 leaves in English.

Installed with the language pack (``ajustes_jupyterlab/``) and turned on by its
``etc/jupyter/jupyter_server_config.d/zz-curso-atencion-alumnado.json``:

- **The language menu names the languages in the interface's language.**  The course makes
  Spanish the default with an ``overrides.d`` file (a default the student can still change in
  *Configuración ▸ Idioma*).  jupyterlab_server 2.28 reads "the current language" from the user's
  own settings only, never from the overrides, so with no choice of the student's it answers with
  the operating system's locale (English on most servers): the menu said «Spanish (Spain)» and
  the settings' titles came untranslated.  ``locale_en_uso`` is the same rule with the overrides'
  default before the system's; this server extension puts it in jupyterlab_server's handlers
  (``SchemaHandler.get_current_locale``, shared by the language list and the settings).  A
  student's own choice still wins.
- **A notebook has a checkpoint from the moment it is opened.**  JupyterLab creates one when it
  opens a file that has none, but it writes the tab's tooltip before that request finishes, so a
  fresh copy of a lesson showed «Último punto de control: None» (a word JupyterLab 4.6 writes
  without its translator) until the first save.  ``PuntoDeControlInicial`` creates that same
  checkpoint, a copy of the file as it was opened, when its checkpoints are first listed, so
  JupyterLab finds it and the tooltip gives its date.  Only for a file the server could save
  (JupyterLab's own rule); anything else is listed as before.  The server extension gives them
  to the contents manager when it uses jupyter_server's standard file checkpoints (a deployment
  with checkpoints of its own keeps them).

- **The Property Inspector's forms are translated.**  Its sections and fields (*Common Tools*,
  *Slide Type*, *Not deletable*, *Cell metadata*…) come from the ``jupyter.lab.metadataforms`` of
  the settings schemas, which jupyterlab_server 2.28 never passes through the catalogue (its
  ``DEFAULT_SCHEMA_SELECTORS`` cover titles, descriptions, menus and toolbars only).
  ``SELECTORES_DE_METADATOS`` adds their labels and titles, with context ``settings``, to those
  selectors in the server's process; their Spanish is in ``traducciones/curso.po``.

- **The server's error pages are Spanish.**  jupyter_server renders «404 : Not Found — You are
  requesting a page that does not exist!» (and «403 : Forbidden»…) from its ``error.html`` and
  ``404.html``, whose ``{% trans %}`` texts it translates with a catalogue of its own package that
  has no Spanish.  ``PLANTILLAS`` holds the same two templates in Spanish (they extend
  jupyter_server's ``page.html``); the server extension puts that folder before jupyter_server's
  templates in the server's Jinja loader, as ``ServerApp.extra_template_paths`` would, so every
  page a handler renders with ``error.html`` or ``404.html`` comes out in Spanish.

Public names: ``locale_en_uso``, ``PuntoDeControlInicial``, ``SELECTORES_DE_METADATOS``, ``PLANTILLAS``
and the server extension's entry points.  Tests: ``tests/test_entorno.py`` (without a browser) and
``tests/navegador/test_1_interfaz_espanol.py`` (what the student sees).
"""
from __future__ import annotations

import os

from jupyter_server.services.contents.filecheckpoints import AsyncFileCheckpoints

__all__ = ["PLANTILLAS", "PuntoDeControlInicial", "SELECTORES_DE_METADATOS", "locale_en_uso"]

# The Spanish error pages (error.html, 404.html), looked up before jupyter_server's own templates.
PLANTILLAS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "plantillas")

# jupyterlab_server's selector syntax (a regular expression on the JSON path, anchored, where a list's
# item is «[i]»: «/jupyter.lab.metadataforms[0]/label»; the value is the catalogue's context): a metadata
# form's section label and its fields' and choices' titles.
SELECTORES_DE_METADATOS = {
    r"jupyter\.lab\.metadataforms\[\d+\]/label": "settings",
    r"jupyter\.lab\.metadataforms\[\d+\]/metadataSchema/properties/.*/title": "settings",
}


def locale_en_uso(ajustes: dict, del_sistema: str) -> str:
    """The interface's language as jupyterlab_server should see it.

    ``ajustes`` is what ``jupyterlab_server.settings_utils.get_settings`` gives for the
    translation plugin (``settings``: the user's own values; ``schema``: the schema with the
    overrides' defaults); ``del_sistema`` is jupyterlab_server's answer without them (the user's
    choice, else the operating system's locale).  Order: the user's choice, then the overrides'
    default (the course's ``es_ES``), then ``del_sistema``.  A default of ``"default"`` (follow
    the system) or a locale babel does not know is skipped.

    Returns:
        str, a locale name such as ``"es_ES"``.
    """
    from jupyterlab_server.translation_utils import is_valid_locale

    if (ajustes.get("settings") or {}).get("locale"):
        return del_sistema
    propiedades = ((ajustes.get("schema") or {}).get("properties") or {})
    por_defecto = (propiedades.get("locale") or {}).get("default")
    if isinstance(por_defecto, str) and por_defecto != "default" and is_valid_locale(por_defecto):
        return por_defecto
    return del_sistema


def _poner_locale_en_uso() -> None:
    """Make jupyterlab_server's handlers use ``locale_en_uso`` (once per process)."""
    from jupyterlab_server.settings_utils import SchemaHandler, get_settings
    from jupyterlab_server.translation_utils import L10N_SCHEMA_NAME
    from tornado import web

    original = SchemaHandler.get_current_locale
    if getattr(original, "_curso_atencion", False):
        return

    def get_current_locale(self) -> str:
        del_sistema = original(self)
        try:
            ajustes, _ = get_settings(self.app_settings_dir, self.schemas_dir, self.settings_dir,
                                      schema_name=L10N_SCHEMA_NAME, overrides=self.overrides,
                                      labextensions_path=self.labextensions_path)
        except web.HTTPError:
            return del_sistema
        return locale_en_uso(ajustes, del_sistema)

    get_current_locale._curso_atencion = True
    get_current_locale.__doc__ = original.__doc__
    SchemaHandler.get_current_locale = get_current_locale


class PuntoDeControlInicial(AsyncFileCheckpoints):
    """File checkpoints that start with the file as it was first opened (see the module docstring).

    ``list_checkpoints(path)`` lists the checkpoint as ``AsyncFileCheckpoints`` does; if there is
    none and the file is a regular file the server may write, it first creates it (the same copy
    JupyterLab asks for a moment later).  If that fails (no room, no permission), the list is
    empty, as before.
    """

    async def list_checkpoints(self, path):
        puntos = await super().list_checkpoints(path)
        gestor = self.parent
        if puntos or gestor is None:
            return puntos
        try:
            ruta = gestor._get_os_path(path.strip("/"))
        except Exception:  # noqa: BLE001 - a path the contents manager refuses: nothing to add
            return puntos
        if not (os.path.isfile(ruta) and not os.path.islink(ruta) and os.access(ruta, os.W_OK)):
            return puntos
        try:
            return [await self.create_checkpoint(gestor, path.strip("/"))]
        except Exception as error:  # noqa: BLE001 - the tooltip can wait for the first save
            self.log.debug("Sin punto de control inicial para %s: %s", path, error)
            return puntos


def _jupyter_server_extension_points():
    return [{"module": "curso_atencion_jupyterlab_es"}]


def _traducir_formularios_de_metadatos() -> None:
    """Add ``SELECTORES_DE_METADATOS`` to jupyterlab_server's schema selectors (idempotent)."""
    from jupyterlab_server import translation_utils

    if all(translation_utils.DEFAULT_SCHEMA_SELECTORS.get(k) == v for k, v in SELECTORES_DE_METADATOS.items()):
        return
    translation_utils.DEFAULT_SCHEMA_SELECTORS.update(SELECTORES_DE_METADATOS)
    translation_utils._get_default_schema_selectors.cache_clear()


def _paginas_de_error_en_espanol(serverapp) -> None:
    """Put ``PLANTILLAS`` first in the server's Jinja loader (idempotent; nothing if there is none)."""
    from jinja2 import ChoiceLoader, FileSystemLoader

    entorno = (getattr(getattr(serverapp, "web_app", None), "settings", None) or {}).get("jinja2_env")
    if entorno is None:
        return
    actual = entorno.loader
    if isinstance(actual, ChoiceLoader) and any(
            isinstance(c, FileSystemLoader) and PLANTILLAS in c.searchpath for c in actual.loaders):
        return
    entorno.loader = ChoiceLoader([FileSystemLoader(PLANTILLAS), actual])


def _load_jupyter_server_extension(serverapp) -> None:
    _poner_locale_en_uso()
    _traducir_formularios_de_metadatos()
    _paginas_de_error_en_espanol(serverapp)
    gestor = serverapp.contents_manager
    if type(getattr(gestor, "checkpoints", None)) is AsyncFileCheckpoints:
        gestor.checkpoints_class = PuntoDeControlInicial
        gestor.checkpoints = PuntoDeControlInicial(**gestor.checkpoints_kwargs)
    serverapp.log.debug("curso_atencion_jupyterlab_es: idioma del curso en el servidor; checkpoints %s",
                        type(getattr(gestor, "checkpoints", None)).__name__)
