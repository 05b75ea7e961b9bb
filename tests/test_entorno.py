"""The pip path (requirements.txt) and the conda path (environment.yml) install the same course."""
from __future__ import annotations

import json
import re
from pathlib import Path

from conftest import RAIZ


def _pins_requirements() -> dict[str, str]:
    pins = {}
    for linea in (RAIZ / "requirements.txt").read_text().splitlines():
        linea = linea.split("#")[0].strip()
        if linea and not linea.startswith("./"):
            nombre, version = linea.split("==")
            pins[nombre.lower()] = version
    return pins


def _pins_environment() -> dict[str, str]:
    texto = (RAIZ / "environment.yml").read_text()
    return {n.lower(): v for n, v in re.findall(r"^\s+- ([\w.-]+)==([\w.]+)\s*$", texto, re.M)}


def test_requirements_y_environment_fijan_las_mismas_versiones():
    assert _pins_requirements() == _pins_environment()


def test_el_entorno_tiene_los_cinco_paquetes_del_curso_y_python_311():
    pins = _pins_requirements()
    assert {"jupyterlab", "nbgrader", "numpy", "ipywidgets", "matplotlib"} <= set(pins)
    assert re.search(r"^\s+- python=3\.11\s*$", (RAIZ / "environment.yml").read_text(), re.M)


LOCAL = "./ajustes_jupyterlab"
AJUSTES_JUPYTERLAB = RAIZ / "ajustes_jupyterlab"
AJUSTES = AJUSTES_JUPYTERLAB / "overrides.d" / "curso-atencion-es.json"
ALUMNADO = AJUSTES_JUPYTERLAB / "jupyter"
PROFESORADO = AJUSTES_JUPYTERLAB / "profesorado"


def _traducir():
    import importlib.util
    spec = importlib.util.spec_from_file_location("traducir", AJUSTES_JUPYTERLAB / "traducir.py")
    modulo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(modulo)
    return modulo


def test_los_dos_caminos_instalan_el_jupyterlab_del_alumno():
    """Both install the course's JupyterLab package (and only that local path), not the PyPI pack."""
    locales_pip = [l.split("#")[0].strip() for l in (RAIZ / "requirements.txt").read_text().splitlines()
                   if l.strip().startswith("./")]
    locales_conda = re.findall(r"^\s+- (\./[\w.-]+)", (RAIZ / "environment.yml").read_text(), re.M)
    assert locales_pip == locales_conda == [LOCAL]
    assert "jupyterlab-language-pack-es-es" not in _pins_requirements()
    proyecto = (AJUSTES_JUPYTERLAB / "pyproject.toml").read_text()
    for destino, origen in (
            ("share/jupyter/lab/settings/overrides.d", "overrides.d/curso-atencion-es.json"),
            ("etc/jupyter/labconfig/page_config.d", "jupyter/labconfig/page_config.d/zz-curso-atencion-alumnado.json"),
            ("etc/jupyter/labconfig/default_setting_overrides.d",
             "jupyter/labconfig/default_setting_overrides.d/zz-curso-atencion-alumnado.json"),
            ("etc/jupyter/jupyter_server_config.d",
             "jupyter/jupyter_server_config.d/zz-curso-atencion-alumnado.json"),
            ("etc/ipython", "ipython/ipython_kernel_config.json")):
        assert f'"{destino}" = ["{origen}"]' in proyecto
        assert (AJUSTES_JUPYTERLAB / origen).is_file()
    assert 'es_ES = "jupyterlab_language_pack_es_ES"' in proyecto


def test_ajustes_ponen_jupyterlab_en_espanol():
    ajustes = json.loads(AJUSTES.read_text(encoding="utf-8"))
    assert ajustes["@jupyterlab/translation-extension:plugin"]["locale"] == "es_ES"
    # no English «Would you like to get notified about official Jupyter news?» toast (and no request out)
    assert ajustes["@jupyterlab/apputils-extension:notification"] == {"fetchNews": "false", "checkForUpdates": False}
    # «Reiniciar el núcleo y ejecutar todas las celdas…», not JupyterLab's «… y Ejecutar …»
    menus = {m["id"]: m["items"] for m in ajustes["@jupyterlab/mainmenu-extension:plugin"]["menus"]}
    assert {"command": "notebook:restart-run-all", "rank": 999} in menus["jp-mainmenu-run"]


def test_el_catalogo_esta_al_dia():
    assert _traducir().al_dia() == [], "python ajustes_jupyterlab/traducir.py"


def test_el_paquete_de_idioma_es_para_la_version_de_jupyterlab_que_se_fija():
    assert _traducir().VERSION == _pins_requirements()["jupyterlab"], (
        "JupyterLab cambió de versión: revisa las traducciones (tests/navegador/test_1_interfaz_espanol.py "
        "dice qué falta) y pon la versión en ajustes_jupyterlab/traducir.py")


