# The two commands: `make report` and `make test`. Both set up .venv first when it is missing.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed

.DEFAULT_GOAL := help
.PHONY: help venv report test bench fuzz mutate data system-deps clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

venv: $(STAMP)  ## create .venv with the pinned dependencies (stdlib venv + pip)

$(STAMP): requirements.txt
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --disable-pip-version-check -r requirements.txt
	$(PY) -m ipykernel install --sys-prefix --name python3 >/dev/null
	$(PY) -m mlperf_report.i18n.fonts
	$(PY) -m compileall -q mlperf_report  # bytecode, as pip writes for the packages (even under PYTHONDONTWRITEBYTECODE)
	$(PY) -m mlperf_report.assemble.compile_templates  # the templates compiled, likewise (.cache/jinja)
	@touch $(STAMP)

system-deps:  ## install the Debian packages the tests use (chromium, poppler-utils) when missing
	@bash .ci/system-deps

report: venv  ## build the default report (MLPerf Training v1.0 from data/) into output/
	$(PY) build.py

# Two pytest processes, each test file whole in one of them (its module fixtures, such as a real
# round's ingest, run once): the builds under test leave one of the two cores idle much of the time.
TEST_WORKERS ?= 2
test: venv system-deps  ## run the test suite (TEST_WORKERS=1: in this process, one test at a time)
	$(PY) -m pytest -q $(if $(filter 1,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadfile)

bench: venv  ## print the speed figures recorded in docs/PERFORMANCE.md (needs ../shared/mlperf)
	$(PY) bench/ingest_speed.py
	$(PY) bench/compliance_speed.py
	$(PY) bench/inference_ingest_speed.py
	$(PY) bench/notebooks_speed.py
	$(PY) bench/report_speed.py
	$(PY) bench/build_speed.py
	$(PY) bench/inference_build.py
	$(PY) bench/hostile_inputs.py

fuzz: venv  ## property-based fuzzing of the input readers, 100,000+ inputs (figures in docs/FUZZING.md)
	$(PY) bench/fuzz.py

MUTATE := .venv-mutate
mutate: venv $(MUTATE)/.installed  ## mutation testing (cosmic-ray) of scoring, compliance, power, Inference rules, send log (1-2 h; not in `make test`)
	$(PY) mutation/run.py --cosmic-ray $(MUTATE)/bin $(MODULES)

$(MUTATE)/.installed: requirements-mutate.txt
	@test -x $(MUTATE)/bin/python || $(PYTHON) -m venv $(MUTATE)
	$(MUTATE)/bin/pip install --quiet --disable-pip-version-check -r requirements-mutate.txt
	@touch $@

data: venv  ## re-create the embedded data/<round>/ tables from ../shared/mlperf with our own ingest
	for v in 0.7 1.0 1.1 4.1; do $(PY) build.py ingest ../shared/mlperf/training_results_v$$v.zip \
	  --absent ../shared/mlperf/ABSENT.txt --quiet || exit 1; done
	$(PY) build.py ingest ../shared/mlperf/inference_results_v4.1.zip --quiet

clean:  ## remove generated output (keeps .venv)
	rm -rf output
