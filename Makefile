# Course tasks. Every target creates the virtual environment it needs.
#   make grade   release, autograde the submissions (samples if none; one worker per core,
#                CURSO_TRABAJADORES=K to change it), feedback, grades.csv, table
#   make test    the project's tests (pytest), including the browser tests when Chromium is there
#   make release regenerate release/ from source/ with nbgrader generate_assignment (after copying
#                into each lesson its pruebas_visibles.py and cuestionario.json: scripts/autores/publicar_comprobaciones.py)
#   make lab     JupyterLab from the course root, with the teacher's tools (ajustes_jupyterlab/profesorado;
#                the environment alone is the student's JupyterLab: Spanish, no teacher tools)
#   make bench   benchmarks (not tests): autograde cost per submission, hidden-test time, widgets,
#                memory of judging forged evidence
#   make hub     the course's JupyterHub on 127.0.0.1 with throwaway accounts (as root; despliegue/)
#   make comprobar  the author's check before committing (scripts/autores/comprobar.py; Spanish, exit 1 on problems)
#   make leccion NOMBRE=03_algo FUNCION=f   a new lesson with its graded exercise (scripts/autores/leccion.py)
#   make informe the class report after grading (informe/informe.html and CSVs; scripts/informe/)
#   make bench-exportar  nbgrader export and make informe for a synthetic class of 600, 1500, 3000
#
# CURSO_ENTORNO=/path/to/env uses an environment that already has the course's requirements (the hub
# sets it in every server: its terminals run make grade with the hub's environment, without .venv).

PYTHON ?= python3
VENV   := .venv
ifdef CURSO_ENTORNO
BIN     := $(CURSO_ENTORNO)/bin
ENTORNO :=
else
BIN     := $(CURDIR)/$(VENV)/bin
ENTORNO := $(VENV)/.installed
endif
export PATH := $(BIN):$(PATH)