def test_una_palabra_por_idea_en_todo_el_catalogo():
    """núcleo (never Kernel nor intérprete), cuaderno (never Notebook, but «Jupyter Notebook»)."""
    traducir = _traducir()
    for dominio in traducir.DOMINIOS:
        for clave, formas in traducir.catalogo(dominio).items():
            if not clave:
                continue
            for forma in formas:
                assert not re.search(r"\b(?:[Kk]ernels?|intérpretes?)\b", forma), (clave, forma)
                assert not re.search(r"(?<!Jupyter )\b[Nn]otebooks?\b", forma), (clave, forma)


def test_las_traducciones_del_curso_tienen_la_forma_que_pide_jupyterlab():
    """An entry JupyterLab asks for with a count (``_n``) has singular and plural, and only then:
    JupyterLab ignores an entry with the wrong number of forms (the tooltips stayed in English)."""
    import sys
    traducir = _traducir()
    datos = Path(sys.prefix) / "share" / "jupyter"
    import notebook
    pedidos = traducir.mensajes_de_jupyterlab([datos / "lab" / "static", datos / "labextensions",
                                               Path(notebook.__file__).parent / "static"])
    assert len(pedidos) > 1000
    for dominio, (_, po) in traducir.DOMINIOS.items():
        for clave, formas in traducir.traducciones_del_curso(po).items():
            if clave in pedidos:
                assert pedidos[clave] == (len(formas) == 2), (dominio, clave, formas)


def test_el_entorno_del_proyecto_tiene_el_jupyterlab_del_alumno():
    """The .venv that `make` builds: one es_ES language pack (the course's), Spanish by default, the
    student's extensions, the kernel's help in Spanish."""
    import sys
    from importlib.metadata import entry_points

    from jupyterlab.commands import get_app_dir
    from jupyterlab_server.settings_utils import _get_overrides
    from jupyterlab_server.translation_utils import get_language_pack

    packs = [e for e in entry_points(group="jupyterlab.languagepack") if e.name == "es_ES"]
    assert [e.value for e in packs] == ["jupyterlab_language_pack_es_ES"], packs
    datos, error = get_language_pack("es_ES")
    assert not error and datos["jupyterlab"]["menu\u0004Kernel"] == ["Núcleo"]
    ajustes, error = _get_overrides(str(Path(get_app_dir()) / "settings"))
    assert not error
    assert ajustes["@jupyterlab/translation-extension:plugin"]["locale"] == "es_ES"
    etc = Path(sys.prefix) / "etc"
    for origen, destino in ((ALUMNADO / "labconfig" / "page_config.d", etc / "jupyter" / "labconfig" / "page_config.d"),
                            (ALUMNADO / "jupyter_server_config.d", etc / "jupyter" / "jupyter_server_config.d")):
        for archivo in origen.glob("*.json"):
            assert (destino / archivo.name).read_text() == archivo.read_text(), archivo.name
    ayuda = json.loads((etc / "ipython" / "ipython_kernel_config.json").read_text(encoding="utf-8"))
    assert all("Referencia" in e["text"] or "Documentación" in e["text"]
               for e in ayuda["IPythonKernel"]["help_links"])


