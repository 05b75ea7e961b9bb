"""The deployment files (despliegue/) checked offline, without root, a hub or a cluster.

- The single-machine hub config loads, every setting is a real trait of the
  JupyterHub class it names, every role scope exists, the groups and the
  formgrader service are nbgrader's, and each profile disables the right
  nbgrader extensions (ids taken from nbgrader's own package).
- The Kubernetes manifests validate against Kubernetes 1.33's schemas
  (kubernetes-validate, strict: an unknown field fails).
- The Zero to JupyterHub values name real JupyterHub / OAuthenticator /
  KubeSpawner settings, their Python runs, and they agree with the manifests
  and the image (service name and port, profile paths, course id).
- The image builds from the same requirement files as the hub environment and
  never copies course code.
tests/test_hub.py and tests/navegador/test_6_hub.py run the hub for real.
"""
from __future__ import annotations

import json
import os
import re
import stat
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest
import yaml

RAIZ = Path(__file__).resolve().parent.parent
DESPLIEGUE = RAIZ / "despliegue"
HUB = DESPLIEGUE / "hub"
K8S = DESPLIEGUE / "kubernetes"
VERSION_K8S = "1.33.0"
sys.path.insert(0, str(HUB))

import ajustes  # noqa: E402
import ajustes_lab  # noqa: E402

CURSO = re.search(r'course_id\s*=\s*"([^"]+)"', (RAIZ / "nbgrader_config.py").read_text())[1]


# ------------------------------------------------------------------ helpers

def _clases_configurables() -> dict:
    from jupyterhub.app import JupyterHub
    from jupyterhub.auth import Authenticator, PAMAuthenticator
    from jupyterhub.proxy import ConfigurableHTTPProxy
    from jupyterhub.spawner import LocalProcessSpawner, Spawner
    from kubespawner import KubeSpawner
    from oauthenticator.generic import GenericOAuthenticator
    from servidor_limitado import ServidorLimitado
    return {c.__name__: c for c in (JupyterHub, Authenticator, PAMAuthenticator, ConfigurableHTTPProxy,
                                    Spawner, LocalProcessSpawner, KubeSpawner, GenericOAuthenticator,
                                    ServidorLimitado)}


def _comprobar_contra_clases(config) -> list[str]:
    """Every ``c.<Class>.<trait>`` names a configurable trait and its value validates."""
    clases = _clases_configurables()
    errores = []
    for seccion, valores in config.items():
        if seccion not in clases:
            errores.append(f"{seccion}: clase no esperada")
            continue
        rasgos = clases[seccion].class_traits(config=True)
        for nombre, valor in valores.items():
            if nombre not in rasgos:
                errores.append(f"{seccion}.{nombre} no es una opción de {seccion}")
                continue
            validar = getattr(rasgos[nombre], "validate", None)     # Any accepts anything
            try:
                if validar:
                    validar(clases[seccion].__new__(clases[seccion]), valor)
            except Exception as error:  # noqa: BLE001 - the trait's own message is the point
                errores.append(f"{seccion}.{nombre} = {valor!r}: {error}")
    return errores


def _scopes_inexistentes(roles) -> list[str]:
    from jupyterhub.scopes import ScopeNotFound, _check_scopes_exist
    malos = []
    for rol in roles:
        try:
            _check_scopes_exist(rol.get("scopes", []))
        except ScopeNotFound as error:
            malos.append(f"{rol['name']}: {error}")
    return malos


@pytest.fixture
def config_hub(monkeypatch, tmp_path):
    """despliegue/hub/jupyterhub_config.py loaded as JupyterHub loads it, with trial-like settings."""
    from traitlets.config.loader import PyFileConfigLoader
    for clave in list(__import__("os").environ):
        if clave.startswith("CURSO_HUB_"):
            monkeypatch.delenv(clave)
    monkeypatch.setenv("CURSO_HUB_PROFESORADO", "ana, luis")
    lista = tmp_path / "alumnado.txt"
    lista.write_text("# grupo A\nmaria\njorge  # repetidor\n\nlucia\n")
    monkeypatch.setenv("CURSO_HUB_ALUMNADO", f"@{lista}")
    monkeypatch.setenv("CURSO_HUB_RAIZ_CURSO", "/srv/prueba/curso")
    monkeypatch.setenv("CURSO_HUB_ESTADO", str(tmp_path))
    return PyFileConfigLoader("jupyterhub_config.py", path=str(HUB)).load_config()


def _documentos(nombre: str) -> list[dict]:
    return [d for d in yaml.safe_load_all((K8S / nombre).read_text()) if d]


# ------------------------------------------------------------------ single-machine hub

def test_la_config_del_hub_solo_usa_opciones_reales(config_hub):
    assert _comprobar_contra_clases(config_hub) == []


def test_la_comprobacion_de_opciones_detecta_errores():
    from traitlets.config import Config
    errores = _comprobar_contra_clases(Config({"JupyterHub": {"bind_urll": "http://x"},
                                               "Spawner": {"start_timeout": "mucho"}, "Jupyterhub": {}}))
    assert len(errores) == 3, errores


def test_grupos_de_nbgrader_y_servicio_del_curso(config_hub):
    grupos = config_hub.JupyterHub.load_groups
    assert set(grupos) == {f"formgrade-{CURSO}", f"nbgrader-{CURSO}"}
    assert grupos[f"formgrade-{CURSO}"]["users"] == ["ana", "luis", f"grader-{CURSO}"]
    assert grupos[f"nbgrader-{CURSO}"]["users"] == ["maria", "jorge", "lucia"]
    assert config_hub.Authenticator.allowed_users == {"ana", "luis", "maria", "jorge", "lucia"}
    assert config_hub.JupyterHub.authenticator_class == "pam"
    from servidor_limitado import ServidorLimitado      # LocalProcessSpawner with a cgroup per student's server
    assert config_hub.JupyterHub.spawner_class is ServidorLimitado
    assert config_hub.ServidorLimitado.memoria == 2048 * 1024 ** 2 and config_hub.ServidorLimitado.procesos == 1024
    assert config_hub.ServidorLimitado.grupo_sin_limite == f"formgrade-{CURSO}"
    [servicio] = config_hub.JupyterHub.services
    assert servicio["name"] == CURSO                       # nbgrader: the service is named after the course
    assert servicio["user"] == f"grader-{CURSO}" and servicio["cwd"] == "/srv/prueba/curso"
    entorno = servicio["environment"]
    assert entorno["JUPYTER_CONFIG_PATH"].split(":")[0].endswith("jupyter/servicio")
    assert entorno["PYTHONPATH"] == "/srv/prueba/curso"
    assert entorno["JUPYTERHUB_DEFAULT_URL"] == "/curso/"           # the course page, with the formgrader's link
    # formgrader's Generate feedback finds the Spanish template through the course's own
    # config (grader_tests/extensiones_nbgrader/retroalimentacion.py), no data path of the service's
    assert "JUPYTER_PATH" not in entorno


def test_roles_con_scopes_que_existen_y_solo_el_profesorado_entra_al_servicio(config_hub):
    roles = config_hub.JupyterHub.load_roles
    assert _scopes_inexistentes(roles) == []
    acceso = f"access:services!service={CURSO}"
    con_acceso = [r for r in roles if acceso in r.get("scopes", [])]
    assert [r.get("groups") for r in con_acceso] == [[f"formgrade-{CURSO}"]]
    servicio = next(r for r in roles if r.get("services") == [CURSO])
    assert f"groups!group=nbgrader-{CURSO}" in servicio["scopes"]
    assert not any(s.startswith("admin") for s in servicio["scopes"])


@pytest.mark.parametrize("grupos, perfil", [([f"formgrade-{CURSO}"], "profesorado"),
                                            ([f"nbgrader-{CURSO}"], "alumnado"), ([], "alumnado")])
def test_perfil_de_jupyterlab_segun_el_grupo(config_hub, grupos, perfil):
    spawner = SimpleNamespace(user=SimpleNamespace(name="maria", groups=[SimpleNamespace(name=g) for g in grupos]),
                              environment={"PATH": "/usr/bin"})
    config_hub.Spawner.pre_spawn_hook(spawner)
    primero, comun = spawner.environment["JUPYTER_CONFIG_PATH"].split(":")
    assert Path(primero) == HUB / "jupyter" / perfil and Path(comun) == HUB / "jupyter" / "comun"
    assert spawner.environment["PATH"] == "/usr/bin"


def test_cada_servidor_recibe_solo_el_nombre_de_su_ficha_de_plazos(config_hub, tmp_path):
    """The service knows the key; each student's server only its own file name (grader_tests.extensiones_nbgrader.plazos)."""
    from grader_tests.extensiones_nbgrader import plazos
    [servicio] = config_hub.JupyterHub.services
    clave = servicio["environment"]["CURSO_PLAZOS_CLAVE"]
    assert (tmp_path / "clave_plazos").read_text() == clave and (tmp_path / "clave_plazos").stat().st_mode & 0o077 == 0
    fichas = {}
    for nombre in ("maria", "jorge"):
        spawner = SimpleNamespace(user=SimpleNamespace(name=nombre, groups=[]), environment={})
        config_hub.Spawner.pre_spawn_hook(spawner)
        fichas[nombre] = spawner.environment["CURSO_PLAZOS_FICHA"]
        assert clave not in spawner.environment.values()
        assert fichas[nombre] == plazos.ficha_de_alumno(bytes.fromhex(clave), CURSO, nombre)
    assert fichas["maria"] != fichas["jorge"]
    # make grade in any hub terminal uses the hub's environment
    assert servicio["environment"]["CURSO_ENTORNO"] == config_hub.Spawner.environment["CURSO_ENTORNO"]


