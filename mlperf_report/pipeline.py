"""`build.py report`: plan the round's notebooks, then execute them with papermill in parallel, cached.

Plan, then run: every check that can fail (tables present, benchmarks known, notebook parameters
matching what we pass, output folder writable) happens before any kernel starts. Each notebook is
re-executed only when a hash of everything it reads (parameters, data tables, prices and
configuration, the notebook, the package modules it imports) differs from the stamp stored beside the
executed notebook, so an unchanged rebuild costs a few file reads. Heavy imports (pandas, papermill)
happen only when a notebook must run, which keeps `--help` and the no-op rebuild instant.

Python API for the next stages: :func:`make_plan` → :func:`run_notebooks` → ``list[NotebookResult]``.
"""

from __future__ import annotations

import argparse
import ast
import csv
import functools
import hashlib
import json
import os
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable

from mlperf_report import paths
from mlperf_report.errors import InputError, UserError

BENCHMARK_NOTEBOOK = paths.NOTEBOOKS / "benchmark.ipynb"
SUMMARY_NOTEBOOK = paths.NOTEBOOKS / "summary.ipynb"
KERNEL = "python3"
#: Bump when the stamp's meaning changes, so old stamps stop matching.
STAMP_VERSION = 1
#: The tables each notebook reads (its cache key covers exactly these).
BENCHMARK_TABLES = ("results.csv", "runs.csv")
SUMMARY_TABLES = ("results.csv",)


@dataclass(frozen=True)
class NotebookJob:
    """One notebook execution: what runs, with which parameters, where it goes, what it reads."""

    name: str
    notebook: Path
    output: Path
    figures: Path
    parameters: dict
    inputs: tuple[Path, ...]

    @property
    def stamp(self) -> Path:
        return self.output.with_suffix(".stamp.json")


@dataclass(frozen=True)
class Plan:
    round_id: str
    jobs: tuple[NotebookJob, ...]
    workers: int
    force: bool = False
    output_dir: Path = paths.OUTPUT
    fresh_kernels: bool = False     # a new kernel per notebook instead of one reset kernel per worker

    @property
    def kernel_log(self) -> Path:
        """Where the kernels' own stderr goes (it would drown the progress display)."""
        return self.output_dir / self.round_id / "notebooks" / "kernels.log"


@dataclass
class NotebookResult:
    name: str
    notebook: Path           # the executed (or partial, when failed) notebook
    figures: Path
    status: str              # ok | cached | failed
    seconds: float = 0.0
    error: str | None = None

    @property
    def ok(self) -> bool:
        return self.status in ("ok", "cached")


# --- plan -----------------------------------------------------------------------------------------

def scored_benchmarks(results_csv: Path) -> list[str]:
    """Benchmarks with at least one scored result (read with csv: no pandas on the planning path)."""
    with results_csv.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        missing = {"benchmark", "status"} - set(reader.fieldnames or ())
        if missing:
            raise InputError(f"{results_csv}: column(s) {', '.join(sorted(missing))} missing; re-run `python build.py ingest`")
        return sorted({row["benchmark"] for row in reader if row["status"] == "ok" and row.get("score_min")})


