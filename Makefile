# Course tasks. Every target creates the virtual environment it needs.
#   make grade   release, autograde the submissions (samples if none; one worker per core,
#                CURSO_TRABAJADORES=K to change it), feedback, grades.csv, table
#   make test    the project's tests (pytest), including the browser tests when Chromium is there
#   make release regenerate release/ from source/ with nbgrader generate_assignment
#   make lab     JupyterLab from the course root (Spanish by default: ajustes_jupyterlab/)
#   make bench   benchmarks (not tests): autograde cost per submission, hidden-test time, widgets,
#                memory of judging forged evidence
#   make hub     the course's JupyterHub on 127.0.0.1 with throwaway accounts (as root; despliegue/)
#   make comprobar  the author's check before committing (scripts/comprobar.py; Spanish, exit 1 on problems)
#   make leccion NOMBRE=03_algo FUNCION=f   a new lesson with its graded exercise (scripts/leccion.py)
#   make informe the class report after grading (informe/informe.html and CSVs; scripts/informe/)

PYTHON ?= python3
VENV   := .venv
BIN    := $(CURDIR)/$(VENV)/bin
export PATH := $(BIN):$(PATH)

ASSIGNMENTS := $(notdir $(patsubst %/,%,$(dir $(wildcard source/*/*.ipynb))))

# The hub's environment (despliegue/README.md): a Python every account can run, the
# course's requirements, JupyterHub, and the proxy from npm.
PYTHON_HUB ?= /usr/bin/python3
VENV_HUB   := .venv-hub

.PHONY: grade test release lab bench clean venv hub comprobar leccion informe

$(VENV)/.installed: requirements.txt pyproject.toml $(wildcard ajustes_jupyterlab/*.toml ajustes_jupyterlab/*/*.json)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -e .
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed requirements-dev.txt despliegue/requirements-hub.txt despliegue/requirements-calificador.txt
	$(BIN)/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt
	touch $@

$(VENV_HUB)/.installed: requirements.txt despliegue/requirements-hub.txt despliegue/hub/proxy/package-lock.json
	test -x $(VENV_HUB)/bin/python || $(PYTHON_HUB) -m venv $(VENV_HUB)
	$(VENV_HUB)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements.txt -r despliegue/requirements-hub.txt
	mkdir -p $(VENV_HUB)/proxy && cp despliegue/hub/proxy/package.json despliegue/hub/proxy/package-lock.json $(VENV_HUB)/proxy/
	cd $(VENV_HUB)/proxy && npm ci --no-fund --no-audit --loglevel=error
	touch $@

venv: $(VENV)/.installed

grade: $(VENV)/.installed
	$(BIN)/python scripts/grade.py

informe: $(VENV)/.installed
	$(BIN)/python -m scripts.informe $(INFORME_ARGS)

release: $(VENV)/.installed
	for a in $(ASSIGNMENTS); do $(BIN)/nbgrader generate_assignment $$a --force || exit 1; done

# PYTHONSAFEPATH: a kernel started in a student's folder never runs the student's ipykernel_launcher.py
# (nor imports their numpy.py first); the kernel's folder goes back at the end of sys.path, for the
# lessons' explorables (despliegue/hub/jupyter/comun/arranque_kernel.py); PYTHONNOUSERSITE: nothing from ~/.local
lab: $(VENV)/.installed
	PYTHONSAFEPATH=1 PYTHONNOUSERSITE=1 PYTHONSTARTUP=$(CURDIR)/despliegue/hub/jupyter/comun/arranque_kernel.py $(BIN)/jupyter lab

comprobar: $(VENV)/.installed
	$(BIN)/python scripts/comprobar.py $(COMPROBAR_ARGS)

leccion: $(VENV)/.installed
	@test -n "$(NOMBRE)" -a -n "$(FUNCION)" || { echo "Uso: make leccion NOMBRE=03_algo FUNCION=f [TITULO='Un título']"; exit 2; }
	$(BIN)/python scripts/leccion.py "$(NOMBRE)" "$(FUNCION)" $(if $(TITULO),--titulo "$(TITULO)")

test: $(VENV)/.installed-dev
	@$(MAKE) --no-print-directory $(VENV_HUB)/.installed || \
		echo "AVISO: no se pudo crear $(VENV_HUB) (hace falta $(PYTHON_HUB) con venv y npm): se omitirán las pruebas del hub"
	$(BIN)/python -m pytest

hub: $(VENV_HUB)/.installed
	$(VENV_HUB)/bin/python despliegue/hub/prueba.py $(HUB_ARGS)

bench: $(VENV)/.installed-dev
	$(BIN)/python scripts/bench_hidden_tests.py
	$(BIN)/python scripts/bench_autograde.py
	$(BIN)/python scripts/bench_widgets.py
	$(BIN)/python scripts/bench_lms.py
	$(BIN)/python scripts/bench_evidencia.py
	$(BIN)/python scripts/bench_salida.py

clean:
	rm -rf submitted autograded/*/ feedback veredictos informe grades.csv gradebook.db .nbgrader.log para_subir