def _ids_de_nbgrader() -> tuple[set[str], set[str]]:
    """(lab plugin ids, server extension modules) that nbgrader really ships."""
    import nbgrader
    paquete = Path(nbgrader.__file__).parent
    datos = Path(sys.prefix) / "share" / "jupyter" / "labextensions" / "@jupyter" / "nbgrader"
    codigo = "".join(p.read_text(errors="ignore") for p in (datos / "static").glob("*.js"))
    plugins = set(re.findall(r'id:"(@jupyter/nbgrader:[a-z-]+)"', codigo))
    # plugins with settings are also named by their schema file
    plugins |= {f"@jupyter/nbgrader:{p.stem}" for p in (datos / "schemas" / "@jupyter" / "nbgrader").glob("*.json")}
    servidor = {f"nbgrader.server_extensions.{p.name}" for p in (paquete / "server_extensions").iterdir()
                if (p / "__init__.py").exists()}
    return plugins, servidor


@pytest.mark.parametrize("perfil, apagadas, encendidas", [
    ("alumnado", {"formgrader", "create-assignment", "course-list"}, {"assignment-list"}),
    ("profesorado", {"formgrader", "create-assignment"}, {"assignment-list", "course-list"}),
    ("servicio", {"assignment-list", "course-list"}, {"formgrader", "create-assignment"}),
])
def test_extensiones_de_nbgrader_por_perfil(perfil, apagadas, encendidas):
    plugins, modulos = _ids_de_nbgrader()
    assert {"@jupyter/nbgrader:formgrader", "@jupyter/nbgrader:assignment-list"} <= plugins, plugins
    lab = json.loads((HUB / "jupyter" / perfil / "labconfig" / "page_config.json").read_text())
    desactivadas = {k for k, v in lab["disabledExtensions"].items() if v}
    assert desactivadas <= plugins, f"ids que nbgrader no tiene: {desactivadas - plugins}"
    assert desactivadas == {f"@jupyter/nbgrader:{n}" for n in apagadas}
    assert not desactivadas & {f"@jupyter/nbgrader:{n}" for n in encendidas}
    # what the course environment turns off for everyone (the student's JupyterLab, ajustes_jupyterlab/)
    # and the profile turns back on, first in JUPYTER_CONFIG_PATH: the effective state
    entorno = json.loads((RAIZ / "ajustes_jupyterlab" / "jupyter" / "labconfig" / "page_config.d" /
                          "zz-curso-atencion-alumnado.json").read_text())["disabledExtensions"]
    efectivo = {k for k, v in {**entorno, **lab["disabledExtensions"]}.items() if v}
    assert not efectivo & {f"@jupyter/nbgrader:{n}" for n in encendidas}, efectivo
    assert ("@jupyter/nbgrader:menu" in efectivo) == (encendidas == set())
    servidor = json.loads((HUB / "jupyter" / perfil / "jupyter_server_config.d" / "nbgrader.json").read_text())
    extensiones = servidor["ServerApp"]["jpserver_extensions"]
    assert set(extensiones) <= modulos
    nombre = {"create-assignment": None, "assignment-list": "assignment_list", "course-list": "course_list",
              "formgrader": "formgrader"}
    for n in apagadas:
        if nombre[n]:
            assert extensiones[f"nbgrader.server_extensions.{nombre[n]}"] is False
    for n in encendidas:
        if nombre[n]:
            assert extensiones[f"nbgrader.server_extensions.{nombre[n]}"] is True


@pytest.mark.parametrize("perfil", ["profesorado", "servicio"])
def test_el_profesorado_del_hub_recupera_lo_que_se_quita_al_alumnado(perfil):
    """«Save As» and deleting from a tab's menu, hidden from students: the same file as make lab's."""
    propio = HUB / "jupyter" / perfil / "labconfig" / "default_setting_overrides.json"
    assert propio.read_text() == (RAIZ / "ajustes_jupyterlab" / "profesorado" / "labconfig" /
                                  "default_setting_overrides.json").read_text()


def test_el_hub_abre_jupyterlab_con_los_ajustes_del_curso():
    assert (HUB / "jupyter" / "comun" / "lab" / "overrides.json").read_text(encoding="utf-8") == \
        ajustes_lab.texto(), "overrides.json no coincide con ajustes_jupyterlab/: python despliegue/hub/ajustes_lab.py"
    assert ajustes_lab.overrides()["@jupyterlab/translation-extension:plugin"]["locale"] == "es_ES"


def test_configuracion_global_de_nbgrader_para_el_hub():
    texto = (HUB / "jupyter" / "comun" / "nbgrader_config.py").read_text()
    assert "JupyterHubAuthPlugin" in texto and "path_includes_course = True" in texto
    assert f'"CURSO_HUB_CURSO", "{CURSO}"' in texto
    assert ajustes.AjustesHub.curso == CURSO


def test_validate_reintenta_si_el_nucleo_no_arranca_y_lo_explica_en_español(monkeypatch):
    """Sixth TA report, P3-1: «RuntimeError: Kernel died before replying to kernel_info» (a port race under
    load) in Validate's dialog, 40 lines of English.  One quiet retry; then only a Spanish message."""
    import logging
    sys.path.insert(0, str(HUB / "jupyter" / "comun"))
    import validar_con_reintento as vr
    monkeypatch.setattr(vr, "ESPERA", 0)

    class Validador:
        log = logging.getLogger("prueba")

        def __init__(self, fallos, error=RuntimeError("Kernel died before replying to kernel_info")):
            self.fallos, self.error, self.intentos = fallos, error, 0

        def validate(self, ruta):
            self.intentos += 1
            if self.intentos <= self.fallos:
                raise self.error
            return {"passed": [ruta]}

    validar = vr._con_reintento(Validador.validate)
    una = Validador(1)
    assert validar(una, "a.ipynb") == {"passed": ["a.ipynb"]} and una.intentos == 2
    with pytest.raises(vr.KernelNoArranco, match="vuelve a pulsar Validate"):
        validar(Validador(2), "a.ipynb")
    otro = Validador(1, ValueError("celda rota"))           # anything else: as nbgrader says it, no retry
    with pytest.raises(ValueError):
        validar(otro, "a.ipynb")
    assert otro.intentos == 1
    envuelto = RuntimeError("ZMQError: Address already in use (addr='tcp://127.0.0.1:40443')")
    assert vr.es_arranque_fallido(envuelto) and not vr.es_arranque_fallido(ValueError("x"))

    # the Validate button's answer: only the message, not nbgrader's traceback
    def validar_cuaderno(self, path):
        return {"success": False, "value": "Traceback (most recent call last):\n...\nKernelNoArranco: " + vr.MENSAJE}
    assert vr._solo_el_mensaje(validar_cuaderno)(None, "a.ipynb") == {"success": False, "value": vr.MENSAJE}
    otra = {"success": False, "value": "Traceback ... ValueError"}
    assert vr._solo_el_mensaje(lambda self, path: dict(otra))(None, "a.ipynb") == otra
    # the hub's common configurations install it (idempotent), in a process of their own
    import subprocess
    codigo = ("import sys; sys.path.insert(0, sys.argv[1]); import validar_con_reintento as v; v.aplicar(); "
              "v.aplicar(); from nbgrader.validator import Validator as V; "
              "from nbgrader.server_extensions.validate_assignment.handlers import ValidateAssignmentHandler as H; "
              "assert V.validate._curso_reintento and H.validate_notebook._curso_reintento; "
              "assert V.validate.__wrapped__.__name__ == 'validate' and "
              "not hasattr(V.validate.__wrapped__, '_curso_reintento')")
    subprocess.run([sys.executable, "-c", codigo, str(HUB / "jupyter" / "comun")], check=True, timeout=120)
    for nombre in ("nbgrader_config.py", "jupyter_server_config.py"):
        assert "validar_con_reintento.aplicar()" in (HUB / "jupyter" / "comun" / nombre).read_text()


@pytest.mark.parametrize("entorno, mensaje", [
    ({"CURSO_HUB_ALUMNADO": "maria, Jorge"}, "no válidos ['Jorge']"),
    ({"CURSO_HUB_PROFESORADO": "ana", "CURSO_HUB_ALUMNADO": "ana,maria"}, "a la vez"),
    ({"CURSO_HUB_ALUMNADO": "@/no/existe.txt"}, "no se puede leer"),
    ({"CURSO_HUB_CURSO": "curso con espacios"}, "no vale como nombre"),
    ({"CURSO_HUB_URL_PUBLICA": "http://10.0.0.5:8000"}, "es una dirección IP"),
    ({"CURSO_HUB_URL_PUBLICA": "hub.ejemplo.org"}, "no es una dirección como"),
])
def test_ajustes_invalidos_explican_en_espanol(entorno, mensaje):
    with pytest.raises(ajustes.AjustesInvalidos, match=re.escape(mensaje)):
        ajustes.leer(entorno)


# ------------------------------------------------------------------ Kubernetes

MANIFIESTOS = ["almacenamiento.yaml", "formgrader.yaml", "calificacion-job.yaml", "exportar-job.yaml",
               "secretos.ejemplo.yaml"]


@pytest.mark.parametrize("nombre", MANIFIESTOS)
def test_manifiestos_validos_para_kubernetes(nombre):
    import kubernetes_validate
    documentos = _documentos(nombre)
    assert documentos
    for documento in documentos:
        kubernetes_validate.validate(documento, VERSION_K8S, strict=True)


def test_el_validador_rechaza_un_campo_mal_escrito():
    import kubernetes_validate
    job = _documentos("calificacion-job.yaml")[0]
    job["spec"]["template"]["spec"]["containers"][0]["volumeMount"] = job["spec"]["template"]["spec"][
        "containers"][0].pop("volumeMounts")
    with pytest.raises(kubernetes_validate.ValidationError):
        kubernetes_validate.validate(job, VERSION_K8S, strict=True)