def make_plan(*, round_id: str | None = None, benchmarks: list[str] | None = None, data_dir: Path = paths.DATA,
              output_dir: Path = paths.OUTPUT, prices_file: Path = paths.PRICES, config_file: Path = paths.REPORT_CONFIG,
              focus_submitter: str | None = None, division: str = "closed", languages: list[str] | None = None,
              jobs: int | None = None, force: bool = False, fresh_kernels: bool = False) -> Plan:
    """Resolve and check everything the notebooks need; raise a UserError naming the fix if anything is off."""
    from mlperf_report.config import DIVISIONS, load_config
    from mlperf_report.prices import load_prices

    config = load_config(config_file).with_overrides(round=round_id, focus_submitter=focus_submitter, languages=languages)
    load_prices(prices_file)  # validated now, not in six kernels at once
    if division not in DIVISIONS:
        raise UserError(f"--division must be one of {list(DIVISIONS)}, got {division!r}")
    data_dir, output_dir = Path(data_dir).resolve(), Path(output_dir).resolve()
    tables = data_dir / config.round
    for name in ("results.csv", "runs.csv"):
        if not (tables / name).is_file():
            raise InputError(f"{tables / name}: not found; run `python build.py ingest <training_results_{config.round.split('-v')[-1]} source>` first")
    available = scored_benchmarks(tables / "results.csv")
    if benchmarks:
        unknown = [b for b in benchmarks if b not in available]
        if unknown:
            raise UserError(f"--benchmarks: {', '.join(unknown)} has no scored result in {config.round}; "
                            f"must be among {', '.join(available) or '(none)'}")
        chosen = list(dict.fromkeys(benchmarks))
    else:
        chosen = available
    if not chosen:
        raise InputError(f"{tables / 'results.csv'}: no scored result in any benchmark; nothing to analyse")
    round_out = output_dir / config.round
    _check_writable(round_out)

    common = {"round_id": config.round, "focus_submitter": config.focus_submitter, "data_dir": str(data_dir),
              "prices_file": str(Path(prices_file).resolve()), "config_file": str(Path(config_file).resolve()),
              "output_dir": str(output_dir), "languages": list(config.languages), "division": division}
    shared_inputs = (Path(prices_file).resolve(), Path(config_file).resolve(), paths.ROOT / "requirements.txt")
    earlier = _earlier_results(data_dir, config.round)
    plan_jobs = [
        NotebookJob(name=benchmark, notebook=BENCHMARK_NOTEBOOK,
                    output=round_out / "notebooks" / f"{benchmark}.ipynb",
                    figures=round_out / "figures" / f"{benchmark}.json",
                    parameters={**common, "benchmark": benchmark,
                                "baseline_system": config.baseline.system_for(benchmark) or ""},
                    inputs=shared_inputs + tuple(tables / n for n in BENCHMARK_TABLES) + earlier)
        for benchmark in chosen
    ]
    plan_jobs.append(NotebookJob(name="summary", notebook=SUMMARY_NOTEBOOK,
                                 output=round_out / "notebooks" / "summary.ipynb",
                                 figures=round_out / "figures" / "summary.json",
                                 parameters=common, inputs=shared_inputs + tuple(tables / n for n in SUMMARY_TABLES)))
    workers = jobs if jobs and jobs > 0 else (os.cpu_count() or 1)
    return Plan(round_id=config.round, jobs=tuple(plan_jobs), workers=workers, force=force, output_dir=output_dir,
                fresh_kernels=fresh_kernels)


def _earlier_results(data_dir: Path, round_id: str) -> tuple[Path, ...]:
    """results.csv of every earlier round present (round-over-round chart and speed-up)."""
    from mlperf_report.rounds import parse_round

    this = parse_round(round_id)
    found = []
    for folder in sorted(data_dir.iterdir()):
        try:
            other = parse_round(folder.name)
        except ValueError:
            continue
        if (other.major, other.minor) < (this.major, this.minor) and (folder / "results.csv").is_file():
            found.append(folder / "results.csv")
    return tuple(found)


def _check_writable(folder: Path) -> None:
    try:
        (folder / "notebooks").mkdir(parents=True, exist_ok=True)
        (folder / "figures").mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise UserError(f"{folder}: cannot create the output folders ({error.strerror}); pass --output-dir") from None
    if not os.access(folder / "notebooks", os.W_OK):
        raise UserError(f"{folder / 'notebooks'}: not writable; pass --output-dir")