ASSIGNMENTS := $(notdir $(patsubst %/,%,$(dir $(wildcard source/*/*.ipynb))))

# The hub's environment (despliegue/README.md): a Python every account can run, the
# course's requirements, JupyterHub, and the proxy from npm.
PYTHON_HUB ?= /usr/bin/python3
VENV_HUB   := .venv-hub
# CURSO_ENTORNO_HUB=/path/to/env: make hub starts from a hub environment that is already built (another
# clone's .venv-hub) without checking or reinstalling it (docs/hub.md).
ifdef CURSO_ENTORNO_HUB
BIN_HUB    := $(CURSO_ENTORNO_HUB)/bin
HUB_LISTO  :=
else
BIN_HUB    := $(VENV_HUB)/bin
HUB_LISTO  := $(VENV_HUB)/.installed
endif

.PHONY: grade test release lab bench bench-exportar clean venv hub comprobar leccion informe

# the Assignments tab's due dates (despliegue/plazos_assignments/), installed with the hub's requirements
PLAZOS_ASSIGNMENTS := $(wildcard despliegue/plazos_assignments/*.toml despliegue/plazos_assignments/*/*.py \
                                 despliegue/plazos_assignments/labextension/*.json despliegue/plazos_assignments/labextension/*/*.js)

AJUSTES_LAB := $(shell find ajustes_jupyterlab -type f -not -path '*/build/*' -not -path '*.egg-info*' -not -name '*.pyc')

$(VENV)/.installed: requirements.txt pyproject.toml $(AJUSTES_LAB)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@# the course's Spanish pack replaces the PyPI one (same module): never both in one environment
	$(BIN)/python -m pip uninstall --quiet --yes jupyterlab-language-pack-es-ES 2>/dev/null || true
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt despliegue/requirements-hub.txt despliegue/requirements-calificador.txt $(PLAZOS_ASSIGNMENTS)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

$(VENV_HUB)/.installed: requirements.txt despliegue/requirements-hub.txt despliegue/hub/proxy/package-lock.json $(PLAZOS_ASSIGNMENTS) $(AJUSTES_LAB)
	test -x $(VENV_HUB)/bin/python || $(PYTHON_HUB) -m venv $(VENV_HUB)
	$(VENV_HUB)/bin/python -m pip uninstall --quiet --yes jupyterlab-language-pack-es-ES 2>/dev/null || true
	$(VENV_HUB)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt -r despliegue/requirements-hub.txt
	mkdir -p $(VENV_HUB)/proxy && cp despliegue/hub/proxy/package.json despliegue/hub/proxy/package-lock.json $(VENV_HUB)/proxy/
	cd $(VENV_HUB)/proxy && npm ci --no-fund --no-audit --loglevel=error
	touch $@

venv: $(VENV)/.installed

grade: $(ENTORNO)
	$(BIN)/python scripts/calificacion/grade.py

# the course root on the path even with PYTHONSAFEPATH=1 (a terminal of make lab or of a TA's hub server)
informe: $(ENTORNO)
	PYTHONPATH=$(CURDIR)$${PYTHONPATH:+:$$PYTHONPATH} $(BIN)/python -m scripts.informe $(INFORME_ARGS)

release: $(ENTORNO)
	$(BIN)/python scripts/autores/publicar_comprobaciones.py
	for a in $(ASSIGNMENTS); do $(BIN)/nbgrader generate_assignment $$a --force || exit 1; done

# PYTHONSAFEPATH: a kernel started in a student's folder never runs the student's ipykernel_launcher.py
# (nor imports their numpy.py first); the kernel's folder goes back at the end of sys.path, for the
# lessons' explorables and visible tests (despliegue/hub/jupyter/comun/arranque_kernel.py);
# PYTHONNOUSERSITE: nothing from ~/.local; JUPYTER_CONFIG_PATH: the teacher's tools (ajustes_jupyterlab/profesorado)
lab: $(ENTORNO)
	JUPYTER_CONFIG_PATH=$(CURDIR)/ajustes_jupyterlab/profesorado$${JUPYTER_CONFIG_PATH:+:$$JUPYTER_CONFIG_PATH} \
	PYTHONSAFEPATH=1 PYTHONNOUSERSITE=1 PYTHONSTARTUP=$(CURDIR)/despliegue/hub/jupyter/comun/arranque_kernel.py \
	$(BIN)/jupyter lab

comprobar: $(ENTORNO)
	$(BIN)/python scripts/autores/comprobar.py $(COMPROBAR_ARGS)

leccion: $(ENTORNO)
	@test -n "$(NOMBRE)" -a -n "$(FUNCION)" || { echo "Uso: make leccion NOMBRE=03_algo FUNCION=f [TITULO='Un título']"; exit 2; }
	$(BIN)/python scripts/autores/leccion.py "$(NOMBRE)" "$(FUNCION)" $(if $(TITULO),--titulo "$(TITULO)")

# The hub's environment is built while the tests' one is (pip spends most of its time waiting for the
# disk and the package index: both together take about as long as the longer one); without it the hub
# tests are skipped, and in CI (CURSO_EXIGIR_HUB=1) they fail.
test:
	@$(MAKE) --no-print-directory $(VENV_HUB)/.installed & hub=$$!; \
	$(MAKE) --no-print-directory $(VENV)/.installed-dev; dev=$$?; \
	wait $$hub || echo "AVISO: no se pudo crear $(VENV_HUB) (hace falta $(PYTHON_HUB) con venv y npm): se omitirán las pruebas del hub"; \
	exit $$dev
	$(BIN)/python tests/dos_sesiones.py

hub: $(HUB_LISTO)
	$(BIN_HUB)/python despliegue/hub/prueba.py $(HUB_ARGS)

bench: $(VENV)/.installed-dev
	$(BIN)/python scripts/mediciones/bench_hidden_tests.py
	$(BIN)/python scripts/mediciones/bench_autograde.py
	$(BIN)/python scripts/mediciones/bench_widgets.py
	$(BIN)/python scripts/mediciones/bench_lms.py
	$(BIN)/python scripts/mediciones/bench_evidencia.py
	$(BIN)/python scripts/mediciones/bench_salida.py
	$(BIN)/python scripts/mediciones/bench_formulas.py --sin-presupuesto
	$(BIN)/python scripts/mediciones/bench_arranque.py
	$(BIN)/python scripts/mediciones/bench_fuentes.py
	$(BIN)/python scripts/mediciones/bench_dueno_de_conexion.py
	$(BIN)/python scripts/mediciones/bench_exportar.py

bench-exportar: $(VENV)/.installed-dev
	$(BIN)/python scripts/mediciones/bench_exportar.py

clean:
	rm -rf submitted autograded/*/ feedback veredictos revisiones informe grades.csv gradebook.db .nbgrader.log para_subir