def test_job_indexado_un_fragmento_por_indice():
    [job] = _documentos("calificacion-job.yaml")
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed" and spec["parallelism"] <= spec["completions"]
    pod = spec["template"]["spec"]
    [contenedor] = pod["containers"]
    entorno = {e["name"]: e for e in contenedor["env"]}
    assert int(entorno["CURSO_FRAGMENTOS"]["value"]) == spec["completions"]
    assert entorno["JOB_COMPLETION_INDEX"]["valueFrom"]["fieldRef"]["fieldPath"] == \
        "metadata.annotations['batch.kubernetes.io/job-completion-index']"
    assert contenedor["command"] == ["python", "scripts/calificacion/grade.py"]
    assert contenedor["args"] == ["--fragmento", "$(JOB_COMPLETION_INDEX)/$(CURSO_FRAGMENTOS)"]
    assert entorno["CURSO_DB_URL"]["valueFrom"]["secretKeyRef"]["name"] == "curso-atencion-gradebook"
    assert contenedor["workingDir"] == "/srv/curso"
    assert pod["volumes"][0]["persistentVolumeClaim"]["claimName"] == "curso-atencion"


def test_la_entrada_del_job_existe_y_lee_su_fragmento(capsys):
    """What the Job calls is scripts/calificacion/grade.py's own interface (tests/test_calificacion_paralela.py runs it)."""
    from scripts.calificacion import grade
    from scripts.calificacion import reparto
    with pytest.raises(SystemExit) as salida:
        grade.main(["--help"])
    assert salida.value.code == 0
    ayuda = capsys.readouterr().out
    assert "--fragmento I/N" in ayuda and "--trabajadores K" in ayuda
    assert reparto.leer_fragmento("3/8") == (3, 8)
    assert reparto.VARIABLE_TRABAJADORES == "CURSO_TRABAJADORES"
    for ruta in (DESPLIEGUE / "kubernetes").glob("*.yaml"):
        assert "TODO" not in ruta.read_text(), ruta


@pytest.mark.parametrize("nombre", ["formgrader.yaml", "calificacion-job.yaml"])
def test_los_pods_que_aislan_con_bubblewrap_lo_permiten(nombre):
    pod = next(d for d in _documentos(nombre) if d["kind"] in ("Deployment", "Job"))["spec"]["template"]["spec"]
    assert pod["hostUsers"] is False
    assert pod["securityContext"]["seccompProfile"]["type"] == "Unconfined"
    assert pod["securityContext"]["appArmorProfile"]["type"] == "Unconfined"
    assert pod["securityContext"]["runAsNonRoot"] is True
    for contenedor in pod["containers"]:
        assert contenedor["securityContext"]["procMount"] == "Unmasked"
        assert contenedor["securityContext"]["allowPrivilegeEscalation"] is False
        assert contenedor["image"].endswith("/curso-atencion-calificador:1.0")


def _valores_z2jh() -> dict:
    return yaml.safe_load((K8S / "config.yaml").read_text())


def test_z2jh_opciones_reales_y_python_que_funciona(monkeypatch):
    from traitlets.config import Config
    valores = _valores_z2jh()
    config = Config(valores["hub"]["config"])
    assert _comprobar_contra_clases(config) == []
    c = Config()
    for codigo in valores["hub"]["extraConfig"].values():
        exec(compile(codigo, "hub.extraConfig", "exec"), {"c": c})      # noqa: S102 - our own config
    assert _comprobar_contra_clases(c) == []
    usuario = SimpleNamespace(id=7, name="maria", groups=[SimpleNamespace(name=f"nbgrader-{CURSO}")])
    spawner = SimpleNamespace(user=usuario, environment={"CURSO_HUB_CURSO": CURSO})
    c.KubeSpawner.pre_spawn_hook(spawner)
    assert spawner.environment["JUPYTER_CONFIG_PATH"] == "/opt/curso/jupyter/alumnado:/opt/curso/jupyter/comun"
    assert c.KubeSpawner.uid(spawner) == 10007
    # a group of their own, none else: not the formgrader's (100), which owns every inbound entry
    assert c.KubeSpawner.gid(spawner) == c.KubeSpawner.fs_gid(spawner) == 10007
    assert c.KubeSpawner.supplemental_gids == [] and "fsGid" not in valores["singleuser"]
    usuario.id = 60000
    with pytest.raises(RuntimeError, match="65536"):
        c.KubeSpawner.uid(spawner)
    usuario.id = 7
    assert "CURSO_PLAZOS_FICHA" not in spawner.environment          # without the secret's key, no file name
    # with it, the same name as the single-machine hub and the formgrader (grader_tests.extensiones_nbgrader.plazos)
    from grader_tests.extensiones_nbgrader import plazos
    clave = "ab" * 32
    monkeypatch.setenv("CURSO_PLAZOS_CLAVE", clave)
    c2 = Config()
    for codigo in valores["hub"]["extraConfig"].values():
        exec(compile(codigo, "hub.extraConfig", "exec"), {"c": c2})      # noqa: S102 - our own config
    c2.KubeSpawner.pre_spawn_hook(spawner)
    assert spawner.environment["CURSO_PLAZOS_FICHA"] == plazos.ficha_de_alumno(bytes.fromhex(clave), CURSO, "maria")
    usuario.groups = [SimpleNamespace(name=f"formgrade-{CURSO}")]
    c.KubeSpawner.pre_spawn_hook(spawner)
    assert spawner.environment["JUPYTER_CONFIG_PATH"].startswith("/opt/curso/jupyter/profesorado:")


def test_el_intercambio_de_kubernetes_es_pegajoso_y_del_grupo_del_formgrader():
    """inbound sticky and setgid to the formgrader's group (issue 19, second attack), as on one machine."""
    [despliegue] = [d for d in _documentos("formgrader.yaml") if d["kind"] == "Deployment"]
    pod = despliegue["spec"]["template"]["spec"]
    [inicio] = pod["initContainers"]
    orden = " ".join(inicio["args"])
    inbound = "/srv/nbgrader/exchange/atencion-y-posicion/inbound"
    assert f"chmod 3733 {inbound}" in orden and inbound in orden.split("chown 1000:100", 1)[1]
    assert pod["securityContext"]["runAsGroup"] == 100 == pod["securityContext"]["fsGroup"]
    from despliegue.hub import prueba
    assert prueba.MODO_INBOUND == 0o3733


def test_z2jh_el_hub_dice_quien_es_cada_uid(tmp_path):
    """The hub writes <cuentas>/<uid> with the user's name; collect's Cuentas reads it (issue 19.1)."""
    from traitlets.config import Config
    from grader_tests.extensiones_nbgrader.intercambio import Cuentas
    codigo = _valores_z2jh()["hub"]["extraConfig"]["curso-atencion"]
    assert '"/srv/curso-cuentas"' in codigo
    c = Config()
    exec(compile(codigo.replace('"/srv/curso-cuentas"', repr(str(tmp_path))), "hub.extraConfig", "exec"),  # noqa: S102
         {"c": c})
    spawner = SimpleNamespace(user=SimpleNamespace(id=7, name="ana", groups=[]), environment={})
    c.KubeSpawner.pre_spawn_hook(spawner)
    assert (tmp_path / "10007").read_text() == "ana" and stat.S_IMODE((tmp_path / "10007").stat().st_mode) == 0o600
    assert Cuentas(carpeta=str(tmp_path)).nombre(10007) == "ana"
    if os.geteuid() == 0:          # a file the hub did not write (another owner) says nothing
        (tmp_path / "10008").write_text("intrusa")
        os.chown(tmp_path / "10008", 4242, 4242)
        assert Cuentas(carpeta=str(tmp_path)).nombre(10008) is None
    # the formgrader mounts the same volume, read-only, where the course's config looks for it
    [despliegue] = [d for d in _documentos("formgrader.yaml") if d["kind"] == "Deployment"]
    contenedor = despliegue["spec"]["template"]["spec"]["containers"][0]
    entorno = {e["name"]: e.get("value") for e in contenedor["env"]}
    montaje = next(m for m in contenedor["volumeMounts"] if m["name"] == "cuentas")
    assert montaje["mountPath"] == entorno["CURSO_CUENTAS"] == "/srv/curso-cuentas" and montaje["readOnly"]
    hub = _valores_z2jh()["hub"]
    assert hub["extraVolumeMounts"][0]["mountPath"] == "/srv/curso-cuentas"
    assert "CURSO_CUENTAS" in (RAIZ / "nbgrader_config.py").read_text()