def check_parameters(jobs: tuple[NotebookJob, ...] | list[NotebookJob]) -> None:
    """Every parameter we pass must be declared in the notebook's parameters cell, and every declared
    one passed (so a renamed parameter fails here, not as a silent default inside a kernel)."""
    import papermill

    declared_by_notebook: dict[Path, set[str]] = {}
    problems = []
    for job in jobs:
        if job.notebook not in declared_by_notebook:
            if not job.notebook.is_file():
                raise InputError(f"{job.notebook}: notebook not found")
            declared_by_notebook[job.notebook] = set(papermill.inspect_notebook(str(job.notebook)))
        declared = declared_by_notebook[job.notebook]
        passed = set(job.parameters)
        if passed - declared:
            problems.append(f"{job.notebook.name} ({job.name}): unknown parameter(s) {', '.join(sorted(passed - declared))}; "
                            f"add them to its parameters cell or stop passing them in mlperf_report/pipeline.py")
        if declared - passed:
            problems.append(f"{job.notebook.name} ({job.name}): parameter(s) {', '.join(sorted(declared - passed))} not passed; "
                            f"pass them in mlperf_report/pipeline.py or remove them from the parameters cell")
    if problems:
        raise UserError("notebook parameters do not match what build.py passes:\n  " + "\n  ".join(problems))


# --- cache ----------------------------------------------------------------------------------------

def _file_digest(path: Path) -> str:
    return _digest(_file_key(path))


@functools.lru_cache(maxsize=None)
def _digest(key: tuple) -> str:
    """Content hash of a file, read once per build however many notebooks depend on it."""
    if key[1] is None:
        return "missing"
    return hashlib.sha256(Path(key[0]).read_bytes()).hexdigest()


def package_modules(notebook: Path) -> list[Path]:
    """Source files of the ``mlperf_report`` modules a notebook imports, followed transitively."""
    return list(_package_modules(notebook, _file_key(notebook)))


def _file_key(path: Path) -> tuple:
    """What says a file is unchanged within one build (modification time and size)."""
    try:
        st = path.stat()
    except FileNotFoundError:
        return (str(path), None, None)
    return (str(path), st.st_mtime_ns, st.st_size)


@functools.lru_cache(maxsize=None)
def _package_modules(notebook: Path, _key: tuple) -> tuple[Path, ...]:
    nb = json.loads(notebook.read_text(encoding="utf-8"))
    sources = ["".join(c["source"]) if isinstance(c["source"], list) else c["source"]
               for c in nb.get("cells", []) if c.get("cell_type") == "code"]
    package = paths.ROOT / "mlperf_report"
    seen: set[Path] = {package / "__init__.py"}
    todo = [name for source in sources for name in _imported_modules(source)]
    while todo:
        path = package / f"{todo.pop()}.py"
        if path in seen or not path.is_file():
            continue
        seen.add(path)
        todo.extend(_imported_modules(path.read_text(encoding="utf-8")))
    return tuple(sorted(seen))


def _imported_modules(source: str) -> list[str]:
    """Names of mlperf_report modules imported by ``source`` (module level or inside functions)."""
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return []
    names = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "mlperf_report":
            parts = node.module.split(".")
            if len(parts) > 1:
                names.append(parts[1])
            else:
                names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.Import):
            names.extend(a.name.split(".")[1] for a in node.names if a.name.startswith("mlperf_report."))
    return names


def _readable(path: Path) -> str:
    try:
        return str(path.relative_to(paths.ROOT))
    except ValueError:
        return str(path)


def _config_digest(path: Path) -> str:
    """The report configuration minus its ``mail`` section: editing a mailing list must not re-run
    every notebook."""
    import yaml

    try:
        raw = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (OSError, yaml.YAMLError):
        return _file_digest(path)
    if isinstance(raw, dict):
        raw = {k: v for k, v in raw.items() if k != "mail"}
    return hashlib.sha256(json.dumps(raw, sort_keys=True, default=str).encode()).hexdigest()