def test_el_alumno_no_tiene_herramientas_del_profesorado_y_el_profesorado_si():
    """nbgrader's extensions per role: what the environment installs (the student's) and what
    ``make lab`` adds (profesorado/, first in JUPYTER_CONFIG_PATH, so it wins)."""
    alumno = json.loads((ALUMNADO / "labconfig" / "page_config.d" / "zz-curso-atencion-alumnado.json").read_text())
    apagadas = {k for k, v in alumno["disabledExtensions"].items() if v}
    assert {"@jupyter/nbgrader:create-assignment", "@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:course-list",
            "@jupyter/nbgrader:assignment-list", "@jupyter/nbgrader:menu"} <= apagadas
    # nor the Settings Editor (its hundreds of settings are described in English; ajustes_jupyterlab/README.md)
    assert "@jupyterlab/settingeditor-extension" in apagadas
    # nor the plugin manager, which could switch the course's own extensions off (seventh student's report B4-5)
    assert "@jupyterlab/pluginmanager-extension:plugin" in apagadas
    assert "@jupyter/nbgrader:validate-assignment" not in apagadas
    servidor = json.loads((ALUMNADO / "jupyter_server_config.d" / "zz-curso-atencion-alumnado.json").read_text())
    extensiones = servidor["ServerApp"]["jpserver_extensions"]
    assert extensiones == {**{f"nbgrader.server_extensions.{n}": False
                              for n in ("formgrader", "course_list", "assignment_list")},
                           "curso_atencion_jupyterlab_es": True}
    # after nbgrader's own file in the same folder: sorted() order is the order they are read in
    assert sorted(["nbgrader.json", "zz-curso-atencion-alumnado.json"])[-1] == "zz-curso-atencion-alumnado.json"
    profesor = json.loads((PROFESORADO / "labconfig" / "page_config.json").read_text())
    for plugin in ("@jupyter/nbgrader:create-assignment", "@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:menu",
                   "@jupyterlab/settingeditor-extension", "@jupyterlab/pluginmanager-extension:plugin"):
        assert profesor["disabledExtensions"][plugin] is False
    for perfil in ("profesorado", "servicio"):            # the hub's teacher and grading-service profiles
        hub = json.loads((RAIZ / "despliegue" / "hub" / "jupyter" / perfil / "labconfig" / "page_config.json").read_text())
        for plugin in ("@jupyterlab/settingeditor-extension", "@jupyterlab/pluginmanager-extension:plugin"):
            assert hub["disabledExtensions"][plugin] is False, (perfil, plugin)
    servidor = json.loads((PROFESORADO / "jupyter_server_config.d" / "nbgrader.json").read_text())
    assert servidor["ServerApp"]["jpserver_extensions"]["nbgrader.server_extensions.formgrader"] is True
    assert "ajustes_jupyterlab/profesorado" in (RAIZ / "Makefile").read_text()


# ------------------------------------------- the server side (package curso_atencion_jupyterlab_es)

def test_el_idioma_por_defecto_del_curso_vale_tambien_en_el_servidor():
    """The language list and the settings' titles follow the overrides' es_ES (jupyterlab_server
    alone looks at the user's settings and then the system's locale: «Spanish (Spain)»)."""
    from curso_atencion_jupyterlab_es import locale_en_uso

    con_defecto = {"settings": {}, "schema": {"properties": {"locale": {"default": "es_ES"}}}}
    assert locale_en_uso(con_defecto, "en") == "es_ES"
    # the student's own choice wins (jupyterlab_server already returned it)
    assert locale_en_uso({**con_defecto, "settings": {"locale": "en"}}, "en") == "en"
    # «default» (follow the system), an unknown locale or no schema: jupyterlab_server's answer
    for raro in ("default", "xx_YY", None, 3):
        assert locale_en_uso({"schema": {"properties": {"locale": {"default": raro}}}}, "fr_FR") == "fr_FR"
    assert locale_en_uso({}, "en") == "en"


def test_el_servidor_del_alumno_nombra_los_idiomas_en_espanol(tmp_path):
    """Through the real handlers: the language list says «Español (España)» and the settings come translated."""
    from jupyterlab_server.settings_utils import SchemaHandler
    from jupyterlab_server.translation_utils import get_language_packs

    import curso_atencion_jupyterlab_es as curso

    curso._poner_locale_en_uso()
    curso._poner_locale_en_uso()                       # idempotent
    assert SchemaHandler.get_current_locale._curso_atencion
    handler = SchemaHandler.__new__(SchemaHandler)   # what a request's handler holds, no request
    from jupyterlab.commands import get_app_dir
    from jupyterlab_server.settings_utils import _get_overrides
    handler.app_settings_dir = str(Path(get_app_dir()) / "settings")
    handler.schemas_dir = str(Path(get_app_dir()) / "schemas")
    handler.settings_dir = str(tmp_path)               # a student who never chose a language
    handler.labextensions_path = None
    handler.overrides, _ = _get_overrides(handler.app_settings_dir)
    assert handler.get_current_locale() == "es_ES"
    datos, _ = get_language_packs(display_locale=handler.get_current_locale())
    assert datos["es_ES"]["displayName"] == "Español (España)"
    eleccion = tmp_path / "@jupyterlab" / "translation-extension" / "plugin.jupyterlab-settings"
    eleccion.parent.mkdir(parents=True)
    eleccion.write_text('{"locale": "en"}')
    assert handler.get_current_locale() == "en"


def _extension_del_curso():
    """``curso_atencion_jupyterlab_es`` from this checkout (not the installed copy): its templates are these."""
    import importlib.util
    ruta = AJUSTES_JUPYTERLAB / "curso_atencion_jupyterlab_es" / "__init__.py"
    spec = importlib.util.spec_from_file_location("curso_atencion_jupyterlab_es_local", ruta)
    modulo = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(modulo)
    return modulo