def test_z2jh_coincide_con_el_hub_de_una_maquina_y_con_los_manifiestos(config_hub):
    valores = _valores_z2jh()
    hub = valores["hub"]
    roles = [{"name": n, **r} for n, r in hub["loadRoles"].items()]
    assert _scopes_inexistentes(roles) == []
    # the same roles as on one machine
    assert {r["name"]: sorted(r["scopes"]) for r in roles} == {
        r["name"]: sorted(r["scopes"]) for r in config_hub.JupyterHub.load_roles}
    assert set(hub["config"]["JupyterHub"]["load_groups"]) == {f"formgrade-{CURSO}", f"nbgrader-{CURSO}"}
    assert f"grader-{CURSO}" in hub["config"]["JupyterHub"]["load_groups"][f"formgrade-{CURSO}"]["users"]
    # the service is the formgrader Deployment's Service, named after the course
    [nombre] = hub["services"]
    assert nombre == CURSO
    despliegue, servicio = [d for d in _documentos("formgrader.yaml") if d["kind"] in ("Deployment", "Service")]
    assert hub["services"][nombre]["url"] == f"http://{servicio['metadata']['name']}:{servicio['spec']['ports'][0]['port']}"
    entorno = {e["name"]: e.get("value") for e in despliegue["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert entorno["JUPYTERHUB_SERVICE_NAME"] == CURSO
    assert entorno["JUPYTERHUB_SERVICE_PREFIX"] == f"/services/{CURSO}/"
    assert entorno["JUPYTERHUB_USER"] == f"grader-{CURSO}"
    # students mount the exchange where the image's nbgrader config looks for it
    singleuser = valores["singleuser"]
    assert singleuser["extraEnv"]["CURSO_HUB_INTERCAMBIO"] == singleuser["storage"]["extraVolumeMounts"][0]["mountPath"]
    assert singleuser["image"]["name"].endswith("/curso-atencion-alumno")


# ------------------------------------------------------------------ the image

def _dockerfile() -> str:
    return (DESPLIEGUE / "imagen" / "Dockerfile").read_text()


def test_imagen_con_los_mismos_requisitos_que_el_hub():
    texto = _dockerfile()
    etapas = re.findall(r"^FROM\s+\S+\s+AS\s+(\S+)", texto, re.M)
    assert etapas == ["alumno", "calificador"]
    makefile = (RAIZ / "Makefile").read_text()
    for requisito in ("requirements.txt", "despliegue/requirements-hub.txt"):
        assert f"COPY {requisito} " in texto and requisito in makefile
    alumno = texto.split("AS calificador")[0]
    assert "cd /opt/curso && pip install -r requirements.txt -r requirements-hub.txt" in alumno
    # requirements.txt installs the course's JupyterLab defaults from a folder next to it
    assert "COPY ajustes_jupyterlab/ /opt/curso/ajustes_jupyterlab/" in alumno
    assert "bubblewrap" in texto.split("AS calificador")[1]
    # the profiles land where config.yaml's hook looks for them
    assert "COPY despliegue/hub/jupyter/ /opt/curso/jupyter/" in alumno
    assert "/opt/curso/jupyter" in _valores_z2jh()["hub"]["extraConfig"]["curso-atencion"]


def test_imagen_sin_codigo_del_curso():
    copias = re.findall(r"^COPY\s+(?:--\S+\s+)*(\S+)\s+\S+", _dockerfile(), re.M)
    for origen in copias:
        assert (RAIZ / origen).exists(), f"COPY {origen}: no existe"
        assert not origen.startswith(("grader_tests", "source", "release", "examples", "scripts", ".")), origen
    ignorar = (DESPLIEGUE / "imagen" / "Dockerfile.dockerignore").read_text().splitlines()
    reglas = [l for l in ignorar if l and not l.startswith("#")]
    assert reglas[0] == "*", "el contexto debe excluirlo todo salvo lo que se copia"
    for origen in copias:
        assert f"!{origen}" in reglas, f"{origen} no está permitido en Dockerfile.dockerignore"
    for local in ("ajustes_jupyterlab/build/", "ajustes_jupyterlab/*.egg-info/"):
        assert local in reglas, f"{local} (restos de un pip install local) no debe entrar en la imagen"


# ------------------------------------------------------------------ the trial launcher

def test_la_prueba_explica_lo_que_le_falta(monkeypatch):
    import prueba
    monkeypatch.setattr(prueba.os, "geteuid", lambda: 1000)
    monkeypatch.setattr(prueba, "bin_hub", lambda: Path("/no/existe/bin"))
    motivo = prueba.que_falta()
    assert "como root" in motivo and "no está jupyterhub" in motivo


def test_python_accesible_para_todas_las_cuentas(tmp_path):
    privado = tmp_path / "privado"
    (privado / "bin").mkdir(parents=True)
    ejecutable = privado / "bin" / "python"
    ejecutable.write_text("")
    ejecutable.chmod(0o755)
    privado.chmod(0o700)                       # like /root with pyenv inside
    assert not ajustes.accesible_para_todos(ejecutable)
    privado.chmod(0o755)
    tmp_path.chmod(0o755)
    assert ajustes.accesible_para_todos(ejecutable) == all(
        p.stat().st_mode & 0o001 for p in ejecutable.resolve().parents)



# ------------------------------------------------------------------ one origin per server (attack report A1)

def test_un_origen_por_servidor_y_servicio(config_hub):
    """The hub, each user's server and the formgrader on origins of their own; no user config."""
    from urllib.parse import urlparse
    assert config_hub.JupyterHub.subdomain_host == "http://localhost:880"
    assert config_hub.Spawner.disable_user_config is True
    assert config_hub.Spawner.environment["PYTHONNOUSERSITE"] == "1"
    [servicio] = config_hub.JupyterHub.services
    # issue 19, F1: the service on a Unix socket behind the hub's relay on a privileged port; the hub and the
    # proxy's API on privileged ports too
    assert f"--ServerApp.sock=/run/curso-{CURSO}/formgrader.sock" in servicio["command"]
    assert urlparse(servicio["url"]).port < 1024
    assert urlparse(config_hub.JupyterHub.hub_bind_url).port < 1024
    assert urlparse(config_hub.ConfigurableHTTPProxy.api_url).port < 1024
    assert servicio["environment"]["PYTHONSAFEPATH"] == "1"
    assert servicio["environment"]["PYTHONSTARTUP"].endswith("jupyter/comun/arranque_kernel.py")
    a = ajustes.leer({"CURSO_HUB_URL": "http://127.0.0.1:8123"})
    assert a.url_publica == "http://localhost:8123"
    assert a.url_de_usuario("ana") == "http://ana.localhost:8123/user/ana/"
    assert a.url_del_formgrader() == f"http://{CURSO}--service.localhost:8123/services/{CURSO}/"
    # a name JupyterHub must escape gets the same subdomain the hub gives it
    from jupyterhub.utils import subdomain_hook_idna
    assert urlparse(a.url_de_usuario("a_b")).hostname == subdomain_hook_idna("a_b", "localhost", "user")
    # TAs' servers: PYTHONSAFEPATH and the formgrader's address for nbgrader's course list
    usuario = SimpleNamespace(name="prueba-profesora", groups=[SimpleNamespace(name=f"formgrade-{CURSO}")])
    spawner = SimpleNamespace(user=usuario, environment=dict(config_hub.Spawner.environment))
    config_hub.Spawner.pre_spawn_hook(spawner)
    assert spawner.environment["PYTHONSAFEPATH"] == "1"
    assert spawner.environment["CURSO_HUB_FORMGRADER"] == f"http://{CURSO}--service.localhost:880/services/{CURSO}/"


def test_z2jh_un_origen_por_servidor():
    valores = _valores_z2jh()
    config = valores["hub"]["config"]
    assert config["JupyterHub"]["subdomain_host"].startswith("https://")
    assert config["JupyterHub"]["cookie_host_prefix_enabled"] is True
    assert config["Spawner"]["disable_user_config"] is True
    assert valores["singleuser"]["extraEnv"]["PYTHONNOUSERSITE"] == "1"
    dominio = config["JupyterHub"]["subdomain_host"].removeprefix("https://")
    assert f"*.{dominio}" in valores["proxy"]["https"]["hosts"]
    [despliegue] = [d for d in _documentos("formgrader.yaml") if d["kind"] == "Deployment"]
    entorno = {e["name"]: e.get("value") for e in despliegue["spec"]["template"]["spec"]["containers"][0]["env"]}
    assert entorno["JUPYTERHUB_OAUTH_CALLBACK_URL"].startswith(f"https://{CURSO}--service.{dominio}/services/{CURSO}/")
    assert entorno["PYTHONSAFEPATH"] == "1"


def test_la_copia_del_curso_en_el_hub_esta_completa():
    """The service's copy holds every versioned entry of the repository's root (make grade stopped with
    «./ajustes_jupyterlab does not exist» when one was missing: issue 21)."""
    import subprocess
    import prueba
    versionadas = subprocess.run(["git", "ls-files"], cwd=RAIZ, capture_output=True, text=True)
    if versionadas.returncode != 0:
        pytest.skip("no es un clon de git")
    raices = {linea.split("/", 1)[0] for linea in versionadas.stdout.splitlines() if linea}
    assert raices <= set(prueba.COPIAR), sorted(raices - set(prueba.COPIAR))


def test_los_nucleos_del_hub_van_por_sockets_unix():
    """Issue 19, a second attacker's F1: kernels on TCP ports of 127.0.0.1 let any account read every cell a TA or
    a classmate runs (IOPub has no authentication). Every server's kernels and Validate's use ipc."""
    import os
    from traitlets.config.loader import PyFileConfigLoader
    comun = HUB / "jupyter" / "comun"
    guardado = os.environ.get("JUPYTER_RUNTIME_DIR")
    try:
        servidor = PyFileConfigLoader("jupyter_server_config.py", path=str(comun)).load_config()
    finally:
        if guardado is None:
            os.environ.pop("JUPYTER_RUNTIME_DIR", None)
        else:
            os.environ["JUPYTER_RUNTIME_DIR"] = guardado
    assert servidor.KernelManager.transport == "ipc"
    assert servidor.MultiKernelManager.connection_dir.endswith("/.jr")
    nbgrader = PyFileConfigLoader("nbgrader_config.py", path=str(comun)).load_config()
    assert nbgrader.KernelManager.transport == "ipc"


# ---------------------------------------------------------------- the proxy's cap per account (tope_por_cuenta.js)

_SS = """ESTAB      0 0 127.0.0.1:54321 127.0.0.1:880 uid:1001 ino:1 sk:1 cgroup:/ <->
FIN-WAIT-1 0 2270806 [::ffff:127.0.0.1]:54322 [::ffff:127.0.0.1]:880 timer:(on,204ms,0) uid:1002 ino:2 sk:2 <--
ESTAB      0 0 [::1]:54323 [::1]:880 ino:3 sk:3 cgroup:/ <->
"""


def test_tope_por_cuenta_lee_el_dueno_de_cada_conexion():
    """tope_por_cuenta.js learns who owns the other end of a loopback connection from the kernel (ss, whatever the
    size of /proc/net/tcp): by the whole connection (both ends), also half-closed by its client (FIN-WAIT),
    IPv4-mapped and IPv6 addresses as node writes them, and root where ss writes no uid."""
    import shutil
    import subprocess
    if not shutil.which("node"):
        pytest.skip("sin node")
    programa = (f"const t = require({json.dumps(str(ajustes.TOPE_POR_CUENTA))});"
                f"const tabla = t.leerSs({json.dumps(_SS)});"
                "console.log(JSON.stringify([[...tabla.entries()], t.normalizarIp('::ffff:127.0.0.1'),"
                " t.normalizarIp('0:0:0:0:0:0:0:1')]));")
    salida = subprocess.run(["node", "-e", programa], capture_output=True, text=True, timeout=60, check=True)
    tabla, mapeada, uno = json.loads(salida.stdout)
    assert dict(tabla) == {"127.0.0.1 54321 > 127.0.0.1 880": 1001, "127.0.0.1 54322 > 127.0.0.1 880": 1002,
                           "::1 54323 > ::1 880": 0}
    assert (mapeada, uno) == ("127.0.0.1", "::1")


# every spelling of a login the hub's routing could reach (fresh attackers' F1s of issue 19: '/hub//login',
# '//hub/login', then '/hub\login' and '/hub/api/users/%2F/tokens' ran PAM uncounted), and paths that are no login
LOGINS = ["/hub/login", "/hub//login", "//hub/login", "///hub///login//", "/hub/login/", "/hub/login?next=/x",
          "/hub/./login", "/hub/%6cogin", "/HUB/Login", "/user/x/../../hub/login", "/hub/x/../login",
          "/base/hub/login", "http://h:8000//hub//login?x", "/hub/api/users/ana/tokens",
          "/hub//api//users/ana//tokens/", "/hub/api/users/%61na/tokens",
          "/hub\\login", "/hub\\\\login", "\\hub\\login", "/hub%5Clogin", "/hub/api\\users/ana/tokens",
          "/hub\\api/users/ana/tokens", "/hub/api/users/ana\\tokens", "/hub/api/users/%2F/tokens",
          "/hub/api/users/%2f/tokens", "/hub/api/users/../tokens", "/hub/api/users/./tokens",
          "/hub/api/users/a%2Fb/tokens", "/hub/api/users/%2E%2E/tokens", "/hub/api/users/%2E/tokens",
          "/hub/api/users/..%2F/tokens", "/hub/api/users/user/tokens", "/hub/api/users/services/tokens",
          "/hub/api/users/ana/tokens/x", "/hub/login/../logout", "/hub/%zz/login", "/hub/api/users/%E9/tokens"]
NO_LOGINS = ["/hub/logout", "/hub/loginx", "/hub/api/users/ana", "/hub/api/users/ana/server", "/user/ana/lab",
             "/user/ana/api/contents/hub/login", "/services/curso/login", "/hub/../user/ana/api/contents/login",
             "/user\\ana\\api\\contents\\tokens", ""]


def test_el_proxy_y_el_hub_reconocen_un_login_se_escriba_como_se_escriba():
    import shutil
    import subprocess
    sys.path.insert(0, str(HUB / "jupyter" / "comun"))
    import conexiones_por_cuenta as cpc
    assert [cpc.es_login(u) for u in LOGINS] == [True] * len(LOGINS), [u for u in LOGINS if not cpc.es_login(u)]
    assert [cpc.es_login(u) for u in NO_LOGINS] == [False] * len(NO_LOGINS), [u for u in NO_LOGINS if cpc.es_login(u)]
    if not shutil.which("node"):
        pytest.skip("sin node")
    rutas = LOGINS + NO_LOGINS
    programa = (f"const t = require({json.dumps(str(ajustes.TOPE_POR_CUENTA))});"
                f"const rutas = {json.dumps(rutas)};"
                "console.log(JSON.stringify(rutas.map((u) => [t.rutaNormalizada(u), t.esLogin(u)])));")
    salida = subprocess.run(["node", "-e", programa], capture_output=True, text=True, timeout=60, check=True)
    assert json.loads(salida.stdout) == [[cpc.ruta_normalizada(u), cpc.es_login(u)] for u in rutas]


class _Autenticador:
    """A stand-in for the hub's authenticator: counts its checks; ``clave`` is the one right password; a check waits
    for ``soltar`` when given (a login in flight)."""

    def __init__(self) -> None:
        self.comprobadas = 0
        self.soltar = None

    async def get_authenticated_user(self, handler, data):
        self.comprobadas += 1
        if self.soltar is not None:
            await self.soltar.wait()
        return {"name": data["username"]} if data.get("password") == "clave" else None


class _Manejador:
    """What ``BaseHandler.authenticate`` uses of a hub handler: its request (the connection's owner as the hub's
    port found it, the proxy's X-Curso-Origen), its authenticator, and an answer it may send itself."""

    def __init__(self, autenticador, cuenta, origen: str | None = None) -> None:
        self.request = SimpleNamespace(connection=SimpleNamespace(_curso_cuenta=cuenta),
                                       headers={} if origen is None else {"X-Curso-Origen": origen})
        self.authenticator = autenticador
        self.estado, self.texto = 200, None

    def clear(self) -> None:
        self.estado, self.texto = 200, None

    def set_status(self, codigo, motivo=None) -> None:
        self.estado = codigo

    def set_header(self, nombre, valor) -> None:
        pass

    def finish(self, texto) -> None:
        self.texto = texto


def test_el_hub_cuenta_cada_comprobacion_de_contrasena_venga_por_la_ruta_que_venga():
    """A fresh attacker's F1/F2 (issue 19): spellings the URL gates missed ('/hub/api/users/%2F/tokens', '/hub\\login')
    ran PAM uncounted, 680 guesses a minute against the TA. Now the hub counts where it checks a password
    (``BaseHandler.authenticate``), whatever the route: per origin the proxy wrote, one in flight, five failures then
    429 in Spanish without running the check; a right password spends nothing; root through the proxy is never
    limited; a local account straight on the hub's port is refused before any check."""
    import asyncio
    sys.path.insert(0, str(HUB / "jupyter" / "comun"))
    import conexiones_por_cuenta as cpc
    from jupyterhub.handlers.base import BaseHandler
    from tornado import web
    # this process may have loaded the hub's config already (another test): start from JupyterHub's own method
    antes = {k: BaseHandler.__dict__[k] for k in ("authenticate", "_curso_logins", "_curso_authenticate_original")
             if k in BaseHandler.__dict__}
    original = antes.get("_curso_authenticate_original", BaseHandler.authenticate)
    BaseHandler.authenticate = original
    for clave in ("_curso_logins", "_curso_authenticate_original"):
        if hasattr(BaseHandler, clave):
            delattr(BaseHandler, clave)
    try:
        cpc.limitar_logins_del_hub()
        cpc.limitar_logins_del_hub()                       # idempotent: one layer, not two
        assert BaseHandler.authenticate is not original

        async def probar(manejador, clave="mala"):
            try:
                return await BaseHandler.authenticate(manejador, {"username": "profesora", "password": clave})
            except web.Finish:
                return "parada"

        async def todo():
            auth = _Autenticador()
            ana = [_Manejador(auth, cpc.CONFIABLE, "1001") for _ in range(8)]
            assert [await probar(m) for m in ana] == [None] * 5 + ["parada"] * 3
            assert auth.comprobadas == 5 and ana[5].estado == 429 and ana[5].texto == cpc.DEMASIADOS_LOGIN
            bea = _Manejador(auth, cpc.CONFIABLE, "1002")    # her classmate is not affected
            assert await probar(bea, "clave") == {"name": "profesora"} and auth.comprobadas == 6
            for _ in range(6):                              # a right password spends no failure
                assert await probar(_Manejador(auth, cpc.CONFIABLE, "1002"), "clave") == {"name": "profesora"}
            assert await probar(_Manejador(auth, cpc.CONFIABLE, "1002")) is None
            raiz = [_Manejador(auth, cpc.CONFIABLE, origen) for origen in ("confiable", None) * 5]
            assert [await probar(m) for m in raiz] == [None] * 10 and auth.comprobadas == 23
            directa = _Manejador(auth, 1003)               # a student straight on the hub's port
            assert await probar(directa) == "parada" and directa.estado == 403
            assert directa.texto == cpc.ENTRAR_POR_EL_PROXY and auth.comprobadas == 23
            # one in flight per account: the second waits for nothing, it is refused
            auth.soltar = asyncio.Event()
            primera = asyncio.ensure_future(probar(_Manejador(auth, cpc.CONFIABLE, "1004")))
            await asyncio.sleep(0)
            segunda = _Manejador(auth, cpc.CONFIABLE, "1004")
            assert await probar(segunda) == "parada" and segunda.estado == 429
            auth.soltar.set()
            assert await primera is None and auth.comprobadas == 24
            # an address from another machine: four in flight (the proxy's rule), the fifth refused
            auth.soltar = asyncio.Event()
            varias = [asyncio.ensure_future(probar(_Manejador(auth, cpc.CONFIABLE, "ip 10.0.0.0/24"))) for _ in range(5)]
            await asyncio.sleep(0)
            auth.soltar.set()
            assert sorted(map(str, await asyncio.gather(*varias))) == ["None"] * 4 + ["parada"]
            # a server the course did not patch (no owner known): this layer stays out of the way
            sin = _Manejador(auth, cpc.SIN_DUENO, "1001")
            assert await probar(sin) is None

        asyncio.run(todo())
    finally:
        for clave in ("_curso_logins", "_curso_authenticate_original"):
            if hasattr(BaseHandler, clave):
                delattr(BaseHandler, clave)
        for clave, valor in antes.items():
            setattr(BaseHandler, clave, valor)
    # and the hub's config installs it (relevo.limitar_servidor_del_hub, in a process of its own: it patches tornado)
    import subprocess
    programa = ("import sys; sys.path.insert(0, sys.argv[1]); import relevo; relevo.limitar_servidor_del_hub();"
                "from jupyterhub.handlers.base import BaseHandler; print(BaseHandler._curso_logins is not None)")
    salida = subprocess.run([sys.executable, "-c", programa, str(HUB)], capture_output=True, text=True, timeout=60)
    assert salida.stdout.strip() == "True", salida.stderr


def test_el_proxy_arranca_con_su_tope(tmp_path):
    """The hub's proxy command loads tope_por_cuenta.js before configurable-http-proxy's own script (through the
    link npm makes); a proxy that is not a node script starts as it is, with a Spanish warning for the log."""
    import shutil
    script = tmp_path / "lib" / "configurable-http-proxy"
    script.parent.mkdir()
    script.write_text("#!/usr/bin/env node\nconsole.log('hola');\n")
    enlace = tmp_path / "configurable-http-proxy"
    enlace.symlink_to(script)
    orden, aviso = ajustes.orden_del_proxy(str(enlace))
    if shutil.which("node"):
        assert orden == [shutil.which("node"), "--require", str(ajustes.TOPE_POR_CUENTA), str(script)] and aviso is None
    envoltorio = tmp_path / "envoltorio.sh"
    envoltorio.write_text("#!/bin/sh\nexec configurable-http-proxy \"$@\"\n")
    orden, aviso = ajustes.orden_del_proxy(str(envoltorio))
    assert orden == [str(envoltorio)] and "sin el tope de conexiones por cuenta" in aviso


_SERVIDOR_CONTADO = """
const http = require('http');
let atendidas = 0;
let ultima = 0;                     // wall-clock ms of the last request forwarded to it
const servidor = http.createServer((peticion, respuesta) => {
  atendidas += 1;
  ultima = Date.now();
  respuesta.end('hola');
});
servidor.listen(0, '127.0.0.1', () => console.log(servidor.address().port));
process.stdin.on('data', () => console.log(atendidas, ultima / 1000));
"""

_RAFAGA_CERRADA = r"""
import socket, sys, time
puerto, n = int(sys.argv[1]), int(sys.argv[2])
reloj = time.time()                      # wall clock, as the backend's Date.now(): the bucket's span starts here
inicio = time.monotonic()
for _ in range(n):                       # each request on a connection closed at once (a fifth attacker's F1)
    s = socket.create_connection(("127.0.0.1", puerto))
    s.sendall(b"GET /hub/login HTTP/1.1\r\nHost: x\r\n\r\n")
    s.close()
estados = []
for _ in range(n):                       # ... and each one waiting for its answer
    s = socket.create_connection(("127.0.0.1", puerto))
    s.settimeout(10)
    s.sendall(b"GET /hub/login HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
    respuesta = b""
    while True:
        parte = s.recv(65536)
        if not parte:
            break
        respuesta += parte
    s.close()
    estados.append(respuesta.split(b" ", 2)[1].decode())
    if estados[-1] == "429":             # the text of a refusal (the last answer may be a token refilled under load)
        rechazo = respuesta
print(round(time.monotonic() - inicio, 3), estados.count("200"), estados.count("429"), reloj)
print((rechazo if "429" in estados else respuesta).decode("utf-8", "replace"))
"""


_DESTINOS = r"""
const http = require('http');
const { spawn } = require('child_process');
// a server of «nobody» and one of root (this process): whom may each path reach?
const ajeno = spawn('runuser', ['-u', 'nobody', '--', process.execPath, '-e',
  "require('http').createServer((q, r) => r.end('de nobody')).listen(0, '127.0.0.1', function () { console.log(this.address().port); })"]);
const propio = http.createServer((q, r) => r.end('de root')).listen(0, '127.0.0.1');
ajeno.stdout.once('data', async (dato) => {
  const pedir = (puerto, ruta) => new Promise((hecho) => {
    const q = http.request({ host: '127.0.0.1', port: puerto, path: ruta, agent: new http.Agent({ keepAlive: true }) },
      (r) => { let t = ''; r.on('data', (c) => { t += c; }); r.on('end', () => hecho(t)); });
    q.on('error', (e) => hecho('rechazada'));
    q.end();
  });
  const suyo = parseInt(String(dato), 10), mio = propio.address().port;
  const casos = [[suyo, '/user/nobody/api'], [suyo, '/user/n%6Fbody/x'], [suyo, '/hub/api'], [suyo, '/user/root/api'],
                 [suyo, '/services/curso/'], [mio, '/user/nobody/api'], [mio, '/hub/login']];
  const vistos = [];
  for (const [puerto, ruta] of casos) { vistos.push([ruta, puerto === suyo ? 'nobody' : 'root', await pedir(puerto, ruta)]); }
  console.log(JSON.stringify(vistos));
  ajeno.kill();
  process.exit(0);
});
"""


def test_el_proxy_solo_reenvia_al_puerto_de_la_cuenta_del_servidor():
    """A fresh attacker's F3: a classmate bound a dead server's port and the proxy sent her the student's requests
    (token, cookies). tope_por_cuenta.js hands a new connection to a server of this machine to the request only
    once the kernel says who listens: the account of '/user/<name>/' or root (the hub, its relays) for anything."""
    import shutil
    import subprocess
    if not shutil.which("node") or not shutil.which("runuser") or os.geteuid() != 0:
        pytest.skip("hace falta node, runuser y root (un servidor de otra cuenta)")
    salida = subprocess.run(["node", "--require", str(ajustes.TOPE_POR_CUENTA), "-e", _DESTINOS],
                            capture_output=True, text=True, timeout=60, check=True)
    vistos = {(ruta, de): texto for ruta, de, texto in json.loads(salida.stdout.strip().splitlines()[-1])}
    assert vistos == {("/user/nobody/api", "nobody"): "de nobody", ("/user/n%6Fbody/x", "nobody"): "de nobody",
                      ("/hub/api", "nobody"): "rechazada", ("/user/root/api", "nobody"): "rechazada",
                      ("/services/curso/", "nobody"): "rechazada",
                      ("/user/nobody/api", "root"): "de root", ("/hub/login", "root"): "de root"}, vistos
    import pwd
    assert "no se reenvía hub" in salida.stderr
    assert f"el puerto es de la cuenta {pwd.getpwnam('nobody').pw_uid}" in salida.stderr


def test_tope_por_cuenta_limita_las_peticiones_por_segundo_de_cada_cuenta():
    """A fifth attacker's F1: the cap on connections held did not bound the requests made, each on a connection the
    student closed at once: the proxy forwarded every one to the hub. Now each account draws from a bucket
    (CURSO_HUB_PROXY_RAFAGA, refilled at CURSO_HUB_PROXY_POR_SEGUNDO): the rest get the proxy's own 429 in
    Spanish and are never forwarded; a request whose connection is closed before its owner is known is dropped;
    root is never limited."""
    import shutil
    import subprocess
    if not shutil.which("node") or not shutil.which("runuser") or os.geteuid() != 0:
        pytest.skip("hace falta node, runuser y root (una cuenta sin privilegios manda la ráfaga)")
    entorno = {**os.environ, "CURSO_HUB_PROXY_RAFAGA": "10", "CURSO_HUB_PROXY_POR_SEGUNDO": "2"}
    servidor = subprocess.Popen(["node", "--require", str(ajustes.TOPE_POR_CUENTA), "-e", _SERVIDOR_CONTADO, "--",
                                 "--api-port", "1"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
                                env=entorno)
    try:
        puerto = servidor.stdout.readline().strip()
        rafaga = subprocess.run(["runuser", "-u", "nobody", "--", "/usr/bin/python3", "-c", _RAFAGA_CERRADA,
                                 puerto, "60"], capture_output=True, text=True, timeout=120, cwd="/")
        assert rafaga.returncode == 0, rafaga.stderr
        cifras, respuesta = rafaga.stdout.split("\n", 1)
        segundos, bien, demasiadas, reloj = float(cifras.split()[0]), *map(int, cifras.split()[1:3]), float(
            cifras.split()[3])
        servidor.stdin.write("?\n")
        servidor.stdin.flush()
        atendidas, ultima = servidor.stdout.readline().split()
        atendidas, ultima = int(atendidas), float(ultima)
        # the bucket's 10, plus 2 a second while the proxy spent them; never the 120 she sent. A request on a
        # connection closed at once is served when its owner is known before the close arrives: it spends a token
        # too, and under load that may be after her own timer stopped (CI once served 15 against 10 + 2 x 1.963 + 1
        # on her clock). So the span runs from her start to the last request the backend got: every token spent
        # was spent inside it (the same wall clock on both sides).
        gasto = max(segundos, ultima - reloj)
        assert bien <= atendidas <= 10 + 2 * gasto + 1, (atendidas, bien, segundos, gasto)
        assert bien + demasiadas == 60 and demasiadas >= 60 - 10 - 2 * segundos - 1, (bien, demasiadas, segundos)
        assert respuesta.startswith("HTTP/1.1 429") and "Demasiadas peticiones seguidas" in respuesta, respuesta
        # root (the hub, the TA's test browser) is never limited, even right after her burst
        import urllib.request
        for _ in range(20):
            with urllib.request.urlopen(f"http://127.0.0.1:{puerto}/", timeout=10) as r:
                assert r.status == 200
    finally:
        servidor.kill()
        servidor.wait()


def test_el_proxy_y_el_hub_aplican_los_mismos_topes_con_los_mismos_mensajes():
    """The proxy (node) and the hub's port and servers (Python, conexiones_por_cuenta) implement the same rules
    twice, by necessity (different processes): their defaults and Spanish texts must not drift apart."""
    sys.path.insert(0, str(HUB / "jupyter" / "comun"))
    import conexiones_por_cuenta as cpc
    import relevo
    js = (HUB / "proxy" / "tope_por_cuenta.js").read_text(encoding="utf-8")

    def defecto(nombre: str) -> int:
        m = re.search(rf"^const {nombre} = (?:entero\('[A-Z_]+', (\d+)\)|(\d+));", js, re.M)
        assert m, nombre
        return int(m[1] or m[2])

    def texto(nombre: str) -> str:
        m = re.search(rf"^const {nombre} = ((?:'[^']*'(?: \+\s*)?)+);", js, re.M | re.S)
        assert m, nombre
        return "".join(re.findall(r"'([^']*)'", m[1])).replace("\\n", "\n")

    assert defecto("TOPE_CUENTA") == relevo.TOPE_POR_CUENTA_HUB
    assert (defecto("RAFAGA"), defecto("POR_SEGUNDO")) == (relevo.RAFAGA_HUB, relevo.POR_SEGUNDO_HUB)
    logins = cpc.Logins()
    assert (defecto("EN_CURSO_LOGIN"), defecto("FALLOS_LOGIN")) == (logins.en_curso, logins._fallos.capacidad)
    assert 1 / defecto("RECARGA_LOGIN_S") == logins._fallos.por_segundo
    assert re.search(r"^const ES_LOGIN = /(.*)/;$", js, re.M)[1].replace("\\/", "/") == cpc.ES_LOGIN.pattern
    assert texto("DEMASIADAS") == cpc.DEMASIADAS
    assert texto("DEMASIADOS_LOGIN") == cpc.DEMASIADOS_LOGIN


_SERVIDOR_DETRAS = """
const http = require('http');
const servidor = http.createServer((peticion, respuesta) => {
  const origen = String(peticion.headers['x-curso-origen']);
  if (peticion.method === 'POST') {              // a login: PAM's 1-3 s, then a failure
    setTimeout(() => { respuesta.statusCode = 403; respuesta.end(origen); }, 1500);
    return;
  }
  respuesta.end(origen);
});
servidor.listen(0, process.argv[process.argv.length - 1], () => console.log(servidor.address().port));
"""

_DELANTE = r"""
import http.client, json, sys, threading, time
puerto, host = int(sys.argv[1]), sys.argv[2]

def pedir(xff=None, metodo="GET", ruta="/hub/api/", conexion=None):
    c = conexion or http.client.HTTPConnection(host, puerto, timeout=20)
    cabeceras = {"X-Forwarded-For": xff} if xff is not None else {}
    c.request(metodo, ruta, body=b"x" if metodo == "POST" else None, headers=cabeceras)
    r = c.getresponse()
    return r.status, r.read().decode("utf-8", "replace")

res = {}
uno = http.client.HTTPConnection(host, puerto, timeout=20)     # nginx keeps its upstream connections
inicio = time.monotonic()
res["rafaga_a"] = [pedir("203.0.113.5", conexion=uno)[0] for _ in range(250)]
res["segundos_a"] = time.monotonic() - inicio
res["falsa_delante"] = pedir("198.51.100.7, 203.0.113.5", conexion=uno)         # the last entry is the real one
res["otra_b"] = [pedir("198.51.100.7", conexion=uno) for _ in range(20)]
res["falsa_detras"] = pedir("203.0.113.5, 198.51.100.99", conexion=uno)
logins = {}
def entrar(clave, xff, ruta="/hub/login"):
    logins[clave] = pedir(xff, "POST", ruta)
hilos = [threading.Thread(target=entrar, args=("local_1", "127.0.0.1"))]
hilos[0].start()
time.sleep(0.4)
# the second login of the same account spelled '//hub//login' (issue 19): still the one in flight too many
hilos += [threading.Thread(target=entrar, args=k) for k in (("local_2", "127.0.0.1", "//hub//login"),
                                                            ("b", "198.51.100.7"))]
for h in hilos[1:]:
    h.start()
for h in hilos:
    h.join()
res["logins"] = logins
c = http.client.HTTPConnection(host, puerto, timeout=20)          # X-Real-IP alone is the client's, never read
c.request("GET", "/hub/api/", headers={"X-Real-IP": "203.0.113.77"})
r = c.getresponse()
res["real_ip"] = [r.status, r.read().decode()]
res["sin_direccion"] = [pedir()[0] for _ in range(13)]
res["propia"] = pedir(sys.argv[3])                                # this machine's own address: a local account
res["v6"] = [pedir(f"2001:db8:77::{i:x}", conexion=uno) for i in range(1, 201)]   # one /64, 200 addresses
print(json.dumps(res))
"""


def _direccion_que_no_es_de_loopback() -> str | None:
    """An IPv4 address of this machine other than loopback (a connection to it has it as its remote end too)."""
    import socket
    s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        s.connect(("192.0.2.1", 9))                 # no packet is sent: only the route's source address is chosen
        ip = s.getsockname()[0]
    except OSError:
        return None
    finally:
        s.close()
    return None if ip.startswith("127.") or ip == "0.0.0.0" else ip


def test_detras_de_un_proxy_https_cada_peticion_cuenta_para_su_direccion():
    """A seventh attacker's F1: behind nginx or Caddy on the same machine, every browser's connection comes from that
    proxy's account, so the per-account limits held the whole class in one bucket (one person with no account kept
    everybody's logins at 429), or none at all with the front proxy as root. With its account in
    CURSO_HUB_PROXY_DELANTE each request counts for the address the front proxy forwards (X-Forwarded-For's last
    entry): a flooding address and a login in flight stop only themselves, a forged first entry changes nothing,
    and a request with no address counts as one local account (with a warning in the log)."""
    import json as _json
    import pwd
    import shutil
    import subprocess
    if not shutil.which("node") or not shutil.which("runuser") or os.geteuid() != 0:
        pytest.skip("hace falta node, runuser y root (una cuenta sin privilegios hace de nginx)")
    casos = [({"CURSO_HUB_PROXY_DELANTE_UIDS": str(pwd.getpwnam("nobody").pw_uid)}, ["runuser", "-u", "nobody", "--"],
              "127.0.0.1"),
             ({"CURSO_HUB_PROXY_DELANTE_UIDS": "0"}, [], "127.0.0.1")]
    propia = _direccion_que_no_es_de_loopback()
    if propia:          # a front proxy on another machine: its address (this machine's own, not loopback)
        casos.append(({"CURSO_HUB_PROXY_DELANTE_IPS": propia}, [], propia))
    for delante, orden, host in casos:
        entorno = {**os.environ, "CURSO_HUB_PROXY_RAFAGA": "10", "CURSO_HUB_PROXY_POR_SEGUNDO": "2", **delante}
        servidor = subprocess.Popen(["node", "--require", str(ajustes.TOPE_POR_CUENTA), "-e", _SERVIDOR_DETRAS, "--",
                                     "--api-port", "1", host], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                    text=True, env=entorno)
        try:
            puerto = servidor.stdout.readline().strip()
            cliente = subprocess.run([*orden, "/usr/bin/python3", "-c", _DELANTE, puerto, host, propia or "127.0.0.1"],
                                     capture_output=True, text=True, timeout=120, cwd="/")
            assert cliente.returncode == 0, cliente.stderr
            res = _json.loads(cliente.stdout)
        finally:
            servidor.kill()
            _, errores = servidor.communicate()
        # an address from outside: its bucket is 16 times an account's (160 at once), then 429, never forwarded
        bien = res["rafaga_a"].count(200)
        assert 160 <= bien <= 160 + 32 * res["segundos_a"] + 1 and 429 in res["rafaga_a"], (delante, bien, res)
        # another address through the same connection of the front proxy is not touched, and servers learn whose
        assert res["otra_b"] == [[200, "ip 198.51.100.7"]] * 20, (delante, res["otra_b"])
        assert res["falsa_delante"][0] == 429 or res["falsa_delante"] == [200, "ip 203.0.113.5"], (delante, res)
        assert res["falsa_detras"] == [200, "ip 198.51.100.99"], (delante, res)
        # a client on loopback through the front proxy has a local account's single login in flight; an address's
        # login is not held behind it
        assert res["logins"]["local_1"] == [403, "delante local"], (delante, res["logins"])
        assert res["logins"]["local_2"][0] == 429 and "Demasiados intentos de entrar" in res["logins"]["local_2"][1]
        assert res["logins"]["b"] == [403, "ip 198.51.100.7"], (delante, res["logins"])
        # no X-Forwarded-For: one local account's bucket (10 at once), not trusted even when the front proxy is root;
        # a client's own X-Real-IP changes nothing (an eighth attacker's F7)
        assert res["real_ip"] == [200, "delante sin dirección"], (delante, res["real_ip"])
        assert res["sin_direccion"][:9] == [200] * 9 and 429 in res["sin_direccion"], (delante, res["sin_direccion"])
        # a client on this machine's own address is a local account, not an outside address (an eighth attacker's F2)
        assert res["propia"][1] == "delante local" or res["propia"][0] == 429, (delante, res["propia"])
        # the addresses of one IPv6 /64 share one address's limits (an eighth attacker's F1: 23 of them)
        assert {tuple(x) for x in res["v6"][:150]} == {(200, "ip 2001:db8:77:0::/64")}, (delante, res["v6"][:3])
        assert [x[0] for x in res["v6"]].count(429) > 0, (delante, res["v6"][-3:])
        assert "manda peticiones sin X-Forwarded-For" in errores, errores


_SERVIDOR_DE_WEBSOCKETS = """
const http = require('http');
const servidor = http.createServer((peticion, respuesta) => respuesta.end('x'));
servidor.on('upgrade', (peticion, socket) => {        // accepted and held, as a kernel's channels are, until the
  socket.on('end', () => socket.end());                 // client closes it (configurable-http-proxy does the same)
  socket.write('HTTP/1.1 101 Switching Protocols\\r\\nUpgrade: websocket\\r\\nConnection: Upgrade\\r\\n\\r\\n');
});
servidor.listen(0, '127.0.0.1', () => console.log(servidor.address().port));
"""


def test_detras_del_proxy_de_delante_los_websockets_cuentan_por_direccion_y_por_servidor():
    """An eighth attacker's F4 (one address's WebSockets filled the front proxy) and the classroom behind one NAT
    address or IPv6 /64 (a ninth attacker's F2): through the front proxy an address holds at most
    CURSO_HUB_PROXY_TOPE_WS_SERVIDOR WebSockets to one server (only its owner can hold them) and
    CURSO_HUB_PROXY_TOPE_WS_IP in all; a path spelled differently counts for the same server; another address
    is not touched; a closed one gives its place back."""
    import shutil
    import socket
    import subprocess
    import time
    if not shutil.which("node") or os.geteuid() != 0:
        pytest.skip("hace falta node y root (root hace de proxy de delante)")
    entorno = {**os.environ, "CURSO_HUB_PROXY_DELANTE_UIDS": "0", "CURSO_HUB_PROXY_TOPE_WS_IP": "6",
               "CURSO_HUB_PROXY_TOPE_WS_SERVIDOR": "4"}
    servidor = subprocess.Popen(["node", "--require", str(ajustes.TOPE_POR_CUENTA), "-e", _SERVIDOR_DE_WEBSOCKETS,
                                 "--", "--api-port", "1"], stdout=subprocess.PIPE, text=True, env=entorno)
    abiertos = []

    def abrir(ruta: str, direccion: str = "203.0.113.5") -> str:
        s = socket.create_connection(("127.0.0.1", int(puerto)), timeout=10)
        s.sendall(f"GET {ruta} HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
                  f"X-Forwarded-For: {direccion}\r\n\r\n".encode())
        estado = s.recv(4096).split(b" ", 2)[1].decode()
        abiertos.append(s)
        return estado

    try:
        puerto = servidor.stdout.readline().strip()
        suyos = [abrir("/user/ana/api/kernels/k/channels") for _ in range(4)]
        assert suyos == ["101"] * 4, suyos
        assert abrir("/user/ana/api/kernels/k/channels") == "429"
        assert abrir("//user//ana/terminals/websocket/1") == "429"            # the same server, spelled otherwise
        assert abrir("/user/%61na/api/kernels/k/channels") == "429"          # percent-encoded: the proxy decodes it
        assert [abrir("/user/beto/api/events/subscribe") for _ in range(2)] == ["101"] * 2
        assert abrir("/user/caro/api/events/subscribe") == "429"             # six in all from this address
        assert abrir("/user/ana/api/kernels/k/channels", "198.51.100.7") == "101"   # another address
        abiertos[0].close()
        for _ in range(50):                                                  # its place comes back once closed
            if abrir("/user/caro/api/events/subscribe") == "101":
                break
            time.sleep(0.1)
        else:
            pytest.fail("un WebSocket cerrado no devolvió su sitio")
    finally:
        for s in abiertos:
            s.close()
        servidor.kill()
        servidor.communicate()


def test_un_nombre_de_usuario_codificado_no_abre_nada_en_el_servidor(tmp_path):
    """Defence in depth behind servidorDeLaRuta (tope_por_cuenta.js, which decodes the path as the proxy does): a
    percent-encoded user name, which the proxy decodes to route '/user/mall%6Fry/…' to mallory's server, gets a 404
    there (Jupyter Server matches its base_url on the raw path), so such a path can hold no socket either."""
    import socket
    import subprocess
    import time
    import urllib.error
    import urllib.request
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        puerto = s.getsockname()[1]
    servidor = subprocess.Popen(
        [sys.executable, "-m", "jupyter_server", "--ServerApp.base_url=/user/mallory/", "--IdentityProvider.token=abc",
         f"--port={puerto}", "--ip=127.0.0.1", "--no-browser", "--allow-root", f"--ServerApp.root_dir={tmp_path}"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env={**os.environ, "JUPYTER_RUNTIME_DIR": str(tmp_path)})

    def estado(ruta: str) -> int:
        peticion = urllib.request.Request(f"http://127.0.0.1:{puerto}{ruta}", headers={"Authorization": "token abc"})
        try:
            with urllib.request.urlopen(peticion, timeout=5) as respuesta:
                return respuesta.status
        except urllib.error.HTTPError as error:
            return error.code

    try:
        for _ in range(300):
            try:
                if estado("/user/mallory/api/status") == 200:
                    break
            except OSError:
                pass
            time.sleep(0.1)
        else:
            pytest.fail("el servidor de prueba no arrancó")
        assert estado("/user/mallory/api/kernels") == 200
        assert estado("/user/mall%6Fry/api/kernels") == 404
        assert estado("/user/%6Dallory/api/events/subscribe") == 404
    finally:
        servidor.terminate()
        servidor.wait(timeout=30)


def test_sin_la_cuenta_del_proxy_de_delante_el_hub_avisa_y_una_cuenta_que_no_existe_no_arranca():
    base = {"CURSO_HUB_URL_PUBLICA": "https://hub.ejemplo.org"}
    assert "CURSO_HUB_PROXY_DELANTE no dice su cuenta" in ajustes.aviso_sin_proxy_delante(ajustes.leer(base))
    con = ajustes.leer({**base, "CURSO_HUB_PROXY_DELANTE": "nobody, 0 10.0.0.5,::1"})
    import pwd
    assert con.delante == tuple(sorted({0, pwd.getpwnam("nobody").pw_uid})) and con.delante_ips == ("10.0.0.5", "::1")
    assert ajustes.aviso_sin_proxy_delante(con) is None
    assert ajustes.aviso_sin_proxy_delante(ajustes.leer({})) is None           # http: browsers reach it directly
    with pytest.raises(ajustes.AjustesInvalidos, match="«www-datos» no es una cuenta de esta máquina"):
        ajustes.leer({**base, "CURSO_HUB_PROXY_DELANTE": "www-datos"})


def test_la_prueba_avisa_si_sus_alumnos_pueden_leer_el_clon():
    """A seventh attacker's F4: the trial hub runs from the clone, which git leaves readable by every account; the
    trial's students could read source/ and grader_tests/, and prueba.py said the opposite. Now it says so."""
    import tempfile
    sys.path.insert(0, str(HUB))
    import prueba
    base = Path(tempfile.mkdtemp(prefix="clon-"))          # under /tmp: its parents let others through
    try:
        (base / "source").mkdir()
        (base / "grader_tests").mkdir()
        base.chmod(0o755)
        for carpeta in ("source", "grader_tests"):
            (base / carpeta).chmod(0o755)
        aviso = prueba.aviso_de_clon_legible(base)
        assert aviso.startswith("AVISO: las cuentas de la prueba pueden leer source, grader_tests de ")
        (base / "source").chmod(0o750)
        assert "pueden leer grader_tests de" in prueba.aviso_de_clon_legible(base)
        base.chmod(0o700)                                  # nobody else gets through the clone's root
        assert prueba.aviso_de_clon_legible(base) is None
    finally:
        import shutil
        shutil.rmtree(base)


def test_la_config_del_hub_pasa_al_proxy_la_cuenta_de_delante(monkeypatch, tmp_path):
    """jupyterhub_config.py puts CURSO_HUB_PROXY_DELANTE's uids and addresses in the environment the proxy inherits."""
    from traitlets.config.loader import PyFileConfigLoader
    import pwd
    for clave in list(os.environ):
        if clave.startswith("CURSO_HUB_"):
            monkeypatch.delenv(clave)
    for clave in ("CURSO_HUB_PROXY_DELANTE_UIDS", "CURSO_HUB_PROXY_DELANTE_IPS"):
        monkeypatch.setenv(clave, "")              # restored afterwards (the config writes them)
    monkeypatch.setenv("CURSO_HUB_PROFESORADO", "ana")
    monkeypatch.setenv("CURSO_HUB_ESTADO", str(tmp_path))
    monkeypatch.setenv("CURSO_HUB_PROXY_DELANTE", "nobody 203.0.113.9")
    PyFileConfigLoader("jupyterhub_config.py", path=str(HUB)).load_config()
    assert os.environ["CURSO_HUB_PROXY_DELANTE_UIDS"] == str(pwd.getpwnam("nobody").pw_uid)
    assert os.environ["CURSO_HUB_PROXY_DELANTE_IPS"] == "203.0.113.9"


def test_los_sockets_tcp_se_cuentan_por_cuenta():
    """servidor_limitado.sockets_por_uid reads `ss -Htane`: «uid:N» only for sockets whose owner is not root; the
    ones in TIME-WAIT have none."""
    from servidor_limitado import sockets_por_uid
    texto = ("LISTEN 0 1 127.0.0.1:40001 0.0.0.0:* uid:1009 ino:1 sk:1 cgroup:/x <->\n"
             "LISTEN 0 1 127.0.0.1:40002 0.0.0.0:* uid:1009 ino:2 sk:2 cgroup:/x <->\n"
             "ESTAB 0 0 127.0.0.1:880 127.0.0.1:5000 ino:3 sk:3 cgroup:/ <->\n"
             "ESTAB 0 0 127.0.0.1:5001 127.0.0.1:880 uid:1010 ino:4 sk:4 cgroup:/y <->\n"
             "TIME-WAIT 0 0 127.0.0.1:5002 127.0.0.1:880 timer:(timewait,59sec,0)\n")
    assert sockets_por_uid(texto) == {1009: 2, 1010: 1}


def test_el_hub_avisa_de_las_tablas_de_la_maquina_que_unos_pocos_alumnos_llenan(tmp_path):
    """A fresh attacker: 124 processes of one student with 20 000 open files each fill a file table of 2.47
    million; with kernel.pid_max 32768, 32 students of 1024 processes fill the process table. The hub says so at
    start, with the setting to change; with systemd's values it says nothing."""
    from servidor_limitado import avisos_de_la_maquina
    for nombre, valor in (("kernel/pid_max", "32768\n"), ("fs/file-max", "2466252\n")):
        (tmp_path / nombre).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / nombre).write_text(valor)
    avisos = avisos_de_la_maquina(1024, str(tmp_path))
    assert len(avisos) == 2
    assert avisos[0].startswith("kernel.pid_max es 32768: con 1024 procesos por alumno, 32 alumnos") and \
        "kernel.pid_max=4194304" in avisos[0]
    assert avisos[1].startswith("fs.file-max es 2466252") and "fs.file-max=9223372036854775807" in avisos[1]
    (tmp_path / "kernel" / "pid_max").write_text("4194304\n")
    (tmp_path / "fs" / "file-max").write_text("9223372036854775807\n")
    assert avisos_de_la_maquina(1024, str(tmp_path)) == []
    assert avisos_de_la_maquina(1024, str(tmp_path / "no-existe")) == []


def test_las_colas_de_netlink_grandes_se_leen_de_proc():
    """servidor_limitado.colas_netlink: the queues over a megabyte of /proc/net/netlink, by socket inode."""
    from servidor_limitado import colas_netlink
    texto = ("sk               Eth Pid        Groups   Rmem     Wmem     Dump  Locks    Drops    Inode\n"
             "00000000ab07f56b 0   0          00000000 0        0        0     2        0        4\n"
             "0000000012345678 0   4242       00000000 8388608  0        0     2        0        77001\n"
             "0000000087654321 4   4243       00000000 900000   0        0     2        0        77002\n")
    assert colas_netlink(texto) == {77001: 8388608}