def input_digests(job: NotebookJob) -> dict[str, str]:
    """A digest of each thing the notebook's result depends on, by readable name."""
    config = Path(job.parameters.get("config_file", "")) if job.parameters.get("config_file") else None
    digests = {"(runner)": f"stamp v{STAMP_VERSION}, Python {sys.version_info[0]}.{sys.version_info[1]}, kernel {KERNEL}",
               "(parameters)": hashlib.sha256(json.dumps(job.parameters, sort_keys=True).encode()).hexdigest()}
    for path in (job.notebook, *job.inputs, *package_modules(job.notebook)):
        digests[_readable(path)] = _config_digest(path) if path == config else _file_digest(path)
    return digests


def input_hash(job: NotebookJob) -> str:
    """One hash of :func:`input_digests`."""
    return _hash_of(input_digests(job))


def _hash_of(digests: dict[str, str]) -> str:
    return hashlib.sha256(json.dumps(digests, sort_keys=True).encode()).hexdigest()


def _stamp(job: NotebookJob) -> dict:
    try:
        return json.loads(job.stamp.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}


def stale_reason(job: NotebookJob, digests: dict[str, str]) -> str | None:
    """None when the executed notebook and its figures exist and were made from exactly these inputs;
    else why the notebook must run ("not built yet", "changed: data/prices.yaml")."""
    stamp = _stamp(job)
    if not (job.output.is_file() and job.figures.is_file() and stamp):
        return "not built yet" if not job.output.is_file() else "no stamp from a finished run"
    if stamp.get("hash") == _hash_of(digests):
        return None
    before = stamp.get("inputs", {})
    changed = sorted(name for name in set(before) | set(digests) if before.get(name) != digests.get(name))
    return "changed: " + ", ".join(changed[:4]) + (f" and {len(changed) - 4} more" if len(changed) > 4 else "")


def _write_stamp(job: NotebookJob, digests: dict[str, str]) -> None:
    from mlperf_report.atomic import write_text

    write_text(job.stamp, json.dumps({"hash": _hash_of(digests), "inputs": digests, "notebook": job.notebook.name,
                                      "parameters": job.parameters}, indent=2, sort_keys=True) + "\n")


# --- run ------------------------------------------------------------------------------------------

def _execute(job: NotebookJob, digests: dict[str, str], events=None, *, fresh_kernel: bool = False,
             kernel_log: Path | None = None) -> NotebookResult:
    """Run one notebook with papermill (in a worker process). The notebook is written beside its final
    name while it runs and renamed into place at the end, finished or failed (a failed one keeps its
    partial output and papermill's banner pointing at the failing cell).

    The worker's kernel is reused, reset, from one notebook to the next (see ``papermill_engine``);
    with ``fresh_kernel`` each notebook gets its own, stopped at once when the last cell has replied
    (nbclient's ``immediate``): every output has arrived by then, and a worker waiting ~0.5 s on a
    kernel's exit is an idle core."""
    import papermill
    from papermill.exceptions import PapermillExecutionError

    from mlperf_report import papermill_engine

    if events is not None:
        events.put((job.name, "running", None))
    started = time.perf_counter()
    partial = job.output.with_name(f".{job.output.stem}.running.ipynb")
    job.stamp.unlink(missing_ok=True)
    kernel = {} if fresh_kernel else {"km": papermill_engine.worker_kernel(KERNEL)}
    error = None
    try:
        papermill.execute_notebook(str(job.notebook), str(partial), parameters=job.parameters, kernel_name=KERNEL,
                                   progress_bar=False, cwd=str(paths.ROOT), engine_name=papermill_engine.NAME,
                                   shutdown_kernel="immediate", **kernel)
    except PapermillExecutionError as exc:
        error = _cell_error(job, exc)
    except Exception as exc:  # kernel died, timeout, bad notebook: still a per-notebook failure
        error = f"notebook {job.notebook.name} ({job.name}) failed before finishing: {type(exc).__name__}: {exc}"
        if kernel_log:
            error += f"\n    kernel log: {kernel_log}"
    finally:
        if partial.exists():
            _tag_injected_parameters(partial)
            os.replace(partial, job.output)
    seconds = time.perf_counter() - started
    if error is None:
        _write_stamp(job, digests)
    return NotebookResult(job.name, job.output, job.figures, "failed" if error else "ok", seconds, error)