def test_las_paginas_de_error_del_servidor_en_espanol():
    """The server's 404 and other error pages (fifth student's report B4: «404 : Not Found — You are
    requesting a page that does not exist!»): the course's templates go first in jupyter_server's own
    Jinja environment (built as ServerApp builds it), once; the page is Spanish, the server's message
    stays escaped, and the templates ship with the package."""
    import gettext
    import os
    import types

    import jupyter_server
    from jinja2 import Environment, FileSystemLoader

    curso = _extension_del_curso()
    entorno = Environment(loader=FileSystemLoader(os.path.join(os.path.dirname(jupyter_server.__file__), "templates")),
                          extensions=["jinja2.ext.i18n"], autoescape=True)
    entorno.install_gettext_translations(gettext.NullTranslations(), newstyle=False)
    servidor = types.SimpleNamespace(web_app=types.SimpleNamespace(settings={"jinja2_env": entorno}))
    espacio = {"static_url": lambda ruta: f"/static/{ruta}", "default_url": "/lab", "logged_in": False,
               "token": "", "exception": None}
    ingles = re.compile(r"Not Found|Forbidden|requesting a page|The error was|Jupyter Server'", re.I)

    def pagina(plantilla, codigo, estado, mensaje=""):
        html = entorno.get_template(plantilla).render(status_code=codigo, status_message=estado, message=mensaje,
                                                      **espacio)
        return re.sub(r"<script.*?</script>|<noscript>.*?</noscript>", "", html, flags=re.S)

    assert "You are requesting a page that does not exist" in pagina("404.html", 404, "Not Found")
    curso._paginas_de_error_en_espanol(servidor)
    curso._paginas_de_error_en_espanol(servidor)           # idempotent: one folder in front
    assert len(entorno.loader.loaders) == 2
    no_existe = pagina("404.html", 404, "Not Found")
    assert "404 : No existe" in no_existe and "La página que pides no existe" in no_existe, no_existe
    assert not ingles.search(no_existe), no_existe
    prohibida = pagina("error.html", 403, "Forbidden", "'_xsrf' <script>alert(1)</script>")
    assert "403 : Acceso denegado" in prohibida and "El error fue:" in prohibida, prohibida
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in prohibida and "<script>alert" not in prohibida
    assert not ingles.search(prohibida), prohibida
    assert "500 : Error interno del servidor" in pagina("error.html", 500, "Internal Server Error")
    assert sorted(p.name for p in Path(curso.PLANTILLAS).glob("*.html")) == ["404.html", "error.html"]
    assert 'curso_atencion_jupyterlab_es = ["plantillas/*.html"]' in (AJUSTES_JUPYTERLAB / "pyproject.toml").read_text()
    # a server without a Jinja environment (nothing to do) is not an error
    curso._paginas_de_error_en_espanol(types.SimpleNamespace())


def test_un_cuaderno_tiene_punto_de_control_desde_que_se_abre(tmp_path):
    """The first listing of a writable file's checkpoints creates one (a copy of the file as it was):
    the tab's tooltip gives its date, not «None»; nothing is created for other paths."""
    import asyncio
    import concurrent.futures

    from jupyter_server.services.contents.largefilemanager import AsyncLargeFileManager

    from curso_atencion_jupyterlab_es import PuntoDeControlInicial

    (tmp_path / "leccion.ipynb").write_text('{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}')
    (tmp_path / "solo_lectura.ipynb").write_text("{}")
    (tmp_path / "solo_lectura.ipynb").chmod(0o444)
    (tmp_path / "enlace.ipynb").symlink_to(tmp_path / "leccion.ipynb")
    (tmp_path / "carpeta").mkdir()
    gestor = AsyncLargeFileManager(root_dir=str(tmp_path), checkpoints_class=PuntoDeControlInicial)
    assert isinstance(gestor.checkpoints, PuntoDeControlInicial)

    def listar(ruta):
        # In its own thread with its own event loop: when the browser tests run in the same session,
        # Playwright's loop is running in this thread and asyncio.run() refuses to start (CI saw it).
        with concurrent.futures.ThreadPoolExecutor(1) as hilo:
            return hilo.submit(asyncio.run, gestor.list_checkpoints(ruta)).result()

    primera = listar("leccion.ipynb")
    assert [p["id"] for p in primera] == ["checkpoint"]
    copia = tmp_path / ".ipynb_checkpoints" / "leccion-checkpoint.ipynb"
    assert copia.read_text() == (tmp_path / "leccion.ipynb").read_text()
    assert listar("/leccion.ipynb") == primera          # listed, not created again
    import os
    if os.geteuid() != 0:                                               # root may write anything
        assert listar("solo_lectura.ipynb") == []
    for otra in ("enlace.ipynb", "carpeta", "no_existe.ipynb"):
        assert listar(otra) == [], otra
    assert sorted(p.name for p in (tmp_path / ".ipynb_checkpoints").iterdir()) == ["leccion-checkpoint.ipynb"]
