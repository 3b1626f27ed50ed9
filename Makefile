# The two commands: `make report` and `make test`. Both set up .venv first when it is missing.
PYTHON ?= python3.11
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
UV     := .cache/bootstrap/uv-$(shell sed -n 's/^uv==\([0-9.]*\).*/\1/p' requirements-bootstrap.txt)/bin/uv

.DEFAULT_GOAL := help
.PHONY: help venv lock report test bench fuzz mutate data system-deps picture clean

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'
	@echo "reference: README.md (start here), docs/REPORTS.md, docs/INGEST.md, docs/CONFIGURATION.md,"
	@echo "  docs/MAIL.md, docs/ROUND_DAY.md, docs/DEVELOPMENT.md; python build.py --help for the commands"

venv: $(STAMP)  ## create .venv from requirements.lock (uv, else pip; pinned and hash-checked)

$(STAMP): requirements.lock requirements-bootstrap.txt .ci/venv
	@.ci/venv $(PYTHON) $(VENV)
	$(PY) -m ipykernel install --sys-prefix --name python3 >/dev/null
	$(PY) -m mlperf_report.i18n.fonts
	$(PY) -m compileall -q mlperf_report  # bytecode, as pip writes for the packages (even under PYTHONDONTWRITEBYTECODE)
	$(PY) -m mlperf_report.assemble.compile_templates  # the templates compiled, likewise (.cache/jinja)
	@touch $(STAMP)

lock: venv  ## re-resolve requirements.txt into requirements.lock (every package pinned, with hashes), then make venv
	@test -x $(UV) || { echo "make lock needs uv ($(UV)), which make venv could not install" >&2; exit 1; }
	$(UV) pip compile requirements.txt --generate-hashes --python-version 3.11 --quiet \
	  --custom-compile-command "make lock" -o requirements.lock
	@$(MAKE) --no-print-directory venv

system-deps:  ## install the Debian packages the tests use (chromium, poppler-utils) when missing
	@bash .ci/system-deps

report: venv  ## build the default report (MLPerf Training v1.0 from data/) into output/
	$(PY) build.py

# Two pytest processes, each test file whole in one of them (its module fixtures, such as a real
# round's ingest, run once): the builds under test leave one of the two cores idle much of the time.
TEST_WORKERS ?= 2
test: venv system-deps  ## run the test suite (TEST_WORKERS=1: in this process, one test at a time)
	$(PY) -m pytest -q $(if $(filter 1,$(TEST_WORKERS)),,-n $(TEST_WORKERS) --dist loadfile)

picture: report system-deps  ## re-make the README's picture of the report (docs/report-highlights.png, docs/report-chart.png)
	$(PY) tools/readme_picture.py output/training-v1.0/report.en.pdf docs

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