def _tag_injected_parameters(path: Path) -> None:
    """Hide the input of papermill's injected-parameters cell in the report, like our own parameters cell."""
    import nbformat

    nb = nbformat.read(path, as_version=4)
    for cell in nb.cells:
        tags = cell.metadata.get("tags", [])
        if "injected-parameters" in tags and "remove-input" not in tags:
            cell.metadata["tags"] = [*tags, "remove-input"]
            nbformat.write(nb, path)
            return


def _cell_error(job: NotebookJob, exc) -> str:
    source = "\n".join("      " + line for line in str(exc.source).strip().splitlines()[:6])
    return (f"notebook {job.notebook.name} ({job.name}) failed in cell {exc.cell_index} (In [{exc.exec_count}]): "
            f"{exc.ename}: {exc.evalue}\n    cell source:\n{source}\n    partial notebook: {job.output}")


def run_notebooks(plan: Plan, *, progress: Callable[[str], None] | None = None) -> list[NotebookResult]:
    """Execute the plan's out-of-date notebooks in parallel; results in plan order.

    One failing notebook does not stop the others. ``progress`` gets one line per state change
    (default: printed to stderr).
    """
    say = _serialized(progress or _print_line)
    results: dict[str, NotebookResult] = {}
    pending = []
    for job in plan.jobs:
        digests = input_digests(job)
        reason = "--force" if plan.force else stale_reason(job, digests)
        if reason is None:
            results[job.name] = NotebookResult(job.name, job.output, job.figures, "cached")
            say(f"  {job.name:<12} up to date")
        else:
            pending.append((job, digests, reason))
    if pending:
        check_parameters([job for job, *_ in pending])
        for job, _, reason in pending:
            say(f"  {job.name:<12} queued ({reason})")
        results.update({r.name: r for r in _run_parallel([(j, d) for j, d, _ in pending], plan, say)})
    return [results[job.name] for job in plan.jobs]


def _print_line(line: str) -> None:
    sys.stderr.write(line + "\n")
    sys.stderr.flush()


def _serialized(say: Callable[[str], None]) -> Callable[[str], None]:
    """Progress lines come from two threads (worker events, finished futures): one line at a time."""
    import threading

    lock = threading.Lock()

    def locked(line: str) -> None:
        with lock:
            say(line)

    return locked


def _run_parallel(pending: list, plan: Plan, say: Callable[[str], None]) -> list[NotebookResult]:
    """A process pool where each worker calls papermill; worker state changes come back on a queue."""
    import multiprocessing
    import threading
    from concurrent.futures import ProcessPoolExecutor, as_completed

    context = multiprocessing.get_context("fork" if sys.platform != "win32" else "spawn")
    events = context.Queue()

    def relay():
        for name, state, _ in iter(events.get, None):
            say(f"  {name:<12} {state}")

    listener = threading.Thread(target=relay, daemon=True)
    listener.start()
    plan.kernel_log.write_bytes(b"")
    out = []
    try:
        pool = ProcessPoolExecutor(max_workers=min(plan.workers, len(pending)), mp_context=context,
                                   initializer=_init_worker, initargs=(events, plan.fresh_kernels, plan.kernel_log))
        try:
            futures = {pool.submit(_execute_in_worker, job, digests): job for job, digests in pending}
            for future in as_completed(futures):
                job = futures[future]
                try:
                    result = future.result()
                except Exception as exc:  # the worker process itself died
                    result = NotebookResult(job.name, job.output, job.figures, "failed",
                                            error=f"notebook {job.notebook.name} ({job.name}): worker died: {exc}")
                out.append(result)
                state = f"done in {result.seconds:.1f} s" if result.ok else "FAILED"
                say(f"  {result.name:<12} {state}")
        except BaseException:  # Ctrl-C: start nothing more (kernels exit with their workers)
            pool.shutdown(wait=False, cancel_futures=True)
            raise
        pool.shutdown()
    finally:
        events.put(None)
        listener.join(timeout=5)
    return out


_WORKER: dict = {}


def _init_worker(events, fresh_kernels: bool, kernel_log: Path) -> None:
    """Per worker: the progress queue, the kernel policy, and stderr (inherited by kernels) to the log."""
    _WORKER.update(events=events, fresh_kernel=fresh_kernels, kernel_log=kernel_log)
    log = os.open(kernel_log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(log, 2)
    os.close(log)


def _execute_in_worker(job: NotebookJob, digests: dict[str, str]) -> NotebookResult:
    return _execute(job, digests, _WORKER["events"], fresh_kernel=_WORKER["fresh_kernel"],
                    kernel_log=_WORKER["kernel_log"])


# --- command line ---------------------------------------------------------------------------------

def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--round", dest="round_id", metavar="ROUND", help="round to report, e.g. training-v1.0 (default: report.yaml's)")
    parser.add_argument("--benchmarks", metavar="LIST", help="comma-separated benchmarks (default: every benchmark with a scored result)")
    parser.add_argument("--jobs", "-j", type=int, metavar="N", help="notebooks run at once (default: CPU count)")
    parser.add_argument("--force", action="store_true", help="re-run every notebook even when its inputs are unchanged")
    parser.add_argument("--fresh-kernels", action="store_true",
                        help="start a new kernel for every notebook (default: one kernel per worker, reset between notebooks)")
    parser.add_argument("--focus", dest="focus_submitter", metavar="SUBMITTER", help="submitter to highlight (default: report.yaml's)")
    parser.add_argument("--division", default="closed", choices=("closed", "open"), help="division of scaling and round-over-round charts")
    parser.add_argument("--languages", metavar="LIST", help="comma-separated chart languages (default: report.yaml's, e.g. en,zh-Hant)")
    parser.add_argument("--data-dir", type=Path, default=paths.DATA, help="folder of the ingest tables (default: data/)")
    parser.add_argument("--output-dir", type=Path, default=paths.OUTPUT, help="folder for everything generated (default: output/)")
    parser.add_argument("--prices", type=Path, default=paths.PRICES, help="price catalogue (default: data/prices.yaml)")
    parser.add_argument("--config", type=Path, default=paths.REPORT_CONFIG, help="report configuration (default: data/report.yaml)")


def plan_from_args(args: argparse.Namespace) -> Plan:
    split = lambda text: [part.strip() for part in text.split(",") if part.strip()] if text else None  # noqa: E731
    return make_plan(round_id=getattr(args, "round_id", None), benchmarks=split(getattr(args, "benchmarks", None)),
                     data_dir=args.data_dir, output_dir=args.output_dir, prices_file=args.prices,
                     config_file=args.config, focus_submitter=getattr(args, "focus_submitter", None),
                     division=getattr(args, "division", "closed"), languages=split(getattr(args, "languages", None)),
                     jobs=getattr(args, "jobs", None), force=getattr(args, "force", False),
                     fresh_kernels=getattr(args, "fresh_kernels", False))


def summarize(results: list[NotebookResult], seconds: float) -> int:
    """Print the outcome; 0 when every notebook is ok or cached, 1 otherwise."""
    failed = [r for r in results if not r.ok]
    ran = sum(r.status == "ok" for r in results)
    cached = sum(r.status == "cached" for r in results)
    print(f"notebooks: {ran} executed, {cached} up to date, {len(failed)} failed ({seconds:.1f} s)", file=sys.stderr)
    for result in failed:
        print(f"error: {result.error}", file=sys.stderr)
    return 1 if failed else 0


def run(args: argparse.Namespace) -> int:
    started = time.perf_counter()
    plan = plan_from_args(args)
    print(f"report {plan.round_id}: {len(plan.jobs)} notebooks, {plan.workers} at a time", file=sys.stderr)
    results = run_notebooks(plan)
    return summarize(results, time.perf_counter() - started)
